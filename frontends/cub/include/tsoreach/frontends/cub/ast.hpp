#pragma once
// A parsed Cubicle-W (.cub) file: the subset docs/parameterized.md lists,
// as written, before any number of processes is chosen.

#include "tsoreach/lang/source.hpp"
#include "tsoreach/lang/value.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tsoreach::cub {

// An enumeration: `type loc = L1 | L2`. The built-in types are `bool`
// (False, True), `int` and `proc`.
struct TypeDecl {
    std::string name;
    std::vector<std::string> constructors; // value = index
    SourcePos pos;
};

enum class VarKind : std::uint8_t { Regular, Weak, Const };

// `[weak] var X : t`, `[weak] array X[proc(,proc)] : t`, `const X[proc] : t`.
struct VarDecl {
    std::string name;
    VarKind kind = VarKind::Regular;
    std::size_t dims = 0; // 0: a scalar; 1 or 2: indexed by processes
    std::string type;
    SourcePos pos;
};

// A term: a constant, a process variable, a cell (`X`, `A[p]`, `B[p,q]`),
// or a process's view of a weak cell (`p @ A[q]`), plus a constant.
struct Term {
    enum class Kind : std::uint8_t { Int, Name, Cell, View };
    Kind kind = Kind::Int;
    Value number = 0;                 // Int
    std::string name;                 // Name (a constructor or a process variable), Cell, View
    std::vector<std::string> indices; // Cell, View: process variables
    std::string viewer;               // View
    Value offset = 0;                 // `+ k` / `- k`
    SourcePos pos;
};

enum class Cmp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

// A formula tree. Nesting depth is bounded by the parser (kMaxNesting).
struct Formula {
    enum class Kind : std::uint8_t { True, False, Fence, Compare, And, Or, ForallOther };
    Kind kind = Kind::True;
    Cmp cmp = Cmp::Eq;
    Term lhs, rhs;             // Compare
    std::vector<Formula> args; // And, Or (two or more); ForallOther (one: the body)
    std::string var;           // ForallOther
    SourcePos pos;
};

inline constexpr std::size_t kMaxNesting = 64;

// `X[i,j] := term` or `X[i] := case | c : t | ... | _ : t`.
struct Branch {
    std::optional<Formula> cond; // nullopt: `_`
    Term value;
};
struct Action {
    std::string cell;
    std::vector<std::string> indices;
    std::vector<Branch> branches; // one unconditional branch for `:= term`
    bool isCase = false;
    SourcePos pos;
};

struct TransitionDecl {
    std::string name;
    std::vector<std::string> params; // params[0] is the process that moves (`[p]`)
    Formula guard;                   // True when there is no `requires`
    std::vector<Action> actions;
    SourcePos pos;
};

// `init`, `invariant` or `unsafe`: variables and a formula.
struct Cube {
    std::vector<std::string> vars;
    Formula formula;
    SourcePos pos;
};

struct System {
    std::string sourceName;
    std::optional<std::size_t> numberProcs;
    std::vector<TypeDecl> types;
    std::vector<VarDecl> vars;
    std::vector<Cube> inits;
    std::vector<Cube> invariants;
    std::vector<Cube> unsafes;
    std::vector<TransitionDecl> transitions;

    [[nodiscard]] const VarDecl* findVar(const std::string& name) const;
    [[nodiscard]] const TypeDecl* findType(const std::string& name) const;
};

} // namespace tsoreach::cub
