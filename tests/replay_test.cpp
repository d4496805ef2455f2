// The independent trace checker accepts the engine's traces and rejects
// every kind of tampering.

#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/replay.hpp"

#include <gtest/gtest.h>

namespace tsoreach {
namespace {

using reach::ReplayOutcome;
using reach::StepKind;
using reach::Trace;
using reach::TraceStep;

const char* const kMp = test::kMessagePassing;

class Replay : public ::testing::Test {
  protected:
    void SetUp() override {
        program = test::parse(kMp);
        goal.emplace(*defaultGoal(program));
        auto engine = engines::makeReachEngine("explicit", reach::MemoryModel::SC);
        reach::Result r = engine->run(program, *goal, {});
        ASSERT_EQ(r.verdict, reach::Verdict::Reachable);
        trace = *r.trace;
        ASSERT_EQ(trace.steps.size(), 5U);
    }
    // Replays `t` with the goal expected after its last step.
    ReplayOutcome replay(Trace t) {
        t.goalStep = t.steps.size();
        return reach::replayTrace(program, *goal, t);
    }

    // A hand-written valid trace: w writes both, r reads both, r checks.
    Trace handTrace() {
        auto step = [&](std::uint32_t thread, std::uint32_t tr, std::optional<Value> addr,
                        std::optional<Value> value) {
            TraceStep s;
            s.thread = ThreadId(thread);
            s.transition = TransitionId(tr);
            s.addr = addr;
            s.value = value;
            return s;
        };
        Trace t;
        t.steps = {step(0, 0, 0, 1), step(0, 1, 1, 1), step(1, 2, 1, 1), step(1, 3, 0, 1),
                   step(1, 4, std::nullopt, std::nullopt)};
        t.steps[2].forwarded = false; // reads record where their value came from
        t.steps[3].forwarded = false;
        return t;
    }

    Program program;
    std::optional<Goal> goal;
    Trace trace;
};

TEST_F(Replay, AcceptsTheEngineTraceAndAHandTrace) {
    EXPECT_TRUE(replay(trace).ok) << replay(trace).error;
    ReplayOutcome o = replay(handTrace());
    EXPECT_TRUE(o.ok) << o.error;
}

TEST_F(Replay, RecordedFieldsAreRequiredUnlessOnlyCheckedIfGiven) {
    Trace t = handTrace();
    t.goalStep = t.steps.size();
    for (TraceStep& s : t.steps) {
        s.addr.reset();
        s.value.reset();
        s.forwarded.reset();
    }
    EXPECT_FALSE(reach::replayTrace(program, *goal, t).ok);
    ReplayOutcome lenient = reach::replayTrace(program, *goal, t, reach::Recorded::IfGiven);
    EXPECT_TRUE(lenient.ok) << lenient.error;
    // What is given is still checked.
    t.steps[2].value = 0;
    EXPECT_FALSE(reach::replayTrace(program, *goal, t, reach::Recorded::IfGiven).ok);
}

TEST_F(Replay, OnlyFlushesMayFollowTheGoalStep) {
    Trace t = handTrace();
    t.goalStep = 4; // the check (step 5) is an instruction after the goal step
    EXPECT_FALSE(reach::replayTrace(program, *goal, t).ok);
    t.goalStep = 9;
    EXPECT_FALSE(reach::replayTrace(program, *goal, t).ok);
}

TEST_F(Replay, RejectsATamperedValue) {
    Trace t = handTrace();
    t.steps[2].value = 0;
    ReplayOutcome o = replay(t);
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.failedStep, 3U);
    EXPECT_NE(o.error.find("recorded address 1 value 0"), std::string::npos) << o.error;
}

TEST_F(Replay, RejectsATamperedAddress) {
    Trace t = handTrace();
    t.steps[0].addr = 7;
    EXPECT_EQ(replay(t).failedStep, 1U);
}

TEST_F(Replay, RejectsADroppedStep) {
    Trace t = handTrace();
    t.steps.erase(t.steps.begin()); // w's first write never happens
    ReplayOutcome o = replay(t);
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.failedStep, 1U); // w's second transition is taken in its initial state
}

