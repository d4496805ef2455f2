#pragma once
// The catalog of engines: every engine of every layer, with the tasks it
// does and the memory models it does them for. It sits above all engines;
// the CLI, the tests and the fuzzers pick engines from a catalog and never
// name one. Adding an engine is one folder and one row of
// standardCatalog() (docs/architecture.md, "How to add an engine").

#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/explore.hpp"
#include "tsoreach/reach/model.hpp"
#include "tsoreach/robustness/dpor_robustness.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tsoreach::engines {

using reach::MemoryModel;

// What a subcommand asks of an engine.
enum class Task {
    Reach,      // reach, fences --target safety: is a goal reachable?
    Explore,    // explore: count the execution classes
    Outcomes,   // outcomes: list the final states, with their executions where counted
    Robustness, // robust: is every execution sequentially consistent?
};

// What a command asks of an engine besides the program: the search options
// every engine reads (limits, jobs, search order, progress) and the settings
// of particular engines (EngineOption); each engine uses what applies to it.
struct Settings {
    reach::Options options;
    // Robustness by attacks: which feasible attacks, and how each searches.
    robustness::WitnessScope scope = robustness::WitnessScope::First;
    robustness::AttackSearch attackSearch = robustness::AttackSearch::Auto;
};

// A setting that belongs to an engine, declared with its row: the command
// line offers it on the subcommands of its tasks, with this help, and hands
// the given value to `apply` (an option not given leaves the defaults of
// Settings).
struct EngineOption {
    enum class Kind {
        Count,     // an integer >= 1
        Switch,    // on or off
        Flag,      // no value ("" is passed)
        Choice,    // one of `choices`
        Directory, // an existing directory
    };
    std::string flag; // "--max-iterations"
    std::string help; // without the engine's name: the command line adds it
    Kind kind = Kind::Count;
    std::vector<Task> tasks;
    std::vector<std::string> choices; // Choice
    std::string defaultValue;         // shown in the help; empty: none
    std::function<void(Settings&, const std::string&)> apply;
};

// A robustness answer: by attacks (with one witness per feasible attack) or
// by exploration (with one execution).
using RobustnessOutcome =
    std::variant<robustness::RobustnessResult, robustness::ExploredRobustness>;

using ReachFactory = std::function<std::unique_ptr<reach::Engine>(MemoryModel)>;
using ExploreFunction =
    std::function<reach::ExploreResult(const Program&, MemoryModel, const reach::ExploreOptions&)>;
using RobustnessFunction =
    std::function<RobustnessOutcome(const Program&, MemoryModel, const Settings&)>;

// One row of the catalog.
struct EngineEntry {
    std::string_view name;
    std::string_view description;
    // The models it does each task for; empty: it does not do the task.
    std::vector<MemoryModel> reachModels;
    std::vector<MemoryModel> exploreModels;
    std::vector<MemoryModel> outcomeModels;
    std::vector<MemoryModel> robustnessModels;
    ReachFactory makeReach;             // set when reachModels is not empty
    ExploreFunction explore;            // set when exploreModels or outcomeModels is not empty
    RobustnessFunction checkRobustness; // set when robustnessModels is not empty
    // Why the engine refuses a program under a model (it then answers
    // `unknown` with that reason), or nothing; null: it refuses none.
    std::function<std::optional<std::string>(const Program&, MemoryModel)> unsupported;
    // Reach: the engine seldom proves a cyclic program's goal unreachable
    // (the lazy loop needs a robust extension); `fences --target safety`
    // then prefers the next engine.
    bool weakOnCycles = false;
    // Whether the explicit search's options (Options::search, partialOrder,
    // liveRegisters, mergeStores, bufferBound) shape its search; the
    // stateless explorers ignore them, so tests need not vary them.
    bool readsSearchOptions = false;
    // What --max-states counts for it; empty: the states it stores.
    std::string_view stateUnit;
    // Whether it reports progress through Options::progress (--progress).
    bool reportsProgress = false;
    // Its own settings, for the subcommands of their tasks.
    std::vector<EngineOption> options;

    [[nodiscard]] std::span<const MemoryModel> models(Task t) const;
    [[nodiscard]] bool does(Task t, MemoryModel m) const;
    [[nodiscard]] std::optional<std::string> unsupportedFor(const Program& p, MemoryModel m) const {
        return unsupported ? unsupported(p, m) : std::nullopt;
    }
};

std::string_view name(Task t); // "reach", "explore", "outcomes", "robustness"

// Engines in order of preference: for a task and a model, the first row
// that does it is the default.
class Catalog {
  public:
    explicit Catalog(std::vector<EngineEntry> entries);

    [[nodiscard]] std::span<const EngineEntry> entries() const { return entries_; }
    // The rows that do `t` under `m`, the preferred one first.
    [[nodiscard]] std::vector<const EngineEntry*> enginesFor(Task t, MemoryModel m) const;
    // The row called `name` (empty: the preferred one) that does `t` under
    // `m`. Throws reach::EngineUnavailable saying why there is none.
    [[nodiscard]] const EngineEntry& find(Task t, std::string_view name, MemoryModel m) const;
    // The models some engine does `t` for, in the order of the model table.
    [[nodiscard]] std::vector<MemoryModel> models(Task t) const;
    // For --engine's help: the engines of each model, preferred first.
    [[nodiscard]] std::string engineHelp(Task t) const;
    // The engine options of the rows that do `t`, each flag once (the first
    // row's declaration), with the names of the rows that take it.
    struct OfferedOption {
        const EngineOption* option;
        std::vector<std::string_view> engines;
    };
    [[nodiscard]] std::vector<OfferedOption> optionsFor(Task t) const;
    // A reach engine (the CLI's --engine); throws reach::EngineUnavailable.
    [[nodiscard]] std::unique_ptr<reach::Engine> makeReach(std::string_view name,
                                                           MemoryModel m) const;

  private:
    std::vector<EngineEntry> entries_;
};

// Every engine of tsoreach.
Catalog standardCatalog();
std::vector<EngineEntry> standardEngines();

// Shorthands over the standard catalog, for tests and tools: the rows that
// do reachability under `m` (copies, preferred first), and one reach engine
// (empty name: the preferred one; throws reach::EngineUnavailable).
std::vector<EngineEntry> reachEnginesFor(MemoryModel m);
std::unique_ptr<reach::Engine> makeReachEngine(std::string_view name, MemoryModel m);

} // namespace tsoreach::engines
