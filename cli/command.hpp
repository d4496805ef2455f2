#pragma once
// What the subcommands of the command line share: exit codes, errors, the
// options every searching subcommand has (declared once here), the options
// engines declare in their catalog rows, and the Command interface each
// subcommand implements (one file per subcommand: cmd_*.cpp).

#include "diagnostics.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/front_end.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/lang/stop.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tsoreach::cli {

// Exit codes (also in --help and README.md).
constexpr int exitHolds = 0;     // unreachable / robust
constexpr int exitInternal = 1;  // a bug in tsoreach
constexpr int exitInput = 2;     // usage or input error
constexpr int exitUnknown = 3;   // a bound, limit or timeout stopped the search
constexpr int exitViolated = 10; // reachable / not robust

extern const char* const exitCodeHelp;

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What the error messages name, filled in as the run proceeds, and the
// warnings given so far (the JSON report and the JSON error include them).
struct Context {
    std::string input;        // --input-format
    FrontEndOptions frontEnd; // --seq-cst-store
    std::string command;
    std::string file;
    std::string model;
    std::string engine;
    bool json = false; // --json: errors are JSON on stdout too
    Warnings warnings;
};

extern const CLI::Validator nonNegativeInteger;
extern const CLI::Validator nonNegativeNumber;
extern const CLI::Validator positiveInteger;
// An output file (--html, --dot, --apply): not `-`, and writable now.
extern const CLI::Validator writableFile;

// Writes `text` to stdout; a failed write is an error, not a silent loss.
void emit(const std::string& text);
// Writes `text` to the file `path` (--dot FILE); a usage error when it cannot.
void writeFile(const std::string& path, const std::string& text);

// The goal of --goal options, else the declared goal, else the program's
// final states. A goal state that no transition of its thread mentions is an
// InputError at its position (validate.hpp, unmentionedGoalStates) unless
// `allowUnmentioned` (--allow-unreachable-goal); so is a --goal state the
// thread does not have at all.
Goal chooseGoal(const LoadedProgram& input, const std::vector<std::string>& goals,
                const std::string& file, bool allowUnmentioned);

// Declares --allow-unreachable-goal (the commands that choose a goal).
void addAllowUnreachableGoal(CLI::App* cmd, bool& allow);

// What every searching subcommand (reach, robust, fences, explore) takes,
// declared once: the limits, threads, output form, statistics, progress.
struct CommonArgs {
    static constexpr std::uint64_t kMemoryUnset = ~std::uint64_t{0};
    std::uint64_t maxStates = 0;
    double timeout = 0;
    std::uint64_t maxMemory = kMemoryUnset;
    unsigned jobs = 0; // 0: the number of cores
    bool json = false;
    bool stats = false;
    bool progress = false;
};

// With --progress, says on stderr when the chosen engine reports none.
void noteProgress(const CommonArgs& a, const engines::EngineEntry& engine);

// The catalog's engine for a task, a model and --engine (empty: the
// preferred one); a missing one is a usage error.
const engines::EngineEntry& findEngine(const engines::Catalog& catalog, engines::Task task,
                                       const std::string& name, reach::MemoryModel model);

// The options that engines declare in their catalog rows, for one task.
class EngineOptionArgs {
  public:
    void declare(CLI::App* cmd, const engines::Catalog& catalog, engines::Task task);
    // Hands every option given on the command line to its row.
    void apply(engines::Settings& settings) const;
    // Says on stderr which given options `engine` does not take (they
    // belong to other rows and change nothing for it).
    void noteUnused(const engines::EngineEntry& engine) const;

  private:
    struct Declared {
        const engines::EngineOption* option;
        CLI::Option* cli;
        std::string engines; // the rows that take it, "explicit, attacks"
    };
    std::vector<Declared> declared_;
    engines::Task task_ = engines::Task::Reach;
    std::map<std::string, std::string> values_; // by flag; stable addresses for CLI11
};

class ReportFormat; // report.hpp

