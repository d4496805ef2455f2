// tsoreach reach: is a goal reachable? Exit 10 reachable (with a replayed
// trace), 0 unreachable, 3 unknown.

#include "command.hpp"
#include "report.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/lang/validate.hpp"
#include "tsoreach/reach/result.hpp"

#include <iostream>

namespace tsoreach::cli {
namespace {

// Prints the goal warnings of the control-flow check, at most a few, and
// tells whether they prove the goal unreachable.
bool goalUnreachableByControlFlow(const Program& program, const Goal& goal,
                                  const std::string& file) {
    constexpr std::size_t shown = 3;
    const GoalCheck check = checkGoal(program, goal);
    const std::vector<Warning>& warnings = check.warnings;
    for (std::size_t i = 0; i < warnings.size() && i < shown; ++i) {
        const Warning& w = warnings[i];
        std::cerr << file << ':' << w.pos.line << ':' << w.pos.col << ": warning: " << w.message
                  << '\n';
    }
    if (warnings.size() > shown) {
        std::cerr << file << ": warning: ... and " << warnings.size() - shown
                  << " more threads like these\n";
    }
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

class ReachCommand final : public Command {
  public:
    explicit ReachCommand(const engines::Catalog& catalog) : catalog_(catalog) {}

    CLI::App* declare(CLI::App& app) override {
        CLI::App* cmd = app.add_subcommand("reach", "Decide whether the goal states are reachable");
        cmd->footer(exitCodeHelp);
        cmd->add_option("FILE", file_, "Program file (language of docs/language.md)")->required();
        addModelOption(cmd, model_, catalog_, engines::Task::Reach, "Memory model");
        addEngineOption(cmd, engine_, catalog_, engines::Task::Reach, "Engine");
        cmd->add_option("--goal", goals_,
                        "Goal THREAD=STATE[,THREAD=STATE...] instead of the program's final "
                        "states; a thread named twice may be in either state. Given several "
                        "times: reached when any of them is");
        cmd->add_option("--search", search_, "Search order; bfs gives a shortest trace")
            ->check(CLI::IsMember({"dfs", "bfs"}))
            ->capture_default_str();
        addCommonOptions(cmd, common_,
                         {stateUnits(catalog_, engines::Task::Reach),
                          "Print statistics after the verdict", progressEngines(catalog_)});
        engineOptions_.declare(cmd, catalog_, engines::Task::Reach);
        return cmd;
    }

    [[nodiscard]] const std::string& file() const override { return file_; }

    int run(Context& ctx) override {
        ctx.model = model_;
        RunInfo info;
        engines::Settings settings;
        settings.options = commonOptions(common_);
        LoadedProgram input = loadProgramFile(file_, ctx.input);
        const Program& program = input.program;
        const reach::MemoryModel model = *reach::memoryModelFromName(model_);
        const engines::EngineEntry& entry =
            findEngine(catalog_, engines::Task::Reach, engine_, model);
        std::unique_ptr<reach::Engine> engine = entry.makeReach(model);
        ctx.engine = std::string(engine->name());
        const Goal goal = chooseGoal(program, goals_, file_, input.goal);
        noteProgress(common_, entry);
        settings.options.search = *reach::searchOrderFromName(search_);
        engineOptions_.apply(settings);
        info.command = "reach";
        info.file = file_;
        info.model = model;
        info.engine = ctx.engine;
        info.options = settings.options;
        reach::Result result;
        if (goalUnreachableByControlFlow(program, goal, file_)) {
            // Sound under every model: no path of that thread's automaton,
            // let alone an execution, reaches an accepted state.
            info.engine = "control-flow";
            result.verdict = reach::Verdict::Unreachable;
            result.stats.peakRssMb = reach::processPeakRssMb();
        } else {
            result = reach::runChecked(*engine, program, goal, info.options);
        }
        emit(*outputFormat(common_.json)->reach({program, goal, info, result, common_.stats}));
        return verdictExit(result.verdict);
    }

  private:
    const engines::Catalog& catalog_;
    std::string file_;
    std::string model_{reach::name(reach::kDefaultModel)};
    std::string engine_; // empty: the preferred one
    std::vector<std::string> goals_;
    std::string search_ = "dfs";
    CommonArgs common_;
    EngineOptionArgs engineOptions_;
};

} // namespace

std::unique_ptr<Command> reachCommand(const engines::Catalog& catalog) {
    return std::make_unique<ReachCommand>(catalog);
}

} // namespace tsoreach::cli
