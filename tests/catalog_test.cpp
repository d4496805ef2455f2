// The catalog of engines (engines/catalog.hpp): every engine folder has a
// row, defaults and refusals come from the rows, and an engine added as one
// row runs through the whole command line without a change to cli/.

#include "support/brute_force_engine.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace tsoreach {
namespace {

using engines::Task;
using reach::MemoryModel;

bool hasRow(const engines::Catalog& c, std::string_view name) {
    for (const engines::EngineEntry& e : c.entries()) {
        if (e.name == name) {
            return true;
        }
    }
    return false;
}

// Engine folders: reach/<engine>/ beside reach/core, and lazy/.
TEST(Catalog, EveryEngineFolderHasARow) {
    const engines::Catalog catalog = engines::standardCatalog();
    const std::filesystem::path reach = std::filesystem::path(TSOREACH_SOURCE_DIR) / "reach";
    std::size_t folders = 0;
    for (const auto& d : std::filesystem::directory_iterator(reach)) {
        if (d.is_directory() && d.path().filename() != "core") {
            ++folders;
            EXPECT_TRUE(hasRow(catalog, d.path().filename().string()))
                << d.path() << " holds an engine that the catalog does not list";
        }
    }
    EXPECT_GE(folders, 3U);
    EXPECT_TRUE(hasRow(catalog, "lazy"));
}

TEST(Catalog, EveryRowCanDoWhatItClaims) {
    for (const engines::EngineEntry& e : engines::standardEngines()) {
        EXPECT_EQ(!e.reachModels.empty(), static_cast<bool>(e.makeReach)) << e.name;
        EXPECT_EQ(!e.exploreModels.empty() || !e.outcomeModels.empty(),
                  static_cast<bool>(e.explore))
            << e.name;
        EXPECT_EQ(!e.robustnessModels.empty(), static_cast<bool>(e.checkRobustness)) << e.name;
    }
}

// A row that says it ignores the explicit search's options must: the
// differential test runs such rows with one configuration only.
TEST(Catalog, RowsThatIgnoreSearchOptionsDo) {
    reach::Options varied;
    varied.search = reach::SearchOrder::Bfs;
    varied.partialOrder = false;
    varied.liveRegisters = false;
    varied.mergeStores = false;
    varied.bufferBound = 1;
    std::size_t checked = 0;
    for (const engines::EngineEntry& e : engines::standardEngines()) {
        for (MemoryModel m : e.reachModels) {
            for (const char* name : {"sb.txt", "iriw.txt", "lock-increment.txt"}) {
                const Program p =
                    parseProgramFile(std::string(TSOREACH_SOURCE_DIR "/examples/") + name);
                if (e.readsSearchOptions || e.unsupportedFor(p, m)) {
                    continue;
                }
                const Goal g = *defaultGoal(p);
                const reach::Result a = e.makeReach(m)->run(p, g, {});
                const reach::Result b = e.makeReach(m)->run(p, g, varied);
                EXPECT_EQ(a.verdict, b.verdict) << e.name << " " << name;
                EXPECT_EQ(a.stats.states, b.stats.states) << e.name << " " << name;
                ++checked;
            }
        }
    }
    EXPECT_GE(checked, 9U);
}

TEST(Catalog, DefaultsAreTheFirstRows) {
    const engines::Catalog c = engines::standardCatalog();
    EXPECT_EQ(c.find(Task::Reach, "", MemoryModel::SC).name, "explicit");
    EXPECT_EQ(c.find(Task::Reach, "", MemoryModel::TSO).name, "lazy");
    EXPECT_EQ(c.find(Task::Explore, "", MemoryModel::PSO).name, "dpor");
    EXPECT_EQ(c.find(Task::Outcomes, "", MemoryModel::TSO).name, "explicit");
    EXPECT_THROW((void)c.find(Task::Outcomes, "rf", MemoryModel::SC), reach::EngineUnavailable);
    EXPECT_EQ(c.find(Task::Robustness, "", MemoryModel::TSO).name, "attacks");
    EXPECT_EQ(c.find(Task::Robustness, "", MemoryModel::PSO).name, "dpor");
    EXPECT_THROW((void)c.find(Task::Robustness, "", MemoryModel::SC), reach::EngineUnavailable);
    EXPECT_THROW((void)c.find(Task::Explore, "lazy", MemoryModel::TSO), reach::EngineUnavailable);
    EXPECT_THROW((void)c.find(Task::Reach, "lazy", MemoryModel::PSO), reach::EngineUnavailable);
}

struct ToyRun {
    int code = -1;
    std::string out;
};

ToyRun runToy(const std::string& args) {
    const std::string cmd = std::string(TSOREACH_TOY_BINARY) + " " + args + " 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
    ToyRun r;
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = fread(buf.data(), 1, buf.size(), pipe.get())) > 0) {
        r.out.append(buf.data(), n);
    }
    const int status = pclose(pipe.release());
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// The brute force is one catalog row in a test build (toy_cli_main.cpp):
// the unchanged command line offers it, runs it and checks its traces.
TEST(Catalog, AnEngineAddedAsARowRunsThroughTheCommandLine) {
    const std::string sb = std::string(TSOREACH_SOURCE_DIR) + "/examples/sb.txt";
    const ToyRun tso = runToy("reach " + sb + " --model tso --engine brute-force --json");
    EXPECT_EQ(tso.code, 10) << tso.out;
    EXPECT_NE(tso.out.find("\"reachable\""), std::string::npos) << tso.out;
    EXPECT_NE(tso.out.find("\"brute-force\""), std::string::npos) << tso.out;
    const ToyRun sc = runToy("reach " + sb + " --model sc --engine brute-force --json");
    EXPECT_EQ(sc.code, 0) << sc.out;
    EXPECT_NE(sc.out.find("\"unreachable\""), std::string::npos) << sc.out;
    const ToyRun help = runToy("reach --help");
    EXPECT_NE(help.out.find("brute-force"), std::string::npos) << help.out;
    // The standard executable does not have it.
    const std::string plain =
        std::string(TSOREACH_BINARY) + " reach " + sb + " --engine brute-force > /dev/null 2>&1";
    const int status = std::system(plain.c_str());
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2);
}

} // namespace
} // namespace tsoreach
