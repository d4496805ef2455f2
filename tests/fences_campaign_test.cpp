// Fence synthesis on programs nobody wrote for it: every example and random
// programs. Each answer is applied and re-checked (robustness also by the
// brute-force oracle of the tests, safety by the brute-force explorer), each
// fence is shown to be needed, and on programs with few fence positions a
// brute force over all smaller fence sets finds none that works.

#include "random_program.hpp"
#include "support/brute_force.hpp"
#include "support/robustness_oracle.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/instrument/fences.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lazy/lazy_engine.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/robustness/fence_synthesis.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

namespace tsoreach {
namespace {

using instrument::FencePosition;
using Holds = std::function<bool(std::span<const FencePosition>)>;

const std::filesystem::path kExamples = TSOREACH_SOURCE_DIR "/examples";

// Limits for random programs: cyclic ones can have unbounded state spaces.
reach::Options bounded() {
    reach::Options o;
    o.maxStates = 200000;
    return o;
}

robustness::RobustVerdict robustVerdict(const Program& p) {
    return robustness::checkTsoRobustness(p, bounded(), robustness::WitnessScope::First).verdict;
}

// Robust after inserting `f`: the attack-based check must decide, and the
// brute-force oracle of the tests (independent of the library) must agree on
// acyclic programs whenever it decides within its state bound.
bool robustWith(const Program& p, std::span<const FencePosition> f) {
    const Program fenced = instrument::insertFences(p, f).program;
    const robustness::RobustVerdict v = robustVerdict(fenced);
    EXPECT_NE(v, robustness::RobustVerdict::Unknown);
    if (hasControlCycle(p)) {
        // Its states carry the whole event history: loops make them huge.
        return v == robustness::RobustVerdict::Robust;
    }
    test::RobOptions o;
    o.maxStates = 20000;
    const test::RobVerdict brute = test::robustness(fenced, o).verdict;
    if (brute != test::RobVerdict::Unknown) {
        EXPECT_EQ(brute == test::RobVerdict::Robust, v == robustness::RobustVerdict::Robust)
            << "the brute-force oracle disagrees on\n"
            << printProgram(instrument::insertFences(p, f).program);
    }
    return v == robustness::RobustVerdict::Robust;
}

// The goal unreachable under TSO after inserting `f`, decided by the
// brute-force explorer of the tests (independent of every engine).
bool safeWith(const Program& p, const Goal& goal, std::span<const FencePosition> f) {
    const instrument::FencedProgram fp = instrument::insertFences(p, f);
    test::BruteOptions o;
    o.model = test::BruteModel::TSO;
    o.maxStates = 2000000;
    const test::BruteResult r =
        test::bruteForce(fp.program, goalByStateNames(p, goal, fp.program), o);
    EXPECT_NE(r.verdict, test::BruteVerdict::Unknown);
    return r.verdict == test::BruteVerdict::Unreachable;
}

// The engine `tsoreach fences --target safety` uses by default.
std::unique_ptr<reach::Engine> safetyEngine(const Program& p) {
    return engines::makeReachEngine(hasControlCycle(p) ? "explicit" : "lazy",
                                    reach::MemoryModel::TSO);
}

// Every subset of `candidates` of size k, in turn; stops when `visit` says so.
bool anySubset(const std::vector<FencePosition>& candidates, std::size_t k,
               const std::function<bool(const std::vector<FencePosition>&)>& visit) {
    std::vector<std::size_t> idx(k);
    for (std::size_t i = 0; i < k; ++i) {
        idx[i] = i;
    }
    if (k > candidates.size()) {
        return false;
    }
    for (;;) {
        std::vector<FencePosition> pick;
        for (std::size_t i : idx) {
            pick.push_back(candidates[i]);
        }
        if (visit(pick)) {
            return true;
        }
        // Next combination in lexicographic order.
        std::size_t i = k;
        while (i > 0 && idx[i - 1] == candidates.size() - k + i - 1) {
            --i;
        }
        if (i == 0) {
            return false;
        }
        ++idx[i - 1];
        for (std::size_t j = i; j < k; ++j) {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

// Subsets checked by brute force at most (beyond: local minimality only).
constexpr std::size_t kBruteForceSubsets = 120;

std::size_t subsetsBelow(std::size_t n, std::size_t count) {
    std::size_t total = 0;
    std::size_t binom = 1; // C(n, k)
    for (std::size_t k = 0; k < count; ++k) {
        total += binom;
        binom = binom * (n - k) / (k + 1);
    }
    return total;
}

struct Tally {
    std::size_t programs = 0;
    std::size_t fences = 0;
    std::size_t bruteForced = 0;
};

// The answer holds, each fence is needed, and (when cheap) no smaller set
// of fence positions works.
void expectMinimalAnswer(const Program& p, const robustness::FenceResult& r, const Holds& holds,
                         const std::string& what, Tally& tally) {
    ASSERT_EQ(r.outcome, robustness::FenceOutcome::Found) << what << ": " << r.reason;
    EXPECT_TRUE(r.verified) << what;
    EXPECT_TRUE(holds(r.fences)) << what << ": the fenced program fails the re-check";
    for (std::size_t i = 0; i < r.fences.size(); ++i) {
        std::vector<FencePosition> fewer = r.fences;
        fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
        EXPECT_FALSE(holds(fewer)) << what << ": fence " << i << " is not needed";
    }
    ++tally.programs;
    tally.fences += r.fences.size();
    const std::vector<FencePosition> candidates = instrument::fenceCandidates(p);
    if (r.optimal && subsetsBelow(candidates.size(), r.fences.size()) <= kBruteForceSubsets) {
        ++tally.bruteForced;
        for (std::size_t k = 0; k < r.fences.size(); ++k) {
            EXPECT_FALSE(anySubset(candidates, k, holds))
                << what << ": a set of " << k << " fences works, the answer has "
                << r.fences.size();
        }
    }
}

Program loadExample(const std::filesystem::path& f) {
    std::ifstream in(f);
    std::stringstream text;
    text << in.rdbuf();
    return parseProgram(text.str(), f.filename().string());
}

TEST(FenceCampaign, EveryExampleGetsRobustnessFences) {
    Tally tally;
    for (const auto& f : test::filesUnder(kExamples, ".txt")) {
        const Program p = loadExample(f);
        robustness::FenceOptions o;
        o.search = bounded();
        const robustness::FenceResult r = robustness::robustnessFences(p, o);
        expectMinimalAnswer(
            p, r, [&](std::span<const FencePosition> s) { return robustWith(p, s); },
            f.filename().string(), tally);
        // A robust example needs no fence.
        if (test::expectedRobust(f) == true) {
            EXPECT_TRUE(r.fences.empty()) << f;
        }
    }
    EXPECT_GE(tally.programs, 15U);
    std::cout << "[ fences ] " << tally.programs << " examples, " << tally.fences << " fences, "
              << tally.bruteForced << " brute-forced\n";
}

TEST(FenceCampaign, EveryTsoOnlyBugOfTheExamplesGetsSafetyFences) {
    Tally tally;
    for (const auto& f : test::filesUnder(kExamples, ".txt")) {
        auto expected = test::expectedVerdicts(f);
        if (expected[reach::MemoryModel::SC] != reach::Verdict::Unreachable ||
            expected[reach::MemoryModel::TSO] != reach::Verdict::Reachable) {
            continue;
        }
        const Program p = loadExample(f);
        const Goal goal = *defaultGoal(p);
        robustness::FenceOptions o;
        o.search = bounded();
        const robustness::FenceResult r = robustness::safetyFences(p, goal, *safetyEngine(p), o);
        expectMinimalAnswer(
            p, r, [&](std::span<const FencePosition> s) { return safeWith(p, goal, s); },
            f.filename().string(), tally);
    }
    EXPECT_GE(tally.programs, 5U);
    std::cout << "[ fences ] " << tally.programs << " TSO-only bugs, " << tally.fences
              << " fences, " << tally.bruteForced << " brute-forced\n";
}

TEST(FenceCampaign, HundredRandomNonRobustPrograms) {
    Tally tally;
    std::size_t seen = 0;
    for (std::uint64_t seed = 0; tally.programs < 100 && seed < 2000; ++seed) {
        const std::string text =
            seed % 2 == 0 ? test::randomProgram(seed) : test::randomAcyclicProgram(seed);
        const Program p = test::parse(text);
        ++seen;
        if (robustVerdict(p) != robustness::RobustVerdict::NotRobust) {
            continue;
        }
        robustness::FenceOptions o;
        o.search = bounded();
        const robustness::FenceResult r = robustness::robustnessFences(p, o);
        if (r.outcome == robustness::FenceOutcome::Unknown) {
            continue; // a fenced program's state space exceeded the bound
        }
        expectMinimalAnswer(
            p, r, [&](std::span<const FencePosition> s) { return robustWith(p, s); },
            "seed " + std::to_string(seed) + "\n" + text, tally);
    }
    EXPECT_EQ(tally.programs, 100U);
    std::cout << "[ fences ] " << tally.programs << " random non-robust programs (of " << seen
              << "), " << tally.fences << " fences, " << tally.bruteForced << " brute-forced\n";
}

TEST(FenceCampaign, RandomTsoOnlyBugsGetSafetyFences) {
    // Acyclic programs, so that both engines decide every fenced program.
    Tally tally;
    std::size_t seen = 0;
    for (std::uint64_t seed = 0; tally.programs < 40 && seed < 4000; ++seed) {
        const Program p = test::parse(test::randomAcyclicProgram(seed));
        const std::optional<Goal> goal = defaultGoal(p);
        if (!goal) {
            continue;
        }
        ++seen;
        auto sc = engines::makeReachEngine("explicit", reach::MemoryModel::SC);
        auto tso = engines::makeReachEngine("explicit", reach::MemoryModel::TSO);
        if (reach::runChecked(*sc, p, *goal, bounded()).verdict != reach::Verdict::Unreachable ||
            reach::runChecked(*tso, p, *goal, bounded()).verdict != reach::Verdict::Reachable) {
            continue;
        }
        lazy::LazyEngine engine(instrument::ExtensionVariant::Terminating);
        robustness::FenceOptions o;
        o.search = bounded();
        const robustness::FenceResult r = robustness::safetyFences(p, *goal, engine, o);
        expectMinimalAnswer(
            p, r, [&](std::span<const FencePosition> s) { return safeWith(p, *goal, s); },
            "seed " + std::to_string(seed) + "\n" + test::randomAcyclicProgram(seed), tally);
    }
    EXPECT_EQ(tally.programs, 40U);
    std::cout << "[ fences ] " << tally.programs << " random TSO-only bugs (of " << seen
              << " with a goal), " << tally.fences << " fences, " << tally.bruteForced
              << " brute-forced\n";
}

} // namespace
} // namespace tsoreach
