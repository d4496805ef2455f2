// Parser of language.md: the Program built from good input (names, canonical
// state numbering, expressions in prefix order, outgoing index, source lines),
// the exact position and message of every kind of input error, inputs far too
// large or too deep for a recursive parser or for 32-bit ids, and the shared
// corpus.

#include "test_util.hpp"
#include "tsoreach/frontends/rmm/rmm.hpp"
#include "tsoreach/frontends/tsoreach/parser.hpp"
#include "tsoreach/lang/expr.hpp"
#include "tsoreach/lang/printer.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <ostream>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/mman.h>
#include <vector>

namespace tsoreach {
namespace {

using namespace std::string_literals; // "..."s keeps embedded NUL bytes

constexpr Value kMin = std::numeric_limits<Value>::min();
constexpr Value kMax = std::numeric_limits<Value>::max();

// An expression as readable tokens: operators by spelling, constants as
// numbers, registers as "reg:NAME" so that "-5" and "- 0 5" differ.
std::vector<std::string> render(const Program& p, const Thread& t, ExprRef e) {
    std::vector<std::string> out;
    for (const ExprNode& n : p.expr(e)) {
        if (n.op == ExprOp::Const) {
            out.push_back(std::to_string(n.value));
        } else if (n.op == ExprOp::Reg) {
            out.push_back("reg:" + t.regNames.at(n.reg.index()));
        } else {
            out.emplace_back(spelling(n.op));
        }
    }
    return out;
}

std::vector<std::uint32_t> ids(std::span<const TransitionId> ts) {
    std::vector<std::uint32_t> out;
    for (TransitionId t : ts) {
        out.push_back(t.value);
    }
    return out;
}

Value evalWith(const Program& p, ExprRef e, const std::vector<Value>& regs) {
    std::vector<Value> stack(p.maxExprStack);
    return evaluate(p.expr(e), regs, stack);
}

// Every operator of language.md, spelled out here rather than taken from the
// parser's own table, so that a wrong table entry is caught.
const std::vector<std::pair<std::string, ExprOp>>& allOperators() {
    static const std::vector<std::pair<std::string, ExprOp>> ops = {
        {"!", ExprOp::Not}, {"==", ExprOp::Eq}, {"!=", ExprOp::Ne},    {"<", ExprOp::Lt},
        {"<=", ExprOp::Le}, {">", ExprOp::Gt},  {">=", ExprOp::Ge},    {"&&", ExprOp::And},
        {"||", ExprOp::Or}, {"+", ExprOp::Add}, {"-", ExprOp::Sub},    {"*", ExprOp::Mul},
        {"/", ExprOp::Div}, {"%", ExprOp::Rem}, {"&", ExprOp::BitAnd},
    };
    return ops;
}

// ---------------------------------------------------------------------------
// Good input

// Every operator once, nested so that a misplaced operand changes the tree.
// A macro so that it can be pasted into the literal kGood.
#define MIXED_EXPR                                                                                 \
    "|| ! == a 1 && != b -2 || < a 3 && <= b 4 || > a 5 && >= b 6 == & a 7 % + a 8 - * b 9 / a 10"

// The tokens of `text` in the form of render(): identifiers are registers.
std::vector<std::string> asWritten(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string tok; in >> tok;) {
        bool ident = std::isalpha(static_cast<unsigned char>(tok[0])) != 0;
        out.push_back(ident ? "reg:" + tok : tok);
    }
    return out;
}

// Line numbers matter: the test checks Transition::pos.line. Mixed LF/CRLF,
// tabs, comments on their own line, after tokens and glued to a token.
const std::string kGood = "# leading comment\n"                                  // 1
                          "thread t0   # comment after a token\r\n"              // 2
                          "\tinitial q0#comment glued to a token\n"              // 3
                          "final end\n"                                          // 4
                          "final q<\t# a tab before the comment\r\n"             // 5
                          "final end\n"                                          // 6
                          "\n"                                                   // 7
                          "  # own-line comment inside a thread\n"               // 8
                          "transition q0 q< read $r_1 + x -5\n"                  // 9
                          "transition q< q= write - 0 5 9223372036854775807\r\n" // 10
                          "transition q= end local _y -9223372036854775808\n"    // 11
                          "transition q0 q1 check " MIXED_EXPR " # comment\n"    // 12
                          "transition q1 q0 mfence\n"                            // 13
                          "transition q1 q1 noop\n"                              // 14
                          "transition q= q1 lock\n"                              // 15
                          "transition q1 end unlock\n"                           // 16
                          "transition\tq1\tq1\tlocal\tz\t+ + + + 1 2 3 4 5\n"    // 17
                          "end # t0\n"                                           // 18
                          "thread t1 initial only end\n"                         // 19
                          "thread transition\n"                                  // 20
                          "initial s\n"                                          // 21
                          "transition s s read x x\n"                            // 22
                          "end";                                                 // 23

TEST(ParserGood, ThreadsStatesAndRegisters) {
    Program p = test::parse(kGood);
    EXPECT_EQ(p.sourceName, "test.txt");
    ASSERT_EQ(p.threads.size(), 3U);

    const Thread& t0 = p.threads[0];
    EXPECT_EQ(t0.name, "t0");
    EXPECT_EQ(t0.pos, (SourcePos{2, 1}));
    // Initial first, then finals in order, then by first use in transitions.
    EXPECT_EQ(t0.stateNames, (std::vector<std::string>{"q0", "end", "q<", "q=", "q1"}));
    EXPECT_EQ(t0.initial, StateId(0));
    // `final end` twice counts once.
    EXPECT_EQ(t0.finals, (std::vector<StateId>{StateId(1), StateId(2)}));
    EXPECT_TRUE(t0.isFinal(StateId(1)));
    EXPECT_FALSE(t0.isFinal(StateId(0)));
    EXPECT_EQ(t0.regNames, (std::vector<std::string>{"$r_1", "x", "_y", "a", "b", "z"}));

    const Thread& t1 = p.threads[1];
    EXPECT_EQ(t1.name, "t1");
    EXPECT_EQ(t1.pos, (SourcePos{19, 1}));
    EXPECT_EQ(t1.stateNames, (std::vector<std::string>{"only"}));
    EXPECT_EQ(t1.initial, StateId(0));
    EXPECT_TRUE(t1.finals.empty());
    EXPECT_TRUE(t1.regNames.empty());
    EXPECT_TRUE(t1.transitions.empty());
    EXPECT_TRUE(t1.outgoingOf(StateId(0)).empty());

    // A keyword is a valid thread name; registers are local to their thread.
    const Thread& t2 = p.threads[2];
    EXPECT_EQ(t2.name, "transition");
    EXPECT_EQ(t2.stateNames, (std::vector<std::string>{"s"}));
    EXPECT_EQ(t2.regNames, (std::vector<std::string>{"x"}));

    EXPECT_EQ(p.findThread("transition"), ThreadId(2));
    EXPECT_FALSE(p.findThread("t3").valid());
    EXPECT_TRUE(p.hasFinals());
}

TEST(ParserGood, TransitionsAndOutgoingIndex) {
    Program p = test::parse(kGood);
    struct Expected {
        std::uint32_t thread, from, to;
        InstrKind kind;
        std::uint32_t line;
    };
    const std::vector<Expected> expected = {
        {0, 0, 2, InstrKind::Read, 9},    {0, 2, 3, InstrKind::Write, 10},
        {0, 3, 1, InstrKind::Local, 11},  {0, 0, 4, InstrKind::Check, 12},
        {0, 4, 0, InstrKind::Mfence, 13}, {0, 4, 4, InstrKind::Noop, 14},
        {0, 3, 4, InstrKind::Lock, 15},   {0, 4, 1, InstrKind::Unlock, 16},
        {0, 4, 4, InstrKind::Local, 17},  {2, 0, 0, InstrKind::Read, 22},
    };
    ASSERT_EQ(p.transitions.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        SCOPED_TRACE("transition " + std::to_string(i));
        const Transition& tr = p.transitions[i];
        EXPECT_EQ(tr.thread, ThreadId(expected[i].thread));
        EXPECT_EQ(tr.from, StateId(expected[i].from));
        EXPECT_EQ(tr.to, StateId(expected[i].to));
        EXPECT_EQ(tr.instr.kind, expected[i].kind);
        EXPECT_EQ(tr.pos.line, expected[i].line);
        EXPECT_EQ(tr.pos.col, 1U);
    }
    const Thread& t0 = p.threads[0];
    EXPECT_EQ(ids(t0.transitions), (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
    EXPECT_EQ(ids(p.threads[2].transitions), (std::vector<std::uint32_t>{9}));
    // Outgoing by source state, in declaration order within a state.
    EXPECT_EQ(ids(t0.outgoingOf(StateId(0))), (std::vector<std::uint32_t>{0, 3}));
    EXPECT_EQ(ids(t0.outgoingOf(StateId(1))), (std::vector<std::uint32_t>{}));
    EXPECT_EQ(ids(t0.outgoingOf(StateId(2))), (std::vector<std::uint32_t>{1}));
    EXPECT_EQ(ids(t0.outgoingOf(StateId(3))), (std::vector<std::uint32_t>{2, 6}));
    EXPECT_EQ(ids(t0.outgoingOf(StateId(4))), (std::vector<std::uint32_t>{4, 5, 7, 8}));
    EXPECT_EQ(ids(p.threads[2].outgoingOf(StateId(0))), (std::vector<std::uint32_t>{9}));
}

TEST(ParserGood, InstructionOperands) {
    Program p = test::parse(kGood);
    const Thread& t0 = p.threads[0];
    const auto& tr = p.transitions;
    using V = std::vector<std::string>;

    // read REG ADDR; "-5" is one negative literal.
    EXPECT_EQ(tr[0].instr.reg, RegId(0));
    EXPECT_EQ(render(p, t0, tr[0].instr.addr), (V{"+", "reg:x", "-5"}));
    EXPECT_TRUE(tr[0].instr.value.empty());
    ASSERT_EQ(p.expr(tr[0].instr.addr).size(), 3U);
    EXPECT_EQ(p.expr(tr[0].instr.addr)[0].op, ExprOp::Add);
    EXPECT_EQ(p.expr(tr[0].instr.addr)[1].op, ExprOp::Reg);
    EXPECT_EQ(p.expr(tr[0].instr.addr)[1].reg, RegId(1));
    EXPECT_EQ(p.expr(tr[0].instr.addr)[2].op, ExprOp::Const);
    EXPECT_EQ(p.expr(tr[0].instr.addr)[2].value, -5);

    // write VALUE ADDR: value first; "- 0 5" is the binary minus.
    EXPECT_EQ(render(p, t0, tr[1].instr.value), (V{"-", "0", "5"}));
    EXPECT_EQ(p.expr(tr[1].instr.value)[0].op, ExprOp::Sub);
    ASSERT_EQ(p.expr(tr[1].instr.addr).size(), 1U);
    EXPECT_EQ(p.expr(tr[1].instr.addr)[0].value, kMax);
    EXPECT_FALSE(tr[1].instr.reg.valid());

    // local REG EXPR with INT64_MIN.
    EXPECT_EQ(tr[2].instr.reg, RegId(2));
    ASSERT_EQ(p.expr(tr[2].instr.value).size(), 1U);
    EXPECT_EQ(p.expr(tr[2].instr.value)[0].op, ExprOp::Const);
    EXPECT_EQ(p.expr(tr[2].instr.value)[0].value, kMin);
    EXPECT_TRUE(tr[2].instr.addr.empty());

    // check EXPR with every operator, kept in prefix order as written.
    EXPECT_EQ(render(p, t0, tr[3].instr.value), asWritten(MIXED_EXPR));
    EXPECT_TRUE(tr[3].instr.addr.empty());

    // Instructions without operands carry none.
    for (std::size_t i : {4U, 5U, 6U, 7U}) {
        EXPECT_TRUE(tr[i].instr.value.empty()) << i;
        EXPECT_TRUE(tr[i].instr.addr.empty()) << i;
        EXPECT_FALSE(tr[i].instr.reg.valid()) << i;
    }

    EXPECT_EQ(tr[8].instr.reg, RegId(5));
    EXPECT_EQ(render(p, t0, tr[8].instr.value), (V{"+", "+", "+", "+", "1", "2", "3", "4", "5"}));

    // The register of the other thread named x is its own RegId 0.
    EXPECT_EQ(tr[9].instr.reg, RegId(0));
    EXPECT_EQ(render(p, p.threads[2], tr[9].instr.addr), (V{"reg:x"}));
}

TEST(ParserGood, MaxExprStackAndEvaluation) {
    Program p = test::parse(kGood);
    // `+ + + + 1 2 3 4 5` needs all five operands on the stack at once; the
    // long check expression needs only three.
    EXPECT_EQ(p.maxExprStack, 5U);
    EXPECT_EQ(stackDepth(p.expr(p.transitions[3].instr.value)), 3U);
    EXPECT_EQ(evalWith(p, p.transitions[8].instr.value, std::vector<Value>(6, 0)), 15);
    EXPECT_EQ(evalWith(p, p.transitions[1].instr.value, std::vector<Value>(6, 0)), -5);
    // Registers: $r_1 x _y a b z.
    EXPECT_EQ(evalWith(p, p.transitions[0].instr.addr, {0, 7, 0, 0, 0, 0}), 2);
    // Reference values computed by hand from the prefix reading.
    EXPECT_EQ(evalWith(p, p.transitions[3].instr.value, {0, 0, 0, 1, -2, 0}), 0);
    EXPECT_EQ(evalWith(p, p.transitions[3].instr.value, {0, 0, 0, 0, 0, 0}), 1);
}

TEST(ParserGood, EveryOperatorHasItsArity) {
    for (const auto& [spell, op] : allOperators()) {
        SCOPED_TRACE(spell);
        bool unary = op == ExprOp::Not;
        Program p = test::parse("thread t initial q transition q q check " + spell +
                                (unary ? " 7" : " 7 3") + " end");
        ASSERT_EQ(p.transitions.size(), 1U);
        auto nodes = p.expr(p.transitions[0].instr.value);
        ASSERT_EQ(nodes.size(), unary ? 2U : 3U);
        EXPECT_EQ(nodes[0].op, op);
        EXPECT_EQ(nodes[1].op, ExprOp::Const);
        EXPECT_EQ(nodes[1].value, 7);
        if (!unary) {
            EXPECT_EQ(nodes[2].value, 3);
        }
    }
}

TEST(ParserGood, StateNamesAreAnyToken) {
    // Keywords and operator-like tokens are valid state names by position.
    Program p = test::parse("thread end initial final final end final transition\n"
                            "transition end thread noop\n"
                            "transition transition q< check == 1 1\n"
                            "transition q< q= noop\n"
                            "end");
    ASSERT_EQ(p.threads.size(), 1U);
    const Thread& t = p.threads[0];
    EXPECT_EQ(t.name, "end");
    EXPECT_EQ(t.stateNames,
              (std::vector<std::string>{"final", "end", "transition", "thread", "q<", "q="}));
    EXPECT_EQ(t.finals, (std::vector<StateId>{StateId(1), StateId(2)}));
    ASSERT_EQ(p.transitions.size(), 3U);
    EXPECT_EQ(p.transitions[0].from, StateId(1));
    EXPECT_EQ(p.transitions[0].to, StateId(3));
    EXPECT_EQ(p.transitions[1].from, StateId(2));
    EXPECT_EQ(p.transitions[1].to, StateId(4));
    EXPECT_EQ(p.transitions[2].to, StateId(5));
}

TEST(ParserGood, RegisterNamesAreAnyTokenButNumbersAndOperators) {
    // As in Trencher (its spinlock examples use `reg-1`): a token is one
    // register whatever its characters, since tokens are split by white
    // space only; `- a 1` is the subtraction, `a-1` a register.
    Program p = test::parse("thread t initial q\n"
                            "transition q q read reg-1 a-1\n"
                            "transition q q local @ - a-1 1\n"
                            "transition q q check == --5 read\n"
                            "end");
    const Thread& t = p.threads[0];
    EXPECT_EQ(t.regNames, (std::vector<std::string>{"reg-1", "a-1", "@", "--5", "read"}));
    std::vector<Value> regs = {0, 7, 0, 0, 0};
    EXPECT_EQ(evalWith(p, p.transitions[1].instr.value, regs), 6);
    EXPECT_EQ(test::parse(printProgram(p)).threads[0].regNames, t.regNames);
}

TEST(ParserGood, NoFinalsMeansNoGoal) {
    Program p = test::parse("thread a initial q end thread b initial r end");
    EXPECT_EQ(p.threads.size(), 2U);
    EXPECT_FALSE(p.hasFinals());
    EXPECT_EQ(p.maxExprStack, 1U);
}

TEST(ParserGood, BinaryBytesInsideCommentsAreIgnored) {
    Program p = test::parse("# \x7f"
                            "ELF\x01\x00\xff\n"s +
                            "thread t initial q end #\x00\x80"s);
    ASSERT_EQ(p.threads.size(), 1U);
    EXPECT_EQ(p.threads[0].pos, (SourcePos{2, 1}));
}

TEST(ParserGood, VerticalTabAndFormFeedAreBlanks) {
    Program p = test::parse("thread\vt\finitial q\r\nend");
    ASSERT_EQ(p.threads.size(), 1U);
    EXPECT_EQ(p.threads[0].name, "t");
}

// ---------------------------------------------------------------------------
// Malformed input

struct BadCase {
    std::string name; // test name suffix
    std::string input;
    std::uint32_t line;
    std::uint32_t col;
    std::string message; // substring of InputError::message()
};

void PrintTo(const BadCase& c, std::ostream* os) {
    *os << c.name;
}

// Both lines of a thread before the line under test, so errors land on line 3.
const std::string kHead = "thread t\ninitial q\n";

std::vector<BadCase> badCases() {
    return {
        {"UnknownInstruction", kHead + "transition q q jump\nend\n", 3, 16,
         "unknown instruction 'jump' (expected read, write, joinwrite, local, check, mfence, noop, "
         "lock, unlock, atomic, endatomic, lockfor or unlockfor)"},
        // The instruction forgotten: the error must still point at `end`.
        {"InstructionMissingBeforeEnd", kHead + "transition q q\nend\n", 4, 1, "'end'"},
        {"EndMissingAtEof", kHead + "transition q q noop\n", 4, 1,
         "missing 'end' of thread 't' (opened at 1:1)"},
        {"EndMissingBeforeNextThread", kHead + "thread u\ninitial q\nend\n", 3, 1,
         "missing 'end' of thread 't' (opened at 1:1) before the next 'thread'"},
        {"InitialMissing", "thread t\nfinal q\ntransition q q noop\nend\n", 4, 1,
         "thread 't' has no 'initial' state"},
        {"InitialRepeated", kHead + "  initial r\nend\n", 3, 3,
         "thread 't' has a second 'initial' state 'r' (the first is 'q' at 2:9)"},
        {"InitialMissingState", "thread t\ninitial", 2, 8,
         "expected a state name after 'initial', found end of file"},
        {"FinalMissingState", "thread t initial q final", 1, 25,
         "expected a state name after 'final', found end of file"},
        {"ExprCutShortByEof", kHead + "transition q q check + 1", 3, 25,
         "expression cut short in 'check': expected an operand, found end of file"},
        {"ExprCutShortByTransition", kHead + "transition q q write 1\ntransition q q noop\nend\n",
         4, 1, "expression cut short in 'write': expected an operand, found keyword 'transition'"},
        {"ExprCutShortByEnd", kHead + "transition q q check == 1\nend\n", 4, 1,
         "expression cut short in 'check': expected an operand, found keyword 'end'"},
        {"ExprCutShortByThread", kHead + "transition q q local r !\nthread u\n", 4, 1,
         "expression cut short in 'local': expected an operand, found keyword 'thread'"},
        {"ExprCutShortCrlf", "thread t\r\ninitial q\r\ntransition q q read r\r\nend\r\n", 4, 1,
         "expression cut short in 'read': expected an operand, found keyword 'end'"},
        {"MinusAloneIsBinary", kHead + "transition q q check - 5\nend\n", 4, 1,
         "expression cut short in 'check'"},
        {"IntegerTooLarge", kHead + "transition q q check 9223372036854775808\nend\n", 3, 22,
         "integer '9223372036854775808' out of range (values are signed 64-bit integers)"},
        {"IntegerTooSmall", kHead + "transition q q check -9223372036854775809\nend\n", 3, 22,
         "integer '-9223372036854775809' out of range"},
        {"IntegerWithLetters", kHead + "transition q q check 12ab\nend\n", 3, 22,
         "invalid integer '12ab'"},
        {"IntegerHex", kHead + "transition q q write 0x10 0\nend\n", 3, 22,
         "invalid integer '0x10'"},
        {"IntegerFraction", kHead + "transition q q write 1 1.5\nend\n", 3, 24,
         "invalid integer '1.5'"},
        {"PlusSignedLiteral", kHead + "transition q q check +5\nend\n", 3, 22,
         "invalid integer '+5'"},
        {"DigitThenLetters", kHead + "transition q q check == r 12abc\nend\n", 3, 27,
         "invalid integer '12abc'"},
        {"DuplicateThread", "thread t initial q end\n\nthread  t initial q end\n", 3, 9,
         "duplicate thread name 't' (first declared at 1:1)"},
        {"TransitionOutsideThread", "transition q q noop\n", 1, 1,
         "'transition' outside a thread (expected 'thread')"},
        {"InitialOutsideThread", "\n  initial q\n", 2, 3, "'initial' outside a thread"},
        {"FinalOutsideThread", "thread t initial q end\nfinal q\n", 2, 1,
         "'final' outside a thread"},
        {"EndOutsideThread", "thread t initial q end end\n", 1, 24, "'end' outside a thread"},
        {"JunkOutsideThread", "thread t initial q end\nprocess p\n", 2, 1,
         "expected 'thread', found 'process'"},
        {"EmptyFile", "", 1, 1, "empty program: expected at least one 'thread'"},
        {"OnlyCommentsAndBlanks", "# a\n\n   # b\n\t\n", 5, 1, "empty program"},
        // Literals are split where a hex escape would swallow the next letter.
        {"ElfHeader",
         "\x7f"
         "ELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00"s,
         1, 1, "unexpected byte 0x7f (tokens are printable ASCII; is this a binary file?)"},
        {"NulByteAfterHead", kHead + "\x00\x9c\x13\xfe garbage"s, 3, 1, "unexpected byte 0x00"},
        {"NulByteInsideToken",
         "thread a\x00"
         "b initial q end"s,
         1, 9, "unexpected byte 0x00"},
        {"HighByteAfterSpaces", kHead + "   \xfe\xff"s, 3, 4, "unexpected byte 0xfe"},
        {"ControlByteAfterEnd", kHead + "end \x01"s, 3, 5, "unexpected byte 0x01"},
        {"NonAsciiInName", "thread caf\xc3\xa9 initial q end\n", 1, 11, "unexpected byte 0xc3"},
        {"ReadRegisterAtEof", kHead + "transition q q read", 3, 20,
         "expected a register after 'read', found end of file"},
        {"LocalRegisterBeforeEnd", kHead + "transition q q local\nend\n", 4, 1,
         "expected a register after 'local', found keyword 'end'"},
        {"RegisterStartsWithDigit", kHead + "transition q q local 1x 0\nend\n", 3, 22,
         "expected a register after 'local', found '1x' (a register is any token but an "
         "integer or an operator)"},
        {"RegisterIsOperator", kHead + "transition q q read - 0\nend\n", 3, 21,
         "expected a register after 'read', found '-'"},
        {"RegisterIsNegative", kHead + "transition q q local -7 0\nend\n", 3, 22,
         "expected a register after 'local', found '-7'"},
        {"RegisterIsKeyword", kHead + "transition q q read end 0\nend\n", 3, 21,
         "expected a register after 'read', found keyword 'end'"},
        {"ThreadNameAtEof", "thread   ", 1, 10,
         "expected a thread name after 'thread', found end of file"},
        {"SourceStateAtEof", kHead + "transition", 3, 11,
         "expected a source state after 'transition', found end of file"},
        {"DestinationStateAtEof", kHead + "transition q", 3, 13,
         "expected a destination state after 'transition', found end of file"},
        {"InstructionAtEof", kHead + "transition q q  ", 3, 17,
         "expected an instruction after 'transition q q', found end of file"},
        {"UnknownItemInThread", kHead + "state r\nend\n", 3, 1,
         "expected 'initial', 'final', 'transition' or 'end' in thread 't', found 'state'"},
        // Tabs count as one column each.
        {"TabsCountOneColumn", "thread t\n\tinitial q\n\ttransition q q\tbogus\nend\n", 3, 17,
         "unknown instruction 'bogus'"},
        {"CrCountsOneColumn", "thread t\r\ninitial q\r\n\r\n\t\r  final", 4, 10,
         "expected a state name after 'final', found end of file"},
    };
}

class ParserBad : public ::testing::TestWithParam<BadCase> {};

TEST_P(ParserBad, ReportsPositionAndMessage) {
    const BadCase& c = GetParam();
    try {
        Program p = test::parse(c.input);
        ADD_FAILURE() << "parsed without error (" << p.threads.size() << " threads)";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "test.txt");
        EXPECT_EQ(e.pos().line, c.line) << e.what();
        EXPECT_EQ(e.pos().col, c.col) << e.what();
        EXPECT_NE(e.message().find(c.message), std::string::npos)
            << "message: " << e.message() << "\nexpected to contain: " << c.message;
        std::string prefix =
            "test.txt:" + std::to_string(c.line) + ":" + std::to_string(c.col) + ": error: ";
        EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0U) << e.what();
        EXPECT_EQ(std::string(e.what()), prefix + e.message());
    }
}

INSTANTIATE_TEST_SUITE_P(All, ParserBad, ::testing::ValuesIn(badCases()),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                             return info.param.name;
                         });

