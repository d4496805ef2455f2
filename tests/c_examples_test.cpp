// Every C example (examples/c/*.c) against every reach engine of every
// model: the verdict must match the "// expect sc=... tso=... pso=..." line
// at the top of the file, derived by hand in its comments (docs/c.md).

#include "support/brute_force_engine.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/reach/engine.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>

namespace tsoreach {
namespace {

const std::filesystem::path kCExamples = TSOREACH_SOURCE_DIR "/examples/c";

std::map<reach::MemoryModel, reach::Verdict> expected(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string first;
    std::getline(in, first);
    static const std::regex header(
        R"(^// expect sc=(reachable|unreachable) )"
        R"(tso=(reachable|unreachable) pso=(reachable|unreachable)\s*$)");
    std::smatch m;
    std::map<reach::MemoryModel, reach::Verdict> out;
    if (std::regex_match(first, m, header)) {
        const reach::MemoryModel models[] = {reach::MemoryModel::SC, reach::MemoryModel::TSO,
                                             reach::MemoryModel::PSO};
        for (std::size_t i = 0; i < 3; ++i) {
            out[models[i]] =
                m[i + 1] == "reachable" ? reach::Verdict::Reachable : reach::Verdict::Unreachable;
        }
    }
    return out;
}

TEST(CExamples, EveryExampleHasAHeaderAndEnoughExist) {
    const auto files = test::filesUnder(kCExamples, ".c");
    EXPECT_GE(files.size(), 15U);
    for (const auto& f : files) {
        auto e = expected(f);
        ASSERT_EQ(e.size(), 3U) << f << ": first line must be '// expect sc=... tso=... pso=...'";
        using reach::MemoryModel;
        using reach::Verdict;
        if (e[MemoryModel::SC] == Verdict::Reachable) { // SC within TSO within PSO
            EXPECT_EQ(e[MemoryModel::TSO], Verdict::Reachable) << f;
        }
        if (e[MemoryModel::TSO] == Verdict::Reachable) {
            EXPECT_EQ(e[MemoryModel::PSO], Verdict::Reachable) << f;
        }
    }
}

const engines::Catalog kCatalog = test::catalogWithBruteForce();

struct Case {
    std::filesystem::path file;
    reach::MemoryModel model;
    std::string engine;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.file.filename().string();
}

std::vector<Case> allCases() {
    std::vector<Case> out;
    for (const auto& f : test::filesUnder(kCExamples, ".c")) {
        for (auto m : {reach::MemoryModel::SC, reach::MemoryModel::TSO, reach::MemoryModel::PSO}) {
            for (const engines::EngineEntry* e : kCatalog.enginesFor(engines::Task::Reach, m)) {
                out.push_back({f, m, std::string(e->name)});
            }
        }
    }
    return out;
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
    std::string n = info.param.file.stem().string() + "_" +
                    std::string(reach::name(info.param.model)) + "_" + info.param.engine;
    for (char& c : n) {
        if (!std::isalnum(static_cast<unsigned char>(c))) {
            c = '_';
        }
    }
    return n;
}

class CExampleVerdict : public ::testing::TestWithParam<Case> {};

TEST_P(CExampleVerdict, MatchesHeader) {
    const Case& c = GetParam();
    const auto want = expected(c.file);
    ASSERT_EQ(want.size(), 3U) << "missing header";
    const LoadedProgram loaded = loadProgramFile(c.file.string(), kAutoInputFormat);
    ASSERT_TRUE(loaded.goal.has_value());
    const engines::EngineEntry& entry = kCatalog.find(engines::Task::Reach, c.engine, c.model);
    if (std::optional<std::string> why = entry.unsupportedFor(loaded.program, c.model)) {
        GTEST_SKIP() << *why;
    }
    auto engine = entry.makeReach(c.model);
    reach::Options o;
    o.stop.setTimeout(120); // examples are small; a hang must not stall CI
    const reach::Result r = reach::runChecked(*engine, loaded.program, *loaded.goal, o);
    if (r.verdict == reach::Verdict::Unknown && r.reason.find("acyclic") != std::string::npos) {
        GTEST_SKIP() << r.reason; // spin loops: the stateless engines need --unroll
    }
    EXPECT_EQ(r.verdict, want.at(c.model)) << c.file << " under " << reach::name(c.model) << ": "
                                           << reach::name(r.verdict) << " " << r.reason;
}

INSTANTIATE_TEST_SUITE_P(All, CExampleVerdict, ::testing::ValuesIn(allCases()), caseName);

} // namespace
} // namespace tsoreach
