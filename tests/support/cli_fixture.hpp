#pragma once
// The fixture of the tests that run the tsoreach executable: a scratch
// folder per test, files written into it, and runs with their exit code,
// standard output and standard error.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace tsoreach::test {

struct CliOutcome {
    int code = -1;
    std::string out;
    std::string err;
};

class CliFixture : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = std::filesystem::temp_directory_path() /
              ("tsoreach-cli-test-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir);
    }
    void TearDown() override { std::filesystem::remove_all(dir); }

    // Writes `text` to the file `name` of the scratch folder; its path.
    std::string write(const std::string& name, const std::string& text) {
        const std::filesystem::path p = dir / name;
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }

    static std::string slurp(const std::filesystem::path& p) {
        std::ifstream in(p, std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }

    // Runs `tsoreach ARGS` through the shell (so ARGS may redirect), with
    // `env` (e.g. "PATH=/nonexistent") before it: the binary is named by its
    // full path, so PATH may change.
    CliOutcome run(const std::string& args, const std::string& env = "") {
        const std::string cmd = env + " '" + TSOREACH_BINARY + "' " + args + " >'" +
                                (dir / "stdout").string() + "' 2>'" + (dir / "stderr").string() +
                                "'";
        const int status = std::system(cmd.c_str());
        CliOutcome r;
        r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r.out = slurp(dir / "stdout");
        r.err = slurp(dir / "stderr");
        return r;
    }

    std::filesystem::path dir;
};

} // namespace tsoreach::test
