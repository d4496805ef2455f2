// Maximal causality reduction (issue 27): SB's counts, verdicts equal to
// the brute-force search on random acyclic programs (locks included) under
// every model, at most as many executions as rf has classes, replayable
// runs, and the lock examples decided under all three models.

#include "random_program.hpp"
#include "support/brute_force.hpp"
#include "support/model_cases.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/mcr.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/reach/rf.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::Verdict;

constexpr MemoryModel kModels[] = {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO};

Program example(const std::string& name) {
    std::ifstream in(std::string(TSOREACH_SOURCE_DIR) + "/examples/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return test::parse(text.str());
}

TEST(Mcr, StoreBufferingCountsOneExecutionPerState) {
    const Program p = example("sb.txt");
    reach::ExploreOptions o;
    const reach::ExploreResult sc = reach::mcrExplore(p, MemoryModel::SC, o);
    ASSERT_TRUE(sc.complete) << sc.reason;
    EXPECT_EQ(sc.stats.executions + sc.stats.blocked, 3U); // (0,1), (1,0), (1,1)
    EXPECT_EQ(sc.stats.blocked, 3U);
    for (MemoryModel m : {MemoryModel::TSO, MemoryModel::PSO}) {
        const reach::ExploreResult r = reach::mcrExplore(p, m, o);
        ASSERT_TRUE(r.complete) << r.reason;
        EXPECT_EQ(r.stats.executions, 1U); // (0,0): both checks pass
        EXPECT_EQ(r.stats.blocked, 3U);
        EXPECT_GT(r.stats.smtQueries, 0U);
        EXPECT_EQ(r.stats.smtQueries, r.stats.smtSat + r.stats.smtUnsat);
    }
}

test::BruteVerdict brute(const Program& p, const Goal& g, MemoryModel m) {
    test::BruteOptions o;
    o.model = test::bruteModel(m);
    return test::bruteForce(p, g, o).verdict;
}

std::uint64_t fromEnv(const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    return v != nullptr ? std::strtoull(v, nullptr, 10) : fallback;
}

// 300 random acyclic programs per model (checks, branches, fences and
// locks kept), the default goal: mcr's verdict is the brute force's, and
// every trace replays (runChecked). TSOREACH_MCR_FIRST and
// TSOREACH_MCR_COMPARISONS run a longer campaign (scripts/mcr_campaign.sh).
TEST(Mcr, VerdictsEqualBruteForceOnRandomPrograms) {
    const std::uint64_t first = fromEnv("TSOREACH_MCR_FIRST", 0);
    const std::size_t wanted = fromEnv("TSOREACH_MCR_COMPARISONS", 900);
    std::size_t compared = 0;
    std::size_t timeouts = 0;
    for (std::uint64_t seed = first; compared < wanted && seed < first + 3 * wanted; ++seed) {
        const Program p = test::parse(test::randomAcyclicProgram(seed));
        const std::optional<Goal> goal = defaultGoal(p);
        if (!goal || reach::mcrUnsupported(p)) {
            continue;
        }
        for (MemoryModel m : kModels) {
            const test::BruteVerdict expected = brute(p, *goal, m);
            if (expected == test::BruteVerdict::Unknown) {
                continue;
            }
            reach::Options o;
            o.stop.setTimeout(2);
            reach::McrEngine engine(m);
            const reach::Result r = reach::runChecked(engine, p, *goal, o);
            if (r.verdict == Verdict::Unknown) {
                ++timeouts;
                continue;
            }
            EXPECT_EQ(r.verdict == Verdict::Reachable, expected == test::BruteVerdict::Reachable)
                << "seed " << seed << " " << reach::name(m) << "\n"
                << test::randomAcyclicProgram(seed);
            ++compared;
        }
    }
    EXPECT_GE(compared, wanted);
    EXPECT_LE(timeouts * 20, compared) << "more than 5% of the programs took over 2 s";
    std::cout << "[ mcr ] " << compared << " verdicts equal to the brute force, " << timeouts
              << " runs over 2 s\n";
}

// On check-free deterministic programs every run completes: mcr's distinct
// value vectors are at most rf's classes, and every run replays.
TEST(Mcr, ExecutionsAtMostReadsFromClasses) {
    std::size_t compared = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        const Program p = test::parse(test::randomCheckFreeProgram(seed));
        if (reach::rfUnsupported(p) || reach::mcrUnsupported(p)) {
            continue;
        }
        const Goal none(p);
        for (MemoryModel m : kModels) {
            reach::ExploreOptions o;
            o.onExecution = [&](const reach::Trace& t, bool) {
                const reach::ReplayOutcome r =
                    reach::replayTrace(p, none, t, reach::Recorded::IfGiven);
                EXPECT_TRUE(r.ok) << r.error << " seed " << seed;
            };
            const reach::ExploreResult mcr = reach::mcrExplore(p, m, o);
            const reach::ExploreResult rf = reach::rfExplore(p, m, {});
            ASSERT_TRUE(mcr.complete && rf.complete) << mcr.reason << rf.reason;
            EXPECT_LE(mcr.stats.executions + mcr.stats.blocked,
                      rf.stats.executions + rf.stats.blocked)
                << "seed " << seed << " " << reach::name(m);
            EXPECT_EQ(mcr.stats.outcomes, rf.stats.outcomes)
                << "seed " << seed << " " << reach::name(m);
            ++compared;
        }
    }
    EXPECT_GT(compared, 600U);
}

