// tsoreach reach: is a goal reachable? Exit 10 reachable (with a replayed
// trace), 0 unreachable, 3 unknown.

#include "command.hpp"
#include "report.hpp"
#include "tsoreach/frontends/condition_goal.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/lang/validate.hpp"
#include "tsoreach/reach/result.hpp"

#include <algorithm>
#include <optional>

namespace tsoreach::cli {
namespace {

// Gives the goal warnings of the control-flow check, at most a few on
// stderr, and tells whether they prove the goal unreachable.
bool goalUnreachableByControlFlow(const Program& program, const Goal& goal, const std::string& file,
                                  Warnings& warnings) {
    const GoalCheck check = checkGoal(program, goal);
    warnings.add(file, check.warnings, 3, "threads like these");
    return check.unreachable;
}

int verdictExit(reach::Verdict v) {
    switch (v) {
    case reach::Verdict::Reachable:
        return exitViolated;
    case reach::Verdict::Unreachable:
        return exitHolds;
    case reach::Verdict::Unknown:
        return exitUnknown;
    }
    return exitInternal;
}

class ReachCommand final : public SearchCommand {
  public:
    explicit ReachCommand(const engines::Catalog& catalog)
        : SearchCommand(catalog, engines::Task::Reach) {}

    CLI::App* declare(CLI::App& app) override {
        CLI::App* cmd = app.add_subcommand("reach", "Decide whether the goal states are reachable");
        cmd->footer(exitCodeHelp);
        cmd->add_option("FILE", file_, "Program file (language of docs/language.md)")->required();
        declareTarget(cmd, "Memory model", "Engine");
        cmd->add_option("--goal", goals_,
                        "Goal THREAD=STATE[,THREAD=STATE...] instead of the program's final "
                        "states; a thread named twice may be in either state. Given several "
                        "times: reached when any of them is");
        cmd->add_option("--search", search_, "Search order; bfs gives a shortest trace")
            ->check(CLI::IsMember({"dfs", "bfs"}))
            ->capture_default_str();
        cmd->add_option("--trace", trace_,
                        "short: a reachable goal's trace is the shortest one when a "
                        "breadth-first search of at most " +
                            std::to_string(kShortTraceStates) +
                            " states finds it (the same for every --jobs); full: the trace "
                            "of the engine that decided")
            ->check(CLI::IsMember({"short", "full"}))
            ->capture_default_str();
        cmd->add_option("--dot", dot_,
                        "Write the trace of a reachable goal as a DOT graph to FILE (a lane per "
                        "thread; stores to their flushes, reads to their sources)")
            ->check(writableFile);
        declareHtml(cmd);
        addAllowUnreachableGoal(cmd, allowUnreachableGoal_);
        declareOptions(cmd, "Print statistics after the verdict");
        return cmd;
    }

    int run(Context& ctx) override {
        const reach::MemoryModel model = chosenModel(ctx);
        engines::Settings settings = commonSettings();
        // A litmus test's condition becomes the goal (condition_goal.hpp).
        const LoadedProgram input =
            withConditionGoal(loadProgramFile(file_, ctx.input, ctx.frontEnd));
        const Program& program = input.program;
        const engines::EngineEntry& entry = chosenEngine(ctx, model);
        std::unique_ptr<reach::Engine> engine = entry.makeReach(model);
        lintProgram(input, file_, false, ctx.warnings, settings.options.stop);
        const Goal goal = chooseGoal(input, goals_, file_, allowUnreachableGoal_);
        settings.options.search = *reach::searchOrderFromName(search_);
        completeSettings(settings, entry);
        RunInfo info;
        info.command = "reach";
        info.file = file_;
        info.model = model;
        info.engine = ctx.engine;
        info.options = settings.options;
        info.condition = input.condition ? &*input.condition : nullptr;
        reach::Result result;
        if (goalUnreachableByControlFlow(program, goal, file_, ctx.warnings)) {
            // Sound under every model: no path of that thread's automaton,
            // let alone an execution, reaches an accepted state.
            info.engine = "control-flow";
            result.verdict = reach::Verdict::Unreachable;
            result.stats.peakRssMb = reach::processPeakRssMb();
        } else {
            result = reach::runChecked(*engine, program, goal, info.options);
        }
        if (result.trace && trace_ == "short" &&
            !(entry.name == "explicit" && info.options.search == reach::SearchOrder::Bfs)) {
            if (auto t =
                    shorterTrace(catalog_, program, goal, model, info.options, *result.trace)) {
                result.trace = std::move(t);
            }
        }
        const ReachReport report{program, goal, info, result, common_.stats};
        writeReportFiles(
            ctx, input, settings.options.stop,
            [&](const ReportFormat& f) { return f.reach(report); }, dot_);
        emit(*outputFormat(common_.json, ctx.warnings)->reach(report));
        return verdictExit(result.verdict);
    }

  private:
    std::vector<std::string> goals_;
    std::string search_ = "dfs";
    std::string trace_ = "short";
    std::string dot_; // --dot FILE
    bool allowUnreachableGoal_ = false;
};

} // namespace

std::unique_ptr<Command> reachCommand(const engines::Catalog& catalog) {
    return std::make_unique<ReachCommand>(catalog);
}

} // namespace tsoreach::cli