TEST(ParserBadTable, HasEnoughDistinctCases) {
    std::set<std::string> names;
    for (const BadCase& c : badCases()) {
        EXPECT_TRUE(names.insert(c.name).second) << "duplicate case " << c.name;
    }
    EXPECT_GE(names.size(), 30U);
}

TEST(ParserErrors, SourceNameAppearsInWhat) {
    try {
        parseProgram("thread t initial q transition q q jump end", "dir/prog.txt");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "dir/prog.txt");
        EXPECT_EQ(
            std::string(e.what()),
            "dir/prog.txt:1:35: error: unknown instruction 'jump' (expected read, write, "
            "joinwrite, local, check, mfence, noop, lock, unlock, atomic, endatomic, lockfor or "
            "unlockfor)");
    }
}

TEST(ParserBad, BoundaryLiteralsParse) {
    // The exact limits are in range; one beyond is not (see the table).
    Program p = test::parse(kHead + "transition q q write -9223372036854775808 9223372036854775807"
                                    " transition q q check -0\nend");
    ASSERT_EQ(p.transitions.size(), 2U);
    EXPECT_EQ(p.expr(p.transitions[0].instr.value)[0].value, kMin);
    EXPECT_EQ(p.expr(p.transitions[0].instr.addr)[0].value, kMax);
    EXPECT_EQ(p.expr(p.transitions[1].instr.value)[0].value, 0);
}

