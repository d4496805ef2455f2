// tsoreach fences: a minimum set of fences that makes the program robust or
// its goal unreachable. Exit 0 a verified set (possibly empty), 10 no set
// helps, 3 unknown.

#include "command.hpp"
#include "report.hpp"
#include "report_common.hpp"
#include "tsoreach/frontends/condition_goal.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/lang/control_flow.hpp"

#include <chrono>
#include <fstream>
#include <optional>

namespace tsoreach::cli {
namespace {

int fenceExit(robustness::FenceOutcome o) {
    switch (o) {
    case robustness::FenceOutcome::Found:
        return exitHolds;
    case robustness::FenceOutcome::Impossible:
        return exitViolated;
    case robustness::FenceOutcome::Unknown:
        return exitUnknown;
    }
    return exitInternal;
}

// The lazy loop rarely proves a cyclic program safe unless it is robust, and
// proving the fenced program safe is the last step of every synthesis:
// cyclic programs default to the preferred engine not weak on cycles.
const engines::EngineEntry& safetyEngine(const engines::Catalog& catalog, const std::string& name,
                                         const Program& program, reach::MemoryModel model) {
    if (name.empty() && hasControlCycle(program)) {
        for (const engines::EngineEntry* e : catalog.enginesFor(engines::Task::Reach, model)) {
            if (!e->weakOnCycles) {
                return *e;
            }
        }
    }
    return findEngine(catalog, engines::Task::Reach, name, model);
}

// The models whose stores wait in buffers, for a message.
std::string bufferedModels() {
    std::string out;
    for (const reach::ModelInfo& m : reach::memoryModels()) {
        if (m.buffers != reach::BufferKind::None) {
            out += std::string(out.empty() ? "" : ", ") + std::string(m.name);
        }
    }
    return out;
}

class FencesCommand final : public SearchCommand {
  public:
    explicit FencesCommand(const engines::Catalog& catalog)
        : SearchCommand(catalog, engines::Task::Reach) {}

    CLI::App* declare(CLI::App& app) override {
        CLI::App* cmd = app.add_subcommand(
            "fences", "Find a minimum set of fences that makes the program robust or its goal "
                      "unreachable");
        cmd->footer("Exit codes: 0 a verified fence set was found (possibly empty), 10 no "
                    "fence set helps (the goal is reachable under SC), 3 unknown, 2 usage or "
                    "input error, 1 internal error.");
        cmd->add_option("FILE", file_, "Program file")->required();
        cmd->add_option("--target", target_,
                        "robustness: every TSO execution becomes SC; safety: the goal becomes "
                        "unreachable")
            ->check(CLI::IsMember({"robustness", "safety"}))
            ->required();
        declareTarget(cmd, "Memory model (robustness: tso only)",
                      "Safety: the engine that checks each fenced program; cyclic programs "
                      "skip engines weak on cycles");
        cmd->add_option("--goal", goals_,
                        "Safety: goal THREAD=STATE[,...] (default: final states); several: any "
                        "of them");
        cmd->add_option("--apply", apply_, "Write the fenced program to OUT")->check(writableFile);
        declareHtml(cmd);
        cmd->add_option("--cost", cost_,
                        "uniform: minimise the number of fences; loops: a fence on a "
                        "control-flow cycle costs 10, others 1")
            ->check(CLI::IsMember({"uniform", "loops"}))
            ->capture_default_str();
        cmd->add_option("--max-rounds", maxRounds_,
                        "Refinement rounds (check, add constraints, re-solve) before 'unknown'")
            ->check(positiveInteger)
            ->capture_default_str();
        addAllowUnreachableGoal(cmd, allowUnreachableGoal_);
        declareOptions(cmd, "Statistics are part of every fences report; accepted for uniformity");
        return cmd;
    }

    int run(Context& ctx) override {
        const reach::MemoryModel model = chosenModel(ctx);
        engines::Settings settings = commonSettings();
        // --target safety searches for a litmus test's condition.
        const LoadedProgram loaded = loadProgramFile(file_, ctx.input, ctx.frontEnd);
        const LoadedProgram input = target_ == "safety" ? withConditionGoal(loaded) : loaded;
        const Program& program = input.program;
        // --target safety checks the goal it chooses; robustness uses none.
        lintProgram(input, file_, target_ != "safety" && !allowUnreachableGoal_, ctx.warnings,
                    settings.options.stop);
        engineOptions_.apply(settings);
        robustness::FenceOptions options;
        options.search = settings.options;
        options.cost =
            cost_ == "loops" ? robustness::FenceCost::Loops : robustness::FenceCost::Uniform;
        options.maxRounds = maxRounds_;
        if (!input.fenceStatement.empty()) { // C: fences only where a statement can hold one
            if (!apply_.empty() && !goals_.empty()) {
                throw UsageError("--apply with --goal: the fenced " + file_ +
                                 " is checked against its own assertions, and --goal names "
                                 "states of the translation that the fences renumber");
            }
            options.allowed.emplace();
            for (const FenceSite& s : input.fenceSites) {
                options.allowed->push_back({s.thread, s.state});
            }
        }
        const auto start = std::chrono::steady_clock::now();
        const robustness::FenceResult r = target_ == "robustness"
                                              ? robustnessFences(program, model, ctx, options)
                                              : safetyFences(input, model, ctx, options);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        FenceInfo info{
            file_, target_, model_, ctx.engine, seconds, input.fenceSites, input.fenceStatement,
            ""};
        int exit = fenceExit(r.outcome);
        if (!apply_.empty() && r.outcome == robustness::FenceOutcome::Found) {
            if (input.fenceStatement.empty()) {
                writeFenced(r, program);
            } else if (!writeFencedSource(r, input, model, ctx, options, info)) {
                exit = exitUnknown;
            }
        }
        const FencesReport report{program, info, r};
        writeReportFiles(ctx, input, settings.options.stop,
                         [&](const ReportFormat& f) { return f.fences(report); });
        emit(*outputFormat(common_.json, ctx.warnings)->fences(report));
        return exit;
    }

