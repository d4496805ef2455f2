#include "tsoreach/reach/explicit.hpp"

#include "explicit_search.hpp"

#include <optional>
#include <string>

namespace tsoreach::reach {

ExplicitEngine::ExplicitEngine(MemoryModel model) : model_(model) {}

namespace {
template <class Policy>
Result search(const Program& program, const Goal& goal, const Options& options) {
    std::optional<OperationalSemantics<Policy>> sem;
    try {
        sem.emplace(program, options, &goal); // the static reductions poll the limits
    } catch (const Stopped& e) {
        Result r;
        r.reason = std::string("preparing the search: ") + e.what();
        return r;
    }
    return explicitSearch(*sem, goal, options, Policy::model);
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
