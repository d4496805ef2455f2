// The lock that drains one address (`lockfor A` ... `unlockfor A`,
// docs/language.md): under SC and TSO exactly lock/unlock, under PSO only
// A's FIFO must be empty. Small programs checked against the brute-force
// explorer under SC, TSO and PSO, replayed traces, the other engines'
// answers, and the .rmm translations that use it (Memorax's PSO semantics).

#include "support/brute_force.hpp"
#include "support/model_cases.hpp"
#include "test_util.hpp"

#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/front_end.hpp"
#include "tsoreach/frontends/rmm/rmm.hpp"
#include "tsoreach/instrument/fences_after_unlocks.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/robustness/fence_synthesis.hpp"

#include <variant>

#include <gtest/gtest.h>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::Verdict;

using Case = test::ModelCase;

// x = 0, y = 1.
const Case kCases[] = {
    // a's store to x may stay buffered across a block on y under PSO only
    // (TSO drains everything, as lock does).
    {"OtherAddressesStayBufferedUnderPso",
     "thread a initial s transition s t write 1 0 transition t u lockfor 1\n"
     "transition u v write 1 1 transition v w unlockfor 1 end\n"
     "thread b initial s transition s t read r 1 transition t u read q 0\n"
     "transition u f check && == r 1 == q 0 final f end\n",
     Verdict::Unreachable, Verdict::Unreachable, Verdict::Reachable},
    // unlockfor x waits until the block's store to x is in memory: the flag
    // written after it cannot overtake it, not even under PSO.
    {"ReleaseDrainsTheAddress",
     "thread a initial s transition s t lockfor 0 transition t u write 1 0\n"
     "transition u v unlockfor 0 transition v w write 1 1 end\n"
     "thread b initial s transition s t read r 1 transition t u read q 0\n"
     "transition u f check && == r 1 == q 0 final f end\n",
     Verdict::Unreachable, Verdict::Unreachable, Verdict::Unreachable},
    // The same without the lock: PSO reorders the two stores.
    {"WithoutTheLockPsoReorders",
     "thread a initial s transition s u write 1 0 transition u w write 1 1 end\n"
     "thread b initial s transition s t read r 1 transition t u read q 0\n"
     "transition u f check && == r 1 == q 0 final f end\n",
     Verdict::Unreachable, Verdict::Unreachable, Verdict::Reachable},
    // Two increments in blocks on x: none is lost, and a read inside the
    // block sees x's older buffered store (drained before the block).
    {"IncrementsAreNotLost",
     "thread a initial s transition s t lockfor 0 transition t u read r 0\n"
     "transition u v write + r 1 0 transition v w unlockfor 0 transition w x read p 0\n"
     "transition x f check == p 1 final f end\n"
     "thread b initial s transition s t lockfor 0 transition t u read r 0\n"
     "transition u v write + r 1 0 transition v w unlockfor 0 transition w x read p 0\n"
     "transition x f check == p 1 final f end\n",
     Verdict::Unreachable, Verdict::Unreachable, Verdict::Unreachable},
    // The block's store is seen after it (a reachable goal through lockfor,
    // whose trace every engine must give with the lockfor's address).
    {"TheBlocksStoreIsSeen",
     "thread a initial s transition s t write 1 1 transition t u lockfor 0\n"
     "transition u v write 1 0 transition v w unlockfor 0 final w end\n"
     "thread b initial s transition s t read r 0 transition t f check == r 1 final f end\n",
     Verdict::Reachable, Verdict::Reachable, Verdict::Reachable},
    // The block is exclusive with lock/unlock and atomic blocks.
    {"ExclusiveWithTheOtherLocks",
     "thread a initial s transition s t lockfor 0 transition t u write 1 0\n"
     "transition u v write 0 0 transition v w unlockfor 0 end\n"
     "thread b initial s transition s t atomic transition t u read p 0\n"
     "transition u v endatomic transition v f check == p 1 final f end\n",
     Verdict::Unreachable, Verdict::Unreachable, Verdict::Unreachable},
    // The mfence after `unlockfor y` (skipped under SC and TSO, where it is
    // a no-op, instrument/fences_after_unlocks.hpp) still drains x under
    // PSO before z is written; without it PSO reorders x and z.
    {"TheFenceAfterUnlockforDrainsUnderPso",
     "thread a initial s transition s t write 1 0 transition t u lockfor 1\n"
     "transition u v write 1 1 transition v w unlockfor 1 transition w x mfence\n"
     "transition x y write 1 2 end\n"
     "thread b initial s transition s t read r 2 transition t u read q 0\n"
     "transition u f check && == r 1 == q 0 final f end\n",
     Verdict::Unreachable, Verdict::Unreachable, Verdict::Unreachable},
    {"WithoutTheFenceAfterUnlockforPsoReorders",
     "thread a initial s transition s t write 1 0 transition t u lockfor 1\n"
     "transition u v write 1 1 transition v x unlockfor 1\n"
     "transition x y write 1 2 end\n"
     "thread b initial s transition s t read r 2 transition t u read q 0\n"
     "transition u f check && == r 1 == q 0 final f end\n",
     Verdict::Unreachable, Verdict::Unreachable, Verdict::Reachable},
    // A goal between the unlock and its fence keeps the fence's state, and
    // a goal after it gets a trace with the fence's step back (replayed).
    {"AGoalBetweenUnlockAndFence",
     "thread a initial s transition s t lockfor 0 transition t u write 1 0\n"
     "transition u v unlockfor 0 transition v w mfence final v end\n"
     "thread b initial s transition s t read r 0 transition t f check == r 1 final f end\n",
     Verdict::Reachable, Verdict::Reachable, Verdict::Reachable},
    {"AGoalAfterTheSkippedFence",
     "thread a initial s transition s t lockfor 0 transition t u write 1 0\n"
     "transition u v unlockfor 0 transition v w mfence final w end\n"
     "thread b initial s transition s t read r 0 transition t f check == r 1 final f end\n",
     Verdict::Reachable, Verdict::Reachable, Verdict::Reachable},
};

