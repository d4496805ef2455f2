#pragma once
// Value constraints of a backward node: conjunctions of comparisons between
// variables (a regular cell of a process, the value of an event's access),
// constants and the node's processes, and a complete satisfiability check.

#include "tsoreach/frontends/cub/ast.hpp"

#include <cstdint>
#include <vector>

namespace tsoreach::backward {

// The type of a variable: an enumeration of `size` values, an unbounded
// integer, or a process (one of the node's, or any other one).
struct VarType {
    enum class Kind : std::uint8_t { Finite, Int, Proc };
    Kind kind = Kind::Finite;
    std::uint32_t size = 2;
    friend bool operator==(const VarType&, const VarType&) = default;
};

// A constant, a variable plus an integer offset, or the node's process #n.
struct Term {
    enum class Kind : std::uint8_t { Const, Var, Proc };
    Kind kind = Kind::Const;
    std::int64_t n = 0;
    std::int64_t off = 0;
    friend bool operator==(const Term&, const Term&) = default;
};

struct Lit {
    Term a;
    cub::Cmp op = cub::Cmp::Eq;
    Term b;
    friend bool operator==(const Lit&, const Lit&) = default;
};

[[nodiscard]] cub::Cmp negate(cub::Cmp op);
[[nodiscard]] Lit negate(const Lit& l);
[[nodiscard]] Term substitute(const Term& t, std::int64_t var, const Term& by);

// Whether some values satisfy every literal: finite and process variables by
// enumeration (a process variable is one of the `procs` processes or a new
// one), integers by difference constraints. Exact; exponential only in the
// variables that meet in disequalities or orders.
[[nodiscard]] bool satisfiable(const std::vector<VarType>& types, const std::vector<Lit>& lits,
                               std::size_t procs);

// Per variable, the constant or process the equalities among `lits` force
// (kind Const or Proc), or the variable itself (kind Var) when none.
[[nodiscard]] std::vector<Term> forcedValues(const std::vector<VarType>& types,
                                             const std::vector<Lit>& lits);

} // namespace tsoreach::backward
