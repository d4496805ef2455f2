#pragma once
// The independent trace checker: a deliberately simple stepper that shares
// no code with the engines' state encoding or successor generation. It only
// uses the program model and the expression evaluator of lang/.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/trace.hpp"

#include <map>
#include <string>
#include <vector>

namespace tsoreach::reach {

struct ReplayOutcome {
    bool ok = false;
    std::size_t failedStep = 0; // 1-based step that failed; 0 for the final goal check
    std::string error;          // empty when ok
    // The trace with every address, value and load source filled in from the
    // replay (up to the failing step); useful for traces recorded partially.
    Trace completed;
    // The first goal term the goal step satisfies (0 for one-term goals).
    std::size_t goalTerm = 0;
    // The state after the last step replayed (after every step when ok):
    // each thread's control state and registers, and memory (the cells
    // written, and those with an initial value; the others hold 0).
    struct FinalState {
        std::vector<StateId> pc;
        std::vector<std::vector<Value>> regs;
        std::map<Value, Value> memory;
        bool buffersEmpty = true; // no store still buffered
    } final;
};

enum class Recorded {
    Required, // every address, value and load source must be recorded (engines)
    IfGiven,  // check only what the trace records (traces written by hand or other tools)
};

// Replays `trace` on `program` under `trace.model` from the initial state and
// checks that every step is enabled, that its recorded address, value and
// load source are the ones the step produces, that the state after
// `trace.goalStep` steps satisfies `goal`, and that only flushes follow.
ReplayOutcome replayTrace(const Program& program, const Goal& goal, const Trace& trace,
                          Recorded recorded = Recorded::Required);

} // namespace tsoreach::reach
