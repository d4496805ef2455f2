// The rows of the standard catalog, in order of preference: for each task and
// model the first row that does it is the default (reach: lazy for TSO,
// explicit otherwise; explore: dpor; robustness: attacks for TSO, dpor for
// PSO).

#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/lazy/lazy_engine.hpp"
#include "tsoreach/reach/dpor.hpp"
#include "tsoreach/reach/explicit.hpp"
#include "tsoreach/reach/rf.hpp"

namespace tsoreach::engines {

namespace {

constexpr MemoryModel SC = MemoryModel::SC;
constexpr MemoryModel TSO = MemoryModel::TSO;
constexpr MemoryModel PSO = MemoryModel::PSO;

EngineEntry lazyRow() {
    EngineEntry e;
    e.name = "lazy";
    e.description = "TSO by SC checks: robustness oracle + buffering extension (paper 004)";
    e.reachModels = {TSO};
    e.makeReach = [](MemoryModel) {
        return std::make_unique<lazy::LazyEngine>(instrument::ExtensionVariant::Terminating);
    };
    e.weakOnCycles = true;
    return e;
}

EngineEntry explicitRow() {
    EngineEntry e;
    e.name = "explicit";
    e.description = "explicit-state search over the operational semantics (--search dfs|bfs)";
    e.reachModels = {SC, TSO, PSO};
    e.makeReach = [](MemoryModel m) { return std::make_unique<reach::ExplicitEngine>(m); };
    return e;
}

EngineEntry attacksRow() {
    EngineEntry e;
    e.name = "attacks";
    e.description = "robustness against TSO by attacks, each an SC reachability check (paper 004)";
    e.robustnessModels = {TSO};
    e.checkRobustness = [](const Program& p, MemoryModel, const RobustnessRequest& r) {
        return RobustnessOutcome(
            robustness::checkTsoRobustness(p, r.options, r.scope, r.options.jobs, r.attackSearch));
    };
    return e;
}

EngineEntry dporRow() {
    EngineEntry e;
    e.name = "dpor";
    e.description = "stateless DPOR over chronological traces (acyclic programs without locks)";
    e.reachModels = {SC, TSO, PSO};
    e.exploreModels = {SC, TSO, PSO};
    e.robustnessModels = {TSO, PSO};
    e.makeReach = [](MemoryModel m) { return std::make_unique<reach::DporEngine>(m); };
    e.explore = reach::dporExplore;
    e.checkRobustness = [](const Program& p, MemoryModel m, const RobustnessRequest& r) {
        // Only the limits and the loop bound apply to an exploration.
        reach::Options limits;
        limits.stop = r.options.stop;
        limits.maxStates = r.options.maxStates;
        limits.unroll = r.options.unroll;
        return RobustnessOutcome(robustness::robustnessByExploration(p, m, limits));
    };
    e.unsupported = [](const Program& p, MemoryModel m) { return reach::dporUnsupported(p, m); };
    return e;
}

EngineEntry rfRow() {
    EngineEntry e;
    e.name = "rf";
    e.description =
        "exploration by reads-from classes with consistency checks (acyclic programs without "
        "locks)";
    e.reachModels = {SC, TSO, PSO};
    e.exploreModels = {SC, TSO, PSO};
    e.makeReach = [](MemoryModel m) { return std::make_unique<reach::RfEngine>(m); };
    e.explore = reach::rfExplore;
    e.unsupported = [](const Program& p, MemoryModel) { return reach::rfUnsupported(p); };
    return e;
}

} // namespace

std::vector<EngineEntry> standardEngines() {
    std::vector<EngineEntry> rows;
    rows.push_back(lazyRow());
    rows.push_back(explicitRow());
    rows.push_back(attacksRow());
    rows.push_back(dporRow());
    rows.push_back(rfRow());
    return rows;
}

Catalog standardCatalog() {
    return Catalog(standardEngines());
}

std::vector<EngineEntry> reachEnginesFor(MemoryModel m) {
    std::vector<EngineEntry> out;
    for (EngineEntry& e : standardEngines()) {
        if (e.does(Task::Reach, m)) {
            out.push_back(std::move(e));
        }
    }
    return out;
}

std::unique_ptr<reach::Engine> makeReachEngine(std::string_view name, MemoryModel m) {
    return standardCatalog().makeReach(name, m);
}

} // namespace tsoreach::engines
