// Every example against every engine of every model: the verdict must match
// the "# expect sc=... tso=... pso=..." header of the file. Engines join this
// test as soon as they are registered for a model.

#include "support/brute_force_engine.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/reach/engine.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>

namespace tsoreach {
namespace {

const std::filesystem::path kExamples = TSOREACH_SOURCE_DIR "/examples";

std::map<reach::MemoryModel, reach::Verdict> expectations(const std::filesystem::path& file) {
    return test::expectedVerdicts(file);
}

TEST(Examples, EveryExampleHasAHeaderAndEnoughExist) {
    auto files = test::filesUnder(kExamples, ".txt");
    EXPECT_GE(files.size(), 15U);
    for (const auto& f : files) {
        auto e = expectations(f);
        EXPECT_EQ(e.size(), 3U)
            << f << ": first line must be '# expect sc=... tso=... pso=... robust=...'";
        EXPECT_TRUE(test::expectedRobust(f).has_value()) << f << ": robust=yes|no missing";
        if (e.size() == 3) {
            // Reach_SC is a subset of Reach_TSO, which is a subset of Reach_PSO.
            using reach::MemoryModel;
            using reach::Verdict;
            if (e[MemoryModel::SC] == Verdict::Reachable) {
                EXPECT_EQ(e[MemoryModel::TSO], Verdict::Reachable) << f;
            }
            if (e[MemoryModel::TSO] == Verdict::Reachable) {
                EXPECT_EQ(e[MemoryModel::PSO], Verdict::Reachable) << f;
            }
        }
    }
}

// The standard catalog plus the brute force of tests/support: an engine
// added as one catalog row runs on every example (docs/architecture.md).
const engines::Catalog kCatalog = test::catalogWithBruteForce();

struct Case {
    std::filesystem::path file;
    reach::MemoryModel model;
    std::string engine;
    reach::SearchOrder search;
};

// Keeps test names short in ctest listings.
void PrintTo(const Case& c, std::ostream* os) {
    *os << c.file.filename().string();
}

std::vector<Case> allCases() {
    std::vector<Case> out;
    for (const auto& f : test::filesUnder(kExamples, ".txt")) {
        for (auto m : {reach::MemoryModel::SC, reach::MemoryModel::TSO, reach::MemoryModel::PSO}) {
            for (const engines::EngineEntry* e : kCatalog.enginesFor(engines::Task::Reach, m)) {
                for (auto s : {reach::SearchOrder::Dfs, reach::SearchOrder::Bfs}) {
                    out.push_back({f, m, std::string(e->name), s});
                }
            }
        }
    }
    return out;
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
    std::string n = info.param.file.stem().string() + "_" +
                    std::string(reach::name(info.param.model)) + "_" + info.param.engine + "_" +
                    std::string(reach::name(info.param.search));
    for (char& c : n) {
        if (!std::isalnum(static_cast<unsigned char>(c))) {
            c = '_';
        }
    }
    return n;
}

class ExampleVerdict : public ::testing::TestWithParam<Case> {};

TEST_P(ExampleVerdict, MatchesHeader) {
    const Case& c = GetParam();
    auto expected = expectations(c.file);
    ASSERT_EQ(expected.size(), 3U) << "missing header";
    Program p = parseProgramFile(c.file.string());
    std::optional<Goal> goal = defaultGoal(p);
    ASSERT_TRUE(goal.has_value()) << "examples must declare a goal";
    const engines::EngineEntry& entry = kCatalog.find(engines::Task::Reach, c.engine, c.model);
    if (std::optional<std::string> why = entry.unsupportedFor(p, c.model)) {
        GTEST_SKIP() << *why;
    }
    auto engine = entry.makeReach(c.model);
    reach::Options o;
    o.search = c.search;
    o.stop.setTimeout(120); // examples are small; a hang must not stall CI
    reach::Result r = reach::runChecked(*engine, p, *goal, o);
    EXPECT_EQ(r.verdict, expected[c.model]) << c.file << " under " << reach::name(c.model) << ": "
                                            << reach::name(r.verdict) << " " << r.reason;
}

INSTANTIATE_TEST_SUITE_P(All, ExampleVerdict, ::testing::ValuesIn(allCases()), caseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ExampleVerdict);

} // namespace
} // namespace tsoreach
