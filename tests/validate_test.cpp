// The static checks of lang/validate.hpp that find mistakes: goal states no
// transition mentions (with the names there are and the closest one), the
// positions of `final` declarations, and registers read before they are
// assigned on some path; and the name suggestions of lang/suggest.hpp.

#include "test_util.hpp"
#include "tsoreach/frontends/rmm/rmm.hpp"
#include "tsoreach/frontends/tsoreach/parser.hpp"
#include "tsoreach/lang/suggest.hpp"
#include "tsoreach/lang/validate.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

namespace tsoreach {
namespace {

std::vector<std::string> messages(const std::vector<Warning>& ws) {
    std::vector<std::string> out;
    for (const Warning& w : ws) {
        out.push_back(w.message);
    }
    return out;
}

// Peterson's thread t0 with `final crit` where the state is `cs`.
constexpr const char* kTypo = R"(thread t0
initial start
final crit
transition start flagged write 1 0
transition flagged test write 1 2
transition test gotflag read f 1
transition gotflag cs check == f 0
transition gotflag test check != f 0
transition cs out write 0 0
end
)";

TEST(Suggest, ClosestNameIsWithinTwoEditsAndShorterThanTheName) {
    const std::vector<std::string> names{"start", "flagged", "test", "gotflag", "cs", "out"};
    EXPECT_EQ(closestName("testt", names), "test");
    EXPECT_EQ(closestName("gotflga", names), "gotflag"); // a swap is one edit
    EXPECT_EQ(closestName("CS", names), "cs");           // case is ignored
    EXPECT_EQ(closestName("flaged", names), "flagged");
    EXPECT_EQ(closestName("crit", names), std::nullopt); // three edits from cs
    EXPECT_EQ(closestName("x", names), std::nullopt);
    EXPECT_EQ(closestName("a", std::vector<std::string>{"b"}), std::nullopt);
    EXPECT_EQ(closestName("q1", std::vector<std::string>{"q2", "q1x"}), "q2"); // first of a tie
    EXPECT_EQ(closestName("abc", std::vector<std::string>{}), std::nullopt);
}

TEST(Suggest, NameListStopsAfterAFewNames) {
    const std::vector<std::string> few{"a", "b"};
    EXPECT_EQ(nameList(few), "a, b");
    std::vector<std::string> many;
    for (int i = 0; i < 20; ++i) {
        many.push_back("q" + std::to_string(i));
    }
    EXPECT_EQ(nameList(many, 3), "q0, q1, q2, ... (20 in all)");
}

TEST(FinalPositions, TheParserKeepsWhereEachFinalStateIsFirstDeclared) {
    const Program p = parseProgram("thread t\ninitial a\nfinal  b\nfinal c final b\n"
                                   "transition a b noop\nend\n",
                                   "f.txt");
    const Thread& t = p.threads[0];
    ASSERT_EQ(t.finals.size(), 2U);
    ASSERT_EQ(t.finalPos.size(), 2U);
    EXPECT_EQ(t.finalPos[0], (SourcePos{3, 8}));
    EXPECT_EQ(t.finalPos[1], (SourcePos{4, 7}));
}

TEST(GoalStates, AFinalStateNoTransitionMentionsIsReportedAtItsDeclaration) {
    const Program p = parseProgram(kTypo, "pet-typo.txt");
    const std::vector<Warning> ws = unmentionedGoalStates(p, *defaultGoal(p), GoalOrigin::Finals);
    ASSERT_EQ(ws.size(), 1U);
    EXPECT_EQ(ws[0].pos, (SourcePos{3, 7}));
    EXPECT_EQ(ws[0].message, "final state 'crit' of thread 't0' is not a state of the thread: "
                             "no transition enters or leaves it (its states: start, flagged, "
                             "test, gotflag, cs, out)");
}

TEST(GoalStates, ACloseNameIsSuggested) {
    const Program p = test::parse("thread t\ninitial a\nfinal dnoe\ntransition a done noop\nend\n");
    const std::vector<Warning> ws = unmentionedGoalStates(p, *defaultGoal(p), GoalOrigin::Finals);
    ASSERT_EQ(ws.size(), 1U);
    EXPECT_NE(ws[0].message.find("(its states: a, done); did you mean 'done'?"), std::string::npos)
        << ws[0].message;
}

TEST(GoalStates, InitialStatesAndStatesOfTransitionsAreStates) {
    // A thread without transitions whose initial state is final; a final
    // state that is only a target; one that is only a source.
    const Program p = test::parse("thread t initial a final a end\n"
                                  "thread u initial a final b final a transition a b noop end\n"
                                  "thread v initial a final c transition c a noop end\n");
    EXPECT_TRUE(unmentionedGoalStates(p, *defaultGoal(p), GoalOrigin::Finals).empty());
    EXPECT_EQ(mentionedStates(p, ThreadId(2)), (std::vector<bool>{true, true}));
}

TEST(GoalStates, CommandLineGoalsPointAtTheThreadAndSayWhereTheyCameFrom) {
    const Program p = parseProgram(kTypo, "pet-typo.txt");
    // 'crit' is a name of the thread (its `final` line), but no state.
    const Goal g = parseGoalSpec(p, "t0=crit");
    const std::vector<Warning> ws = unmentionedGoalStates(p, g, GoalOrigin::CommandLine);
    ASSERT_EQ(ws.size(), 1U);
    EXPECT_EQ(ws[0].pos, (SourcePos{1, 1}));
    EXPECT_EQ(ws[0].message.rfind("goal state 'crit' of thread 't0' (--goal) is not a state", 0),
              0U)
        << ws[0].message;
    EXPECT_TRUE(
        unmentionedGoalStates(p, parseGoalSpec(p, "t0=cs"), GoalOrigin::CommandLine).empty());
}

TEST(GoalStates, AGoalSpecWithANameTheThreadDoesNotHaveNamesTheThread) {
    const Program p = parseProgram(kTypo, "pet-typo.txt");
    try {
        (void)parseGoalSpec(p, "t0=tset");
        FAIL() << "no error";
    } catch (const GoalSpecError& e) {
        EXPECT_EQ(e.thread(), ThreadId(0));
        EXPECT_NE(std::string(e.what()).find("did you mean 'test'?"), std::string::npos)
            << e.what();
    }
    try {
        (void)parseGoalSpec(p, "t1=cs");
        FAIL() << "no error";
    } catch (const GoalSpecError& e) {
        EXPECT_FALSE(e.thread().valid());
        EXPECT_NE(std::string(e.what()).find("did you mean 't0'?"), std::string::npos) << e.what();
    }
}

TEST(GoalStates, EveryTermAndThreadIsChecked) {
    const Program p = test::parse("thread t initial a final x transition a b noop end\n"
                                  "thread u initial a final y transition a b noop end\n");
    Goal g = parseGoalSpec(p, "t=b,u=y");
    g.addTerm();
    g.accept(ThreadId(0), StateId(1)); // t=x
    const std::vector<Warning> ws = unmentionedGoalStates(p, g, GoalOrigin::Declared);
    ASSERT_EQ(ws.size(), 2U);
    EXPECT_EQ(ws[0].message.rfind("goal state 'x' of thread 't'", 0), 0U) << ws[0].message;
    EXPECT_EQ(ws[1].message.rfind("goal state 'y' of thread 'u'", 0), 0U) << ws[1].message;
    // A declared goal's final state points at its declaration.
    EXPECT_EQ(ws[0].pos, (SourcePos{1, 26}));
}

TEST(GoalStates, RmmForbiddenLabelsAreStatesWithTheirPositions) {
    const RmmTranslation t = translateRmm("forbidden\n  L1 L2\n"
                                          "process\ntext\n  L0: nop;\n  L1: goto L1\n"
                                          "process\ntext\n  L2: nop\n",
                                          "f.rmm");
    EXPECT_TRUE(unmentionedGoalStates(t.program, t.goal, GoalOrigin::Declared).empty());
    ASSERT_EQ(t.program.threads[1].finalPos.size(), 1U);
    EXPECT_EQ(t.program.threads[1].finalPos[0], (SourcePos{2, 6}));
}

TEST(RegisterReads, AReadBeforeAnAssignmentOnOnePathOnlyIsReported) {
    // r is assigned on the left branch only; both meet at c, which reads it.
    const Program p = test::parse(R"(thread t
initial a
transition a b local r 1
transition a b2 noop
transition b c noop
transition b2 c noop
transition c d check == r 1
transition d e local u + s r
end
)");
    const std::vector<Warning> ws = unassignedRegisterReads(p);
    ASSERT_EQ(ws.size(), 2U);
    EXPECT_EQ(ws[0].pos, (SourcePos{7, 1}));
    EXPECT_EQ(ws[0].message,
              "register 'r' may be read before it is assigned: some path from the initial "
              "state 'a' reaches this transition without assigning it (registers start at 0)");
    EXPECT_EQ(ws[1].pos, (SourcePos{8, 1}));
    EXPECT_EQ(ws[1].message, "register 's' may be read before it is assigned: no instruction of "
                             "thread 't' assigns it, so it is always 0");
}

TEST(RegisterReads, AssignedOnEveryPathIsNotReported) {
    const Program p = test::parse(R"(thread t
initial a
transition a b read r 0
transition a b local r 2
transition b b local r + r 1
transition b c check == r 3
transition c d write r r
transition d d2 read q + q 0
end
thread u
initial a
transition a b read r 0
end
)");
    // q is read by the read that assigns it: its address comes first.
    const std::vector<Warning> ws = unassignedRegisterReads(p);
    ASSERT_EQ(ws.size(), 1U);
    EXPECT_EQ(ws[0].pos.line, 8U);
    EXPECT_NE(ws[0].message.find("register 'q'"), std::string::npos);
}

TEST(RegisterReads, AddressesAndEveryInstructionCount) {
    const Program p = test::parse(R"(thread t
initial a
transition a b write 1 x
transition b c lockfor y
transition c d unlockfor y
transition d e check z
end
)");
    const std::vector<std::string> m = messages(unassignedRegisterReads(p));
    ASSERT_EQ(m.size(), 3U);
    EXPECT_EQ(m[0].rfind("register 'x' may be read before it is assigned: no instruction", 0), 0U);
    EXPECT_EQ(m[1].rfind("register 'y'", 0), 0U);
    EXPECT_EQ(m[2].rfind("register 'z'", 0), 0U);
}

TEST(RegisterReads, StatesNoPathReachesAreNotReported) {
    const Program p = test::parse("thread t initial a transition a b local r 1 "
                                  "transition z b check r transition b c check r end\n");
    EXPECT_TRUE(unassignedRegisterReads(p).empty());
}

TEST(RegisterReads, ALoopBackToTheStartUnassignsNothing) {
    // The read of r at the loop head is unassigned on the first round only.
    const Program p = test::parse("thread t initial a transition a b check == r 0 "
                                  "transition b a local r 1 end\n");
    const std::vector<Warning> ws = unassignedRegisterReads(p);
    ASSERT_EQ(ws.size(), 1U);
    EXPECT_NE(ws[0].message.find("some path from the initial state 'a'"), std::string::npos);
}

TEST(RegisterReads, ManyRegistersAreCheckedSixtyFourAtATime) {
    // 150 registers, each assigned then read, except every tenth, which is
    // read first.
    std::string text = "thread t\ninitial s0\n";
    std::size_t state = 0;
    auto edge = [&](const std::string& instr) {
        text += "transition s" + std::to_string(state) + " s" + std::to_string(state + 1) + " " +
                instr + "\n";
        ++state;
    };
    for (int i = 0; i < 150; ++i) {
        const std::string r = "r" + std::to_string(i);
        if (i % 10 != 0) {
            edge("local " + r + " " + std::to_string(i));
        }
        edge("check == " + r + " " + std::to_string(i));
        if (i % 10 == 0) {
            edge("local " + r + " 7");
        }
    }
    const Program p = test::parse(text + "end\n");
    const std::vector<std::string> m = messages(unassignedRegisterReads(p));
    ASSERT_EQ(m.size(), 15U);
    for (std::size_t k = 0; k < m.size(); ++k) {
        EXPECT_EQ(m[k].rfind("register 'r" + std::to_string(10 * k) + "' ", 0), 0U) << m[k];
    }
}

TEST(RegisterReads, AStopConditionThatHoldsStopsTheAnalysis) {
    const Program p = test::parse("thread t initial a transition a b check r end\n");
    std::atomic<bool> stop{true};
    EXPECT_THROW((void)unassignedRegisterReads(p, StopCondition().orWhen(stop)), Stopped);
}

} // namespace
} // namespace tsoreach
