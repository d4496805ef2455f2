#pragma once
// A final condition as herd's litmus tests state it: `exists F`, `~exists F`
// or `forall F`, where F is a formula (and, or, not) over the final value of
// a thread's register and of a memory cell. "Final" means every thread has
// finished and every store has reached memory. A front end builds it
// (frontends/litmus); frontends/core/condition_goal.hpp makes it a goal of
// the reach commands, and `outcomes` evaluates it on each final state.

#include "tsoreach/lang/ids.hpp"
#include "tsoreach/lang/source.hpp"
#include "tsoreach/lang/value.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tsoreach {

// `P:reg = v` (thread valid) or `cell = v` (thread invalid), or `!=`.
struct ConditionAtom {
    ThreadId thread; // invalid() for a memory cell
    RegId reg;       // of `thread`
    Value addr = 0;  // the cell, when thread is invalid()
    Value value = 0;
    bool equal = true; // false: the atom says `!= value`

    [[nodiscard]] bool isCell() const { return !thread.valid(); }
    friend bool operator==(const ConditionAtom&, const ConditionAtom&) = default;
};

enum class Quantifier : std::uint8_t { Exists, NotExists, Forall };

// One node of a formula in postfix order.
struct ConditionNode {
    enum class Op : std::uint8_t { Atom, And, Or, Not };
    Op op = Op::Atom;
    std::uint32_t atom = 0; // index into FinalCondition::atoms, for Atom
};

struct FinalCondition {
    Quantifier quantifier = Quantifier::Exists;
    std::vector<ConditionAtom> atoms;
    std::vector<ConditionNode> postfix; // exactly one formula
    std::string text;                   // as herd prints it: "exists (0:EAX=0 /\ 1:EAX=0)"
    // What a listing of final states shows, as herd's does: the registers
    // and cells of `locations [...]`, then those the formula names (each
    // once; values unused).
    std::vector<ConditionAtom> shown;
    SourcePos pos; // of the quantifier
};

// Whether the formula holds where `valueOf` gives each atom's register or
// cell its final value.
bool formulaHolds(const FinalCondition& c,
                  const std::function<Value(const ConditionAtom&)>& valueOf);

// A conjunction of atoms.
using ConditionTerm = std::vector<ConditionAtom>;

// What the reach commands search for, in disjunctive normal form: a final
// state where the formula holds (exists, ~exists) or fails (forall). Terms
// with contradicting atoms are dropped. nullopt when there would be more
// than `maxTerms` terms.
std::optional<std::vector<ConditionTerm>> searchedTerms(const FinalCondition& c,
                                                        std::size_t maxTerms);

// herd's "Ok" (the condition is validated) given whether a final state of
// searchedTerms was reachable.
bool conditionValidated(Quantifier q, bool searchedReachable);

// "exists", "~exists", "forall".
const char* quantifierName(Quantifier q);

} // namespace tsoreach