  private:
    robustness::FenceResult robustnessFences(const Program& program, reach::MemoryModel model,
                                             Context& ctx,
                                             const robustness::FenceOptions& options) {
        if (model != robustness::kRobustnessFencesModel) {
            throw UsageError("--target robustness supports --model " +
                             std::string(reach::name(robustness::kRobustnessFencesModel)) +
                             " only: its constraints come from the attacks' witnesses, which "
                             "other models do not have yet (use --target safety)");
        }
        if (!goals_.empty() || !engine_.empty()) {
            throw UsageError("--goal and --engine apply to --target safety only");
        }
        const engines::EngineEntry& engine =
            findEngine(catalog_, engines::Task::Robustness, "", model);
        ctx.engine = std::string(engine.name);
        noteProgress(common_, engine);
        return robustness::robustnessFences(program, options);
    }

    robustness::FenceResult safetyFences(const LoadedProgram& input, reach::MemoryModel model,
                                         Context& ctx, const robustness::FenceOptions& options) {
        if (reach::modelInfo(model).buffers == reach::BufferKind::None) {
            throw UsageError("--target safety needs a model with store buffers (" +
                             bufferedModels() + "): without them fences change nothing");
        }
        const engines::EngineEntry& entry = safetyEngine(catalog_, engine_, input.program, model);
        std::unique_ptr<reach::Engine> engine = entry.makeReach(model);
        ctx.engine = std::string(engine->name());
        const Goal goal = chooseGoal(input, goals_, file_, allowUnreachableGoal_);
        if (input.goal || !goals_.empty()) {
            declaredGoal_ = goal; // not the final states: the fenced text needs it said
        }
        noteProgress(common_, entry);
        return robustness::safetyFences(input.program, goal, *engine, options);
    }

    // The fenced program; a goal other than its final states (a C program
    // asserting in several threads, a .rmm file's forbidden tuples, --goal)
    // is given as the options that check the text, as `print` does.
    void writeFenced(const robustness::FenceResult& r, const Program& program) const {
        std::ofstream out(apply_, std::ios::binary);
        out << "# " << file_ << " with " << r.fences.size() << " fence(s) for " << target_
            << " under " << model_ << " (tsoreach fences)\n";
        if (declaredGoal_) {
            out << "# goal: check this text with\n#   " << goalOptions(program, *declaredGoal_)
                << "\n";
        }
        out << r.fencedText;
        if (!out.flush()) {
            throw UsageError("cannot write " + apply_ + " (--apply)");
        }
    }

    // The source (a C file) with a fence statement at each fence's site,
    // read back and checked like the input before it is written: true when
    // the check holds and the file was written; `note` says which.
    bool writeFencedSource(const robustness::FenceResult& r, const LoadedProgram& input,
                           reach::MemoryModel model, const Context& ctx,
                           const robustness::FenceOptions& options, FenceInfo& info) const {
        std::string& note = info.applied;
        std::vector<FenceSite> chosen;
        for (const instrument::FencePosition& f : r.fences) {
            if (const FenceSite* s = detail::siteOf(info, f)) { // the one the report names
                chosen.push_back(*s);
            }
        }
        const std::string text = sourceWithFences(input.source, chosen, input.fenceStatement);
        const FrontEnd& frontEnd =
            ctx.input == kAutoInputFormat ? frontEndForFile(file_) : *findFrontEnd(ctx.input);
        const LoadedProgram fenced = frontEnd.load(text, apply_, ctx.frontEnd);
        const std::string check = checkFenced(fenced, model, options.search);
        if (!check.empty()) {
            note = "not written: the fenced source " + check;
            return false;
        }
        std::ofstream out(apply_, std::ios::binary);
        out << text;
        if (!out.flush()) {
            throw UsageError("cannot write " + apply_ + " (--apply)");
        }
        note = "wrote " + apply_ + " and checked it: the fences hold there";
        return true;
    }

    // Why `fenced` (the written source, read back) misses the target; "" when
    // it meets it.
    std::string checkFenced(const LoadedProgram& fenced, reach::MemoryModel model,
                            const reach::Options& search) const {
        if (target_ == "robustness") {
            const robustness::RobustnessResult r = robustness::checkTsoRobustness(
                fenced.program, search, robustness::WitnessScope::First, search.jobs);
            return r.verdict == robustness::RobustVerdict::Robust
                       ? ""
                       : "is " + detail::verdictName(r.verdict) + " " + r.reason;
        }
        const engines::EngineEntry& entry = safetyEngine(catalog_, engine_, fenced.program, model);
        std::unique_ptr<reach::Engine> engine = entry.makeReach(model);
        const Goal goal = chooseGoal(fenced, {}, apply_, true);
        const reach::Result r = reach::runChecked(*engine, fenced.program, goal, search);
        return r.verdict == reach::Verdict::Unreachable
                   ? ""
                   : "reaches its goal: " + std::string(reach::name(r.verdict)) + " " + r.reason;
    }

    std::string target_;
    std::vector<std::string> goals_;
    std::string apply_;                // output file; empty: none
    std::optional<Goal> declaredGoal_; // safety: the goal, unless the final states
    std::string cost_ = "uniform";
    std::size_t maxRounds_ = 64;
    bool allowUnreachableGoal_ = false;
};

} // namespace

std::unique_ptr<Command> fencesCommand(const engines::Catalog& catalog) {
    return std::make_unique<FencesCommand>(catalog);
}

} // namespace tsoreach::cli
