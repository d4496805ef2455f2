// The TSO and PSO rules of language.md, one inline program per rule, checked
// on the explicit engine under all three models (traces replayed), plus the
// replay checker's rejection of illegal TSO/PSO steps.

#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/replay.hpp"

#include <gtest/gtest.h>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::Verdict;

Verdict verdict(const std::string& text, MemoryModel m, reach::Options o = {}) {
    Program p = test::parse(text);
    auto engine = engines::makeReachEngine("explicit", m);
    Verdict dfs = reach::runChecked(*engine, p, *defaultGoal(p), o).verdict;
    o.search = reach::SearchOrder::Bfs;
    EXPECT_EQ(reach::runChecked(*engine, p, *defaultGoal(p), o).verdict, dfs) << "dfs vs bfs";
    return dfs;
}

// Expected verdicts under SC, TSO and PSO.
void expectVerdicts(const std::string& text, Verdict sc, Verdict tso, Verdict pso) {
    EXPECT_EQ(verdict(text, MemoryModel::SC), sc) << "sc";
    EXPECT_EQ(verdict(text, MemoryModel::TSO), tso) << "tso";
    EXPECT_EQ(verdict(text, MemoryModel::PSO), pso) << "pso";
}

constexpr Verdict R = Verdict::Reachable;
constexpr Verdict U = Verdict::Unreachable;

TEST(TsoPso, ALoadSeesItsOwnBufferedStore) {
    expectVerdicts("thread t initial a final d transition a b write 1 0 "
                   "transition b c read r 0 transition c d check == r 1 end",
                   R, R, R);
    // It never reads the older memory value instead.
    expectVerdicts("thread t initial a final d transition a b write 1 0 "
                   "transition b c read r 0 transition c d check == r 0 end",
                   U, U, U);
}

TEST(TsoPso, ALoadSeesTheNewestOwnStore) {
    expectVerdicts("thread t initial a final e transition a b write 1 0 transition b c write 2 0 "
                   "transition c d read r 0 transition d e check != r 2 end",
                   U, U, U);
}

TEST(TsoPso, ForwardingUsesTheComputedAddress) {
    expectVerdicts("thread t initial a final e transition a b local i 3 "
                   "transition b c write 7 + i 1 transition c d read r 4 "
                   "transition d e check == r 7 end",
                   R, R, R);
}

TEST(TsoPso, StoreBufferingOnlyWithBuffers) {
    expectVerdicts(R"(
thread t0 initial a final d
transition a b write 1 0 transition b c read r 1 transition c d check == r 0 end
thread t1 initial a final d
transition a b write 1 1 transition b c read r 0 transition c d check == r 0 end)",
                   U, R, R);
}

TEST(TsoPso, MessagePassingRelaxedOnlyUnderPso) {
    expectVerdicts(R"(
thread w initial a transition a b write 1 0 transition b c write 1 1 end
thread r initial a final d
transition a b read y 1 transition b c read x 0 transition c d check && == y 1 == x 0 end)",
                   U, U, R);
}

TEST(TsoPso, CoherenceHoldsUnderPso) {
    // CoRR: same-address stores stay in order even with per-address buffers.
    expectVerdicts(R"(
thread w initial a transition a b write 1 0 transition b c write 2 0 end
thread r initial a final d
transition a b read p 0 transition b c read q 0 transition c d check && == p 2 == q 1 end)",
                   U, U, U);
}

TEST(TsoPso, LoadBufferingForbiddenEverywhere) {
    // r = s = 1 needs a load to see a store that comes after it.
    expectVerdicts(R"(
thread t0 initial a final d
transition a b read r 0 transition b c write 1 1 transition c d check == r 1 end
thread t1 initial a final d
transition a b read s 1 transition b c write 1 0 transition c d check == s 1 end)",
                   U, U, U);
}

TEST(TsoPso, IriwForbiddenEverywhere) {
    expectVerdicts(R"(
thread w0 initial a transition a b write 1 0 end
thread w1 initial a transition a b write 1 1 end
thread r0 initial a final e
transition a b read p 0 transition b c read q 1 transition c e check && == p 1 == q 0 end
thread r1 initial a final e
transition a b read p 1 transition b c read q 0 transition c e check && == p 1 == q 0 end)",
                   U, U, U);
}

