// Expression semantics of language.md: 64-bit wrap-around, C division and
// remainder, division by zero gives 0, comparisons and logic give 0 or 1.

#include "test_util.hpp"
#include "tsoreach/lang/expr.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace tsoreach {
namespace {

constexpr Value kMin = std::numeric_limits<Value>::min();
constexpr Value kMax = std::numeric_limits<Value>::max();

// Evaluates the expression of `check EXPR` in a one-transition program.
Value eval(const std::string& expr) {
    Program p = test::parse("thread t initial a transition a b check " + expr + " end");
    std::vector<Value> stack(p.maxExprStack);
    std::vector<Value> regs(p.threads[0].regCount(), 0);
    return evaluate(p.expr(p.transitions[0].instr.value), regs, stack);
}

TEST(Expr, DivisionTruncatesTowardZero) {
    EXPECT_EQ(eval("/ 7 2"), 3);
    EXPECT_EQ(eval("/ -7 2"), -3);
    EXPECT_EQ(eval("/ 7 -2"), -3);
    EXPECT_EQ(eval("/ -7 -2"), 3);
}

TEST(Expr, RemainderHasTheSignOfTheDividend) {
    EXPECT_EQ(eval("% 7 2"), 1);
    EXPECT_EQ(eval("% -7 2"), -1);
    EXPECT_EQ(eval("% 7 -2"), 1);
    EXPECT_EQ(eval("% -7 -2"), -1);
}

TEST(Expr, DivisionAndRemainderByZeroGiveZero) {
    EXPECT_EQ(eval("/ 5 0"), 0);
    EXPECT_EQ(eval("% 5 0"), 0);
    EXPECT_EQ(eval("/ -9223372036854775808 0"), 0);
}

TEST(Expr, OverflowWrapsAround) {
    EXPECT_EQ(eval("+ 9223372036854775807 1"), kMin);
    EXPECT_EQ(eval("- -9223372036854775808 1"), kMax);
    EXPECT_EQ(eval("* 9223372036854775807 2"), -2);
    EXPECT_EQ(eval("/ -9223372036854775808 -1"), kMin);
    EXPECT_EQ(eval("% -9223372036854775808 -1"), 0);
    EXPECT_EQ(eval("- 0 -9223372036854775808"), kMin);
}

TEST(Expr, ComparisonsGiveZeroOrOne) {
    EXPECT_EQ(eval("== 3 3"), 1);
    EXPECT_EQ(eval("== 3 4"), 0);
    EXPECT_EQ(eval("!= 3 4"), 1);
    EXPECT_EQ(eval("< -1 0"), 1);
    EXPECT_EQ(eval("< 0 0"), 0);
    EXPECT_EQ(eval("<= 0 0"), 1);
    EXPECT_EQ(eval("> 0 -1"), 1);
    EXPECT_EQ(eval(">= -1 0"), 0);
}

TEST(Expr, LogicTreatsNonZeroAsTrue) {
    EXPECT_EQ(eval("&& 5 -3"), 1);
    EXPECT_EQ(eval("&& 5 0"), 0);
    EXPECT_EQ(eval("|| 0 7"), 1);
    EXPECT_EQ(eval("|| 0 0"), 0);
    EXPECT_EQ(eval("! 0"), 1);
    EXPECT_EQ(eval("! 42"), 0);
    EXPECT_EQ(eval("! ! 42"), 1);
}

TEST(Expr, BitwiseAnd) {
    EXPECT_EQ(eval("& 12 10"), 8);
    EXPECT_EQ(eval("& -1 255"), 255);
}

TEST(Expr, OperandOrderIsFirstThenSecond) {
    // Prefix: "- 10 3" is 10 - 3, nested operands keep their order.
    EXPECT_EQ(eval("- 10 3"), 7);
    EXPECT_EQ(eval("- - 10 3 2"), 5);
    EXPECT_EQ(eval("- 10 - 3 2"), 9);
    EXPECT_EQ(eval("/ * 6 7 - 10 4"), 7);
}

TEST(Expr, RegistersAreReadFromTheRegisterFile) {
    Program p = test::parse("thread t initial a transition a b check + * r 10 s end");
    std::vector<Value> stack(p.maxExprStack);
    std::vector<Value> regs = {4, 2}; // r, s in order of first use
    ASSERT_EQ(p.threads[0].regNames, (std::vector<std::string>{"r", "s"}));
    EXPECT_EQ(evaluate(p.expr(p.transitions[0].instr.value), regs, stack), 42);
}

TEST(Expr, StackDepthIsEnoughAndTight) {
    // Scanning right to left, right-nested operators reuse two slots while
    // left-nested ones first push all their leaves.
    Program p = test::parse("thread t initial a transition a b check + 1 + 2 + 3 4 end");
    EXPECT_EQ(p.maxExprStack, 2U);
    EXPECT_EQ(eval("+ 1 + 2 + 3 4"), 10);
    Program q = test::parse("thread t initial a transition a b check + + + 1 2 3 4 end");
    EXPECT_EQ(q.maxExprStack, 4U);
    EXPECT_EQ(eval("- - - 10 1 2 3"), 4);
}

TEST(Expr, ConstantValueOnlyWithoutRegisters) {
    Program p = test::parse("thread t initial a transition a b check + 1 2 "
                            "transition a b check + r 2 end");
    EXPECT_EQ(constantValue(p.expr(p.transitions[0].instr.value)), std::optional<Value>(3));
    EXPECT_EQ(constantValue(p.expr(p.transitions[1].instr.value)), std::nullopt);
}

} // namespace
} // namespace tsoreach
