#pragma once
// Runs a stateless explorer on a program whose loops are unrolled (the
// --unroll K of dpor and rf): the explorer sees the unrolled program, and
// its traces and goal are mapped back to the original one. A negative
// answer on a program the bound cut is not complete.

#include "tsoreach/instrument/unroll.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/reach/dpor.hpp"

#include <optional>
#include <string>

namespace tsoreach::reach {

// run(program, options) explores `program` and returns its result.
template <class Run>
ExploreResult exploreUnrolled(const Program& p, const ExploreOptions& options, Run run) {
    if (options.unroll == 0 || !hasControlCycle(p)) {
        return run(p, options);
    }
    const instrument::UnrolledProgram u = instrument::unrollLoops(p, options.unroll);
    auto mapped = [&](Trace t) {
        for (TraceStep& s : t.steps) {
            if (s.kind == StepKind::Instruction) {
                s.transition = u.origin[s.transition.index()];
            }
        }
        return t;
    };
    ExploreOptions inner = options;
    std::optional<Goal> goal;
    if (options.goal != nullptr) {
        goal = instrument::unrolledGoal(*options.goal, u);
        inner.goal = &*goal;
    }
    if (options.onExecution) {
        inner.onExecution = [&](const Trace& t, bool blocked) {
            options.onExecution(mapped(t), blocked);
        };
    }
    ExploreResult r = run(u.program, inner);
    if (r.goalTrace) {
        r.goalTrace = mapped(*r.goalTrace);
    } else if (r.complete && u.cut) {
        r.complete = false;
        r.reason = "unrolled " + std::to_string(options.unroll) +
                   " times (--unroll): executions beyond the bound were not explored";
    }
    return r;
}

} // namespace tsoreach::reach
