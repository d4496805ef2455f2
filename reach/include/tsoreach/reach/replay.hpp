#pragma once
// The independent trace checker: a deliberately simple stepper that shares
// no code with the engines' state encoding or successor generation. It only
// uses the program model and the expression evaluator of lang/.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/trace.hpp"

#include <string>

namespace tsoreach::reach {

struct ReplayOutcome {
    bool ok = false;
    std::size_t failedStep = 0; // 1-based step that failed; 0 for the final goal check
    std::string error;          // empty when ok
};

// Replays `trace` on `program` under `trace.model` from the initial state and
// checks that every step is enabled, that its recorded address and value are
// the ones the step produces, and that the last state satisfies `goal`.
ReplayOutcome replayTrace(const Program& program, const Goal& goal, const Trace& trace);

} // namespace tsoreach::reach
