#include "tsoreach/reach/outcomes.hpp"

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/replay.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace tsoreach::reach {

namespace {
// The outcome at the end of a complete execution's replay. Cells that hold
// 0 are left out, so a cell written 0 and one never written compare equal.
Outcome outcomeOf(const ReplayOutcome::FinalState& s) {
    Outcome o;
    o.pc = s.pc;
    o.regs = s.regs;
    for (const auto& [addr, value] : s.memory) {
        if (value != 0) {
            o.memory.emplace(addr, value);
        }
    }
    return o;
}
} // namespace

OutcomeList collectOutcomes(const Program& program, MemoryModel model, const Enumerate& enumerate,
                            const ExploreOptions& options) {
    const Goal always(program);             // an execution's end is its goal step
    std::map<Outcome, std::uint64_t> found; // executions by outcome (not part of the order)
    OutcomeList list;
    ExploreOptions mine = options;
    mine.onExecution = [&](const Trace& t, bool blocked) {
        Trace ended = t;
        ended.model = model;
        ended.goalStep = ended.steps.size();
        const ReplayOutcome replay = replayTrace(program, always, ended, Recorded::IfGiven);
        if (!replay.ok) {
            throw TraceReplayError("an execution does not replay: " + replay.error);
        }
        if (blocked || !replay.final.buffersEmpty) {
            ++list.blocked;
            return;
        }
        ++found[outcomeOf(replay.final)];
    };
    const ExploreResult r = enumerate(mine);
    list.classes = r.classes;
    list.complete = r.complete;
    list.reason = r.reason;
    list.seconds = r.stats.timeSeconds;
    for (const auto& [o, executions] : found) {
        list.outcomes.push_back(o);
        list.outcomes.back().executions = executions;
    }
    return list;
}

void markNew(OutcomeList& list, const OutcomeList& baseline) {
    for (Outcome& o : list.outcomes) {
        o.absentFromBaseline =
            !std::binary_search(baseline.outcomes.begin(), baseline.outcomes.end(), o);
    }
}

} // namespace tsoreach::reach
