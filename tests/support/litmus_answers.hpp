#pragma once
// herd's answer to a litmus condition read off a list of final states, for
// the tests that check the goal construction (condition_goal.hpp) against
// the formula evaluated directly.

#include "tsoreach/lang/condition.hpp"
#include "tsoreach/reach/outcomes.hpp"

#include <string>

namespace tsoreach::test {

// Allowed / Forbidden (exists, ~exists) or No / Ok (forall) for whether the
// searched state (the formula, or for forall its negation) is reachable.
inline std::string herdWord(Quantifier q, bool searchedReachable) {
    if (q == Quantifier::Forall) {
        return searchedReachable ? "No" : "Ok";
    }
    return searchedReachable ? "Allowed" : "Forbidden";
}

// Whether the formula holds at an outcome (a cell it does not list holds 0).
inline bool formulaHoldsAt(const FinalCondition& c, const reach::Outcome& o) {
    return formulaHolds(c, [&](const ConditionAtom& a) -> Value {
        if (a.isCell()) {
            const auto it = o.memory.find(a.addr);
            return it == o.memory.end() ? 0 : it->second;
        }
        return o.regs[a.thread.index()][a.reg.index()];
    });
}

// The answer the final states `l` give.
inline std::string answerFromOutcomes(const FinalCondition& c, const reach::OutcomeList& l) {
    bool found = false;
    for (const reach::Outcome& o : l.outcomes) {
        found = found || (formulaHoldsAt(c, o) != (c.quantifier == Quantifier::Forall));
    }
    return herdWord(c.quantifier, found);
}

} // namespace tsoreach::test
