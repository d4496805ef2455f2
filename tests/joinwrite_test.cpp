// Joined stores (`joinwrite`) and goals on views of memory (ViewAtom),
// docs/language.md: small programs whose verdicts follow from the
// semantics, with the explicit engine (every trace replayed by runChecked),
// the lazy engine (which hands both to the explicit one), and the engines
// that refuse them.

#include "test_util.hpp"

#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/reach/engine.hpp"

#include <gtest/gtest.h>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::Verdict;
using test::parse;

reach::Result check(const std::string& engine, MemoryModel m, const Program& p, const Goal& g) {
    auto e = engines::makeReachEngine(engine, m);
    reach::Options o;
    o.stop.setTimeout(60);
    return reach::runChecked(*e, p, g, o);
}

Verdict verdict(const std::string& engine, MemoryModel m, const char* text) {
    const Program p = parse(text);
    return check(engine, m, p, *defaultGoal(p)).verdict;
}

// b reads x (address 0) and y (address 1) in one snapshot and ends when it
// saw x written but not y.
const char* const kObserver = "thread b initial s transition s t atomic transition t u read r 0\n"
                              "transition u v read q 1 transition v w endatomic\n"
                              "transition w f check && == r 1 == q 0 final f end\n";

TEST(JoinWrite, GroupReachesMemoryAtOnce) {
    const std::string joined = std::string("thread a initial s transition s t atomic\n"
                                           "transition t u joinwrite 1 0 transition u v write 1 1\n"
                                           "transition v w endatomic end\n") +
                               kObserver;
    const std::string plain = std::string("thread a initial s transition s t atomic\n"
                                          "transition t u write 1 0 transition u v write 1 1\n"
                                          "transition v w endatomic end\n") +
                              kObserver;
    for (const char* engine : {"explicit", "lazy"}) {
        EXPECT_EQ(verdict(engine, MemoryModel::TSO, joined.c_str()), Verdict::Unreachable)
            << engine;
        EXPECT_EQ(verdict(engine, MemoryModel::TSO, plain.c_str()), Verdict::Reachable) << engine;
    }
    EXPECT_EQ(verdict("explicit", MemoryModel::SC, joined.c_str()), Verdict::Unreachable);
    EXPECT_EQ(verdict("explicit", MemoryModel::SC, plain.c_str()), Verdict::Unreachable);
}

// The group's flush appears as two flushes of a in a row, and replays.
TEST(JoinWrite, TraceThroughAGroupFlushReplays) {
    const Program p = parse("thread a initial s transition s t atomic\n"
                            "transition t u joinwrite 1 0 transition u v write 1 1\n"
                            "transition v w endatomic end\n"
                            "thread b initial s transition s t atomic transition t u read r 0\n"
                            "transition u v read q 1 transition v w endatomic\n"
                            "transition w f check && == r 1 == q 1 final f end\n");
    const reach::Result r = check("explicit", MemoryModel::TSO, p, *defaultGoal(p));
    ASSERT_EQ(r.verdict, Verdict::Reachable);
    std::size_t flushes = 0;
    for (const reach::TraceStep& s : r.trace->steps) {
        flushes += s.kind == reach::StepKind::Flush ? 1 : 0;
    }
    EXPECT_EQ(flushes, 2U);
}

// A joined store waits for the thread's next store: alone, it never
// reaches memory, so a fence after it never passes (under SC it is a write).
TEST(JoinWrite, AJoinedStoreWaitsForItsPartner) {
    const char* text = "thread a initial s transition s t joinwrite 1 0\n"
                       "transition t f mfence final f end\n";
    EXPECT_EQ(verdict("explicit", MemoryModel::TSO, text), Verdict::Unreachable);
    EXPECT_EQ(verdict("explicit", MemoryModel::SC, text), Verdict::Reachable);
}

TEST(JoinWrite, PrintedAsWritten) {
    const Program p = parse("thread a initial s transition s t joinwrite 1 0\n"
                            "transition t u write 2 1 end\n");
    const std::string text = printProgram(p);
    EXPECT_NE(text.find("transition s t joinwrite 1 0"), std::string::npos) << text;
    EXPECT_EQ(printProgram(parse(text)), text);
}

TEST(JoinWrite, EnginesWithoutItAnswerUnknown) {
    const Program p = parse("thread a initial s transition s t joinwrite 1 0\n"
                            "transition t f write 1 1 final f end\n");
    const Goal g = *defaultGoal(p);
    const reach::Result pso = check("explicit", MemoryModel::PSO, p, g);
    EXPECT_EQ(pso.verdict, Verdict::Unknown);
    EXPECT_NE(pso.reason.find("joinwrite"), std::string::npos) << pso.reason;
    for (const char* engine : {"dpor", "rf", "mcr"}) {
        const reach::Result r = check(engine, MemoryModel::TSO, p, g);
        EXPECT_EQ(r.verdict, Verdict::Unknown) << engine;
        EXPECT_NE(r.reason.find("joinwrite"), std::string::npos) << engine << ": " << r.reason;
    }
}

// a stores x := 1 and stops; b never stores. "a sees x = 1 while b sees
// x = 0" is a TSO state (the store buffered), never an SC one.
TEST(GoalViews, ViewsAreReadInOneState) {
    const Program p = parse("thread a initial s transition s t write 1 0 end\n"
                            "thread b initial s transition s t noop end\n");
    Goal g(p);
    g.requireView({ThreadId(0), 0, ExprOp::Eq, 1});
    g.requireView({ThreadId(1), 0, ExprOp::Eq, 0});
    EXPECT_EQ(check("explicit", MemoryModel::SC, p, g).verdict, Verdict::Unreachable);
    const reach::Result tso = check("explicit", MemoryModel::TSO, p, g);
    EXPECT_EQ(tso.verdict, Verdict::Reachable);
    EXPECT_EQ(check("lazy", MemoryModel::TSO, p, g).verdict, Verdict::Reachable);
    EXPECT_EQ(check("explicit", MemoryModel::PSO, p, g).verdict, Verdict::Reachable);
    const reach::Result dpor = check("dpor", MemoryModel::TSO, p, g);
    EXPECT_EQ(dpor.verdict, Verdict::Unknown);
    EXPECT_NE(dpor.reason.find("views"), std::string::npos) << dpor.reason;
}

// Inside a locked block the others do not look: the half-written state
// x = 1, y = 0 of a's block is not a goal state.
TEST(GoalViews, NotInsideABlock) {
    const Program p = parse("thread a initial s transition s t lock transition t u write 1 0\n"
                            "transition u v write 1 1 transition v w unlock end\n");
    Goal g(p);
    g.requireView({ThreadId(0), 0, ExprOp::Eq, 1});
    g.requireView({ThreadId(0), 1, ExprOp::Ne, 1});
    for (MemoryModel m : {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO}) {
        EXPECT_EQ(check("explicit", m, p, g).verdict, Verdict::Unreachable);
    }
}

} // namespace
} // namespace tsoreach