// Lock sections as units of the dependence relation (encoding.cpp,
// minimal()): a section held in the node's configuration must end before
// another thread's flush (t2's unlock, then t0's store becomes visible to
// t1), and a section's stores' flushes after it keep it in the seed (t1
// reads t0's stores). Both were wrongly unreachable under TSO and PSO.
TEST(Mcr, LockSectionsInSeeds) {
    const char* heldInC = R"(
thread t0
initial q0
final q1
transition q0 q1 write 1 0
end
thread t1
initial q0
final q3
transition q0 q1 read r0 0
transition q1 q2 check == r0 1
transition q2 q3 write 1 1
end
thread t2
initial q0
final q6
transition q0 q1 lock
transition q1 q2 read r0 1
transition q2 q3 check ! r0
transition q3 q4 read r1 0
transition q4 q5 check ! r1
transition q5 q6 unlock
end
)";
    const char* flushedAfter = R"(
thread t0
initial q0
final q4
transition q0 q1 lock
transition q1 q2 write 1 1
transition q2 q3 write 1 0
transition q3 q4 unlock
end
thread t1
initial q0
final q5
transition q0 q1 write 1 2
transition q1 q2 read r0 0
transition q2 q3 check == r0 1
transition q3 q4 read r1 1
transition q4 q5 check == r1 1
end
)";
    for (const char* text : {heldInC, flushedAfter}) {
        const Program p = test::parse(text);
        for (MemoryModel m : kModels) {
            reach::McrEngine engine(m);
            const reach::Result r = reach::runChecked(engine, p, *defaultGoal(p), {});
            EXPECT_EQ(r.verdict, Verdict::Reachable) << reach::name(m) << "\n" << text;
        }
    }
}

// A goal with two threads inside sections of the one lock never holds
// (dead_ends.hpp): reach mode proves it with the first run alone instead
// of a node per configuration.
TEST(Mcr, GoalWithTwoLockHoldersNeedsOneRun) {
    const Program p = test::parse(R"(
memory x
thread t0
initial s0
final cs
transition s0 s1 lock
transition s1 cs write 1 x
transition cs out unlock
end
thread t1
initial s0
final cs
transition s0 s1 write 2 x
transition s1 s2 lock
transition s2 cs read r x
transition cs out unlock
end
)");
    for (MemoryModel m : kModels) {
        reach::McrEngine engine(m);
        const reach::Result r = reach::runChecked(engine, p, *defaultGoal(p), {});
        EXPECT_EQ(r.verdict, Verdict::Unreachable) << reach::name(m);
        EXPECT_EQ(r.stats.states, 1U) << reach::name(m);
    }
}

// The lock examples: mcr decides them under every model, as the explicit
// engine does.
TEST(Mcr, DecidesTheLockExamples) {
    for (const char* name : {"lock-as-fence.txt", "lock-atomic.txt", "lock-increment.txt",
                             "lock-increment-total.txt", "spinlock.txt"}) {
        const Program p = example(name);
        const std::optional<Goal> goal = defaultGoal(p);
        ASSERT_TRUE(goal) << name;
        for (MemoryModel m : kModels) {
            reach::Options o;
            o.unroll = 2;
            reach::McrEngine mcr(m);
            auto explicitEngine = engines::makeReachEngine("explicit", m);
            const reach::Result a = reach::runChecked(mcr, p, *goal, o);
            const reach::Result b = reach::runChecked(*explicitEngine, p, *goal, reach::Options{});
            if (a.verdict == Verdict::Unknown) { // a loop cut by --unroll: only a trace decides
                EXPECT_NE(b.verdict, Verdict::Reachable) << name << " " << reach::name(m);
                continue;
            }
            EXPECT_EQ(a.verdict, b.verdict) << name << " " << reach::name(m);
        }
    }
}

} // namespace
} // namespace tsoreach