TEST(ParserFile, MissingFileIsAnInputErrorWithoutPosition) {
    std::string path = ::testing::TempDir() + "/tsoreach-parser-test-no-such-file.txt";
    std::filesystem::remove(path);
    try {
        parseProgramFile(path);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), path);
        EXPECT_EQ(e.pos(), SourcePos{});
        EXPECT_NE(e.message().find("cannot open file"), std::string::npos) << e.message();
        EXPECT_EQ(std::string(e.what()).rfind(path + ": error: ", 0), 0U) << e.what();
    }
}

TEST(ParserFile, DirectoryIsAnInputError) {
    try {
        parseProgramFile(::testing::TempDir());
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(e.message().find("is a directory"), std::string::npos) << e.message();
    }
}

// ---------------------------------------------------------------------------
// Huge and deep input: the parser must neither recurse nor go quadratic.

// Generous: the parse is linear and takes well under a second when optimised.
constexpr auto kQuick = std::chrono::seconds(20);

template <class F> std::chrono::steady_clock::duration timed(F&& f) {
    auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::steady_clock::now() - start;
}

TEST(ParserHuge, TenMegabyteLineWithExpressionCutShort) {
    const std::string prefix = kHead + "transition q q check ";
    std::string text = prefix;
    text.reserve(prefix.size() + 10'000'000);
    for (int i = 0; i < 5'000'000; ++i) {
        text += "! ";
    }
    auto elapsed = timed([&] {
        try {
            test::parse(text);
            ADD_FAILURE() << "no error";
        } catch (const InputError& e) {
            EXPECT_EQ(e.pos().line, 3U);
            // 21 columns of "transition q q check ", then 10,000,000 bytes.
            EXPECT_EQ(e.pos().col, 21U + 10'000'000U + 1U);
            EXPECT_EQ(e.message(),
                      "expression cut short in 'check': expected an operand, found end of file");
        }
    });
    EXPECT_LT(elapsed, kQuick);
}

