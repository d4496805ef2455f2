// tsoreach outcomes: every final state of an acyclic program (registers and
// memory), with how many executions end there where the engine counts
// them, and with --diff MODEL which ones that model does not have. Exit 0
// every final state found, 3 otherwise.

#include "command.hpp"
#include "report.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/reach/model.hpp"
#include "tsoreach/reach/outcomes.hpp"

namespace tsoreach::cli {
namespace {

class OutcomesCommand final : public SearchCommand {
  public:
    explicit OutcomesCommand(const engines::Catalog& catalog)
        : SearchCommand(catalog, engines::Task::Outcomes) {}

    CLI::App* declare(CLI::App& app) override {
        CLI::App* cmd = app.add_subcommand(
            "outcomes", "List every final state of an acyclic program: each thread's registers "
                        "and the final memory, with the executions that end there (dpor, rf)");
        cmd->footer("Exit codes: 0 every final state found, 3 unknown (a limit, or a program "
                    "the engine does not support), 2 usage or input error.");
        cmd->add_option("FILE", file_, "Program file")->required();
        declareTarget(cmd, "Memory model", "Enumerating engine");
        std::vector<std::string> models;
        for (reach::MemoryModel m : catalog_.models(task_)) {
            models.emplace_back(reach::name(m));
        }
        cmd->add_option("--diff", diff_,
                        "Also list the outcomes under this model and mark those it does not have")
            ->check(CLI::IsMember(models));
        declareHtml(cmd);
        declareOptions(cmd,
                       "Statistics are part of every outcomes report; accepted for uniformity");
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
        reach::OutcomeList list = listUnder(program, model, engine, o);
        std::optional<reach::OutcomeList> baseline;
        std::optional<reach::MemoryModel> diffModel;
        if (!diff_.empty()) {
            diffModel = *reach::memoryModelFromName(diff_);
            // The same engine where it does the model, else the preferred one.
            const engines::EngineEntry& other = engine.does(task_, *diffModel)
                                                    ? engine
                                                    : findEngine(catalog_, task_, "", *diffModel);
            baseline = listUnder(program, *diffModel, other, o);
            // Only a complete baseline shows which outcomes are new.
            if (baseline->complete) {
                reach::markNew(list, *baseline);
            }
        }
        const OutcomesInfo info{file_, model, ctx.engine, diffModel,
                                input.condition ? &*input.condition : nullptr};
        const OutcomesReport report{program, info, list, baseline ? &*baseline : nullptr};
        writeReportFiles(ctx, input, settings.options.stop,
                         [&](const ReportFormat& f) { return f.outcomes(report); });
        emit(*outputFormat(common_.json, ctx.warnings)->outcomes(report));
        const bool complete = list.complete && (!baseline || baseline->complete);
        return complete ? exitHolds : exitUnknown;
    }

  private:
    static reach::OutcomeList listUnder(const Program& program, reach::MemoryModel m,
                                        const engines::EngineEntry& engine,
                                        const reach::ExploreOptions& o) {
        // No pre-check with the row's `unsupported`: it does not see
        // --unroll, which the engine's own check (in explore) does.
        return reach::collectOutcomes(
            program, m,
            [&](const reach::ExploreOptions& mine) { return engine.explore(program, m, mine); }, o);
    }

    std::string diff_;
};

} // namespace

std::unique_ptr<Command> outcomesCommand(const engines::Catalog& catalog) {
    return std::make_unique<OutcomesCommand>(catalog);
}

} // namespace tsoreach::cli
