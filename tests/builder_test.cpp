// The program builder (lang/builder.hpp): a program built item by item is
// the one the parser gives for the same items as text, ids, names,
// expression pool and positions included.

#include "support/identical_programs.hpp"
#include "test_util.hpp"

#include "tsoreach/lang/builder.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lang/validate.hpp"

#include <gtest/gtest.h>

namespace tsoreach {
namespace {

using test::expectIdentical;

// `p` again through the builder, item by item, with p's positions.
Program rebuild(const Program& p, const StopCondition& stop = StopCondition()) {
    ProgramBuilder b(p.sourceName, stop);
    b.setMemory(p.memory);
    for (const Thread& t : p.threads) {
        b.addThread(t.name, t.stateNames[t.initial.index()], t.pos);
        for (std::size_t i = 0; i < t.finals.size(); ++i) {
            b.addFinal(b.state(t.stateNames[t.finals[i].index()]), t.finalPos[i]);
        }
        for (TransitionId id : t.transitions) {
            const Transition& tr = p.transition(id);
            const StateId from = b.state(t.stateNames[tr.from.index()]);
            const StateId to = b.state(t.stateNames[tr.to.index()]);
            b.addTransition(from, to, b.copy(p, tr), tr.pos);
        }
    }
    return b.build();
}

std::vector<std::filesystem::path> programFiles() {
    std::vector<std::filesystem::path> out =
        test::filesUnder(TSOREACH_SOURCE_DIR "/examples", ".txt");
    for (const auto& f : test::filesUnder(TSOREACH_CORPUS_DIR "/trencher", ".txt")) {
        out.push_back(f);
    }
    return out;
}

TEST(Builder, RebuildsEveryExampleAsParsed) {
    const std::vector<std::filesystem::path> files = programFiles();
    ASSERT_GT(files.size(), 40U);
    for (const auto& f : files) {
        const Program p = parseProgramFile(f.string());
        expectIdentical(rebuild(p), p, f.filename().string());
    }
}

// Registers are numbered by first use in the transitions, operands in
// written order, whatever order their handles were made in.
TEST(Builder, NumbersRegistersByFirstUse) {
    ProgramBuilder b("built");
    b.addThread("t", "a");
    const RegId z = b.reg("z");
    const RegId y = b.reg("y");
    const RegId x = b.reg("x");
    const StateId a = b.state("a");
    const StateId c = b.state("c");
    b.addTransition(
        a, c,
        Instr::write(Expr::apply(ExprOp::Add, Expr::reg(x), Expr::constant(2)), Expr::reg(y)));
    b.addTransition(c, a, Instr::read(z, Expr::apply(ExprOp::Not, Expr::reg(x))));
    const Program built = b.build();
    const std::string text = "thread t\ninitial a\ntransition a c write + x 2 y\n"
                             "transition c a read z ! x\nend\n";
    expectIdentical(built, parseProgram(text, "built"), "registers", false);
    EXPECT_EQ(built.threads[0].regNames, (std::vector<std::string>{"x", "y", "z"}));
}

// A flat prefix-order expression is taken as it is, registers by handle,
// and must be exactly one expression.
TEST(Builder, TakesExpressionsInPrefixOrder) {
    ProgramBuilder b("built");
    b.addThread("t", "a");
    const RegId r = b.reg("r");
    const Expr e = Expr::prefix({{ExprOp::Sub, RegId(), 0, VarId()},
                                 {ExprOp::Reg, r, 0, VarId()},
                                 {ExprOp::Const, RegId(), -3, VarId()}});
    b.addTransition(b.state("a"), b.state("a"), Instr::local(r, e));
    expectIdentical(
        b.build(),
        parseProgram("thread t\ninitial a\ntransition a a local r - r -3\nend\n", "built"),
        "prefix", false);
    EXPECT_THROW((void)Expr::prefix({}), std::logic_error);
    EXPECT_THROW((void)Expr::prefix(
                     {{ExprOp::Add, RegId(), 0, VarId()}, {ExprOp::Const, RegId(), 1, VarId()}}),
                 std::logic_error);
    EXPECT_THROW((void)Expr::prefix(
                     {{ExprOp::Const, RegId(), 1, VarId()}, {ExprOp::Const, RegId(), 2, VarId()}}),
                 std::logic_error);
}

TEST(Builder, RefusesStatesOutOfCanonicalOrder) {
    ProgramBuilder b("built");
    b.addThread("t", "a");
    const StateId late = b.state("late"); // numbered before the final below
    const StateId goal = b.state("goal");
    b.addFinal(goal);
    b.addTransition(b.state("a"), late, Instr::plain(InstrKind::Noop));
    EXPECT_THROW((void)b.build(), std::logic_error);

    ProgramBuilder unused("built");
    unused.addThread("t", "a");
    (void)unused.state("never");
    EXPECT_THROW((void)unused.build(), std::logic_error);
}

TEST(Builder, ChecksWhatTheParserChecks) {
    auto oneThread = [](const std::string& thread, const std::string& state,
                        const std::string& reg) {
        ProgramBuilder b("built");
        b.addThread(thread, "a");
        b.addTransition(b.state("a"), b.state(state), Instr::local(b.reg(reg), Expr::constant(1)));
        return b.build();
    };
    EXPECT_NO_THROW((void)oneThread("t", "b|1", "$r"));
    EXPECT_THROW((void)oneThread("t t", "b", "r"), InputError);
    EXPECT_THROW((void)oneThread("t", "b#", "r"), InputError);
    EXPECT_THROW((void)oneThread("t", "b", "1r"), InputError);
    EXPECT_THROW((void)oneThread("t", "b", "end"), InputError);
    EXPECT_THROW((void)ProgramBuilder("empty").build(), InputError);
    ProgramBuilder twice("built");
    twice.addThread("t", "a");
    twice.addThread("t", "a");
    EXPECT_THROW((void)twice.build(), InputError);
    ProgramBuilder noOperand("built");
    noOperand.addThread("t", "a");
    EXPECT_THROW(
        noOperand.addTransition(noOperand.state("a"), noOperand.state("a"), Instr::check(Expr())),
        std::logic_error);
}

// Long builds poll the stop condition (every 256 transitions), as the
// parser of generated programs did.
TEST(Builder, PollsTheStopCondition) {
    std::string text = "thread t\ninitial q0\n";
    for (int i = 0; i < 1000; ++i) {
        text += "transition q" + std::to_string(i) + " q" + std::to_string(i + 1) + " write 1 " +
                std::to_string(i % 7) + "\n";
    }
    text += "end\n";
    const Program p = parseProgram(text, "long");
    std::atomic<bool> flag{true};
    EXPECT_THROW((void)rebuild(p, StopCondition().orWhen(flag)), Stopped);
    flag = false;
    expectIdentical(rebuild(p, StopCondition().orWhen(flag)), p, "long");
}

} // namespace
} // namespace tsoreach
