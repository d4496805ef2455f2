// The explicit SC engine on inline programs: verdicts, traces, state counts,
// locks, computed addresses (and partial-order reduction with many of them,
// under every model and engine) and limits.

#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/robustness/fence_synthesis.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace tsoreach {
namespace {

using reach::Verdict;

reach::Result runSc(const Program& p, const Goal& g, reach::Options o = {}) {
    auto engine = engines::makeReachEngine("explicit", reach::MemoryModel::SC);
    return reach::runChecked(*engine, p, g, o);
}

reach::Result runSc(const std::string& text, reach::Options o = {}) {
    Program p = test::parse(text);
    return runSc(p, *defaultGoal(p), o);
}

reach::Result runBoth(const std::string& text, const reach::Options& base = {}) {
    reach::Options dfs = base;
    reach::Options bfs = base;
    bfs.search = reach::SearchOrder::Bfs;
    reach::Result a = runSc(text, dfs);
    reach::Result b = runSc(text, bfs);
    EXPECT_EQ(a.verdict, b.verdict) << "dfs and bfs disagree";
    // A complete search stores every state (DFS compresses chains of
    // partial-order reduction, so it may store fewer).
    if (a.verdict == Verdict::Unreachable && !base.partialOrder) {
        EXPECT_EQ(a.stats.states, b.stats.states) << "a complete search stores every state";
    }
    return b;
}

constexpr const char* kSb = R"(
thread t0
initial a final d
transition a b write 1 0
transition b c read r 1
transition c d check == r 0
end
thread t1
initial a final d
transition a b write 1 1
transition b c read r 0
transition c d check == r 0
end
)";

TEST(ScEngine, StoreBufferingOutcomeIsUnreachable) {
    reach::Result r = runBoth(kSb);
    EXPECT_EQ(r.verdict, Verdict::Unreachable);
    EXPECT_FALSE(r.trace.has_value());
}

TEST(ScEngine, MessagePassingSeesBothStores) {
    reach::Result r = runBoth(test::kMessagePassing);
    ;
    ASSERT_EQ(r.verdict, Verdict::Reachable);
    // BFS: the shortest trace is both writes and both reads and the check.
    ASSERT_EQ(r.trace->steps.size(), 5U);
    EXPECT_EQ(r.trace->steps.back().thread, ThreadId(1));
}

constexpr const char* kIndependent = R"(
thread a initial p final z transition p q noop transition q r noop end
thread b initial p final z transition p q noop transition q r noop end)";

TEST(ScEngine, IndependentThreadsMultiplyStates) {
    // Two threads with three control states each and nothing shared: 3 x 3.
    reach::Options none;
    none.partialOrder = false;
    reach::Result r = runBoth(kIndependent, none);
    EXPECT_EQ(r.verdict, Verdict::Unreachable);
    EXPECT_EQ(r.stats.states, 9U);
    EXPECT_EQ(r.stats.transitions, 12U);
}

TEST(ScEngine, PartialOrderReductionRunsIndependentThreadsOneAfterTheOther) {
    // Thread a runs alone to its end (3 states), then b (2 more).
    reach::Result r = runBoth(kIndependent); // BFS
    EXPECT_EQ(r.verdict, Verdict::Unreachable);
    EXPECT_EQ(r.stats.states, 5U);
    EXPECT_EQ(r.stats.transitions, 4U);
    // DFS also compresses each thread's chain of single steps into one
    // edge: the initial state, a at its end, both at their ends.
    r = runSc(kIndependent);
    EXPECT_EQ(r.stats.states, 3U);
    EXPECT_EQ(r.stats.transitions, 2U);
}

TEST(ScEngine, CompressedChainsGiveCompleteTraces) {
    Program p = test::parse(R"(
thread a initial p final z
transition p q local r 1
transition q u local r + r 1
transition u z write r 0
end
thread b initial p final z
transition p q read s 0
transition q z check == s 2
end)");
    reach::Result r = runSc(p, *defaultGoal(p));
    ASSERT_EQ(r.verdict, Verdict::Reachable);
    // Every step is in the trace, and runChecked replayed it.
    ASSERT_EQ(r.trace->steps.size(), 5U);
    EXPECT_EQ(r.trace->steps[2].value, std::optional<Value>(2));
}