TEST(LockFor, ExplicitEngineAgreesWithTheSemanticsAndTheBruteForce) {
    for (const Case& c : kCases) {
        test::expectExplicitAndBruteForce(c);
    }
}

// The lazy engine (TSO) runs lockfor as lock; dpor and rf say why not.
TEST(LockFor, OtherEnginesAnswerOrSayWhyNot) {
    for (const Case& c : kCases) {
        const Program p = test::parse(c.text);
        for (const char* name : {"lazy", "dpor", "rf"}) {
            auto engine = engines::makeReachEngine(name, MemoryModel::TSO);
            reach::Options o;
            o.stop.setTimeout(60);
            const reach::Result r = reach::runChecked(*engine, p, *defaultGoal(p), o);
            if (std::string(name) == "lazy" ||
                std::string(c.text).find("lockfor") == std::string::npos) {
                EXPECT_EQ(r.verdict, c.tso) << c.name;
            } else {
                EXPECT_EQ(r.verdict, Verdict::Unknown) << name;
                EXPECT_NE(r.reason.find("lockfor"), std::string::npos) << name << r.reason;
            }
        }
    }
}

TEST(LockFor, PrintsAndParsesBack) {
    const Program p = test::parse(kCases[0].text);
    const std::string text = printProgram(p);
    EXPECT_NE(text.find("transition t u lockfor 1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("transition v w unlockfor 1\n"), std::string::npos) << text;
    EXPECT_EQ(printProgram(test::parse(text)), text);
}

TEST(LockFor, TheAddressIsRequired) {
    try {
        test::parse("thread a initial s transition s t lockfor end\n");
        FAIL() << "parsed";
    } catch (const InputError& e) {
        EXPECT_EQ(e.pos().line, 1U);
        EXPECT_EQ(e.pos().col, 43U);
        EXPECT_NE(e.message().find("expression cut short in 'lockfor'"), std::string::npos)
            << e.message();
    }
}

reach::TraceStep instr(std::uint32_t t, std::uint32_t tr) {
    reach::TraceStep s;
    s.thread = ThreadId(t);
    s.transition = TransitionId(tr);
    return s;
}

reach::TraceStep flush(std::uint32_t t, Value addr) {
    reach::TraceStep s;
    s.kind = reach::StepKind::Flush;
    s.thread = ThreadId(t);
    s.addr = addr;
    return s;
}

// Case 0's relaxed run: a takes the lock for y with x buffered, and b then
// reads y = 1 and x = 0. It replays under PSO; under TSO the lockfor step is
// refused (the buffer holds a store), and so is an unlockfor before the
// store to y reached memory.
TEST(LockFor, ReplayChecksTheDrainedAddress) {
    const Program p = test::parse(kCases[0].text);
    const Goal goal = *defaultGoal(p);
    reach::Trace t;
    t.model = MemoryModel::PSO;
    t.steps = {instr(0, 0), instr(0, 1), instr(0, 2), flush(0, 1),
               instr(0, 3), instr(1, 4), instr(1, 5), instr(1, 6)};
    t.goalStep = t.steps.size();
    const reach::ReplayOutcome ok = reach::replayTrace(p, goal, t, reach::Recorded::IfGiven);
    EXPECT_TRUE(ok.ok) << ok.error;

    reach::Trace tso = t;
    tso.model = MemoryModel::TSO;
    const reach::ReplayOutcome r = reach::replayTrace(p, goal, tso, reach::Recorded::IfGiven);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.failedStep, 2U); // counted from 1
    EXPECT_NE(r.error.find("holds stores to that address"), std::string::npos) << r.error;

    reach::Trace early = t;
    std::swap(early.steps[3], early.steps[4]);
    const reach::ReplayOutcome e = reach::replayTrace(p, goal, early, reach::Recorded::IfGiven);
    EXPECT_FALSE(e.ok);
    EXPECT_EQ(e.failedStep, 4U);
    EXPECT_NE(e.error.find("holds stores to that address"), std::string::npos) << e.error;
}

Verdict rmmVerdict(const std::string& text, MemoryModel m) {
    RmmTranslation t = translateRmm(text, "test.rmm");
    auto engine = engines::makeReachEngine("explicit", m);
    reach::Options o;
    o.stop.setTimeout(60);
    return reach::runChecked(*engine, t.program, t.goal, o).verdict;
}

// Memorax's locked write under PSO is `write` then `fence` (its hsb model
// converts locks to fences; the translation's `lockfor x; write; unlockfor
// x; mfence` is the same): an earlier store to another address may reach
// memory after it. Peterson's lock with a locked write of `turn` (the
// Cubicle-W authors' peterson_2.rmm) is therefore broken under PSO only.
constexpr const char* kPeterson = R"(
forbidden CS CS
data
  flag0 = 0 : [0:1]
  flag1 = 0 : [0:1]
  turn = 0 : [0:1]
process
registers $f = 0 : [0:1] $t = 0 : [0:1]
text
  write: flag0 := 1;
  locked write: turn := 1;
  L: read: $f := flag1; read: $t := turn;
  if $f = 1 && $t = 1 then goto L;
  CS: write: flag0 := 0
process
registers $f = 0 : [0:1] $t = 0 : [0:1]
text
  write: flag1 := 1;
  locked write: turn := 0;
  L: read: $f := flag0; read: $t := turn;
  if $f = 1 && $t = 0 then goto L;
  CS: write: flag1 := 0
)";

