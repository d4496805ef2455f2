#include "tsoreach/reach/explicit.hpp"

#include "explicit_search.hpp"
#include "parallel_search.hpp"

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
        options.maxStates != 0 || options.stopAtBound ? 1U : std::max(1U, options.searchJobs);
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
} // namespace

Result ExplicitEngine::run(const Program& program, const Goal& goal, const Options& options) {
    switch (model_) {
    case MemoryModel::SC:
        return search<ScPolicy>(program, goal, options);
    case MemoryModel::TSO:
        return search<TsoPolicy>(program, goal, options);
    case MemoryModel::PSO:
        return search<PsoPolicy>(program, goal, options);
    }
    throw EngineUnavailable("unknown memory model");
}

} // namespace tsoreach::reach
