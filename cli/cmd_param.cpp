// tsoreach param: a parameterized Cubicle-W (.cub) system at each number
// of processes of --procs (docs/parameterized.md). Exit 10 when some N is
// unsafe (with the replayed trace of the first), 0 when every N asked for
// is safe, 3 when some N is unknown and none unsafe. Without --procs, every
// N at once (param/, docs/backward.md): 0 safe for all N, 10 unsafe
// (the backward path confirmed by the instance at its N, with that
// instance's replayed trace), 3 unknown (a limit, or a path the instance
// does not confirm).

#include "command.hpp"
#include "report.hpp"
#include "tsoreach/frontends/cub/instantiate.hpp"
#include "tsoreach/frontends/cub/parser.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/param/backward.hpp"
#include "tsoreach/reach/result.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <sstream>

namespace tsoreach::cli {
namespace {

// "2..4" or "3": the range of process counts.
std::pair<std::size_t, std::size_t> parseProcs(const std::string& s) {
    auto number = [&](std::string_view t) {
        std::size_t v = 0;
        auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        if (ec != std::errc() || p != t.data() + t.size() || v < 1 || v > 64) {
            throw UsageError("--procs: '" + s + "' is not N or A..B with 1 <= A <= B <= 64");
        }
        return v;
    };
    const auto dots = s.find("..");
    const std::size_t lo = number(std::string_view(s).substr(0, dots));
    const std::size_t hi =
        dots == std::string::npos ? lo : number(std::string_view(s).substr(dots + 2));
    if (hi < lo) {
        throw UsageError("--procs: '" + s + "' is an empty range");
    }
    return {lo, hi};
}

// What one N gave: the verdict over all its setups.
struct NResult {
    std::size_t procs = 0;
    reach::Verdict verdict = reach::Verdict::Unreachable;
    std::size_t setups = 0;
    std::uint64_t states = 0;
    double seconds = 0;
    std::string reason;    // unknown: why
    std::string proof;     // safe although the engine was unknown: how (the backward search)
    bool boundHit = false; // unknown: some setup's search met the buffer bound
    std::optional<cub::Instance> witness; // unsafe: the instance
    reach::Result result;                 // unsafe: its run
};

std::string verdictWord(reach::Verdict v) {
    switch (v) {
    case reach::Verdict::Reachable:
        return "unsafe";
    case reach::Verdict::Unreachable:
        return "safe";
    case reach::Verdict::Unknown:
        return "unknown";
    }
    return "unknown";
}

// One .cub transition of a trace: the process that takes it and its name.
struct CubStep {
    std::string process;    // "p2"
    std::string transition; // "t1", "t3(q=1)", "unsafe"
};

// The trace as the .cub transitions it takes, in order.
std::vector<CubStep> cubSteps(const Program& p, const reach::Trace& trace) {
    std::vector<CubStep> out;
    for (const reach::TraceStep& s : trace.steps) {
        if (s.kind == reach::StepKind::Flush) {
            continue;
        }
        const Transition& tr = p.transition(s.transition);
        const Thread& t = p.thread(tr.thread);
        if (t.stateNames[tr.to.index()] != "main" && t.stateNames[tr.from.index()] != "main") {
            continue;
        }
        const std::string origin = cub::stateOrigin(t.stateNames[tr.from.index()] == "main"
                                                        ? t.stateNames[tr.to.index()]
                                                        : t.stateNames[tr.from.index()]);
        if (t.stateNames[tr.from.index()] == "main" && t.stateNames[tr.to.index()] != "main" &&
            origin != "unsafe" && origin.rfind("unsafe.", 0) != 0) {
            continue; // counted where the path returns to main
        }
        out.push_back({t.name, origin});
    }
    return out;
}

// The same as lines "  p2: t1".
std::string cubStepsText(const Program& p, const reach::Trace& trace) {
    std::string out;
    for (const CubStep& s : cubSteps(p, trace)) {
        out += "  " + s.process + ": " + s.transition + "\n";
    }
    return out;
}

// The verdict of param's JSON documents.
std::string verdictOf(int exitCode) {
    return exitCode == exitViolated ? "unsafe" : exitCode == exitHolds ? "safe" : "unknown";
}

// The JSON of one N (docs/json.md, "param"): an item of `procs`, or the
// `instance` of the all-N mode.
nlohmann::ordered_json nJson(const NResult& r) {
    nlohmann::ordered_json n{{"n", r.procs},
                             {"verdict", verdictWord(r.verdict)},
                             {"setups", r.setups},
                             {"states", r.states},
                             {"seconds", r.seconds}};
    // A setup may be unknown before a later one is unsafe: the reason goes
    // with the verdict unknown only.
    if (r.verdict == reach::Verdict::Unknown) {
        n["reason"] = r.reason;
    }
    if (!r.proof.empty()) {
        n["proof"] = r.proof;
    }
    if (r.witness) {
        const Program& p = r.witness->program;
        const reach::Trace& trace = *r.result.trace;
        n["setup"] = r.witness->setup;
        n["goal"] = r.witness->goal.describe(p);
        nlohmann::ordered_json steps = nlohmann::ordered_json::array();
        for (const CubStep& s : cubSteps(p, trace)) {
            steps.push_back({{"process", s.process}, {"transition", s.transition}});
        }
        n["transitions"] = std::move(steps);
        n["trace"] = traceJson(p, trace);
        n["goal_step"] = trace.goalStep;
    }
    return n;
}

// The document as printed: non-UTF-8 bytes of a file name replaced.
std::string dumped(nlohmann::ordered_json j, const Context& ctx) {
    j["warnings"] = warningsJson(ctx.warnings.all());
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

class ParamCommand final : public SearchCommand {
  public:
    explicit ParamCommand(const engines::Catalog& catalog)
        : SearchCommand(catalog, engines::Task::Reach) {}

    CLI::App* declare(CLI::App& app) override {
        CLI::App* cmd = app.add_subcommand(
            "param", "Check a parameterized Cubicle-W (.cub) system for N processes");
        cmd->footer(exitCodeHelp);
        cmd->add_option("FILE", file_, "Cubicle-W file (docs/parameterized.md)")->required();
        cmd->add_option("--procs", procs_,
                        "Numbers of processes: N or A..B; each N is checked by the engine. "
                        "Without it: every N at once (backward reachability modulo TSO)");
        cmd->add_flag("--print", print_,
                      "Print each N's programs (one per setup, in tsoreach's language, with "
                      "the goal) instead of checking them");
        declareTarget(cmd, "Memory model (sc or tso: Cubicle-W's models)", "Engine");
        declareOptions(cmd, "Print statistics per N");
        return cmd;
    }

    int run(Context& ctx) override {
        const reach::MemoryModel model = chosenModel(ctx);
        if (model == reach::MemoryModel::PSO) {
            throw UsageError("--model pso: Cubicle-W systems are defined under SC and TSO");
        }
        engines::Settings settings = commonSettings();
        const cub::System sys = cub::parseCub(readProgramText(file_), file_);
        if (sys.unsafes.empty()) {
            throw InputError(file_, SourcePos{1, 1},
                             "the system has no 'unsafe' cube: nothing to check");
        }
        if (procs_.empty() && sys.numberProcs) {
            // Every N is 1..number_procs: the instances decide them all.
            procs_ = "1.." + std::to_string(std::max<std::size_t>(*sys.numberProcs, 1));
        }
        if (procs_.empty()) {
            if (print_) {
                throw UsageError("--print needs --procs: the programs are those of each N");
            }
            if (model != reach::MemoryModel::TSO) {
                throw UsageError("--model " + ctx.model +
                                 ": every N at once is checked modulo TSO; give --procs for "
                                 "fixed N under SC");
            }
            return allN(sys, ctx, settings);
        }
        const auto [lo, hi] = parseProcs(procs_);
        if (print_) {
            emit(printed(sys, lo, hi));
            return exitHolds;
        }
        const engines::EngineEntry& entry = chosenEngine(ctx, model);
        completeSettings(settings, entry);
        std::vector<NResult> results;
        for (std::size_t n = lo; n <= hi; ++n) {
            if (sys.numberProcs && n > *sys.numberProcs) {
                continue;
            }
            results.push_back(checkN(sys, n, entry, model, settings));
            NResult& last = results.back();
            if (last.witness) {
                if (auto t = shorterTrace(catalog_, last.witness->program, last.witness->goal,
                                          model, settings.options, *last.result.trace)) {
                    last.result.trace = std::move(t);
                }
            }
            if (results.back().verdict == reach::Verdict::Reachable) {
                break;
            }
        }
        if (results.empty()) {
            throw UsageError("--procs " + procs_ + ": the file allows at most number_procs " +
                             std::to_string(*sys.numberProcs));
        }
        emit(common_.json ? jsonReport(results, ctx) : text(results, ctx));
        return exitOf(results);
    }

  private:
    // Under TSO the engine first runs as a probe that stops where a buffer
    // bound blocks a store. Left unknown by the bound, the instance goes to
    // the backward search over at most N processes; when that does not
    // prove it safe, the engine runs in full (it may still find the goal
    // past the bound).
    NResult checkN(const cub::System& sys, std::size_t n, const engines::EngineEntry& entry,
                   reach::MemoryModel model, engines::Settings& settings) const {
        if (model != reach::MemoryModel::TSO) {
            return check(sys, n, entry, model, settings.options);
        }
        reach::Options probe = settings.options;
        probe.stopAtBound = true;
        NResult r = check(sys, n, entry, model, probe);
        if (r.verdict != reach::Verdict::Unknown) {
            return r;
        }
        const std::string note = proveBackward(sys, settings, r);
        if (r.verdict == reach::Verdict::Unreachable || !r.boundHit) {
            return r;
        }
        NResult full = check(sys, n, entry, model, settings.options);
        full.states += r.states;
        full.seconds += r.seconds;
        if (full.verdict == reach::Verdict::Unknown) {
            full.reason += note;
        }
        return full;
    }

    // An instance the engine leaves unknown (e.g. buffers that outgrow its
    // bound) may still be proved by the backward search restricted to at
    // most N processes: its "safe" covers every run of N processes. Makes
    // `r` safe then; else appends the search's answer to its reason and
    // returns that part.
    static std::string proveBackward(const cub::System& sys, engines::Settings& settings,
                                     NResult& r) {
        backward::BackwardOptions bo;
        bo.stop = &settings.options.stop;
        bo.maxProcs = static_cast<std::uint32_t>(r.procs);
        if (settings.options.maxStates != 0) {
            bo.maxNodes = settings.options.maxStates;
        }
        const std::string within =
            "backward reachability over at most " + std::to_string(r.procs) + " processes";
        std::string note;
        try {
            const backward::BackwardResult b = backward::checkAllN(sys, bo);
            if (b.verdict == backward::BackwardResult::Verdict::Safe) {
                r.verdict = reach::Verdict::Unreachable;
                r.proof = "proved by " + within + " (docs/backward.md); the engine: " + r.reason;
                r.reason.clear();
                return "";
            }
            note = "; " + within + ": " +
                   (b.verdict == backward::BackwardResult::Verdict::Unsafe ? "a candidate path only"
                                                                           : b.reason);
        } catch (const InputError& e) { // a construct the search does not take
            note = "; " + within + " refuses the system: " + e.message();
        }
        r.reason += note;
        return note;
    }

    // Every N at once; an unsafe path is confirmed by the instance at its N.
    int allN(const cub::System& sys, Context& ctx, engines::Settings& settings) {
        backward::BackwardOptions bo;
        bo.stop = &settings.options.stop;
        if (settings.options.maxStates != 0) {
            bo.maxNodes = settings.options.maxStates;
        }
        AllN a;
        a.search = backward::checkAllN(sys, bo);
        if (a.search.verdict == backward::BackwardResult::Verdict::Unsafe) {
            const std::size_t n = std::max<std::size_t>(a.search.procs, 1);
            if (sys.numberProcs && n > *sys.numberProcs) {
                a.unconfirmed = "the path needs " + std::to_string(n) +
                                " processes, more than number_procs allows";
            } else {
                const engines::EngineEntry& entry = chosenEngine(ctx, reach::MemoryModel::TSO);
                completeSettings(settings, entry);
                try {
                    a.instance = check(sys, n, entry, reach::MemoryModel::TSO, settings.options);
                } catch (const InputError& e) { // a construct only the search takes
                    a.unconfirmed = "the instance at N=" + std::to_string(n) +
                                    " cannot be built: " + e.message();
                }
                if (a.instance && a.instance->verdict != reach::Verdict::Reachable) {
                    a.unconfirmed = "the instance at N=" + std::to_string(n) + " is " +
                                    verdictWord(a.instance->verdict) +
                                    (a.instance->reason.empty() ? "" : ": " + a.instance->reason);
                }
            }
        }
        emit(common_.json ? allNJson(a, ctx) : allNText(a, ctx));
        return a.exitCode();
    }

    static NResult check(const cub::System& sys, std::size_t n, const engines::EngineEntry& entry,
                         reach::MemoryModel model, const reach::Options& options) {
        NResult r;
        r.procs = n;
        cub::Instances made = cub::instantiate(sys, n);
        r.setups = made.instances.size() + made.unreachableSetups;
        for (cub::Instance& inst : made.instances) {
            if (auto why = entry.unsupportedFor(inst.program, model)) {
                r.verdict = reach::Verdict::Unknown;
                r.reason = *why;
                continue;
            }
            std::unique_ptr<reach::Engine> engine = entry.makeReach(model);
            reach::Result res = reach::runChecked(*engine, inst.program, inst.goal, options);
            r.states += res.stats.states;
            r.seconds += res.stats.timeSeconds;
            if (res.verdict == reach::Verdict::Reachable) {
                r.verdict = res.verdict;
                r.result = std::move(res);
                r.witness = std::move(inst);
                return r;
            }
            if (res.verdict == reach::Verdict::Unknown) {
                r.verdict = res.verdict;
                r.reason = res.reason;
                r.boundHit = r.boundHit || res.boundHit;
            }
        }
        return r;
    }

    static int exitOf(const std::vector<NResult>& results) {
        int code = exitHolds;
        for (const NResult& r : results) {
            if (r.verdict == reach::Verdict::Reachable) {
                return exitViolated;
            }
            if (r.verdict == reach::Verdict::Unknown) {
                code = exitUnknown;
            }
        }
        return code;
    }

    std::string text(const std::vector<NResult>& results, const Context& ctx) const {
        std::ostringstream out;
        out << file_ << " under " << ctx.model << ", engine " << ctx.engine << "\n";
        for (const NResult& r : results) {
            out << "N=" << r.procs << ": " << verdictWord(r.verdict) << " (" << r.setups
                << (r.setups == 1 ? " setup" : " setups");
            if (common_.stats) {
                out << ", " << r.states << " states, " << r.seconds << " s";
            }
            out << ")" << (r.reason.empty() ? "" : ": " + r.reason)
                << (r.proof.empty() ? "" : ": " + r.proof) << "\n";
            if (r.witness) {
                const Program& p = r.witness->program;
                out << "\nunsafe at N=" << r.procs
                    << (r.witness->setup.empty() ? "" : ", initial setup " + r.witness->setup)
                    << "; goal " << r.witness->goal.describe(p) << "\n";
                out << "transitions taken (process: transition):\n"
                    << cubStepsText(p, *r.result.trace) << "\ntrace (replayed):\n"
                    << traceTable(p, *r.result.trace);
            }
        }
        return out.str();
    }

    // Instances mode (--procs, or a file's number_procs).
    std::string jsonReport(const std::vector<NResult>& results, const Context& ctx) const {
        nlohmann::ordered_json j = jsonHeader("param");
        j["mode"] = "instances";
        j["file"] = file_;
        j["model"] = ctx.model;
        j["engine"] = ctx.engine;
        j["verdict"] = verdictOf(exitOf(results));
        nlohmann::ordered_json procs = nlohmann::ordered_json::array();
        for (const NResult& r : results) {
            procs.push_back(nJson(r));
        }
        j["procs"] = std::move(procs);
        return dumped(std::move(j), ctx);
    }

    // The programs of --print, each after a comment line naming N and the
    // setup; `reach FILE --goal ...` checks one of them as printed, unless
    // its goal has views (X@A==v), which --goal cannot express.
    static std::string printed(const cub::System& sys, std::size_t lo, std::size_t hi) {
        std::string out;
        for (std::size_t n = lo; n <= hi && (!sys.numberProcs || n <= *sys.numberProcs); ++n) {
            const cub::Instances made = cub::instantiate(sys, n);
            for (const cub::Instance& inst : made.instances) {
                out += "# " + sys.sourceName + " at N=" + std::to_string(n) +
                       (inst.setup.empty() ? "" : ", setup " + inst.setup) + "\n# goal " +
                       inst.goal.describe(inst.program) +
                       (inst.goal.hasViews() ? " (views: not expressible as --goal; param "
                                               "checks them)"
                                             : "") +
                       "\n" + printProgram(inst.program) + "\n";
            }
            if (made.unreachableSetups != 0) {
                out += "# " + sys.sourceName + " at N=" + std::to_string(n) + ": " +
                       std::to_string(made.unreachableSetups) +
                       " setup(s) where no unsafe cube can hold (no program)\n";
            }
        }
        return out;
    }

    // What the all-N mode found: the search, and for an unsafe path the
    // instance that confirms it (or why not).
    struct AllN {
        backward::BackwardResult search;
        std::optional<NResult> instance;
        std::string unconfirmed; // set: the path was not confirmed

        [[nodiscard]] bool unsafe() const {
            return search.verdict == backward::BackwardResult::Verdict::Unsafe &&
                   unconfirmed.empty();
        }
        [[nodiscard]] int exitCode() const {
            if (search.verdict == backward::BackwardResult::Verdict::Safe) {
                return exitHolds;
            }
            return unsafe() ? exitViolated : exitUnknown;
        }
        [[nodiscard]] std::string word() const {
            return exitCode() == exitHolds ? "safe for all N" : unsafe() ? "unsafe" : "unknown";
        }
        [[nodiscard]] std::string reason() const {
            if (search.verdict == backward::BackwardResult::Verdict::Unknown) {
                return search.reason;
            }
            return unconfirmed.empty() ? "" : "a backward path was not confirmed: " + unconfirmed;
        }
    };

    static std::string pathText(const backward::BackwardResult& r) {
        std::string out;
        for (const auto& [name, procs] : r.path) {
            out += "  " + name + " (";
            for (std::size_t i = 0; i < procs.size(); ++i) {
                out += (i == 0 ? "#" : ", #") + std::to_string(procs[i]);
            }
            out += ")\n";
        }
        return out;
    }

    std::string allNText(const AllN& a, const Context& ctx) const {
        std::ostringstream out;
        out << file_ << ", every N, modulo TSO (backward reachability)\n" << a.word();
        out << (a.reason().empty() ? "" : ": " + a.reason()) << "\n";
        if (common_.stats) {
            const auto& st = a.search.stats;
            out << "nodes " << st.nodes << ", subsumed " << st.subsumed << ", pre-images "
                << st.preimages << ", solver calls " << st.solverCalls
                << (st.passes == 1 ? " (coarse pass)" : " (coarse and fine passes)") << "\n";
        }
        if (!a.search.path.empty()) {
            out << "\nbackward path at N=" << a.search.procs
                << " (transition (moving process, other parameters)):\n"
                << pathText(a.search);
        }
        if (a.unsafe()) {
            out << "\nconfirmed by the instance:\n" << text({*a.instance}, ctx);
        }
        return out.str();
    }

    std::string allNJson(const AllN& a, const Context& ctx) const {
        nlohmann::ordered_json j = jsonHeader("param");
        j["mode"] = "all-n";
        j["file"] = file_;
        j["model"] = "tso";
        j["verdict"] = verdictOf(a.exitCode());
        if (!a.reason().empty()) {
            j["reason"] = a.reason();
        }
        const auto& st = a.search.stats;
        j["stats"] = {{"nodes", st.nodes},
                      {"subsumed", st.subsumed},
                      {"preimages", st.preimages},
                      {"solver_calls", st.solverCalls},
                      {"passes", st.passes}};
        if (!a.search.path.empty()) {
            j["path_procs"] = a.search.procs;
            nlohmann::ordered_json path = nlohmann::ordered_json::array();
            for (const auto& [name, procs] : a.search.path) {
                path.push_back({{"transition", name}, {"procs", procs}});
            }
            j["path"] = std::move(path);
        }
        if (a.instance) {
            j["instance"] = nJson(*a.instance);
        }
        return dumped(std::move(j), ctx);
    }

    std::string procs_;
    bool print_ = false;
};

} // namespace

std::unique_ptr<Command> paramCommand(const engines::Catalog& catalog) {
    return std::make_unique<ParamCommand>(catalog);
}

} // namespace tsoreach::cli