TEST(ParserHuge, TenMegabyteTokenIsShortenedInTheMessage) {
    std::string text = kHead + "transition q q check " + std::string(10'000'000, '7') + "\nend\n";
    auto elapsed = timed([&] {
        try {
            test::parse(text);
            ADD_FAILURE() << "no error";
        } catch (const InputError& e) {
            EXPECT_EQ(e.pos(), (SourcePos{3, 22}));
            EXPECT_NE(e.message().find("(10000000 characters) out of range"), std::string::npos)
                << e.message().substr(0, 200);
            EXPECT_LT(e.message().size(), 200U);
        }
    });
    EXPECT_LT(elapsed, kQuick);
}

// Untouched zero pages, mapped but never backed: a text of any length that
// costs nothing unless it is read.
class ZeroPages {
  public:
    explicit ZeroPages(std::size_t n)
        : n_(n),
          p_(::mmap(nullptr, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)) {}
    ZeroPages(const ZeroPages&) = delete;
    ZeroPages& operator=(const ZeroPages&) = delete;
    ~ZeroPages() {
        if (p_ != MAP_FAILED) {
            ::munmap(p_, n_);
        }
    }
    [[nodiscard]] bool ok() const { return p_ != MAP_FAILED; }
    [[nodiscard]] std::string_view text() const { return {static_cast<const char*>(p_), n_}; }

