#include "explicit_engine.hpp"

#include "explicit_search.hpp"

namespace tsoreach::reach {

ExplicitEngine::ExplicitEngine(MemoryModel model) : model_(model) {}

namespace {
template <class Policy>
Result search(const Program& program, const Goal& goal, const Options& options) {
    OperationalSemantics<Policy> sem(program, options, &goal);
    return explicitSearch(sem, goal, options, Policy::model);
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
