#include "tsoreach/reach/engine.hpp"

#include "tsoreach/reach/replay.hpp"

#include <string>

namespace tsoreach::reach {

Result runChecked(Engine& engine, const Program& program, const Goal& goal,
                  const Options& options) {
    if (goal.hasViews() && !engine.takesGoalViews()) {
        Result r;
        r.reason = "the " + std::string(engine.name()) +
                   " engine does not evaluate goals on views of memory; the explicit engine does";
        return r;
    }
    Result r = engine.run(program, goal, options);
    if (r.verdict == Verdict::Reachable) {
        if (!r.trace) {
            throw TraceReplayError("engine '" + std::string(engine.name()) +
                                   "' reported 'reachable' without a trace");
        }
        ReplayOutcome check = replayTrace(program, goal, *r.trace);
        if (!check.ok) {
            throw TraceReplayError("the trace of engine '" + std::string(engine.name()) +
                                   "' does not replay: " + check.error);
        }
        r.trace->goalTerm = check.goalTerm;
    }
    return r;
}

} // namespace tsoreach::reach
