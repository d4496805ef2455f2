// tsoreach explore: count the execution classes of a program. Exit 0 every
// class explored, 3 otherwise.

#include "command.hpp"
#include "report.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/reach/replay.hpp"

namespace tsoreach::cli {
namespace {

class ExploreCommand final : public Command {
  public:
    explicit ExploreCommand(const engines::Catalog& catalog) : catalog_(catalog) {}

    CLI::App* declare(CLI::App& app) override {
        CLI::App* cmd = app.add_subcommand(
            "explore", "Explore every execution class of an acyclic program and count them: "
                       "Shasha-Snir traces with dpor, reads-from classes with rf");
        cmd->footer("Exit codes: 0 every class explored, 3 unknown (a limit, or a program "
                    "the engine does not support), 2 usage or input error.");
        cmd->add_option("FILE", file_, "Program file")->required();
        addModelOption(cmd, model_, catalog_, engines::Task::Explore, "Memory model");
        addEngineOption(cmd, engine_, catalog_, engines::Task::Explore, "Exploration engine");
        cmd->add_flag("--print-traces", printTraces_,
                      "Print every complete or blocked execution (small programs)");
        addCommonOptions(cmd, common_,
                         {stateUnits(catalog_, engines::Task::Explore),
                          "Statistics are part of every explore report; accepted for "
                          "uniformity",
                          progressEngines(catalog_)});
        engineOptions_.declare(cmd, catalog_, engines::Task::Explore);
        return cmd;
    }

    [[nodiscard]] const std::string& file() const override { return file_; }

    int run(Context& ctx) override {
        ctx.model = model_;
        const reach::MemoryModel model = *reach::memoryModelFromName(model_);
        const engines::EngineEntry& engine =
            findEngine(catalog_, engines::Task::Explore, engine_, model);
        ctx.engine = std::string(engine.name);
        engines::Settings settings;
        settings.options = commonOptions(common_);
        const Program program = loadProgramFile(file_, ctx.input).program;
        noteProgress(common_, engine);
        engineOptions_.apply(settings);
        reach::ExploreOptions o;
        o.limits = settings.options;
        std::string traces;
        std::size_t count = 0;
        const Goal none(program); // outlives the callback that replays against it
        if (printTraces_) {
            o.onExecution = [&](const reach::Trace& t, bool blocked) {
                const reach::ReplayOutcome replay =
                    reach::replayTrace(program, none, t, reach::Recorded::IfGiven);
                if (!replay.ok) {
                    throw reach::TraceReplayError("an explored execution does not replay: " +
                                                  replay.error);
                }
                traces += "execution " + std::to_string(++count) + (blocked ? " (blocked)" : "") +
                          ":\n" + traceTable(program, replay.completed) + "\n";
            };
        }
        const reach::ExploreResult r = engine.explore(program, model, o);
        const ExploreInfo info{file_, model, ctx.engine};
        emit(*outputFormat(common_.json)->explore({info, r, traces}));
        return r.complete ? exitHolds : exitUnknown;
    }

  private:
    const engines::Catalog& catalog_;
    std::string file_;
    std::string model_{reach::name(reach::kDefaultModel)};
    std::string engine_; // empty: the preferred one
    bool printTraces_ = false;
    CommonArgs common_;
    EngineOptionArgs engineOptions_;
};

} // namespace

std::unique_ptr<Command> exploreCommand(const engines::Catalog& catalog) {
    return std::make_unique<ExploreCommand>(catalog);
}

} // namespace tsoreach::cli
