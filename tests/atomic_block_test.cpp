// The atomic block (`atomic` ... `endatomic`, docs/language.md): the lock
// taken and released without draining. Small programs whose verdicts follow
// from the semantics, checked against the brute-force explorer under SC,
// TSO and PSO, and traces through atomic blocks replayed (and refused when
// another thread moves inside one).

#include "support/brute_force.hpp"
#include "support/model_cases.hpp"
#include "test_util.hpp"

#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/replay.hpp"

#include <gtest/gtest.h>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::Verdict;

using Case = test::ModelCase;

// x = 0, y = 1.
const Case kCases[] = {
    // Store buffering with the loads in atomic blocks: the block does not
    // drain, so the relaxed outcome stays (with lock/unlock it would not).
    {"StoreBufferingKeepsTheBuffer",
     "thread a initial s transition s t write 1 0 transition t u atomic\n"
     "transition u v read r 1 transition v w endatomic transition w f check == r 0 final f end\n"
     "thread b initial s transition s t write 1 1 transition t u atomic\n"
     "transition u v read r 0 transition v w endatomic transition w f check == r 0 final f end\n",
     Verdict::Unreachable, Verdict::Reachable, Verdict::Reachable},
    // A snapshot of y then x: consistent under SC and TSO (b's stores reach
    // memory in order and cannot land between the two reads); PSO may flush
    // x before y.
    {"SnapshotIsConsistent",
     "thread a initial s transition s t atomic transition t u read y 1\n"
     "transition u v read x 0 transition v w endatomic\n"
     "transition w f check && == y 0 == x 1 final f end\n"
     "thread b initial s transition s t write 1 1 transition t u write 1 0 end\n",
     Verdict::Unreachable, Verdict::Unreachable, Verdict::Reachable},
    // Without the block the reads interleave with b even under SC.
    {"WithoutTheBlockTheReadsInterleave",
     "thread a initial s transition s u read y 1\n"
     "transition u w read x 0 transition w f check && == y 0 == x 1 final f end\n"
     "thread b initial s transition s t write 1 1 transition t u write 1 0 end\n",
     Verdict::Reachable, Verdict::Reachable, Verdict::Reachable},
    // Reads go through the own buffer: the thread's own store is seen.
    {"ReadsThroughTheOwnBuffer",
     "thread a initial s transition s t write 5 0 transition t u atomic\n"
     "transition u v read r 0 transition v w endatomic transition w f check == r 0 final f end\n",
     Verdict::Unreachable, Verdict::Unreachable, Verdict::Unreachable},
    // Another thread's flush cannot land between two reads of the block.
    {"OtherFlushesWait",
     "thread a initial s transition s t atomic transition t u read p 0\n"
     "transition u v read q 0 transition v w endatomic transition w f check != p q final f end\n"
     "thread b initial s transition s t write 1 0 end\n",
     Verdict::Unreachable, Verdict::Unreachable, Verdict::Unreachable},
    // The block is exclusive with lock/unlock too, and endatomic releases.
    {"ExclusiveWithLockedBlocks",
     "thread a initial s transition s t atomic transition t u read p 0\n"
     "transition u v read q 0 transition v w endatomic final w end\n"
     "thread b initial s transition s t lock transition t u write 1 0\n"
     "transition u v write 0 0 transition v w unlock final w end\n",
     Verdict::Reachable, Verdict::Reachable, Verdict::Reachable},
};

TEST(AtomicBlock, ExplicitEngineAgreesWithTheSemanticsAndTheBruteForce) {
    for (const Case& c : kCases) {
        test::expectExplicitAndBruteForce(c);
    }
}

TEST(AtomicBlock, OtherEnginesAnswerOrSayWhyNot) {
    const Program p = test::parse(kCases[0].text);
    for (const char* name : {"lazy", "dpor", "rf"}) {
        auto engine = engines::makeReachEngine(name, MemoryModel::TSO);
        reach::Options o;
        o.stop.setTimeout(60);
        const reach::Result r = reach::runChecked(*engine, p, *defaultGoal(p), o);
        if (r.verdict == Verdict::Unknown) {
            EXPECT_NE(r.reason.find("atomic blocks"), std::string::npos) << name << r.reason;
        } else {
            EXPECT_EQ(r.verdict, Verdict::Reachable) << name;
        }
    }
}

TEST(AtomicBlock, PrintsAndParsesBack) {
    const Program p = test::parse(kCases[0].text);
    const std::string text = printProgram(p);
    EXPECT_NE(text.find("transition t u atomic\n"), std::string::npos) << text;
    EXPECT_NE(text.find("transition v w endatomic\n"), std::string::npos) << text;
    EXPECT_EQ(printProgram(test::parse(text)), text);
}

// A hand-written trace: b's flush inside a's block is refused by the replay.
TEST(AtomicBlock, ReplayRefusesAnotherThreadInsideTheBlock) {
    const Program p = test::parse(kCases[4].text);
    const Goal goal = *defaultGoal(p);
    using reach::StepKind;
    auto instr = [&](std::uint32_t t, std::uint32_t tr) {
        reach::TraceStep s;
        s.thread = ThreadId(t);
        s.transition = TransitionId(tr);
        return s;
    };
    reach::TraceStep flush;
    flush.kind = StepKind::Flush;
    flush.thread = ThreadId(1);
    flush.addr = 0;
    reach::Trace ok;
    ok.model = MemoryModel::TSO;
    ok.steps = {instr(1, 5), instr(0, 0), instr(0, 1), instr(0, 2), instr(0, 3)};
    ok.goalStep = ok.steps.size();
    // The block ends with both reads 0: the goal (p != q) fails, nothing else.
    EXPECT_EQ(reach::replayTrace(p, goal, ok, reach::Recorded::IfGiven).failedStep, 0U);
    reach::Trace bad = ok;
    bad.steps.insert(bad.steps.begin() + 3, flush);
    const reach::ReplayOutcome r = reach::replayTrace(p, goal, bad, reach::Recorded::IfGiven);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.failedStep, 4U);
    EXPECT_NE(r.error.find("holds the lock"), std::string::npos) << r.error;
}

} // namespace
} // namespace tsoreach