TEST(LockFor, RmmLockedWriteIsWriteThenFence) {
    EXPECT_EQ(rmmVerdict(kPeterson, MemoryModel::SC), Verdict::Unreachable);
    EXPECT_EQ(rmmVerdict(kPeterson, MemoryModel::TSO), Verdict::Unreachable);
    EXPECT_EQ(rmmVerdict(kPeterson, MemoryModel::PSO), Verdict::Reachable);
}

// `locked { write: turn := 1 }` is Memorax's locked write too.
TEST(LockFor, RmmBlockOfOneWriteIsALockedWrite) {
    std::string text = kPeterson;
    for (const char* v : {"0", "1"}) {
        const std::string from = std::string("locked write: turn := ") + v + ";";
        text.replace(text.find(from), from.size(),
                     std::string("locked { write: turn := ") + v + " };");
    }
    const std::string printed = printProgram(translateRmm(text, "p.rmm").program);
    EXPECT_NE(printed.find("lockfor turn\n"), std::string::npos) << printed;
    EXPECT_EQ(printed.find(" lock\n"), std::string::npos) << printed;
    EXPECT_EQ(rmmVerdict(text, MemoryModel::TSO), Verdict::Unreachable);
    EXPECT_EQ(rmmVerdict(text, MemoryModel::PSO), Verdict::Reachable);
}

