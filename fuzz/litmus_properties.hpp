#pragma once
// The property of fuzz_litmus, apart from properties.hpp so that only the
// targets that link the litmus front end include it.

#include "properties.hpp"
#include "tsoreach/frontends/condition_goal.hpp"
#include "tsoreach/frontends/litmus/front_end.hpp"

#include <string_view>

namespace tsoreach::fuzz {

// The litmus front end throws nothing but InputError, nor does the goal
// construction of its condition; the static checks hold on the goal program,
// and the goal program prints canonically.
inline void checkLitmus(std::string_view text) {
    try {
        const LoadedProgram plain = litmusFrontEnd().load(text, "fuzz.litmus", {});
        const LoadedProgram goal = withConditionGoal(plain);
        checkLints(goal.program, *goal.goal);
        if (parseProgram(printProgram(goal.program), "printed") != goal.program) {
            throw PropertyViolation("the goal program does not print canonically");
        }
    } catch (const InputError&) {
    }
}

} // namespace tsoreach::fuzz
