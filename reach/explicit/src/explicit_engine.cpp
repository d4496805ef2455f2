#include "tsoreach/reach/explicit.hpp"

#include "explicit_search.hpp"
#include "parallel_search.hpp"
#include "tsoreach/instrument/fences_after_unlocks.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace tsoreach::reach {

ExplicitEngine::ExplicitEngine(MemoryModel model) : model_(model) {}

namespace {
// One semantics per thread of the search: the static reductions run once
// per semantics (they poll the limits). A state limit makes the search
// sequential: it counts states in the sequential search's order, so that
// the answer within the limit does not depend on the threads either; so
// does stopping at the buffer bound (a probe's small search).
template <class Policy>
Result search(const Program& program, const Goal& goal, const Options& options) {
    using Semantics = OperationalSemantics<Policy>;
    const unsigned threads =
        options.maxStates != 0 || options.stopAtBound
            ? 1U
            : std::clamp(options.searchJobs, 1U, 1U << SharedStateStore::maxArenaBits);
    std::vector<std::unique_ptr<Semantics>> owned;
    try {
        for (unsigned k = 0; k < threads; ++k) {
            owned.push_back(std::make_unique<Semantics>(program, options, &goal));
        }
    } catch (const Stopped& e) {
        Result r;
        r.reason = std::string("preparing the search: ") + e.what();
        return r;
    }
    if (threads == 1) {
        return explicitSearch(*owned[0], goal, options, Policy::model);
    }
    std::vector<Semantics*> sems;
    for (const auto& s : owned) {
        sems.push_back(s.get());
    }
    return parallelExplicitSearch<Semantics>(sems, goal, options, Policy::model);
}

Result searchUnder(MemoryModel m, const Program& program, const Goal& goal,
                   const Options& options) {
    switch (m) {
    case MemoryModel::SC:
        return search<ScPolicy>(program, goal, options);
    case MemoryModel::TSO:
        return search<TsoPolicy>(program, goal, options);
    case MemoryModel::PSO:
        return search<PsoPolicy>(program, goal, options);
    }
    throw EngineUnavailable("unknown memory model");
}
} // namespace

Result ExplicitEngine::run(const Program& program, const Goal& goal, const Options& options) {
    // An mfence right after an unlock that drained the buffers is a no-op:
    // the search skips its control state, and the trace gets its step back.
    const instrument::UnlockDrains drains = model_ == MemoryModel::PSO
                                                ? instrument::UnlockDrains::Unlock
                                                : instrument::UnlockDrains::UnlockAndUnlockFor;
    if (const auto skipped = instrument::skipFencesAfterUnlocks(program, goal, drains)) {
        Result r = searchUnder(model_, skipped->program, goal, options);
        if (r.trace) {
            r.trace = withSkippedFences(*r.trace, skipped->fenceAfter);
        }
        return r;
    }
    return searchUnder(model_, program, goal, options);
}

} // namespace tsoreach::reach