TEST(TsoPso, AFenceWaitsForEveryBuffer) {
    // Without the fence PSO may publish y before x; the fence forbids it.
    const std::string fenced = R"(
thread w initial a transition a b write 1 0 transition b c mfence transition c d write 1 1 end
thread r initial a final e
transition a b read y 1 transition b c check == y 1
transition c d read x 0 transition d e check == x 0 end)";
    expectVerdicts(fenced, U, U, U);
    std::string unfenced = fenced;
    unfenced.replace(unfenced.find("mfence"), 6, "noop");
    expectVerdicts(unfenced, U, U, R);
}

TEST(TsoPso, NoThreadMovesOrFlushesWhileAnotherHoldsTheLock) {
    // t1's store sits in its buffer; inside t0's locked block it cannot land
    // between t0's two reads.
    const std::string locked = R"(
thread t1 initial a final b transition a b write 1 0 end
thread t0 initial a final f
transition a b lock transition b c read r 0 transition c d read s 0 transition d e unlock
transition e f check && == r 0 == s 1 end)";
    expectVerdicts(locked, U, U, U);
    std::string open = locked;
    open.replace(open.find("b lock"), 6, "b noop");
    open.replace(open.find("e unlock"), 8, "e noop");
    expectVerdicts(open, R, R, R);
}

TEST(TsoPso, LockAndUnlockNeedAnEmptyBuffer) {
    // Lock as a fence: SB with lock; unlock between store and load.
    expectVerdicts(R"(
thread t0 initial a final f
transition a b write 1 0 transition b c lock transition c d unlock
transition d e read r 1 transition e f check == r 0 end
thread t1 initial a final f
transition a b write 1 1 transition b c lock transition c d unlock
transition d e read r 0 transition e f check == r 0 end)",
                   U, U, U);
}

TEST(TsoPso, AcyclicThreadsAreNeverCappedByTheBufferBound) {
    // Six stores in a row exceed the default bound of 4 but the thread is
    // acyclic, so the search is complete and the answer a proof.
    const std::string text = R"(
thread w initial a
transition a b write 1 0 transition b c write 1 1 transition c d write 1 2
transition d e write 1 3 transition e f write 1 4 transition f g write 1 5 end
thread r initial a final c
transition a b read x 5 transition b c check && == x 1 0 end)";
    for (auto m : {MemoryModel::TSO, MemoryModel::PSO}) {
        EXPECT_EQ(verdict(text, m), U);
    }
    // The last store is reachable through the buffer as well.
    std::string reachable = text;
    reachable.replace(reachable.find("&& == x 1 0"), 11, "== x 1");
    EXPECT_EQ(verdict(reachable, MemoryModel::TSO), R);
}

TEST(TsoPso, CyclicThreadsHitTheBoundAndGiveUnknown) {
    const std::string text = "thread t initial a final z transition a a write 1 0 end";
    reach::Options o;
    o.bufferBound = 3;
    o.mergeStores = false; // else the stores of 1 merge (next test)
    EXPECT_EQ(verdict(text, MemoryModel::SC, o), U);
    EXPECT_EQ(verdict(text, MemoryModel::TSO, o), Verdict::Unknown);
    EXPECT_EQ(verdict(text, MemoryModel::PSO, o), Verdict::Unknown);
    // A fence in the loop keeps the buffer at one store: a proof again.
    const std::string fenced = "thread t initial a final z transition a b write 1 0 "
                               "transition b a mfence end";
    EXPECT_EQ(verdict(fenced, MemoryModel::TSO, o), U);
    // Reachable answers stay sound however small the bound.
    o.bufferBound = 1;
    EXPECT_EQ(verdict("thread t initial a final b transition a a write 1 0 "
                      "transition a b read r 0 end",
                      MemoryModel::TSO, o),
              R);
}

