#include "tsoreach/robustness/dpor_robustness.hpp"

#include "tsoreach/reach/dpor.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/replay.hpp"

#include <atomic>

namespace tsoreach::robustness {

ExploredRobustness robustnessByExploration(const Program& p, reach::MemoryModel model,
                                           const reach::Options& limits) {
    ExploredRobustness out;
    std::atomic<bool> found{false};
    reach::ExploreOptions o;
    o.limits = limits;
    // Our flag stops the exploration at the first cycle; the caller's
    // stop condition still applies.
    o.limits.stop = limits.stop.orWhen(found);
    const Goal none(p);
    // Every maximal execution counts, also one that a failed check stops
    // (language.md: an execution ends when nothing can move).
    o.onExecution = [&](const reach::Trace& t, bool /*blocked*/) {
        if (found) {
            return;
        }
        ++out.executions;
        const reach::ReplayOutcome replay =
            reach::replayTrace(p, none, t, reach::Recorded::IfGiven);
        if (!replay.ok) {
            throw reach::TraceReplayError("an explored execution does not replay: " + replay.error);
        }
        HbGraph g = happensBefore(p, replay.completed);
        std::vector<HbArc> cycle = findCycle(g);
        if (!cycle.empty()) {
            out.trace = replay.completed;
            out.graph = std::move(g);
            out.cycle = std::move(cycle);
            found = true;
        }
    };
    const reach::ExploreResult r = reach::dporExplore(p, model, o);
    out.seconds = r.stats.timeSeconds;
    if (found) {
        out.verdict = RobustVerdict::NotRobust;
    } else if (r.complete) {
        out.verdict = RobustVerdict::Robust;
    } else {
        out.reason = r.reason;
    }
    return out;
}

} // namespace tsoreach::robustness