TEST(ScEngine, PartialOrderReductionKeepsConflictsAndGoals) {
    // Both threads write x: their writes conflict, so both orders stay.
    // a's last step enters its goal state, so it is visible and b's steps
    // are interleaved before it too. The goal is reached either way.
    const char* text = R"(
thread a initial p final z
transition p q write 1 0
transition q z read r 0
end
thread b initial p final z
transition p q write 2 0
transition q z read r 0
end)";
    reach::Options none;
    none.partialOrder = false;
    reach::Result full = runBoth(text, none);
    reach::Result reduced = runBoth(text);
    EXPECT_EQ(full.verdict, Verdict::Reachable);
    EXPECT_EQ(reduced.verdict, Verdict::Reachable);
}

TEST(ScEngine, LiveRegisterReductionMergesDeadValues) {
    // r is dead once checked, so the two branches meet in one state at e.
    const char* text = R"(
thread t initial s final z
transition s a local r 1
transition s b local r 2
transition a e check r
transition b e check r
end)";
    reach::Options off;
    off.partialOrder = false;
    off.liveRegisters = false;
    EXPECT_EQ(runSc(text, off).stats.states, 5U); // s, a, b, e(r=1), e(r=2)
    reach::Options live;
    live.partialOrder = false;
    EXPECT_EQ(runSc(text, live).stats.states, 4U);
}

TEST(ScEngine, BfsFindsTheShortestTrace) {
    const char* text = R"(
thread t initial s final g
transition s a1 noop
transition a1 a2 noop
transition a2 a3 noop
transition a3 g noop
transition s b1 local r 5
transition b1 g check == r 5
end)";
    reach::Options bfs;
    bfs.search = reach::SearchOrder::Bfs;
    reach::Result r = runSc(text, bfs);
    ASSERT_EQ(r.verdict, Verdict::Reachable);
    ASSERT_EQ(r.trace->steps.size(), 2U);
    EXPECT_EQ(r.trace->steps[0].value, std::optional<Value>(5));
}

TEST(ScEngine, TraceRecordsAddressesAndValues) {
    Program p = test::parse(R"(
thread t initial s final g
transition s a local i 3
transition a b write * i 7 + i 1
transition b c read x 4
transition c g check == x 21
end)");
    reach::Result r = runSc(p, *defaultGoal(p));
    ASSERT_EQ(r.verdict, Verdict::Reachable);
    ASSERT_EQ(r.trace->steps.size(), 4U);
    EXPECT_EQ(r.trace->steps[0].value, std::optional<Value>(3));
    EXPECT_EQ(r.trace->steps[1].addr, std::optional<Value>(4));
    EXPECT_EQ(r.trace->steps[1].value, std::optional<Value>(21));
    EXPECT_EQ(r.trace->steps[2].addr, std::optional<Value>(4));
    EXPECT_EQ(r.trace->steps[2].value, std::optional<Value>(21));
    EXPECT_FALSE(r.trace->steps[3].addr.has_value());
}

TEST(ScEngine, LockHolderRunsAlone) {
    // t1 could see the intermediate 1 only if it ran while t0 holds the lock.
    const std::string withLock = R"(
thread t0 initial a
transition a b lock
transition b c write 1 0
transition c d write 0 0
transition d e unlock
end
thread t1 initial a final c
transition a b read r 0
transition b c check == r 1
end)";
    EXPECT_EQ(runBoth(withLock).verdict, Verdict::Unreachable);
    std::string noLock = withLock;
    noLock.replace(noLock.find("lock\n"), 4, "noop");
    noLock.replace(noLock.find("unlock"), 6, "noop");
    EXPECT_EQ(runBoth(noLock).verdict, Verdict::Reachable);
}