// --merge-stores: a store of the value the newest buffered store to the
// same address holds is not buffered again when no other thread writes
// that address (reach/explicit/src/merged_stores.hpp).
TEST(TsoPso, RepeatedStoresOfOneValueMerge) {
    reach::Options off;
    off.mergeStores = false;
    const std::string loop = "thread t initial a final z transition a a write 1 0 end";
    for (MemoryModel m : {MemoryModel::TSO, MemoryModel::PSO}) {
        EXPECT_EQ(verdict(loop, m), U);
        EXPECT_EQ(verdict(loop, m, off), Verdict::Unknown);
        // Another writer of the address: the stores are not merged.
        EXPECT_EQ(verdict(loop + " thread u initial a final b transition a b write 1 0 end", m),
                  Verdict::Unknown);
        // A computed address: merged while t is its only possible writer.
        const std::string computed = "thread t initial a final z transition a b local i 2 "
                                     "transition b b write 1 + i 1 end";
        EXPECT_EQ(verdict(computed, m), U);
        EXPECT_EQ(verdict(computed + " thread u initial a final b transition a b local j 4 "
                                     "transition b c write 1 + j 1 end",
                          m),
                  Verdict::Unknown);
    }
}

TEST(TsoPso, TracesThroughMergedStoresReplay) {
    // t stores 1 to x twice, then 2 to y; u sees y = 2, so under TSO both
    // stores to x left the buffer first: the second, merged, comes back
    // into the trace with its flush (runChecked replays it).
    const std::string text = "thread t initial a final e transition a b write 1 0 "
                             "transition b c read r 5 transition c d write 1 0 "
                             "transition d e write 2 1 end "
                             "thread u initial a final c transition a b read s 1 "
                             "transition b c check == s 2 end";
    for (MemoryModel m : {MemoryModel::TSO, MemoryModel::PSO}) {
        Program p = test::parse(text);
        auto engine = engines::makeReachEngine("explicit", m);
        const reach::Result r = reach::runChecked(*engine, p, *defaultGoal(p), {});
        ASSERT_EQ(r.verdict, R) << reach::name(m);
        std::size_t storesOfX = 0;
        std::size_t flushesOfX = 0;
        for (const reach::TraceStep& step : r.trace->steps) {
            const bool x = step.addr == Value{0};
            storesOfX += x && step.kind == reach::StepKind::Instruction ? 1 : 0;
            flushesOfX += x && step.kind == reach::StepKind::Flush ? 1 : 0;
        }
        EXPECT_EQ(storesOfX, 2U) << reach::name(m);
        EXPECT_EQ(flushesOfX, 2U) << reach::name(m);
    }
}

// Found by the differential campaign: t2 stores 1 to x again while the
// first store of 1 is buffered (merged), the first flushes, and the merged
// one stays buffered behind a store to z: t2's next read of x is served by
// it in the full semantics, by memory in the merging one. The restored
// trace must say "buffer" to replay (it said "memory": an internal error).
TEST(TsoPso, ReadsServedByARestoredMergedStoreReplay) {
    const std::string text = "thread t1 initial q0 final q2 transition q1 q2 noop "
                             "transition q0 q1 noop end "
                             "thread t2 initial q0 transition q0 q1 noop "
                             "transition q1 q2 read r1 0 transition q2 q3 write 1 0 "
                             "transition q3 q4 write 2 % + r1 1 3 "
                             "transition q4 q1 write 1 2 end";
    for (MemoryModel m : {MemoryModel::TSO, MemoryModel::PSO}) {
        Program p = test::parse(text);
        auto engine = engines::makeReachEngine("explicit", m);
        reach::Options o;
        o.searchJobs = 1;
        const reach::Result r = reach::runChecked(*engine, p, *defaultGoal(p), o);
        EXPECT_EQ(r.verdict, R) << reach::name(m);
    }
}

// Hand-written traces of the SB-shaped program below, replayed under TSO/PSO.
class TsoReplay : public ::testing::Test {
  protected:
    void SetUp() override {
        program = test::parse(R"(
thread t0 initial a final e
transition a b write 1 0
transition b c write 2 1
transition c d mfence
transition d e read r 0
end
thread t1 initial a final c
transition a b lock
transition b c unlock
end)");
        goal.emplace(*defaultGoal(program));
    }

