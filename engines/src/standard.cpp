// The rows of the standard catalog, in order of preference: for each task and
// model the first row that does it is the default (reach: lazy for TSO,
// explicit otherwise; explore: dpor; outcomes: explicit; robustness:
// attacks for TSO, dpor for PSO).

#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/lazy/lazy_engine.hpp"
#include "tsoreach/reach/dpor.hpp"
#include "tsoreach/reach/explicit.hpp"
#include "tsoreach/reach/mcr.hpp"
#include "tsoreach/reach/rf.hpp"

#include <cerrno>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>

namespace tsoreach::engines {

namespace {

using Kind = EngineOption::Kind;

std::size_t count(const std::string& v) {
    return static_cast<std::size_t>(std::stoull(v)); // checked by the command line
}

EngineOption unrollOption(std::vector<Task> tasks) {
    return {"--unroll",
            "cyclic programs: at most K back edges per thread (only a positive answer, "
            "reachable or not robust, is then conclusive)",
            Kind::Count,
            std::move(tasks),
            {},
            {},
            [](Settings& s, const std::string& v) { s.options.unroll = count(v); }};
}

// --por and --live: the explicit search's reductions, also in the attacks'
// SC checks.
std::vector<EngineOption> reductionOptions(Task t) {
    return {{"--por",
             "partial-order reduction of SC searches (ample sets; preserves reachability)",
             Kind::Switch,
             {t},
             {},
             "on",
             [](Settings& s, const std::string& v) { s.options.partialOrder = v == "on"; }},
            {"--live",
             "live-register reduction: dead registers are stored as 0",
             Kind::Switch,
             {t},
             {},
             "on",
             [](Settings& s, const std::string& v) { s.options.liveRegisters = v == "on"; }}};
}

// --save-programs DIR: each extended program as DIR/round-K.txt.
void saveProgramsTo(Settings& s, const std::string& dir) {
    s.options.onProgram = [dir](std::size_t round, const std::string& text) {
        const std::string path = dir + "/round-" + std::to_string(round) + ".txt";
        std::ofstream out(path, std::ios::binary);
        out << text;
        if (!out) {
            // The user's directory, not a bug: the command line says so, exit 2.
            throw std::system_error(errno != 0 ? errno : EIO, std::generic_category(),
                                    "cannot write " + path + " (--save-programs)");
        }
    };
}

// An engine whose every search runs on one thread (Options::searchJobs):
// the lazy loop runs its goal checks beside the oracle's attacks, which
// already share --jobs, so a parallel goal check would oversubscribe.
class SequentialSearches final : public reach::Engine {
  public:
    explicit SequentialSearches(std::unique_ptr<reach::Engine> inner) : inner_(std::move(inner)) {}
    [[nodiscard]] std::string_view name() const override { return inner_->name(); }
    [[nodiscard]] MemoryModel model() const override { return inner_->model(); }
    [[nodiscard]] bool takesGoalViews() const override { return inner_->takesGoalViews(); }
    reach::Result run(const Program& program, const Goal& goal,
                      const reach::Options& options) override {
        reach::Options mine = options;
        mine.searchJobs = 1;
        return inner_->run(program, goal, mine);
    }