TEST_F(Replay, RejectsReorderedSteps) {
    // Reading y before w wrote it gives 0, not the recorded 1.
    Trace t = handTrace();
    std::swap(t.steps[1], t.steps[2]);
    ReplayOutcome o = replay(t);
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.failedStep, 2U);
}

TEST_F(Replay, RejectsATraceThatStopsShortOfTheGoal) {
    Trace t = handTrace();
    t.steps.pop_back();
    ReplayOutcome o = replay(t);
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.failedStep, 0U);
    EXPECT_NE(o.error.find("goal"), std::string::npos) << o.error;
}

TEST_F(Replay, RejectsAStepOfTheWrongThread) {
    Trace t = handTrace();
    t.steps[0].thread = ThreadId(1);
    EXPECT_FALSE(replay(t).ok);
    t = handTrace();
    t.steps[0].thread = ThreadId(9);
    EXPECT_FALSE(replay(t).ok);
    t = handTrace();
    t.steps[0].transition = TransitionId(99);
    EXPECT_FALSE(replay(t).ok);
}

TEST_F(Replay, RejectsAFalseCheck) {
    // Read x before it is written: the check then fails; record the values
    // honestly so that only the check can object.
    Trace t = handTrace();
    std::swap(t.steps[0], t.steps[3]); // r reads x first... out of program order
    EXPECT_FALSE(replay(t).ok);
}

TEST_F(Replay, RejectsAFlushUnderSc) {
    Trace t = handTrace();
    TraceStep flush;
    flush.kind = StepKind::Flush;
    flush.thread = ThreadId(0);
    flush.addr = 0;
    flush.value = 1;
    t.steps.insert(t.steps.begin() + 1, flush);
    ReplayOutcome o = replay(t);
    EXPECT_FALSE(o.ok);
    EXPECT_EQ(o.failedStep, 2U);
}

TEST(ReplayLock, RejectsAStepWhileAnotherThreadHoldsTheLock) {
    Program p = test::parse(R"(
thread t0 initial a transition a b lock transition b c unlock end
thread t1 initial a final b transition a b noop end)");
    Goal g = *defaultGoal(p);
    Trace t;
    TraceStep lock;
    lock.thread = ThreadId(0);
    lock.transition = TransitionId(0);
    TraceStep noop;
    noop.thread = ThreadId(1);
    noop.transition = TransitionId(2);
    t.steps = {lock, noop};
    t.goalStep = 2;
    ReplayOutcome o = reach::replayTrace(p, g, t);
    EXPECT_FALSE(o.ok);
    EXPECT_NE(o.error.find("holds the lock"), std::string::npos) << o.error;
    TraceStep unlock;
    unlock.thread = ThreadId(0);
    unlock.transition = TransitionId(1);
    t.steps = {lock, unlock, noop};
    t.goalStep = 3;
    EXPECT_TRUE(reach::replayTrace(p, g, t).ok);
}

} // namespace
} // namespace tsoreach

namespace tsoreach {
namespace {

// An engine that claims reachability with a made-up trace: runChecked must
// refuse to pass it on.
class LyingEngine final : public reach::Engine {
  public:
    explicit LyingEngine(bool withTrace) : withTrace_(withTrace) {}
    [[nodiscard]] std::string_view name() const override { return "liar"; }
    [[nodiscard]] reach::MemoryModel model() const override { return reach::MemoryModel::SC; }
    reach::Result run(const Program&, const Goal&, const reach::Options&) override {
        reach::Result r;
        r.verdict = reach::Verdict::Reachable;
        if (withTrace_) {
            r.trace = reach::Trace{};
        }
        return r;
    }

  private:
    bool withTrace_;
};

TEST(RunChecked, RejectsATraceThatDoesNotReachTheGoal) {
    Program p = test::parse("thread t initial a final b transition a b noop end");
    Goal g = *defaultGoal(p);
    LyingEngine liar(true);
    EXPECT_THROW(reach::runChecked(liar, p, g, {}), reach::TraceReplayError);
    LyingEngine silent(false);
    EXPECT_THROW(reach::runChecked(silent, p, g, {}), reach::TraceReplayError);
}

} // namespace
} // namespace tsoreach
