#pragma once
// The syntax tree of a .rmm test, as the parser builds it and the translator
// reads it. Expressions are already in tsoreach's prefix form.

#include "token.hpp"

#include "tsoreach/lang/expr.hpp"
#include "tsoreach/lang/source.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tsoreach::rmm {

// One node of an expression in prefix order: an operator, a constant, or a
// register by its name (the translator numbers registers per thread).
struct Node {
    ExprOp op = ExprOp::Const;
    std::int64_t value = 0; // Const
    std::string reg;        // Reg
};

// An arithmetic or boolean expression, already in tsoreach's prefix form.
struct Expr {
    std::vector<Node> nodes;
    std::vector<std::pair<std::string, SourcePos>> regs; // registers read
    std::optional<std::int64_t> value;                   // when constant
    SourcePos pos;
};

struct Domain {
    bool finite = false;
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    [[nodiscard]] bool contains(std::int64_t v) const { return !finite || (lo <= v && v <= hi); }
    // Number of values, saturated (a finite domain only); no overflow at the
    // ends of the 64-bit range.
    [[nodiscard]] std::uint64_t size() const {
        const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
        return span == ~std::uint64_t{0} ? span : span + 1;
    }
    [[nodiscard]] std::int64_t value(std::uint64_t k) const {
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + k);
    }
    [[nodiscard]] bool includes(const Domain& d) const {
        return !finite || (d.finite && lo <= d.lo && d.hi <= hi);
    }
};

struct Decl {
    std::string name;
    SourcePos pos;
    bool any = false; // initial value '*'
    std::int64_t init = 0;
    Domain domain;
};

struct MemLoc {
    enum class Kind { Global, Own, Other, Pointer } kind = Kind::Global;
    std::string name;
    std::int64_t other = 0;
    Expr ptr;
    SourcePos pos;
};

struct Stmt {
    enum class Kind {
        Nop,
        ReadAssert,
        ReadAssign,
        Write,
        LockedWrite,
        SyncWrite,
        Cas,
        Fence,
        Assign,
        Assume,
        If,
        While,
        Goto,
        Either,
        Locked,
        Block
    } kind = Kind::Nop;
    SourcePos pos;
    std::string label;
    SourcePos labelPos;
    MemLoc loc;
    std::string reg;
    SourcePos regPos;
    Expr e1;                              // value, compared value, condition
    Expr e2;                              // cas: new value
    std::vector<std::vector<Stmt>> parts; // branches, bodies, alternatives
    std::string target;                   // goto
};

struct Process {
    SourcePos pos;
    std::vector<Decl> data;
    std::vector<Decl> regs;
    std::vector<Stmt> text;
};

struct Test {
    std::vector<std::vector<Tok>> forbidden; // tuples of labels or '*'
    std::vector<Decl> globals;
    std::vector<Process> processes; // replicated copies listed one by one
};

} // namespace tsoreach::rmm
