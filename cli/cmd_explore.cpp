// tsoreach explore: count the execution classes of a program. Exit 0 every
// class explored, 3 otherwise.

#include "command.hpp"
#include "report.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/reach/replay.hpp"

namespace tsoreach::cli {
namespace {

class ExploreCommand final : public SearchCommand {
  public:
    explicit ExploreCommand(const engines::Catalog& catalog)
        : SearchCommand(catalog, engines::Task::Explore) {}

    CLI::App* declare(CLI::App& app) override {
        CLI::App* cmd = app.add_subcommand(
            "explore", "Explore every execution class of an acyclic program and count them: "
                       "Shasha-Snir traces with dpor, reads-from classes with rf");
        cmd->footer("Exit codes: 0 every class explored, 3 unknown (a limit, or a program "
                    "the engine does not support), 2 usage or input error.");
        cmd->add_option("FILE", file_, "Program file")->required();
        declareTarget(cmd, "Memory model", "Exploration engine");
        cmd->add_flag("--print-traces", printTraces_,
                      "Print every complete or blocked execution (small programs)");
        declareOptions(cmd, "Statistics are part of every explore report; accepted for uniformity");
        return cmd;
    }

    int run(Context& ctx) override {
        const reach::MemoryModel model = chosenModel(ctx);
        const engines::EngineEntry& engine = chosenEngine(ctx, model);
        engines::Settings settings = commonSettings();
        const LoadedProgram input = loadProgramFile(file_, ctx.input, ctx.frontEnd);
        const Program& program = input.program;
        lintProgram(input, file_, true, ctx.warnings, settings.options.stop);
        completeSettings(settings, engine);
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
        emit(*outputFormat(common_.json, ctx.warnings)->explore({info, r, traces}));
        return r.complete ? exitHolds : exitUnknown;
    }

  private:
    bool printTraces_ = false;
};

} // namespace

std::unique_ptr<Command> exploreCommand(const engines::Catalog& catalog) {
    return std::make_unique<ExploreCommand>(catalog);
}

} // namespace tsoreach::cli
