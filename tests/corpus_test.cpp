// The corpus regression suite: every program of tests/corpus (Trencher's and
// Memorax's) carries a first line
//   # corpus sc=V tso=V pso=V robust-tso=R time=fast|slow      (.txt)
//   /* corpus ... */                                           (.rmm)
// with the verdicts two engines agreed on (bench/corpus.py --establish; see
// bench/RESULTS.md, "Corpus"). Here both engines of each question run again
// through the tsoreach binary on the fast programs and must give that answer;
// `make bench` runs the slow ones.

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sys/wait.h>

namespace tsoreach {
namespace {

struct Case {
    std::filesystem::path file;
    std::string question; // sc, tso, pso or robust-tso
    std::string expected; // reachable, unreachable, yes (robust) or no
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.file.filename().string() << " " << c.question << "=" << c.expected;
}

std::vector<Case> allCases() {
    std::vector<Case> out;
    const std::filesystem::path dir =
        std::filesystem::path(TSOREACH_SOURCE_DIR) / "tests" / "corpus";
    static const std::regex header(
        R"(^(?:#|/\*) corpus sc=(\S+) tso=(\S+) pso=(\S+) robust-tso=(\S+) time=(fast|slow))");
    for (const char* ext : {".txt", ".rmm"}) {
        for (const auto& f : test::filesUnder(dir, ext)) {
            std::ifstream in(f);
            std::string first;
            std::getline(in, first);
            std::smatch m;
            if (!std::regex_search(first, m, header)) {
                out.push_back({f, "header", ""}); // fails: every corpus file needs one
                continue;
            }
            if (m[5] != "fast") { // slow ones run in make bench (bench/corpus.sh)
                continue;
            }
            const char* questions[] = {"sc", "tso", "pso", "robust-tso"};
            for (std::size_t i = 0; i < 4; ++i) {
                const std::string v = m[i + 1];
                if (v == "reachable" || v == "unreachable" || v == "yes" || v == "no") {
                    out.push_back({f, questions[i], v});
                }
            }
        }
    }
    return out;
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
    std::string n = info.param.file.parent_path().filename().string() + "_" +
                    info.param.file.filename().string() + "_" + info.param.question;
    for (char& c : n) {
        if (!std::isalnum(static_cast<unsigned char>(c))) {
            c = '_';
        }
    }
    return n;
}

int exitCode(const std::string& args) {
    const std::string cmd = std::string(TSOREACH_BINARY) + " " + args + " >/dev/null 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class Corpus : public ::testing::TestWithParam<Case> {};

TEST_P(Corpus, BothEnginesGiveTheRecordedVerdict) {
    const Case& c = GetParam();
    ASSERT_NE(c.question, "header") << c.file << ": first line must be a 'corpus' header";
    const std::string file = "'" + c.file.string() + "'";
    const std::string limits = " --timeout 60 --max-memory 3000";
    std::vector<std::string> runs;
    const int want = c.expected == "unreachable" || c.expected == "yes" ? 0 : 10;
    if (c.question == "robust-tso") {
        EXPECT_EQ(exitCode("robust " + file + " --model tso" + limits), want);
        // dpor with --unroll decides only non-robustness of a cyclic program,
        // and refuses locks: it must never contradict.
        const int dpor =
            exitCode("robust " + file + " --model tso --engine dpor --unroll 2" + limits);
        EXPECT_TRUE(dpor == want || dpor == 3 || dpor == 2) << "dpor: exit " << dpor;
        return;
    }
    const std::string base = "reach " + file + " --model " + c.question;
    EXPECT_EQ(exitCode(base + " --engine explicit" + limits), want) << "explicit";
    const std::string second =
        c.question == "tso" ? base + " --engine lazy" : base + " --por off --live off";
    EXPECT_EQ(exitCode(second + limits), want) << second;
}

INSTANTIATE_TEST_SUITE_P(All, Corpus, ::testing::ValuesIn(allCases()), caseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Corpus);

} // namespace
} // namespace tsoreach