TEST(LockFor, RmmPetersonOfTheCubicleWAuthorsIsReachableUnderPso) {
    const std::string path =
        std::string(TSOREACH_SOURCE_DIR) + "/bench/cubicle-w-rmm/peterson_2.rmm";
    const std::string text = readProgramText(path);
    EXPECT_EQ(rmmVerdict(text, MemoryModel::TSO), Verdict::Unreachable);
    EXPECT_EQ(rmmVerdict(text, MemoryModel::PSO), Verdict::Reachable);
}

// A cas drains only the stores to its address under PSO (Memorax's hsb
// cas needs that address's buffer empty): x's store may still be buffered
// when another process sees the cas's write.
constexpr const char* kCas = R"(
forbidden * DONE
data
  x = 0 : [0:1]
  y = 0 : [0:1]
process
text
  write: x := 1;
  cas(y, 0, 1)
process
registers $x = 0 : [0:1]
text
  read: y = 1;
  read: x = 0;
  DONE: nop
)";

TEST(LockFor, RmmCasDrainsItsAddressOnly) {
    const RmmTranslation t = translateRmm(kCas, "cas.rmm");
    const std::string text = printProgram(t.program);
    EXPECT_NE(text.find("lockfor y\n"), std::string::npos) << text;
    EXPECT_NE(text.find("unlockfor y\n"), std::string::npos) << text;
    EXPECT_EQ(rmmVerdict(kCas, MemoryModel::SC), Verdict::Unreachable);
    EXPECT_EQ(rmmVerdict(kCas, MemoryModel::TSO), Verdict::Unreachable);
    EXPECT_EQ(rmmVerdict(kCas, MemoryModel::PSO), Verdict::Reachable);
}

// Robustness against TSO with a cas and locked writes: the attacks run on
// the program with plain locks (exact under TSO) and every witness replays
// on the program with lockfor. Store buffering behind a cas is not robust;
// with the stores locked (drained at once) it is. PSO: dpor says why not.
constexpr const char* kSbAfterCas = R"(
forbidden DONE DONE
data
  x = 0 : [0:1]
  y = 0 : [0:1]
  z = 0 : [0:1]
process
registers $r = 0 : [0:1]
text
  cas(z, 0, 1);
  write: x := 1;
  read: $r := y;
  DONE: nop
process
registers $r = 0 : [0:1]
text
  write: y := 1;
  read: $r := x;
  DONE: nop
)";

std::string lockedStores(std::string text) {
    text.replace(text.find("write: x := 1"), 13, "locked write: x := 1");
    text.replace(text.find("write: y := 1"), 13, "cas(y, 0, 1)");
    return text;
}

engines::RobustnessOutcome robustnessOf(const Program& p, MemoryModel m) {
    const engines::Catalog catalog = engines::standardCatalog();
    engines::Settings s;
    s.options.stop.setTimeout(60);
    s.scope = robustness::WitnessScope::All;
    return catalog.find(engines::Task::Robustness, "", m).checkRobustness(p, m, s);
}

TEST(LockFor, RobustnessAgainstTsoRunsLockforAsLock) {
    const Program p = translateRmm(kSbAfterCas, "sb.rmm").program;
    ASSERT_NE(printProgram(p).find("lockfor z\n"), std::string::npos);
    const engines::RobustnessOutcome out = robustnessOf(p, MemoryModel::TSO);
    const auto* r = std::get_if<robustness::RobustnessResult>(&out);
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->verdict, robustness::RobustVerdict::NotRobust) << r->reason;
    bool lockforStep = false;
    for (const robustness::Witness& w : r->witnesses) {
        // Replays on the original, every address and value recorded.
        const reach::ReplayOutcome o =
            reach::replayTrace(p, Goal(p), w.trace, reach::Recorded::Required);
        EXPECT_TRUE(o.ok) << o.error;
        EXPECT_FALSE(w.cycle.empty());
        for (const reach::TraceStep& st : w.trace.steps) {
            if (st.kind == reach::StepKind::Instruction &&
                p.transition(st.transition).instr.kind == InstrKind::LockFor) {
                lockforStep = true;
                EXPECT_EQ(st.addr, std::optional<Value>(2));
            }
        }
    }
    EXPECT_TRUE(lockforStep);

    const Program locked = translateRmm(lockedStores(kSbAfterCas), "sb.rmm").program;
    const engines::RobustnessOutcome lockedOut = robustnessOf(locked, MemoryModel::TSO);
    const auto* l = std::get_if<robustness::RobustnessResult>(&lockedOut);
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(l->verdict, robustness::RobustVerdict::Robust) << l->reason;
}

