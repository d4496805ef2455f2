// tsoreach robust: is every execution sequentially consistent? Exit 0
// robust, 10 not robust (with a witness), 3 unknown.

#include "command.hpp"
#include "report.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/instrument/attack.hpp"
#include "tsoreach/instrument/plain_locks.hpp"
#include "tsoreach/lang/printer.hpp"

#include <chrono>
#include <fstream>
#include <variant>

namespace tsoreach::cli {
namespace {

int robustExit(robustness::RobustVerdict v) {
    switch (v) {
    case robustness::RobustVerdict::Robust:
        return exitHolds;
    case robustness::RobustVerdict::NotRobust:
        return exitViolated;
    case robustness::RobustVerdict::Unknown:
        break;
    }
    return exitUnknown;
}

// --print-attack N: the instrumented SC program of one attack.
int printAttack(const Program& program, std::size_t n) {
    const std::vector<instrument::Attack> attacks = instrument::candidateAttacks(program);
    if (n > attacks.size()) {
        throw UsageError("--print-attack " + std::to_string(n) + ": the program has " +
                         std::to_string(attacks.size()) + " attacks");
    }
    try {
        const instrument::AttackProgram ap = instrument::attackProgram(program, attacks[n - 1]);
        emit(printProgram(ap.program));
    } catch (const instrument::UnsupportedProgram& e) {
        throw UsageError(e.what());
    }
    return exitHolds;
}

robustness::RobustVerdict verdictOf(const engines::RobustnessOutcome& outcome) {
    return std::visit([](const auto& r) { return r.verdict; }, outcome);
}

class RobustCommand final : public SearchCommand {
  public:
    explicit RobustCommand(const engines::Catalog& catalog)
        : SearchCommand(catalog, engines::Task::Robustness) {}

    CLI::App* declare(CLI::App& app) override {
        CLI::App* cmd = app.add_subcommand(
            "robust", "Decide whether every TSO execution is sequentially consistent");
        cmd->footer("Exit codes: 0 robust, 10 not robust (a witness is printed), 3 unknown, "
                    "2 usage or input error, 1 internal error.");
        cmd->add_option("FILE", file_, "Program file")->required();
        declareTarget(cmd, "Memory model", "Engine");
        cmd->add_option("--dot", dot_,
                        "Write the first witness's happens-before graph to FILE (DOT: every "
                        "event and arc, the cycle in red)")
            ->check(writableFile);
        declareHtml(cmd);
        cmd->add_option("--print-attack", printAttack_,
                        "Print the instrumented SC program of the N-th attack (1-based) and exit")
            ->check(positiveInteger);
        declareOptions(cmd, "Statistics are part of every robust report; accepted for uniformity");
        return cmd;
    }

    int run(Context& ctx) override {
        const reach::MemoryModel model = chosenModel(ctx);
        const engines::EngineEntry& engine = chosenEngine(ctx, model);
        engines::Settings settings = commonSettings();
        const LoadedProgram input = loadProgramFile(file_, ctx.input, ctx.frontEnd);
        const Program& program = input.program;
        lintProgram(input, file_, true, ctx.warnings, settings.options.stop);
        if (printAttack_ != 0) {
            // The attacks of robustness against TSO, where lockfor is lock.
            return printAttack(instrument::plainLocks(program).value_or(program), printAttack_);
        }
        completeSettings(settings, engine);
        const auto start = std::chrono::steady_clock::now();
        const engines::RobustnessOutcome outcome = engine.checkRobustness(program, model, settings);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const RobustReport report{program, file_, model_, ctx.engine, outcome, seconds};
        writeReportFiles(
            ctx, input, settings.options.stop,
            [&](const ReportFormat& f) { return f.robust(report); }, dot_);
        emit(*outputFormat(common_.json, ctx.warnings)->robust(report));
        return robustExit(verdictOf(outcome));
    }

  private:
    std::string dot_;
    std::size_t printAttack_ = 0; // 1-based; 0: none
};

} // namespace

std::unique_ptr<Command> robustCommand(const engines::Catalog& catalog) {
    return std::make_unique<RobustCommand>(catalog);
}

} // namespace tsoreach::cli