TEST(ScEngine, UnlockWithoutHoldingBlocks) {
    EXPECT_EQ(runBoth("thread t initial a final b transition a b unlock end").verdict,
              Verdict::Unreachable);
    // Another thread's lock cannot be released either.
    EXPECT_EQ(runBoth(R"(
thread t0 initial a transition a b lock end
thread t1 initial a final b transition a b unlock end)")
                  .verdict,
              Verdict::Unreachable);
}

TEST(ScEngine, LockIsNotReentrant) {
    EXPECT_EQ(
        runBoth("thread t initial a final c transition a b lock transition b c lock end").verdict,
        Verdict::Unreachable);
    EXPECT_EQ(runBoth("thread t initial a final d transition a b lock transition b c unlock "
                      "transition c d lock end")
                  .verdict,
              Verdict::Reachable);
}

TEST(ScEngine, ComputedAddressesMeetConstantOnes) {
    // t0 writes through a computed address that t1 reads as a constant.
    EXPECT_EQ(runBoth(R"(
thread t0 initial a
transition a b local r 3
transition b c write 7 + r 2
end
thread t1 initial a final c
transition a b read x 5
transition b c check == x 7
end)")
                  .verdict,
              Verdict::Reachable);
}

// Threads A and B meet at address `shared`, which both compute: B reads 0
// there only if it runs before A's write. C reads through an address the
// value analysis cannot bound (a loop counter, or in the acyclic form a
// register that takes 128 values), and D reads the constant addresses 0 to
// `constants` - 1, so that partial-order reduction's address universe holds
// that many constants (and `shared` unless it is one of them). With
// `conflictLast`, B is the last thread, its read the last transition and
// its source the last control state of B, so that the reduction's tables
// hold B's read in their last rows.
std::string manyAddresses(std::size_t constants, bool cyclic, bool conflictLast,
                          Value shared = 1000) {
    const std::string at = std::to_string(shared);
    const std::string a = "thread A initial a0 final a3\n"
                          "transition a0 a1 local a " +
                          at +
                          "\ntransition a1 a2 write 1 a\n"
                          "transition a2 a3 noop\nend\n";
    const std::string b = conflictLast ? "thread B initial b0 final b3\n"
                                         "transition b2 b3 check == r 0\n"
                                         "transition b0 b1 local b " +
                                             at + "\ntransition b1 b2 read r b\nend\n"
                                       : "thread B initial b0 final b3\n"
                                         "transition b0 b1 local b " +
                                             at +
                                             "\ntransition b1 b2 read r b\n"
                                             "transition b2 b3 check == r 0\nend\n";
    std::string c = "thread C initial c0\n";
    if (cyclic) {
        c += "transition c0 c1 check < * i 1 3\ntransition c1 c0 local i + i 1\n"
             "transition c0 c2 read z i\n";
    } else {
        for (int k = 0; k < 7; ++k) {
            for (int bit = 0; bit < 2; ++bit) {
                c += "transition c" + std::to_string(k) + " c" + std::to_string(k + 1) +
                     " local i + * i 2 " + std::to_string(bit) + "\n";
            }
        }
        c += "transition c7 c8 read z i\n";
    }
    c += "end\n";
    std::string d = "thread D initial d0\n";
    for (std::size_t k = 0; k < constants; ++k) {
        d += "transition d0 d1 read x " + std::to_string(k) + "\n";
    }
    d += "end\n";
    return conflictLast ? c + d + a + b : a + b + c + d;
}

TEST(ScEngine, PartialOrderReductionKeepsConflictsWithManyAddresses) {
    // Universes of 63 and 127 entries once put computed addresses outside
    // the universe one bit past the rows (and past the table on its last
    // row): the conflict of A and B was lost and SC answered `unreachable`.
    // (A shared address of 100 is among the constants from 101 of them on.)
    for (std::size_t constants : {62U, 63U, 64U, 127U, 128U}) {
        for (bool cyclic : {true, false}) {
            for (bool last : {false, true}) {
                for (Value shared : {100, 1000}) {
                    SCOPED_TRACE(std::to_string(constants) + (cyclic ? " cyclic" : " acyclic") +
                                 (last ? ", conflict last" : "") + ", shared " +
                                 std::to_string(shared));
                    const std::string text = manyAddresses(constants, cyclic, last, shared);
                    reach::Options off;
                    off.partialOrder = false;
                    EXPECT_EQ(runBoth(text).verdict, Verdict::Reachable);
                    EXPECT_EQ(runBoth(text, off).verdict, Verdict::Reachable);
                }
            }
        }
    }
}

