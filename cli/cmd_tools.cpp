// The subcommands that run no search: replay (check a trace), print (the
// canonical form of a program) and instrument (the buffering extension
// of a program by one path).

#include "command.hpp"
#include "report.hpp"
#include "trace_json.hpp"
#include "tsoreach/frontends/condition_goal.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/instrument/extension.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/reach/replay.hpp"

namespace tsoreach::cli {
namespace {

// Exit 0 when the trace is legal and reaches the goal, 10 when it is not.
class ReplayCommand final : public Command {
  public:
    CLI::App* declare(CLI::App& app) override {
        CLI::App* cmd = app.add_subcommand(
            "replay", "Check a trace (JSON, as in docs/json.md) step by step against the program");
        cmd->footer("Exit codes: 0 the trace is legal and reaches the goal, 10 it is not, "
                    "2 usage or input error, 1 internal error.");
        cmd->add_option("FILE", file_, "Program file")->required();
        cmd->add_option("TRACE", traceFile_, "Trace: a reach --json report or an array of steps")
            ->required();
        std::vector<std::string> models;
        for (const reach::ModelInfo& info : reach::memoryModels()) {
            models.emplace_back(info.name);
        }
        cmd->add_option("--model", model_,
                        "Memory model (default: the report's, else " +
                            std::string(reach::name(reach::kDefaultModel)) + ")")
            ->check(CLI::IsMember(models));
        cmd->add_option("--goal", goals_,
                        "Goal THREAD=STATE[,...] (default: final states); several: any of them");
        addAllowUnreachableGoal(cmd, allowUnreachableGoal_);
        cmd->add_flag("--json", json_, "Print one JSON object");
        return cmd;
    }

    [[nodiscard]] const std::string& file() const override { return file_; }
    [[nodiscard]] bool json() const override { return json_; }

    int run(Context& ctx) override {
        LoadedProgram input = withConditionGoal(loadProgramFile(file_, ctx.input, ctx.frontEnd));
        const Program& program = input.program;
        lintProgram(input, file_, false, ctx.warnings);
        LoadedTrace loaded = loadTraceJson(program, traceFile_);
        reach::MemoryModel model = loaded.model.value_or(reach::kDefaultModel);
        if (!model_.empty()) {
            model = *reach::memoryModelFromName(model_);
        }
        ctx.model = std::string(reach::name(model));
        loaded.trace.model = model;
        const Goal goal = chooseGoal(input, goals_, file_, allowUnreachableGoal_);
        const reach::ReplayOutcome outcome =
            reach::replayTrace(program, goal, loaded.trace, reach::Recorded::IfGiven);
        emit(*outputFormat(json_, ctx.warnings)
                  ->replay({file_, traceFile_, model, goal, program, loaded.trace, outcome}));
        return outcome.ok ? exitHolds : exitViolated;
    }

  private:
    std::string file_;
    std::string traceFile_;
    std::string model_; // empty: the trace file's, else the default
    std::vector<std::string> goals_;
    bool allowUnreachableGoal_ = false;
    bool json_ = false;
};

class PrintCommand final : public Command {
  public:
    CLI::App* declare(CLI::App& app) override {
        CLI::App* cmd = app.add_subcommand(
            "print", "Print the program in canonical form (a .rmm file as its translation)");
        cmd->add_option("FILE", file_, "Program file")->required();
        cmd->add_option("--format", format_, "Output language")
            ->check(CLI::IsMember({"tsoreach"}))
            ->capture_default_str();
        return cmd;
    }

    [[nodiscard]] const std::string& file() const override { return file_; }

    int run(Context& ctx) override {
        const LoadedProgram printed = loadProgramFile(file_, ctx.input, ctx.frontEnd);
        lintProgram(printed, file_, true, ctx.warnings);
        // A translation keeps its comments (memory layout, declared goal).
        emit(printed.translation.empty() ? printProgram(printed.program) : printed.translation);
        return exitHolds;
    }

  private:
    std::string file_;
    std::string format_ = "tsoreach";
};

// Prints R (+) sigma for a path given by source lines.
class InstrumentCommand final : public Command {
  public:
    CLI::App* declare(CLI::App& app) override {
        CLI::App* cmd = app.add_subcommand(
            "instrument", "Print the buffering extension R (+) sigma (paper 004) for one path");
        cmd->add_option("FILE", file_, "Program file")->required();
        cmd->add_option("--path", path_,
                        "The path sigma as source lines of its transitions, in order: a store "
                        "first, a load last, one thread, no fence, lock or unlock (e.g. 5,6)")
            ->delimiter(',')
            ->required();
        cmd->add_option("--variant", variant_,
                        "terminating (the paper's: removes the first transition, adds exits) "
                        "or trencher (keeps it, main exit only)")
            ->check(CLI::IsMember({"terminating", "trencher"}))
            ->capture_default_str();
        return cmd;
    }

    [[nodiscard]] const std::string& file() const override { return file_; }

    int run(Context& ctx) override {
        const LoadedProgram input = loadProgramFile(file_, ctx.input, ctx.frontEnd);
        const Program& program = input.program;
        lintProgram(input, file_, true, ctx.warnings);
        std::vector<TransitionId> sigma;
        for (std::uint32_t line : path_) {
            sigma.push_back(transitionOnLine(program, line));
        }
        try {
            const instrument::Extension ext = instrument::extendByPath(
                program, instrument::identityOrigins(program), sigma,
                variant_ == "trencher" ? instrument::ExtensionVariant::Trencher
                                       : instrument::ExtensionVariant::Terminating,
                "x1");
            emit(printProgram(ext.program));
        } catch (const instrument::InvalidPath& e) {
            throw UsageError(std::string("--path: ") + e.what());
        }
        return exitHolds;
    }

  private:
    static TransitionId transitionOnLine(const Program& program, std::uint32_t line) {
        TransitionId found;
        for (std::size_t i = 0; i < program.transitions.size(); ++i) {
            if (program.transitions[i].pos.line != line) {
                continue;
            }
            if (found.valid()) {
                throw UsageError("--path: line " + std::to_string(line) +
                                 " holds several transitions");
            }
            found = TransitionId(static_cast<std::uint32_t>(i));
        }
        if (!found.valid()) {
            throw UsageError("--path: no transition on line " + std::to_string(line));
        }
        return found;
    }

    std::string file_;
    std::vector<std::uint32_t> path_; // source lines
    std::string variant_ = "terminating";
};

} // namespace

std::unique_ptr<Command> replayCommand() {
    return std::make_unique<ReplayCommand>();
}

std::unique_ptr<Command> printCommand() {
    return std::make_unique<PrintCommand>();
}

std::unique_ptr<Command> instrumentCommand() {
    return std::make_unique<InstrumentCommand>();
}

} // namespace tsoreach::cli