  private:
    std::size_t n_;
    void* p_;
};

TEST(ParserHuge, TextsBeyondTheSizeLimitAreRefusedUnread) {
    // Ids, lines and columns are 32 bits wide; the limit on the text is what
    // keeps them from wrapping (source.hpp). The text is refused before any
    // byte is read, in either language.
    const ZeroPages huge(kMaxSourceBytes + 1);
    ASSERT_TRUE(huge.ok());
    for (bool rmm : {false, true}) {
        try {
            if (rmm) {
                (void)translateRmm(huge.text(), "huge.rmm");
            } else {
                (void)parseProgram(huge.text(), "huge.txt");
            }
            ADD_FAILURE() << "no error";
        } catch (const InputError& e) {
            EXPECT_EQ(e.pos().line, 0U);
            EXPECT_NE(e.message().find("more than the 2147483647 a program may have"),
                      std::string::npos)
                << e.message().substr(0, 200);
        }
    }
}

TEST(ParserHuge, TenMegabyteRegisterNameIsValid) {
    std::string reg = "r" + std::string(10'000'000, '_');
    Program p = test::parse(kHead + "transition q q local " + reg + " 1\nend\n");
    ASSERT_EQ(p.threads[0].regNames.size(), 1U);
    EXPECT_EQ(p.threads[0].regNames[0].size(), reg.size());
}