// One subcommand.
class Command {
  public:
    Command() = default;
    Command(const Command&) = delete;
    Command& operator=(const Command&) = delete;
    virtual ~Command() = default;
    // Declares the subcommand and its options.
    virtual CLI::App* declare(CLI::App& app) = 0;
    // The program file it reads.
    [[nodiscard]] virtual const std::string& file() const = 0;
    // Whether --json was given (errors are then JSON on stdout too).
    [[nodiscard]] virtual bool json() const { return false; }
    // Whether --progress was given (a summary line ends the run).
    [[nodiscard]] virtual bool progress() const { return false; }
    // Runs it; returns the exit code.
    virtual int run(Context& ctx) = 0;
};

// What the searching subcommands (reach, robust, fences, explore) share: the
// file, --model and --engine of one task, the common options and the
// engines' own options, and the steps that turn them into settings.
class SearchCommand : public Command {
  public:
    [[nodiscard]] const std::string& file() const override { return file_; }
    [[nodiscard]] bool json() const override { return common_.json; }
    [[nodiscard]] bool progress() const override { return common_.progress; }

  protected:
    SearchCommand(const engines::Catalog& catalog, engines::Task task)
        : catalog_(catalog), task_(task) {}
    // FILE, --model and --engine.
    void declareTarget(CLI::App* cmd, const std::string& modelHelp, const std::string& engineWhat);
    // The common options, then the engine options of the task.
    void declareOptions(CLI::App* cmd, const std::string& statsHelp);
    // --model, also named in ctx for the internal-error message.
    reach::MemoryModel chosenModel(Context& ctx) const;
    // The catalog's row for --engine (empty: `fallback`, else the preferred).
    const engines::EngineEntry& chosenEngine(Context& ctx, reach::MemoryModel m,
                                             const std::string& fallback = "") const;
    // The settings of the common options: made before the program is
    // loaded, so that the command's deadline covers loading too.
    [[nodiscard]] engines::Settings commonSettings() const;
    // Adds the engine options given, and says if `engine` reports no progress.
    void completeSettings(engines::Settings& s, const engines::EngineEntry& engine) const;
    // --html FILE (reach, robust, fences, outcomes).
    void declareHtml(CLI::App* cmd);
    // The files a run writes besides its report, before the report is
    // printed: with --html the page that `report` makes with the HTML
    // format, and with `dot` (reach's and robust's --dot) its DOT graph.
    void
    writeReportFiles(const Context& ctx, const LoadedProgram& input, const StopCondition& stop,
                     const std::function<std::optional<std::string>(const ReportFormat&)>& report,
                     const std::string& dot = "") const;

    const engines::Catalog& catalog_;
    engines::Task task_;
    std::string file_;
    std::string model_{reach::name(reach::kDefaultModel)};
    std::string engine_; // empty: the preferred one
    CommonArgs common_;
    EngineOptionArgs engineOptions_;
    std::string html_; // --html FILE; empty: none
};

// The states a breadth-first search for a shorter trace may store: a budget
// in states, not seconds, so that the trace printed does not depend on the
// machine (about 0.1 s of the explicit engine).
constexpr std::uint64_t kShortTraceStates = 250000;

// A shortest trace, when the trace found is longer: the explicit engine's
// breadth-first search on one thread (so the trace does not depend on
// --jobs), within kShortTraceStates and the command's limits; nullopt when
// it does not finish or finds none shorter. runChecked replays it.
std::optional<reach::Trace> shorterTrace(const engines::Catalog& catalog, const Program& program,
                                         const Goal& goal, reach::MemoryModel model,
                                         const reach::Options& base, const reach::Trace& found);

std::unique_ptr<Command> reachCommand(const engines::Catalog& catalog);
std::unique_ptr<Command> robustCommand(const engines::Catalog& catalog);
std::unique_ptr<Command> fencesCommand(const engines::Catalog& catalog);
std::unique_ptr<Command> exploreCommand(const engines::Catalog& catalog);
std::unique_ptr<Command> outcomesCommand(const engines::Catalog& catalog);
std::unique_ptr<Command> replayCommand();
std::unique_ptr<Command> printCommand();
std::unique_ptr<Command> instrumentCommand();
std::unique_ptr<Command> paramCommand(const engines::Catalog& catalog);

} // namespace tsoreach::cli