TEST(LockFor, FencesForRobustnessAgainstTso) {
    const Program p = translateRmm(kSbAfterCas, "sb.rmm").program;
    robustness::FenceOptions o;
    o.search.stop.setTimeout(60);
    const robustness::FenceResult r = robustness::robustnessFences(p, o);
    ASSERT_EQ(r.outcome, robustness::FenceOutcome::Found) << r.reason;
    EXPECT_TRUE(r.verified);
    EXPECT_EQ(r.fences.size(), 2U);
    const Program locked = translateRmm(lockedStores(kSbAfterCas), "sb.rmm").program;
    const robustness::FenceResult none = robustness::robustnessFences(locked, o);
    ASSERT_EQ(none.outcome, robustness::FenceOutcome::Found) << none.reason;
    EXPECT_TRUE(none.fences.empty());
}

TEST(LockFor, RobustnessAgainstPsoSaysWhyNot) {
    const Program p = translateRmm(kSbAfterCas, "sb.rmm").program;
    const engines::RobustnessOutcome out = robustnessOf(p, MemoryModel::PSO);
    const auto* r = std::get_if<robustness::ExploredRobustness>(&out);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->verdict, robustness::RobustVerdict::Unknown);
    EXPECT_NE(r->reason.find("lockfor"), std::string::npos) << r->reason;
}

// Which fences the pass skips: after a draining unlock (unlockfor too
// under SC and TSO), when the goal does not tell the states apart; the
// engines' traces get the fence's step back.
TEST(LockFor, FencesAfterDrainingUnlocksAreSkipped) {
    const Program p = test::parse(
        "thread a initial s transition s t lockfor 0 transition t u write 1 0\n"
        "transition u v unlockfor 0 transition v w mfence transition w x lock\n"
        "transition x y unlock transition y z mfence transition z e write 0 0 final e end\n");
    const Goal goal = *defaultGoal(p);
    const auto ids = [&](instrument::UnlockDrains d) {
        std::vector<std::string> out;
        if (const auto s = instrument::skipFencesAfterUnlocks(p, goal, d)) {
            for (std::size_t i = 0; i < s->fenceAfter.size(); ++i) {
                if (s->fenceAfter[i].valid()) {
                    const Transition& tr = s->program.transitions[i];
                    out.push_back(std::string(keyword(tr.instr.kind)) + "->" +
                                  p.threads[0].stateNames[tr.to.index()]);
                }
            }
        }
        return out;
    };
    using V = std::vector<std::string>;
    EXPECT_EQ(ids(instrument::UnlockDrains::UnlockAndUnlockFor), (V{"unlockfor->w", "unlock->z"}));
    EXPECT_EQ(ids(instrument::UnlockDrains::Unlock), (V{"unlock->z"}));
    for (MemoryModel m : {MemoryModel::SC, MemoryModel::TSO}) {
        for (const char* engine : {"explicit", "lazy"}) {
            if (m == MemoryModel::SC && std::string(engine) == "lazy") {
                continue;
            }
            reach::Options o;
            o.stop.setTimeout(60);
            auto e = engines::makeReachEngine(engine, m);
            const reach::Result r = reach::runChecked(*e, p, goal, o);
            ASSERT_EQ(r.verdict, Verdict::Reachable) << engine;
            std::size_t fences = 0;
            for (const reach::TraceStep& st : r.trace->steps) {
                fences += st.kind == reach::StepKind::Instruction &&
                                  p.transition(st.transition).instr.kind == InstrKind::Mfence
                              ? 1
                              : 0;
            }
            EXPECT_EQ(fences, 2U) << engine;
        }
    }
}

} // namespace
} // namespace tsoreach
