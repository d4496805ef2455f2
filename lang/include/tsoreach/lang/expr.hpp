#pragma once
// Expressions are stored in prefix order, exactly as written, in one pool per
// program. Evaluation scans a range right to left with a value stack, so
// neither parsing nor evaluation recurses, whatever the nesting depth.

#include "tsoreach/lang/ids.hpp"
#include "tsoreach/lang/value.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace tsoreach {

// The one table of operators: spelling and arity. Everything else (parser,
// printer, evaluator) derives from it.
#define TSOREACH_EXPR_OPERATORS(X)                                                                 \
    X(Not, "!", 1)                                                                                 \
    X(Eq, "==", 2)                                                                                 \
    X(Ne, "!=", 2)                                                                                 \
    X(Lt, "<", 2)                                                                                  \
    X(Le, "<=", 2)                                                                                 \
    X(Gt, ">", 2)                                                                                  \
    X(Ge, ">=", 2)                                                                                 \
    X(And, "&&", 2)                                                                                \
    X(Or, "||", 2)                                                                                 \
    X(Add, "+", 2)                                                                                 \
    X(Sub, "-", 2)                                                                                 \
    X(Mul, "*", 2)                                                                                 \
    X(Div, "/", 2)                                                                                 \
    X(Rem, "%", 2)                                                                                 \
    X(BitAnd, "&", 2)

enum class ExprOp : std::uint8_t {
    Const,
    Reg,
#define TSOREACH_X(name, spelling, arity) name,
    TSOREACH_EXPR_OPERATORS(TSOREACH_X)
#undef TSOREACH_X
};

// Arity of an operator node: 0 for leaves.
int arity(ExprOp op);
// Spelling of an operator ("" for leaves).
std::string_view spelling(ExprOp op);
// The operator spelled `token`, if any.
std::optional<ExprOp> operatorFromSpelling(std::string_view token);

struct ExprNode {
    ExprOp op = ExprOp::Const;
    RegId reg;       // for Reg
    Value value = 0; // for Const
    // How the source names an address (memory.hpp); evaluation ignores it.
    // A Const: the cell `x` or `flag[2]` at `value`. An Add: `flag[e]`,
    // whose first operand is flag's base address (a plain Const) and whose
    // second is the index e. Only the root of an address operand has one.
    VarId var;
    friend bool operator==(const ExprNode&, const ExprNode&) = default;
};

// A slice of the program's expression pool, in prefix order.
struct ExprRef {
    std::uint32_t begin = 0;
    std::uint32_t size = 0;
    [[nodiscard]] bool empty() const { return size == 0; }
    friend bool operator==(const ExprRef&, const ExprRef&) = default;
};

// Applies a binary or unary operator to already evaluated operands.
Value applyOperator(ExprOp op, Value a, Value b);

// Evaluates the prefix-order expression `nodes` with registers `regs`.
// `stack` must hold at least stackDepth(nodes) values; engines size it once
// per program so that evaluation never allocates.
Value evaluate(std::span<const ExprNode> nodes, std::span<const Value> regs,
               std::span<Value> stack);

// Number of stack slots evaluate() needs for `nodes`.
std::size_t stackDepth(std::span<const ExprNode> nodes);

// The constant value of `nodes` if it reads no register.
std::optional<Value> constantValue(std::span<const ExprNode> nodes);

} // namespace tsoreach
