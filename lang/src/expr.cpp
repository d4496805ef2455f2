#include "tsoreach/lang/expr.hpp"

#include <algorithm>
#include <array>

namespace tsoreach {

namespace {

struct OpInfo {
    ExprOp op;
    std::string_view spelling;
    int arity;
};

constexpr std::array operatorTable{
#define TSOREACH_X(name, spell, ar) OpInfo{ExprOp::name, spell, ar},
    TSOREACH_EXPR_OPERATORS(TSOREACH_X)
#undef TSOREACH_X
};

const OpInfo* info(ExprOp op) {
    for (const OpInfo& i : operatorTable) {
        if (i.op == op) {
            return &i;
        }
    }
    return nullptr;
}

} // namespace

int arity(ExprOp op) {
    const OpInfo* i = info(op);
    return i != nullptr ? i->arity : 0;
}

std::string_view spelling(ExprOp op) {
    const OpInfo* i = info(op);
    return i != nullptr ? i->spelling : std::string_view();
}

std::optional<ExprOp> operatorFromSpelling(std::string_view token) {
    for (const OpInfo& i : operatorTable) {
        if (i.spelling == token) {
            return i.op;
        }
    }
    return std::nullopt;
}

Value applyOperator(ExprOp op, Value a, Value b) {
    switch (op) {
    case ExprOp::Not:
        return a == 0 ? 1 : 0;
    case ExprOp::Eq:
        return a == b ? 1 : 0;
    case ExprOp::Ne:
        return a != b ? 1 : 0;
    case ExprOp::Lt:
        return a < b ? 1 : 0;
    case ExprOp::Le:
        return a <= b ? 1 : 0;
    case ExprOp::Gt:
        return a > b ? 1 : 0;
    case ExprOp::Ge:
        return a >= b ? 1 : 0;
    case ExprOp::And:
        return (a != 0 && b != 0) ? 1 : 0;
    case ExprOp::Or:
        return (a != 0 || b != 0) ? 1 : 0;
    case ExprOp::Add:
        return arith::add(a, b);
    case ExprOp::Sub:
        return arith::sub(a, b);
    case ExprOp::Mul:
        return arith::mul(a, b);
    case ExprOp::Div:
        return arith::div(a, b);
    case ExprOp::Rem:
        return arith::rem(a, b);
    case ExprOp::BitAnd:
        return a & b;
    case ExprOp::Const:
    case ExprOp::Reg:
        break;
    }
    return 0;
}

Value evaluate(std::span<const ExprNode> nodes, std::span<const Value> regs,
               std::span<Value> stack) {
    // The common cases first: a constant or a register.
    if (nodes.size() == 1) {
        const ExprNode& n = nodes[0];
        return n.op == ExprOp::Const ? n.value : regs[n.reg.index()];
    }
    // Right to left over prefix order: operands are on the stack when their
    // operator is met, the first operand on top.
    std::size_t top = 0;
    for (std::size_t i = nodes.size(); i-- > 0;) {
        const ExprNode& n = nodes[i];
        switch (n.op) {
        case ExprOp::Const:
            stack[top++] = n.value;
            break;
        case ExprOp::Reg:
            stack[top++] = regs[n.reg.index()];
            break;
        case ExprOp::Not:
            stack[top - 1] = stack[top - 1] == 0 ? 1 : 0;
            break;
        default: {
            Value a = stack[top - 1];
            Value b = stack[top - 2];
            --top;
            stack[top - 1] = applyOperator(n.op, a, b);
            break;
        }
        }
    }
    return stack[0];
}

std::size_t stackDepth(std::span<const ExprNode> nodes) {
    std::size_t top = 0;
    std::size_t depth = 1;
    for (std::size_t i = nodes.size(); i-- > 0;) {
        int ar = arity(nodes[i].op);
        if (ar == 0) {
            ++top;
        } else {
            top -= static_cast<std::size_t>(ar - 1);
        }
        depth = std::max(depth, top);
    }
    return depth;
}

std::optional<Value> constantValue(std::span<const ExprNode> nodes) {
    for (const ExprNode& n : nodes) {
        if (n.op == ExprOp::Reg) {
            return std::nullopt;
        }
    }
    std::vector<Value> stack(stackDepth(nodes));
    return evaluate(nodes, {}, stack);
}

} // namespace tsoreach