TEST(ScEngine, ManyAddressesReachableUnderEveryModelAndEngine) {
    for (std::size_t constants : {63U, 127U}) {
        for (bool cyclic : {true, false}) {
            for (bool last : {false, true}) {
                const Program p = test::parse(manyAddresses(constants, cyclic, last));
                const Goal goal = *defaultGoal(p);
                for (reach::MemoryModel m :
                     {reach::MemoryModel::SC, reach::MemoryModel::TSO, reach::MemoryModel::PSO}) {
                    for (const engines::EngineEntry& e : engines::reachEnginesFor(m)) {
                        if (auto why = e.unsupportedFor(p, m)) {
                            // dpor needs bounded addresses under PSO.
                            EXPECT_TRUE(cyclic ||
                                        (e.name == "dpor" && m == reach::MemoryModel::PSO))
                                << e.name << ": " << *why;
                            continue;
                        }
                        // --por reaches the engines built on the SC search.
                        const bool sc = e.name == "explicit" || e.name == "lazy";
                        for (bool por : {true, false}) {
                            if (!por && !sc) {
                                continue;
                            }
                            SCOPED_TRACE(
                                std::to_string(constants) + (cyclic ? " cyclic" : " acyclic") +
                                (last ? ", conflict last, " : ", ") + std::string(reach::name(m)) +
                                ", " + std::string(e.name) + (por ? "" : ", --por off"));
                            auto engine = e.makeReach(m);
                            reach::Options o;
                            o.partialOrder = por;
                            EXPECT_EQ(reach::runChecked(*engine, p, goal, o).verdict,
                                      Verdict::Reachable);
                        }
                    }
                }
            }
        }
    }
}

TEST(ScEngine, ManyAddressesNeedNoFences) {
    // The goal is reachable under SC, so no fence set keeps TSO from it (this
    // once stopped with an internal error: TSO reached the goal without
    // delaying a store, while SC claimed it could not).
    const Program p = test::parse(manyAddresses(63, true, false));
    auto engine = engines::makeReachEngine("explicit", reach::MemoryModel::TSO);
    const robustness::FenceResult r =
        robustness::safetyFences(p, *defaultGoal(p), *engine, robustness::FenceOptions{});
    EXPECT_EQ(r.outcome, robustness::FenceOutcome::Impossible) << r.reason;
    EXPECT_TRUE(r.fences.empty());
}

TEST(ScEngine, ReductionTablesOfALongChainTakeOnePass) {
    // A chain of 8000 reads of distinct computed addresses: the future of
    // each control state holds every later address, so the reduction's
    // rows are 126 words wide. Filling them from the chain's end takes one
    // merge per state; from its start (as the fixpoint once did) every
    // new address ran back down the whole chain, n^2 wide merges, seconds.
    constexpr int n = 8000;
    std::string text = "thread A initial q0 final q" + std::to_string(2 * n) + "\n";
    for (int k = 0; k < n; ++k) {
        text += "transition q" + std::to_string(2 * k) + " q" + std::to_string(2 * k + 1) +
                " local a " + std::to_string(k) + "\ntransition q" + std::to_string(2 * k + 1) +
                " q" + std::to_string(2 * k + 2) + " read r a\n";
    }
    text += "end\nthread B initial p0 final p1\ntransition p0 p1 read s 5\nend\n";
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(runSc(text).verdict, Verdict::Reachable);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    // About 0.3 s in a release build, 2 s under the sanitizers; 18 s before.
    EXPECT_LT(took.count(), 10.0);
}

TEST(ScEngine, ZeroedComputedCellsEncodeLikeUntouchedOnes) {
    // Writing 1 then 0 to a computed address returns to the initial state, so
    // the loop has exactly 2 states (memory at address 9 is 0 or 1).
    reach::Result r = runBoth(R"(
thread t initial a final never
transition a b write 1 + 4 5
transition b a write 0 + 4 5
end)");
    EXPECT_EQ(r.verdict, Verdict::Unreachable);
    EXPECT_EQ(r.stats.states, 2U);
}

