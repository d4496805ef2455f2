// Every input saved in tests/fuzz_regressions/<target>/ goes through the check
// of its fuzz target (fuzz/properties.hpp, fuzz/differential.hpp): these
// inputs once crashed one or broke a promise. The seeds of the trace targets
// are checked too.

#include "differential.hpp"
#include "litmus_properties.hpp"
#include "properties.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tsoreach {
namespace {

const std::filesystem::path kRegressions = TSOREACH_SOURCE_DIR "/tests/fuzz_regressions";
const std::filesystem::path kSeeds = TSOREACH_SOURCE_DIR "/fuzz/seeds";

std::string slurp(const std::filesystem::path& f) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// The files of a regression folder (none yet is fine).
std::vector<std::filesystem::path> inputs(const std::string& target) {
    std::vector<std::filesystem::path> out;
    const std::filesystem::path dir = kRegressions / target;
    if (std::filesystem::is_directory(dir)) {
        for (const auto& e : std::filesystem::directory_iterator(dir)) {
            if (e.is_regular_file()) {
                out.push_back(e.path());
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

template <class Check> void runAll(const std::string& target, Check check) {
    for (const auto& f : inputs(target)) {
        SCOPED_TRACE(f.string());
        EXPECT_NO_THROW(check(slurp(f)));
    }
}

TEST(FuzzRegressions, Parser) {
    runAll("parser", fuzz::checkParser);
}
TEST(FuzzRegressions, Rmm) {
    runAll("rmm", fuzz::checkRmm);
}
TEST(FuzzRegressions, Litmus) {
    runAll("litmus", fuzz::checkLitmus);
}
// The seeds of the program targets (fuzz/make-seeds.sh): the examples and
// the corpus pass the same checks.
TEST(FuzzRegressions, ExamplesAndCorpusPassTheProgramChecks) {
    std::vector<std::filesystem::path> txt =
        test::filesUnder(TSOREACH_SOURCE_DIR "/examples", ".txt");
    for (const auto& f : test::filesUnder(TSOREACH_CORPUS_DIR, ".txt")) {
        txt.push_back(f);
    }
    ASSERT_GT(txt.size(), 40U);
    for (const auto& f : txt) {
        SCOPED_TRACE(f.string());
        EXPECT_NO_THROW(fuzz::checkParser(slurp(f)));
    }
    for (const auto& f : test::filesUnder(TSOREACH_CORPUS_DIR, ".rmm")) {
        SCOPED_TRACE(f.string());
        EXPECT_NO_THROW(fuzz::checkRmm(slurp(f)));
    }
    for (const auto& f : test::filesUnder(TSOREACH_SOURCE_DIR "/examples/litmus", ".litmus")) {
        SCOPED_TRACE(f.string());
        EXPECT_NO_THROW(fuzz::checkLitmus(slurp(f)));
    }
}

TEST(FuzzRegressions, TraceJson) {
    runAll("trace_json", fuzz::checkTraceJson);
}
TEST(FuzzRegressions, Replay) {
    runAll("replay", fuzz::checkReplay);
}

// differential/NAME.MODEL.txt: a program (goal: its "# goal" lines, else its
// finals) on which two engines once disagreed under MODEL. Generous limits:
// what the fuzzer stops after a second may take longer under the sanitizers.
TEST(FuzzRegressions, Differential) {
    fuzz::DifferentialLimits limits;
    limits.bruteStates = 200000;
    limits.engineStates = 0;
    limits.seconds = 120;
    limits.runSeconds = 60;
    for (const auto& f : inputs("differential")) {
        SCOPED_TRACE(f.string());
        const std::string stem = f.stem().string(); // NAME.MODEL
        const auto model = reach::memoryModelFromName(stem.substr(stem.rfind('.') + 1));
        ASSERT_TRUE(model.has_value()) << "name it NAME.sc.txt, NAME.tso.txt or NAME.pso.txt";
        EXPECT_NO_THROW(fuzz::checkDifferential(slurp(f), *model, limits));
    }
}

// The trace seeds are traces of the fixed program that replay under their
// own model, so the fuzzers start from inputs that get past the reader.
TEST(FuzzSeeds, TraceJsonSeedsReplay) {
    const Program& p = fuzz::fixedProgram();
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(kSeeds / "trace_json")) {
        SCOPED_TRACE(e.path().string());
        const std::string text = slurp(e.path());
        EXPECT_NO_THROW(fuzz::checkTraceJson(text));
        cli::LoadedTrace t = cli::parseTraceJson(p, text, e.path().string());
        ASSERT_TRUE(t.model.has_value());
        t.trace.model = *t.model;
        // The seeds were found with --goal options; the goal of this check
        // is the state the trace ends in, so only legality is checked here.
        const reach::ReplayOutcome out =
            reach::replayTrace(p, Goal(p), t.trace, reach::Recorded::IfGiven);
        EXPECT_TRUE(out.ok) << out.error;
        ++n;
    }
    EXPECT_GE(n, 5);
}

TEST(FuzzSeeds, ReplaySeedsReplay) {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(kSeeds / "replay")) {
        SCOPED_TRACE(e.path().string());
        std::string name = e.path().stem().string(); // NAME.MODEL
        name = name.substr(0, name.rfind('.'));
        const Program p = parseProgramFile(TSOREACH_SOURCE_DIR "/examples/" + name + ".txt");
        cli::LoadedTrace t = cli::parseTraceJson(p, slurp(e.path()), e.path().string());
        ASSERT_TRUE(t.model.has_value());
        t.trace.model = *t.model;
        const reach::ReplayOutcome out =
            reach::replayTrace(p, *defaultGoal(p), t.trace, reach::Recorded::IfGiven);
        EXPECT_TRUE(out.ok) << out.error;
        ++n;
    }
    EXPECT_GE(n, 20);
}

} // namespace
} // namespace tsoreach
