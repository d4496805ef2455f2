#include "explicit_engine.hpp"

#include "explicit_search.hpp"
#include "sc_semantics.hpp"

namespace tsoreach::reach {

ExplicitEngine::ExplicitEngine(MemoryModel model) : model_(model) {
    if (model != MemoryModel::SC) {
        throw EngineUnavailable("the explicit engine supports only --model sc for now");
    }
}

Result ExplicitEngine::run(const Program& program, const Goal& goal, const Options& options) {
    ScSemantics sem(program);
    return explicitSearch(sem, goal, options, model_);
}

} // namespace tsoreach::reach