  private:
    std::unique_ptr<reach::Engine> inner_;
};

constexpr MemoryModel SC = MemoryModel::SC;
constexpr MemoryModel TSO = MemoryModel::TSO;
constexpr MemoryModel PSO = MemoryModel::PSO;

EngineEntry lazyRow() {
    EngineEntry e;
    e.readsSearchOptions = true;
    e.name = "lazy";
    e.description = "TSO by SC checks: robustness oracle + buffering extension (paper 004)";
    e.reachModels = {TSO};
    e.makeReach = [](MemoryModel) {
        return std::make_unique<SequentialSearches>(
            std::make_unique<lazy::LazyEngine>(instrument::ExtensionVariant::Terminating));
    };
    e.weakOnCycles = true;
    e.reportsProgress = true;
    e.options = {
        {"--max-iterations",
         "rounds before 'unknown' (default " + std::to_string(lazy::kDefaultMaxIterations) + ")",
         Kind::Count,
         {Task::Reach},
         {},
         {},
         [](Settings& s, const std::string& v) { s.options.maxIterations = count(v); }},
        {"--probe",
         "small explicit TSO searches before the loop and while the goal side waits for "
         "the oracle (docs/architecture.md)",
         Kind::Switch,
         {Task::Reach},
         {},
         "on",
         [](Settings& s, const std::string& v) { s.options.explicitProbes = v == "on"; }},
        {"--save-programs",
         "write each extended program to DIR/round-K.txt (K >= 2)",
         Kind::Directory,
         {Task::Reach},
         {},
         {},
         saveProgramsTo}};
    return e;
}

EngineEntry explicitRow() {
    EngineEntry e;
    e.readsSearchOptions = true;
    e.name = "explicit";
    e.reportsProgress = true; // ResourceMonitor::progress
    e.description = "explicit-state search over the operational semantics (--search dfs|bfs)";
    e.reachModels = {SC, TSO, PSO};
    e.outcomeModels = {SC, TSO, PSO};
    e.makeReach = [](MemoryModel m) { return std::make_unique<reach::ExplicitEngine>(m); };
    e.explore = reach::explicitFinalStates;
    e.options = reductionOptions(Task::Reach);
    e.options.push_back(
        {"--merge-stores",
         "TSO/PSO: a store equal to the newest buffered store to an address no other thread "
         "writes is not buffered again (preserves reachability; traces are of the full "
         "semantics)",
         Kind::Switch,
         {Task::Reach},
         {},
         "on",
         [](Settings& s, const std::string& v) { s.options.mergeStores = v == "on"; }});
    e.options.push_back(unrollOption({Task::Outcomes}));
    e.options.insert(
        e.options.begin(),
        {"--buffer-bound",
         "TSO/PSO: at most K buffered stores per thread that has a control-flow cycle "
         "(acyclic threads are never capped); if the cap blocks a store, 'unreachable' "
         "becomes 'unknown'",
         Kind::Count,
         {Task::Reach},
         {},
         "4",
         [](Settings& s, const std::string& v) { s.options.bufferBound = count(v); }});
    return e;
}

EngineEntry attacksRow() {
    EngineEntry e;
    e.readsSearchOptions = true;
    e.name = "attacks";
    e.reportsProgress = true; // its searches (explicit) report
    e.description = "robustness against TSO by attacks, each an SC reachability check (paper 004)";
    e.robustnessModels = {TSO};
    e.stateUnit = "the states of each attack's SC search";
    e.checkRobustness = [](const Program& p, MemoryModel, const Settings& r) {
        return RobustnessOutcome(
            robustness::checkTsoRobustness(p, r.options, r.scope, r.options.jobs, r.attackSearch));
    };
    e.options = reductionOptions(Task::Robustness);
    e.options.push_back(
        {"--all",
         "list every feasible attack, not just the first",
         Kind::Flag,
         {Task::Robustness},
         {},
         {},
         [](Settings& s, const std::string&) { s.scope = robustness::WitnessScope::All; }});
    e.options.push_back(
        {"--search",
         "search order of each attack's SC check: dfs finds deep witnesses fast, bfs shallow "
         "ones even in infinite state spaces; auto: dfs up to " +
             std::to_string(robustness::kAutoDfsStates) +
             " states, then bfs as far, then both with " + std::to_string(robustness::kAutoGrowth) +
             " times the budget, and so on",
         Kind::Choice,
         {Task::Robustness},
         {"auto", "dfs", "bfs"},
         "auto",
         [](Settings& s, const std::string& v) {
             s.attackSearch = v == "dfs"   ? robustness::AttackSearch::Dfs
                              : v == "bfs" ? robustness::AttackSearch::Bfs
                                           : robustness::AttackSearch::Auto;
         }});
    return e;
}

EngineEntry dporRow() {
    EngineEntry e;
    e.name = "dpor";
    e.reportsProgress = true; // ResourceMonitor::progress
    e.description = "stateless DPOR over chronological traces (acyclic programs without locks)";
    e.reachModels = {SC, TSO, PSO};
    e.exploreModels = {SC, TSO, PSO};
    e.outcomeModels = {SC, TSO, PSO};
    e.robustnessModels = {TSO, PSO};
    e.stateUnit = "one per event executed, in the whole exploration";
    e.makeReach = [](MemoryModel m) { return std::make_unique<reach::DporEngine>(m); };
    e.explore = reach::dporExplore;
    e.checkRobustness = [](const Program& p, MemoryModel m, const Settings& r) {
        // Only the limits, the loop bound and --progress apply to an
        // exploration.
        reach::Options limits;
        limits.stop = r.options.stop;
        limits.maxStates = r.options.maxStates;
        limits.unroll = r.options.unroll;
        limits.progress = r.options.progress;
        return RobustnessOutcome(robustness::robustnessByExploration(p, m, limits));
    };
    e.unsupported = [](const Program& p, MemoryModel m) { return reach::dporUnsupported(p, m); };
    e.options = {unrollOption({Task::Reach, Task::Explore, Task::Outcomes, Task::Robustness})};
    return e;
}

EngineEntry rfRow() {
    EngineEntry e;
    e.name = "rf";
    e.reportsProgress = true; // ResourceMonitor::progress
    e.description =
        "exploration by reads-from classes with consistency checks (acyclic programs without "
        "locks)";
    e.reachModels = {SC, TSO, PSO};
    e.exploreModels = {SC, TSO, PSO};
    // Not outcomes: a reads-from class leaves the order of writes to a cell
    // open, and so the final memory.
    e.stateUnit = "one per maximal execution explored";
    e.makeReach = [](MemoryModel m) { return std::make_unique<reach::RfEngine>(m); };
    e.explore = reach::rfExplore;
    e.unsupported = [](const Program& p, MemoryModel) { return reach::rfUnsupported(p); };
    e.options = {unrollOption({Task::Reach, Task::Explore})};
    return e;
}

EngineEntry mcrRow() {
    EngineEntry e;
    e.name = "mcr";
    e.reportsProgress = true; // ResourceMonitor::progress
    e.description = "maximal causality reduction: one run per new value read, seeds solved by "
                    "Z3 (acyclic programs; locks supported)";
    e.reachModels = {SC, TSO, PSO};
    e.exploreModels = {SC, TSO, PSO};
    e.stateUnit = "one per maximal execution explored";
    e.makeReach = [](MemoryModel m) { return std::make_unique<reach::McrEngine>(m); };
    e.explore = reach::mcrExplore;
    e.unsupported = [](const Program& p, MemoryModel) { return reach::mcrUnsupported(p); };
    e.options = {unrollOption({Task::Reach, Task::Explore})};
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
    rows.push_back(mcrRow());
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
