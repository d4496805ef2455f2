#pragma once
// herd's final condition: `exists F`, `~exists F` or `forall F`, F built
// from atoms `P:REG=V` (thread P's register) and `x=V` or `[x]=V` (a memory
// location), or with `!=` / `<>` for unequal, with `~` (not), `/\` (and), `\/` (or) and
// parentheses; `~` binds tightest, then `/\`, then `\/`. The parser uses an operator stack, no
// recursion.

#include "litmus_source.hpp"
#include "tsoreach/lang/condition.hpp"

#include <functional>
#include <optional>

namespace tsoreach::litmus {

// An atom as written: thread (none for a location), name, value.
struct AtomText {
    std::optional<Value> thread;
    std::string name;
    Value value = 0;
    std::size_t offset = 0; // of the atom, for errors
};

// Parses `text` (from the quantifier to the end of the file); `resolve`
// makes each atom a ConditionAtom or fails with the atom's position.
FinalCondition parseCondition(const LitmusSource& src, Piece text,
                              const std::function<ConditionAtom(const AtomText&)>& resolve);

// Parses an integer of 64 bits, decimal or hexadecimal (0x...), with an
// optional sign ('$' in front allowed when `dollar`); nullopt when `t` is
// not one.
std::optional<Value> parseInteger(std::string_view t, bool dollar = false);

} // namespace tsoreach::litmus