TEST(ParserHuge, MillionNestedNotsParseAndEvaluate) {
    for (int depth : {1'000'000, 999'999}) {
        SCOPED_TRACE(depth);
        std::string text = kHead + "transition q q check ";
        text.reserve(text.size() + 2 * static_cast<std::size_t>(depth) + 16);
        for (int i = 0; i < depth; ++i) {
            text += "! ";
        }
        text += "1\nend\n";
        Program p = test::parse(text);
        ASSERT_EQ(p.transitions.size(), 1U);
        auto nodes = p.expr(p.transitions[0].instr.value);
        ASSERT_EQ(nodes.size(), static_cast<std::size_t>(depth) + 1);
        EXPECT_EQ(nodes.front().op, ExprOp::Not);
        EXPECT_EQ(nodes.back().op, ExprOp::Const);
        // A chain of unary operators needs a single stack slot.
        EXPECT_EQ(p.maxExprStack, 1U);
        EXPECT_EQ(evalWith(p, p.transitions[0].instr.value, {}), depth % 2 == 0 ? 1 : 0);
    }
}

TEST(ParserHuge, DeepLeftNestedSumNeedsAStackPerOperand) {
    // "+ + ... + 1 1 ... 1": every operand is pending before the first add.
    constexpr int n = 200'000;
    std::string text = kHead + "transition q q local r ";
    for (int i = 0; i < n; ++i) {
        text += "+ ";
    }
    for (int i = 0; i <= n; ++i) {
        text += "1 ";
    }
    text += "\nend\n";
    Program p = test::parse(text);
    EXPECT_EQ(p.maxExprStack, static_cast<std::size_t>(n) + 1);
    EXPECT_EQ(evalWith(p, p.transitions[0].instr.value, {0}), n + 1);
}

// ---------------------------------------------------------------------------
// Corpus

struct CorpusFailure {
    std::uint32_t line;
    std::uint32_t col;
    std::string message;
};

// Corpus files that are not programs, by path suffix, with their exact error.
const std::map<std::string, CorpusFailure>& corpusFailures() {
    // Empty since the corpus moved to tests/corpus without Memorax's
    // GRAMMAR.txt (a description of the grammar, not a program).
    static const std::map<std::string, CorpusFailure> failures = {};
    return failures;
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST(ParserCorpus, EveryTxtFileParsesOrFailsAsPinned) {
    const std::filesystem::path dir = TSOREACH_CORPUS_DIR;
    if (!std::filesystem::is_directory(dir)) {
        GTEST_SKIP() << "corpus folder " << dir << " is absent";
    }
    auto files = test::filesUnder(dir, ".txt");
    ASSERT_FALSE(files.empty()) << "no .txt file under " << dir;
    std::set<std::string> failuresSeen;
    std::size_t parsed = 0;
    for (const auto& path : files) {
        const std::string name = path.generic_string();
        SCOPED_TRACE(name);
        const CorpusFailure* expected = nullptr;
        for (const auto& [suffix, failure] : corpusFailures()) {
            if (endsWith(name, "/" + suffix)) {
                expected = &failure;
                failuresSeen.insert(suffix);
            }
        }
        try {
            Program p = parseProgramFile(path.string());
            EXPECT_EQ(expected, nullptr) << "expected an error, but it parsed";
            EXPECT_FALSE(p.threads.empty());
            for (const Thread& t : p.threads) {
                EXPECT_LT(t.initial.index(), t.stateCount()) << t.name;
                EXPECT_EQ(t.outgoingBegin.size(), t.stateCount() + 1) << t.name;
            }
            ++parsed;
        } catch (const InputError& e) {
            ASSERT_NE(expected, nullptr) << e.what();
            EXPECT_EQ(e.pos(), (SourcePos{expected->line, expected->col})) << e.what();
            EXPECT_NE(e.message().find(expected->message), std::string::npos) << e.what();
        }
    }
    // A pinned failure that no longer exists means the table is stale.
    for (const auto& [suffix, failure] : corpusFailures()) {
        EXPECT_TRUE(failuresSeen.contains(suffix)) << suffix << " is not in the corpus";
    }
    EXPECT_EQ(parsed + failuresSeen.size(), files.size());
}

} // namespace
} // namespace tsoreach