TEST(ScEngine, InitialStateCanBeTheGoal) {
    reach::Result r = runSc("thread t initial a final a transition a b noop end");
    ASSERT_EQ(r.verdict, Verdict::Reachable);
    EXPECT_TRUE(r.trace->steps.empty());
}

TEST(ScEngine, ThreadsWithoutFinalAreUnconstrained) {
    EXPECT_EQ(runBoth(R"(
thread t0 initial a final b transition a b noop end
thread t1 initial a transition a b check 0 end)")
                  .verdict,
              Verdict::Reachable);
}

TEST(ScEngine, GoalSpecAcceptsAnyNamedStateOfAThread) {
    Program p = test::parse(R"(
thread t initial a transition a b noop transition a c noop end
thread u initial a transition a b noop end)");
    EXPECT_EQ(runSc(p, parseGoalSpec(p, "t=c")).verdict, Verdict::Reachable);
    EXPECT_EQ(runSc(p, parseGoalSpec(p, "t=b,t=c,u=b")).verdict, Verdict::Reachable);
    Goal g = parseGoalSpec(p, "t=c,u=b");
    EXPECT_EQ(g.describe(p), "t=c,u=b");
    EXPECT_THROW(parseGoalSpec(p, "v=a"), GoalSpecError);
    EXPECT_THROW(parseGoalSpec(p, "t=z"), GoalSpecError);
    EXPECT_THROW(parseGoalSpec(p, "t"), GoalSpecError);
    EXPECT_THROW(parseGoalSpec(p, "t=a,"), GoalSpecError);
}

// A counter that grows forever: the state space is infinite.
constexpr const char* kUnbounded = R"(
thread t initial a final never
transition a a local r + r 1
end)";

TEST(ScEngine, StateLimitGivesUnknownNeverUnreachable) {
    reach::Options o;
    o.maxStates = 1000;
    for (auto order : {reach::SearchOrder::Dfs, reach::SearchOrder::Bfs}) {
        o.search = order;
        reach::Result r = runSc(kUnbounded, o);
        EXPECT_EQ(r.verdict, Verdict::Unknown);
        EXPECT_NE(r.reason.find("--max-states"), std::string::npos) << r.reason;
        EXPECT_LE(r.stats.states, 1001U);
    }
    // A limit that the search does not need changes nothing.
    o.maxStates = 9;
    EXPECT_EQ(runSc(R"(
thread a initial p final z transition p q noop transition q r noop end
thread b initial p final z transition p q noop transition q r noop end)",
                    o)
                  .verdict,
              Verdict::Unreachable);
}

TEST(ScEngine, TimeoutGivesUnknown) {
    // The deadline counts from when it is set (the command's start), not
    // from the search's.
    const auto start = std::chrono::steady_clock::now();
    reach::Options o;
    o.stop.setTimeout(0.2);
    reach::Result r = runSc(kUnbounded, o);
    EXPECT_EQ(r.verdict, Verdict::Unknown);
    EXPECT_EQ(r.reason, "timeout after 0.2 s (--timeout)");
    EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.2);
}

TEST(ScEngine, MemoryLimitGivesUnknown) {
    reach::Options o;
    o.stop.setMemoryLimitMb(1); // below any process's resident size
    reach::Result r = runSc(kUnbounded, o);
    EXPECT_EQ(r.verdict, Verdict::Unknown);
    EXPECT_NE(r.reason.find("--max-memory"), std::string::npos) << r.reason;
}

TEST(ScEngine, RegistryOffersSc) {
    const auto engines = engines::reachEnginesFor(reach::MemoryModel::SC);
    ASSERT_FALSE(engines.empty());
    EXPECT_EQ(engines.front().name, "explicit");
    EXPECT_THROW(engines::makeReachEngine("nonesuch", reach::MemoryModel::SC),
                 reach::EngineUnavailable);
}

} // namespace
} // namespace tsoreach