    reach::TraceStep instr(std::uint32_t thread, std::uint32_t transition,
                           std::optional<Value> addr = {}, std::optional<Value> value = {}) {
        reach::TraceStep s;
        s.thread = ThreadId(thread);
        s.transition = TransitionId(transition);
        s.addr = addr;
        s.value = value;
        return s;
    }
    reach::TraceStep flush(std::uint32_t thread, Value addr, Value value) {
        reach::TraceStep s;
        s.kind = reach::StepKind::Flush;
        s.thread = ThreadId(thread);
        s.addr = addr;
        s.value = value;
        return s;
    }
    reach::ReplayOutcome replay(MemoryModel m, std::vector<reach::TraceStep> steps) {
        reach::Trace t;
        t.model = m;
        t.steps = std::move(steps);
        t.goalStep = t.steps.size();
        return reach::replayTrace(program, *goal, t);
    }
    reach::TraceStep read(Value value, bool forwarded) {
        reach::TraceStep s = instr(0, 3, 0, value);
        s.forwarded = forwarded;
        return s;
    }

    Program program;
    std::optional<Goal> goal;
};

TEST_F(TsoReplay, ALegalTraceReplays) {
    auto o = replay(MemoryModel::TSO,
                    {instr(0, 0, 0, 1), instr(0, 1, 1, 2), flush(0, 0, 1), flush(0, 1, 2),
                     instr(0, 2), read(1, false), instr(1, 4), instr(1, 5)});
    EXPECT_TRUE(o.ok) << o.error;
}

TEST_F(TsoReplay, RejectsAFlushOutOfOrder) {
    auto o = replay(MemoryModel::TSO,
                    {instr(0, 0, 0, 1), instr(0, 1, 1, 2), flush(0, 1, 2), flush(0, 0, 1)});
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.failedStep, 3U);
    EXPECT_NE(o.error.find("out of order"), std::string::npos) << o.error;
    // Under PSO the two addresses have separate buffers: the order is free.
    auto p = replay(MemoryModel::PSO,
                    {instr(0, 0, 0, 1), instr(0, 1, 1, 2), flush(0, 1, 2), flush(0, 0, 1),
                     instr(0, 2), read(1, false), instr(1, 4), instr(1, 5)});
    EXPECT_TRUE(p.ok) << p.error;
}

TEST_F(TsoReplay, RejectsAFenceOverANonEmptyBuffer) {
    auto o = replay(MemoryModel::TSO, {instr(0, 0, 0, 1), instr(0, 1, 1, 2), instr(0, 2)});
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.failedStep, 3U);
    EXPECT_NE(o.error.find("not empty"), std::string::npos) << o.error;
}

TEST_F(TsoReplay, RejectsALoadThatIgnoresANewerOwnStore) {
    // Replace the fence by nothing: build a program where the load follows
    // the store directly.
    Program p = test::parse("thread t initial a final c transition a b write 1 0 "
                            "transition b c read r 0 end");
    Goal g = *defaultGoal(p);
    reach::Trace t;
    t.model = MemoryModel::TSO;
    t.steps = {instr(0, 0, 0, 1), instr(0, 1, 0, 0)};
    t.steps[1].forwarded = false; // claims memory's 0 over its own buffered 1
    t.goalStep = 2;
    auto o = reach::replayTrace(p, g, t);
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.failedStep, 2U);
    t.steps[1].value = 1;
    t.steps[1].forwarded = true;
    EXPECT_TRUE(reach::replayTrace(p, g, t).ok);
}

TEST_F(TsoReplay, RejectsAFlushInsideAnotherThreadsLockedSection) {
    auto o = replay(MemoryModel::TSO, {instr(0, 0, 0, 1), instr(1, 4), flush(0, 0, 1)});
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.failedStep, 3U);
    EXPECT_NE(o.error.find("holds the lock"), std::string::npos) << o.error;
}

TEST_F(TsoReplay, RejectsFlushesUnderSc) {
    auto o = replay(MemoryModel::SC, {instr(0, 0, 0, 1), flush(0, 0, 1)});
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.failedStep, 2U);
}

} // namespace
} // namespace tsoreach
