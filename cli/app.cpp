// tsoreach: the command-line front end. The only place that prints and that
// chooses exit codes; the libraries return results or throw typed errors.
// Every engine comes from the catalog it is given (cli/app.hpp).

#include "app.hpp"
#include "report.hpp"
#include "trace_json.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/frontends/tsoreach/parser.hpp"
#include "tsoreach/instrument/extension.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lang/stop.hpp"
#include "tsoreach/lang/validate.hpp"
#include "tsoreach/lazy/lazy_engine.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/robustness/fence_synthesis.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <variant>

#include <CLI/CLI.hpp>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace {

using namespace tsoreach;

// Exit codes (also in --help and README.md).
constexpr int exitHolds = 0;     // unreachable / robust
constexpr int exitInternal = 1;  // a bug in tsoreach
constexpr int exitInput = 2;     // usage or input error
constexpr int exitUnknown = 3;   // a bound, limit or timeout stopped the search
constexpr int exitViolated = 10; // reachable / not robust

constexpr const char* exitCodeHelp = R"(Exit codes:
  0   the property holds (goal unreachable)
  10  the property is violated (goal reachable; a checked trace is printed)
  3   unknown: a limit (--max-states, --timeout, --max-memory) stopped the search
  2   usage or input error (FILE:LINE:COL: error: ...)
  1   internal error (a bug: please report it with the input file))";

// CLI11's range checks print the full double range; say it plainly instead.
// An integer in [low, 2^64-1], said plainly when it is not.
std::string checkInteger(const std::string& v, std::uint64_t low) {
    std::uint64_t n = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (v.empty() || ptr != v.data() + v.size()) {
        return "expected an integer >= " + std::to_string(low) + ", got '" + v + "'";
    }
    if (ec == std::errc::result_out_of_range) {
        return "'" + v + "' is out of range (at most 18446744073709551615)";
    }
    if (ec != std::errc() || n < low) {
        return "expected an integer >= " + std::to_string(low) + ", got '" + v + "'";
    }
    return {};
}

const CLI::Validator nonNegativeInteger([](std::string& v) { return checkInteger(v, 0); }, "N>=0");
const CLI::Validator nonNegativeNumber(
    [](std::string& v) {
        char* end = nullptr;
        double d = std::strtod(v.c_str(), &end);
        bool ok = !v.empty() && end == v.c_str() + v.size() && d >= 0 && std::isfinite(d);
        return ok ? std::string() : "expected a non-negative number of seconds, got '" + v + "'";
    },
    "S>=0");

const CLI::Validator positiveInteger([](std::string& v) { return checkInteger(v, 1); }, "K>=1");

// Choices of --model for a task: the models some engine of the catalog
// does it for.
std::vector<std::string> modelChoices(const engines::Catalog& catalog, engines::Task t) {
    std::vector<std::string> out;
    for (reach::MemoryModel m : catalog.models(t)) {
        out.emplace_back(reach::name(m));
    }
    return out;
}

std::vector<std::string> allModelNames() {
    std::vector<std::string> out;
    for (const reach::ModelInfo& info : reach::memoryModels()) {
        out.emplace_back(info.name);
    }
    return out;
}

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Without --max-memory a search stops at 80% of the memory available when
// it starts (MemAvailable: free memory plus what the kernel can reclaim; the
// resident size is measured as the search runs), so a search too large for
// the machine answers `unknown` instead of being killed; --max-memory 0
// lifts the limit.
constexpr std::uint64_t kMemoryUnset = ~std::uint64_t{0};

std::uint64_t memoryLimitMb(std::uint64_t given) {
    if (given != kMemoryUnset) {
        return given;
    }
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kb = 0;
    std::string unit;
    while (meminfo >> key >> kb >> unit) {
        if (key == "MemAvailable:") {
            return std::max<std::uint64_t>(64, kb / 1024 * 8 / 10);
        }
    }
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) {
        return 0;
    }
    const double mb =
        static_cast<double>(pages) * static_cast<double>(pageSize) / (1024.0 * 1024.0);
    return static_cast<std::uint64_t>(mb * 0.8);
}

// The stop condition of one command, made where the command starts: its
// deadline and memory limit hold for every search and static pass the
// command runs, however many (docs/architecture.md, "Limits").
StopCondition commandStop(double timeoutSeconds, std::uint64_t maxMemory) {
    StopCondition stop;
    stop.setTimeout(timeoutSeconds);
    stop.setMemoryLimitMb(memoryLimitMb(maxMemory));
    return stop;
}

constexpr const char* kMemoryHelp = " (default: 80% of the memory available at start; 0: no limit)";

struct ReachArgs {
    std::string file;
    std::string model = std::string(reach::name(reach::kDefaultModel));
    std::string engine;
    std::size_t bufferBound = 4;
    std::vector<std::string> goals;
    bool json = false;
    bool stats = false;
    std::string search = "dfs";
    std::uint64_t maxStates = 0;
    double timeout = 0;
    std::uint64_t maxMemory = kMemoryUnset;
    unsigned jobs = 0; // 0: the number of cores
    std::size_t maxIterations = 0;
    std::size_t unroll = 0;
    bool progress = false;
    std::string por = "on";
    std::string live = "on";
    std::string savePrograms; // directory; empty: none
};

// What the internal-error message names, filled in as the run proceeds.
struct Context {
    std::string input{kAutoInputFormat};
    std::string command;
    std::string file;
    std::string model;
    std::string engine;
};

// The goal of --goal options, else the program's final states; warns on
// stderr about goal states that no path of their thread reaches.
Goal chooseGoal(const Program& program, const std::vector<std::string>& goals,
                const std::string& file, const std::optional<Goal>& declared) {
    std::optional<Goal> goal;
    if (!goals.empty()) {
        try {
            goal = parseGoalSpecs(program, goals);
        } catch (const GoalSpecError& e) {
            throw UsageError(e.what());
        }
    } else if (declared) {
        goal = declared;
    } else {
        goal = defaultGoal(program);
        if (!goal) {
            throw InputError(file, program.threads.front().pos,
                             "no thread declares a 'final' state, so the program has no goal; "
                             "name one with --goal THREAD=STATE");
        }
    }
    return *goal;
}

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

// Writes `text` to stdout; a failed write is an error, not a silent loss.
void emit(const std::string& text) {
    std::cout << text;
    std::cout.flush();
    if (!std::cout) {
        throw std::system_error(errno, std::generic_category(), "cannot write to standard output");
    }
}

struct ReplayArgs {
    std::string file;
    std::string traceFile;
    std::string model; // empty: the trace file's, else tso
    std::vector<std::string> goals;
    bool json = false;
};

// Exit 0 when the trace is legal and reaches the goal, 10 when it is not.
int runReplay(const ReplayArgs& a, Context& ctx) {
    LoadedProgram input = loadProgramFile(a.file, ctx.input);
    const Program& program = input.program;
    cli::LoadedTrace loaded = cli::loadTraceJson(program, a.traceFile);
    reach::MemoryModel model = loaded.model.value_or(reach::kDefaultModel);
    if (!a.model.empty()) {
        model = *reach::memoryModelFromName(a.model);
    }
    ctx.model = std::string(reach::name(model));
    loaded.trace.model = model;
    Goal goal = chooseGoal(program, a.goals, a.file, input.goal);
    reach::ReplayOutcome outcome =
        reach::replayTrace(program, goal, loaded.trace, reach::Recorded::IfGiven);
    if (a.json) {
        emit(cli::replayJson(a.file, a.traceFile, model, goal, program, loaded.trace, outcome));
    } else if (outcome.ok) {
        emit("valid: the trace replays under " + std::string(reach::name(model)) +
             " and the goal (" + goal.describe(program) + ") holds after step " +
             std::to_string(loaded.trace.goalStep) + "\n");
    } else {
        emit("invalid: " + outcome.error + "\n");
    }
    return outcome.ok ? exitHolds : exitViolated;
}

struct InstrumentArgs {
    std::string file;
    std::vector<std::uint32_t> path; // source lines
    std::string variant = "terminating";
};

// Prints R (+) sigma for a path given by source lines.
int runInstrument(const InstrumentArgs& a, const Context& ctx) {
    const Program program = loadProgramFile(a.file, ctx.input).program;
    std::vector<TransitionId> sigma;
    for (std::uint32_t line : a.path) {
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
        sigma.push_back(found);
    }
    try {
        const instrument::Extension ext = instrument::extendByPath(
            program, instrument::identityOrigins(program), sigma,
            a.variant == "trencher" ? instrument::ExtensionVariant::Trencher
                                    : instrument::ExtensionVariant::Terminating,
            "x1");
        emit(printProgram(ext.program));
    } catch (const instrument::InvalidPath& e) {
        throw UsageError(std::string("--path: ") + e.what());
    }
    return exitHolds;
}

// The catalog's engine for a task, a model and --engine (empty: the
// preferred one); a missing one is a usage error.
const engines::EngineEntry& findEngine(const engines::Catalog& catalog, engines::Task task,
                                       const std::string& name, reach::MemoryModel model) {
    try {
        return catalog.find(task, name, model);
    } catch (const reach::EngineUnavailable& e) {
        throw UsageError(e.what());
    }
}

// robust --print-attack N: the instrumented SC program of one attack.
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

// robust --dot FILE: a witness's happens-before graph.
void writeDot(const std::string& path, const Program& program, const robustness::HbGraph& graph,
              const std::vector<robustness::HbArc>& cycle) {
    std::ofstream dot(path, std::ios::binary);
    dot << robustness::toDot(program, graph, cycle);
    if (!dot.flush()) {
        throw UsageError("cannot write " + path);
    }
}

struct ExploreArgs {
    std::string file;
    std::string model = std::string(reach::name(reach::kDefaultModel));
    std::string engine; // empty: the preferred one
    bool json = false;
    bool printTraces = false;
    std::size_t unroll = 0;
    double timeout = 0;
    std::uint64_t maxMemory = kMemoryUnset;
    std::uint64_t maxStates = 0;
};

// Exit 0 when every execution class was explored, 3 otherwise.
int runExplore(const ExploreArgs& a, Context& ctx, const engines::Catalog& catalog) {
    ctx.model = a.model;
    const reach::MemoryModel model = *reach::memoryModelFromName(a.model);
    const engines::EngineEntry& engine =
        findEngine(catalog, engines::Task::Explore, a.engine, model);
    ctx.engine = std::string(engine.name);
    reach::ExploreOptions o;
    o.limits.stop = commandStop(a.timeout, a.maxMemory);
    Program program = loadProgramFile(a.file, ctx.input).program;
    o.limits.maxStates = a.maxStates;
    o.unroll = a.unroll;
    std::string traces;
    std::size_t count = 0;
    const Goal none(program); // outlives the callback that replays against it
    if (a.printTraces) {
        o.onExecution = [&](const reach::Trace& t, bool blocked) {
            const reach::ReplayOutcome replay =
                reach::replayTrace(program, none, t, reach::Recorded::IfGiven);
            if (!replay.ok) {
                throw reach::TraceReplayError("an explored execution does not replay: " +
                                              replay.error);
            }
            traces += "execution " + std::to_string(++count) + (blocked ? " (blocked)" : "") +
                      ":\n" + cli::traceTable(program, replay.completed) + "\n";
        };
    }
    const reach::ExploreResult r = engine.explore(program, model, o);
    const cli::ExploreInfo info{a.file, model, ctx.engine};
    emit(a.json ? cli::exploreJson(info, r) : cli::exploreText(info, r, traces));
    return r.complete ? exitHolds : exitUnknown;
}

struct RobustArgs {
    std::string file;
    std::string model = std::string(reach::name(reach::kDefaultModel));
    std::string engine; // empty: attacks for tso, dpor for pso
    std::size_t unroll = 0;
    bool json = false;
    bool all = false;
    std::string dot;
    std::string search = "auto";
    std::size_t printAttack = 0; // 1-based; 0: none
    unsigned jobs = 0;           // 0: the number of cores
    std::uint64_t maxStates = 0;
    double timeout = 0;
    std::uint64_t maxMemory = kMemoryUnset;
    std::string por = "on";
    std::string live = "on";
};

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

// Exit 0 robust, 10 not robust, 3 unknown.
int runRobust(const RobustArgs& a, Context& ctx, const engines::Catalog& catalog) {
    ctx.model = a.model;
    const reach::MemoryModel model = *reach::memoryModelFromName(a.model);
    const engines::EngineEntry& engine =
        findEngine(catalog, engines::Task::Robustness, a.engine, model);
    ctx.engine = std::string(engine.name);
    engines::RobustnessRequest request;
    request.options.stop = commandStop(a.timeout, a.maxMemory);
    Program program = loadProgramFile(a.file, ctx.input).program;
    if (a.printAttack != 0) {
        return printAttack(program, a.printAttack);
    }
    request.options.maxStates = a.maxStates;
    request.options.unroll = a.unroll;
    request.options.partialOrder = a.por == "on";
    request.options.liveRegisters = a.live == "on";
    request.options.jobs = a.jobs != 0 ? a.jobs : std::max(1U, std::thread::hardware_concurrency());
    request.scope = a.all ? robustness::WitnessScope::All : robustness::WitnessScope::First;
    request.attackSearch = a.search == "dfs"   ? robustness::AttackSearch::Dfs
                           : a.search == "bfs" ? robustness::AttackSearch::Bfs
                                               : robustness::AttackSearch::Auto;
    const auto start = std::chrono::steady_clock::now();
    const engines::RobustnessOutcome outcome = engine.checkRobustness(program, model, request);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (const auto* r = std::get_if<robustness::RobustnessResult>(&outcome)) {
        if (!a.dot.empty() && !r->witnesses.empty()) {
            writeDot(a.dot, program, r->witnesses.front().graph, r->witnesses.front().cycle);
        }
        emit(a.json ? cli::robustJson(program, a.file, *r, seconds)
                    : cli::robustText(program, *r, seconds));
        return robustExit(r->verdict);
    }
    const auto& r = std::get<robustness::ExploredRobustness>(outcome);
    if (!a.dot.empty() && r.verdict == robustness::RobustVerdict::NotRobust) {
        writeDot(a.dot, program, r.graph, r.cycle);
    }
    emit(a.json ? cli::exploredRobustJson(program, a.file, a.model, ctx.engine, r)
                : cli::exploredRobustText(program, a.model, ctx.engine, r));
    return robustExit(r.verdict);
}

int runReach(const ReachArgs& a, Context& ctx, const engines::Catalog& catalog) {
    ctx.model = a.model;
    cli::RunInfo info;
    info.options.stop = commandStop(a.timeout, a.maxMemory);
    LoadedProgram input = loadProgramFile(a.file, ctx.input);
    Program& program = input.program;
    reach::MemoryModel model = *reach::memoryModelFromName(a.model);
    std::unique_ptr<reach::Engine> engine;
    try {
        engine = catalog.makeReach(a.engine, model);
    } catch (const reach::EngineUnavailable& e) {
        throw UsageError(e.what());
    }
    ctx.engine = std::string(engine->name());

    std::optional<Goal> goal = chooseGoal(program, a.goals, a.file, input.goal);

    info.command = "reach";
    info.file = a.file;
    info.model = model;
    info.engine = ctx.engine;
    info.options.search = *reach::searchOrderFromName(a.search);
    info.options.maxStates = a.maxStates;

    info.options.bufferBound = a.bufferBound;
    info.options.partialOrder = a.por == "on";
    info.options.liveRegisters = a.live == "on";
    info.options.jobs = a.jobs != 0 ? a.jobs : std::max(1U, std::thread::hardware_concurrency());
    info.options.maxIterations = a.maxIterations;
    info.options.unroll = a.unroll;
    if (a.progress) {
        info.options.progress = [](const std::string& line) { std::cerr << line << '\n'; };
    }
    if (!a.savePrograms.empty()) {
        const std::string dir = a.savePrograms;
        info.options.onProgram = [dir](std::size_t round, const std::string& text) {
            const std::string path = dir + "/round-" + std::to_string(round) + ".txt";
            std::ofstream out(path, std::ios::binary);
            out << text;
            if (!out) {
                // The user's directory, not a bug: exit 2 like any bad path.
                throw std::system_error(errno != 0 ? errno : EIO, std::generic_category(),
                                        "cannot write " + path + " (--save-programs)");
            }
        };
    }
    reach::Result result;
    if (goalUnreachableByControlFlow(program, *goal, a.file)) {
        // Sound under every model: no path of that thread's automaton, let
        // alone an execution, reaches an accepted state.
        info.engine = "control-flow";
        result.verdict = reach::Verdict::Unreachable;
        result.stats.peakRssMb = reach::processPeakRssMb();
    } else {
        result = reach::runChecked(*engine, program, *goal, info.options);
    }
    emit(a.json ? cli::jsonReport(program, *goal, info, result)
                : cli::textReport(program, *goal, info, result, a.stats));
    switch (result.verdict) {
    case reach::Verdict::Reachable:
        return exitViolated;
    case reach::Verdict::Unreachable:
        return exitHolds;
    case reach::Verdict::Unknown:
        return exitUnknown;
    }
    return exitInternal;
}

struct FencesArgs {
    std::string file;
    std::string target;
    std::string model = std::string(reach::name(reach::kDefaultModel));
    std::string engine;
    std::vector<std::string> goals;
    bool json = false;
    std::string apply; // output file; empty: none
    std::string cost = "uniform";
    unsigned jobs = 0;
    std::size_t maxRounds = 64;
    std::size_t bufferBound = 4;
    std::uint64_t maxStates = 0;
    double timeout = 0;
    std::uint64_t maxMemory = kMemoryUnset;
};

// The lazy loop rarely proves a cyclic program safe unless it is robust, and
// proving the fenced program safe is the last step of every synthesis:
// cyclic programs default to the preferred engine not weak on cycles.
std::string safetyEngine(const engines::Catalog& catalog, const Program& program,
                         reach::MemoryModel model) {
    if (!hasControlCycle(program)) {
        return "";
    }
    for (const engines::EngineEntry* e : catalog.enginesFor(engines::Task::Reach, model)) {
        if (!e->weakOnCycles) {
            return std::string(e->name);
        }
    }
    return "";
}

// Exit 0 when a verified fence set was found (possibly empty), 10 when no
// fence set can give the property, 3 unknown.
int runFences(const FencesArgs& a, Context& ctx, const engines::Catalog& catalog) {
    ctx.model = a.model;
    robustness::FenceOptions options;
    options.search.stop = commandStop(a.timeout, a.maxMemory);
    LoadedProgram input = loadProgramFile(a.file, ctx.input);
    Program& program = input.program;
    const reach::MemoryModel model = *reach::memoryModelFromName(a.model);
    options.search.maxStates = a.maxStates;
    options.search.bufferBound = a.bufferBound;
    options.jobs = a.jobs != 0 ? a.jobs : std::max(1U, std::thread::hardware_concurrency());
    options.search.jobs = options.jobs;
    options.cost =
        a.cost == "loops" ? robustness::FenceCost::Loops : robustness::FenceCost::Uniform;
    options.maxRounds = a.maxRounds;
    const auto start = std::chrono::steady_clock::now();
    robustness::FenceResult r;
    std::optional<Goal> goal;
    if (a.target == "robustness") {
        if (model != reach::MemoryModel::TSO) {
            throw UsageError("--target robustness supports --model tso only: the PSO robustness "
                             "check (robust --model pso) does not yield the attacks the fence "
                             "synthesis needs yet (use --target safety --model pso)");
        }
        if (!a.goals.empty() || !a.engine.empty()) {
            throw UsageError("--goal and --engine apply to --target safety only");
        }
        ctx.engine = std::string(
            findEngine(catalog, engines::Task::Robustness, "", reach::MemoryModel::TSO).name);
        r = robustness::robustnessFences(program, options);
    } else {
        if (reach::modelInfo(model).buffers == reach::BufferKind::None) {
            throw UsageError("--target safety needs --model tso or pso: under SC fences "
                             "change nothing");
        }
        std::unique_ptr<reach::Engine> engine;
        try {
            // The lazy loop rarely proves a cyclic program safe unless it
            // is robust, and proving the fenced program safe is the last
            // step of every synthesis: cyclic programs default to the
            // explicit engine.
            engine = catalog.makeReach(
                !a.engine.empty() ? a.engine : safetyEngine(catalog, program, model), model);
        } catch (const reach::EngineUnavailable& e) {
            throw UsageError(e.what());
        }
        ctx.engine = std::string(engine->name());
        goal = chooseGoal(program, a.goals, a.file, input.goal);
        r = robustness::safetyFences(program, *goal, *engine, options);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!a.apply.empty() && r.outcome == robustness::FenceOutcome::Found) {
        std::ofstream out(a.apply, std::ios::binary);
        out << "# " << a.file << " with " << r.fences.size() << " fence(s) for " << a.target
            << " under " << a.model << " (tsoreach fences)\n"
            << r.fencedText;
        if (!out.flush()) {
            throw UsageError("cannot write " + a.apply + " (--apply)");
        }
    }
    cli::FenceInfo info{a.file, a.target, a.model, ctx.engine, seconds};
    emit(a.json ? cli::fencesJson(program, info, r) : cli::fencesText(program, info, r));
    switch (r.outcome) {
    case robustness::FenceOutcome::Found:
        return exitHolds;
    case robustness::FenceOutcome::Impossible:
        return exitViolated;
    case robustness::FenceOutcome::Unknown:
        return exitUnknown;
    }
    return exitInternal;
}

// --por and --live: the explicit engine's reductions, on by default.
void addReductionSwitches(CLI::App* cmd, std::string& por, std::string& live) {
    cmd->add_option("--por", por,
                    "Partial-order reduction of SC searches (ample sets; preserves "
                    "reachability)")
        ->check(CLI::IsMember({"on", "off"}))
        ->capture_default_str();
    cmd->add_option("--live", live, "Live-register reduction: dead registers are stored as 0")
        ->check(CLI::IsMember({"on", "off"}))
        ->capture_default_str();
}

int run(int argc, char** argv, Context& ctx, const engines::Catalog& catalog) {
    CLI::App app{"tsoreach: can a program reach a bad state under SC, TSO or PSO?"};
    app.set_version_flag("--version", "tsoreach " TSOREACH_VERSION);
    app.require_subcommand(1, 1);
    app.footer(exitCodeHelp);

    ReachArgs ra;
    CLI::App* reachCmd =
        app.add_subcommand("reach", "Decide whether the goal states are reachable");
    reachCmd->footer(exitCodeHelp);
    reachCmd->add_option("FILE", ra.file, "Program file (language of docs/language.md)")
        ->required();
    reachCmd->add_option("--model", ra.model, "Memory model")
        ->check(CLI::IsMember(modelChoices(catalog, engines::Task::Reach)))
        ->capture_default_str();
    reachCmd->add_option("--engine", ra.engine,
                         "Engine (default: the first listed for the model): " +
                             catalog.engineHelp(engines::Task::Reach));
    reachCmd
        ->add_option("--buffer-bound", ra.bufferBound,
                     "TSO/PSO: at most K buffered stores per thread that has a control-flow "
                     "cycle (acyclic threads are never capped); if the cap blocks a store, "
                     "'unreachable' becomes 'unknown'")
        ->check(positiveInteger)
        ->capture_default_str();
    reachCmd->add_option("--goal", ra.goals,
                         "Goal THREAD=STATE[,THREAD=STATE...] instead of the program's final "
                         "states; a thread named twice may be in either state. Given several "
                         "times: reached when any of them is");
    reachCmd->add_flag("--json", ra.json, "Print one JSON object (docs/json.md)");
    reachCmd->add_option("--search", ra.search, "Search order; bfs gives a shortest trace")
        ->check(CLI::IsMember({"dfs", "bfs"}))
        ->capture_default_str();
    reachCmd
        ->add_option("--max-states", ra.maxStates,
                     "Stop with 'unknown' beyond N states (dpor: one per event executed; rf: "
                     "one per maximal execution; 0: no limit)")
        ->check(nonNegativeInteger);
    reachCmd
        ->add_option("--timeout", ra.timeout, "Stop with 'unknown' after S seconds (0: no limit)")
        ->check(nonNegativeNumber);
    reachCmd
        ->add_option("--max-memory", ra.maxMemory,
                     std::string("Stop with 'unknown' beyond MB of memory") + kMemoryHelp)
        ->check(nonNegativeInteger);
    reachCmd->add_flag("--stats", ra.stats, "Print statistics after the verdict");
    reachCmd
        ->add_option("--jobs", ra.jobs,
                     "Lazy engine: threads for the robustness oracle's attacks (default: cores)")
        ->check(positiveInteger);
    reachCmd
        ->add_option("--max-iterations", ra.maxIterations,
                     "Lazy engine: rounds before 'unknown' (default " +
                         std::to_string(lazy::kDefaultMaxIterations) + ")")
        ->check(positiveInteger);
    reachCmd
        ->add_option(
            "--unroll", ra.unroll,
            "dpor and rf engines: explore cyclic programs with at most K back edges per thread "
            "(a negative answer is then unknown)")
        ->check(positiveInteger);
    addReductionSwitches(reachCmd, ra.por, ra.live);
    reachCmd
        ->add_option("--save-programs", ra.savePrograms,
                     "Lazy engine: write each extended program to DIR/round-K.txt (K >= 2)")
        ->check(CLI::ExistingDirectory);
    reachCmd->add_flag("--progress", ra.progress,
                       "Lazy engine: one line per round on stderr (round, program size, time)");

    RobustArgs ba;
    CLI::App* robustCmd = app.add_subcommand(
        "robust", "Decide whether every TSO execution is sequentially consistent");
    robustCmd->footer("Exit codes: 0 robust, 10 not robust (a witness is printed), 3 unknown, "
                      "2 usage or input error, 1 internal error.");
    robustCmd->add_option("FILE", ba.file, "Program file")->required();
    robustCmd
        ->add_option("--engine", ba.engine,
                     "Engine (default: the first listed for the model): " +
                         catalog.engineHelp(engines::Task::Robustness))
        ->check(CLI::IsMember(catalog.names(engines::Task::Robustness)));
    robustCmd
        ->add_option("--unroll", ba.unroll,
                     "dpor engine: cyclic programs with at most K back edges per thread (only "
                     "'not robust' is then conclusive)")
        ->check(positiveInteger);
    robustCmd->add_option("--model", ba.model, "Memory model")
        ->check(CLI::IsMember(modelChoices(catalog, engines::Task::Robustness)))
        ->capture_default_str();
    robustCmd->add_flag("--json", ba.json, "Print one JSON object");
    robustCmd->add_flag("--all", ba.all, "List every feasible attack, not just the first");
    robustCmd->add_option("--jobs", ba.jobs, "Attacks checked in parallel (default: cores)")
        ->check(positiveInteger);
    robustCmd->add_option("--dot", ba.dot,
                          "Write the first witness's happens-before graph to FILE (DOT, cycle "
                          "in red)");
    robustCmd
        ->add_option("--search", ba.search,
                     "Search order of each attack's SC check: dfs finds deep witnesses fast, "
                     "bfs shallow ones even in infinite state spaces; auto: dfs up to 200000 "
                     "states, then bfs")
        ->check(CLI::IsMember({"auto", "dfs", "bfs"}))
        ->capture_default_str();
    robustCmd
        ->add_option("--print-attack", ba.printAttack,
                     "Print the instrumented SC program of the N-th attack (1-based) and exit")
        ->check(positiveInteger);
    addReductionSwitches(robustCmd, ba.por, ba.live);
    robustCmd
        ->add_option("--max-states", ba.maxStates,
                     "Per attack (dpor: the whole exploration, one state per event): stop "
                     "beyond N states")
        ->check(nonNegativeInteger);
    robustCmd->add_option("--timeout", ba.timeout, "Stop every check after S seconds in total")
        ->check(nonNegativeNumber);
    robustCmd
        ->add_option("--max-memory", ba.maxMemory,
                     std::string("Stop beyond MB of memory (the whole process)") + kMemoryHelp)
        ->check(nonNegativeInteger);

    ReplayArgs pa;
    CLI::App* replayCmd = app.add_subcommand(
        "replay", "Check a trace (JSON, as in docs/json.md) step by step against the program");
    replayCmd->footer("Exit codes: 0 the trace is legal and reaches the goal, 10 it is not, "
                      "2 usage or input error, 1 internal error.");
    replayCmd->add_option("FILE", pa.file, "Program file")->required();
    replayCmd
        ->add_option("TRACE", pa.traceFile, "Trace: a reach --json report or an array of steps")
        ->required();
    replayCmd
        ->add_option("--model", pa.model,
                     "Memory model (default: the report's, else " +
                         std::string(reach::name(reach::kDefaultModel)) + ")")
        ->check(CLI::IsMember(allModelNames()));
    replayCmd->add_option("--goal", pa.goals,
                          "Goal THREAD=STATE[,...] (default: final states); several: any of them");
    replayCmd->add_flag("--json", pa.json, "Print one JSON object");

    FencesArgs fa;
    CLI::App* fencesCmd = app.add_subcommand(
        "fences", "Find a minimum set of fences that makes the program robust or its goal "
                  "unreachable");
    fencesCmd->footer("Exit codes: 0 a verified fence set was found (possibly empty), 10 no "
                      "fence set helps (the goal is reachable under SC), 3 unknown, 2 usage or "
                      "input error, 1 internal error.");
    fencesCmd->add_option("FILE", fa.file, "Program file")->required();
    fencesCmd
        ->add_option("--target", fa.target,
                     "robustness: every TSO execution becomes SC; safety: the goal becomes "
                     "unreachable")
        ->check(CLI::IsMember({"robustness", "safety"}))
        ->required();
    fencesCmd->add_option("--model", fa.model, "Memory model (robustness: tso only)")
        ->check(CLI::IsMember(modelChoices(catalog, engines::Task::Reach)))
        ->capture_default_str();
    fencesCmd->add_option("--engine", fa.engine,
                          "Safety: the engine that checks each fenced "
                          "program (default: lazy for acyclic tso programs, "
                          "explicit otherwise)");
    fencesCmd->add_option(
        "--goal", fa.goals,
        "Safety: goal THREAD=STATE[,...] (default: final states); several: any of "
        "them");
    fencesCmd->add_flag("--json", fa.json, "Print one JSON object (docs/json.md)");
    fencesCmd->add_option("--apply", fa.apply, "Write the fenced program to OUT");
    fencesCmd
        ->add_option("--cost", fa.cost,
                     "uniform: minimise the number of fences; loops: a fence on a control-flow "
                     "cycle costs 10, others 1")
        ->check(CLI::IsMember({"uniform", "loops"}))
        ->capture_default_str();
    fencesCmd
        ->add_option("--jobs", fa.jobs,
                     "Threads for attacks and the lazy engine "
                     "(default: cores)")
        ->check(positiveInteger);
    fencesCmd
        ->add_option("--max-rounds", fa.maxRounds,
                     "Refinement rounds (check, add constraints, re-solve) before 'unknown'")
        ->check(positiveInteger)
        ->capture_default_str();
    fencesCmd
        ->add_option("--buffer-bound", fa.bufferBound,
                     "Safety with the explicit engine: buffered stores per cyclic thread")
        ->check(positiveInteger)
        ->capture_default_str();
    fencesCmd->add_option("--max-states", fa.maxStates, "Per check: stop beyond N states")
        ->check(nonNegativeInteger);
    fencesCmd->add_option("--timeout", fa.timeout, "Stop every check after S seconds in total")
        ->check(nonNegativeNumber);
    fencesCmd
        ->add_option("--max-memory", fa.maxMemory,
                     std::string("Stop beyond MB of memory (the whole process)") + kMemoryHelp)
        ->check(nonNegativeInteger);

    ExploreArgs ea;
    CLI::App* exploreCmd = app.add_subcommand(
        "explore", "Explore every execution class of an acyclic program and count them: "
                   "Shasha-Snir traces with dpor, reads-from classes with rf");
    exploreCmd->footer("Exit codes: 0 every class explored, 3 unknown (a limit, or a program "
                       "the engine does not support), 2 usage or input error.");
    exploreCmd->add_option("FILE", ea.file, "Program file")->required();
    exploreCmd->add_option("--model", ea.model, "Memory model")
        ->check(CLI::IsMember(modelChoices(catalog, engines::Task::Explore)))
        ->capture_default_str();
    exploreCmd
        ->add_option("--engine", ea.engine,
                     "Exploration engine (default: the first listed for the model): " +
                         catalog.engineHelp(engines::Task::Explore))
        ->check(CLI::IsMember(catalog.names(engines::Task::Explore)));
    exploreCmd->add_flag("--json", ea.json, "Print one JSON object (docs/json.md)");
    exploreCmd->add_flag("--print-traces", ea.printTraces,
                         "Print every complete or blocked execution (small programs)");
    exploreCmd
        ->add_option("--unroll", ea.unroll,
                     "Cyclic programs: at most K back edges per thread (the answer is then "
                     "unknown: classes beyond the bound are not explored)")
        ->check(positiveInteger);
    exploreCmd
        ->add_option("--max-states", ea.maxStates,
                     "Stop beyond N states (dpor: one per event executed; rf: one per "
                     "maximal execution explored) (unknown)")
        ->check(nonNegativeInteger);
    exploreCmd->add_option("--timeout", ea.timeout, "Stop after S seconds (unknown)")
        ->check(nonNegativeNumber);
    exploreCmd
        ->add_option("--max-memory", ea.maxMemory,
                     std::string("Stop beyond MB of memory (unknown)") + kMemoryHelp)
        ->check(nonNegativeInteger);

    std::string printFile;
    std::string printFormat = "tsoreach";
    CLI::App* printCmd = app.add_subcommand(
        "print", "Print the program in canonical form (a .rmm file as its translation)");
    printCmd->add_option("FILE", printFile, "Program file")->required();
    printCmd->add_option("--format", printFormat, "Output language")
        ->check(CLI::IsMember({"tsoreach"}))
        ->capture_default_str();

    InstrumentArgs ia;
    CLI::App* instrumentCmd = app.add_subcommand(
        "instrument", "Print the buffering extension R (+) sigma of the lazy engine for one path");
    instrumentCmd->add_option("FILE", ia.file, "Program file")->required();
    instrumentCmd
        ->add_option("--path", ia.path,
                     "The path sigma as source lines of its transitions, in order: a store "
                     "first, a load last, one thread, no fence, lock or unlock (e.g. 5,6)")
        ->delimiter(',')
        ->required();
    instrumentCmd
        ->add_option("--variant", ia.variant,
                     "terminating (the paper's: removes the first transition, adds exits) or "
                     "trencher (keeps it, main exit only)")
        ->check(CLI::IsMember({"terminating", "trencher"}))
        ->capture_default_str();

    for (CLI::App* cmd :
         {reachCmd, robustCmd, replayCmd, fencesCmd, exploreCmd, printCmd, instrumentCmd}) {
        cmd->add_option("--input-format", ctx.input, inputFormatHelp())
            ->check(CLI::IsMember(inputFormatNames()))
            ->capture_default_str();
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return exitHolds;
    } catch (const CLI::CallForAllHelp&) {
        std::cout << app.help("", CLI::AppFormatMode::All);
        return exitHolds;
    } catch (const CLI::CallForVersion&) {
        std::cout << "tsoreach " TSOREACH_VERSION "\n";
        return exitHolds;
    } catch (const CLI::ParseError& e) {
        // A subcommand's --help arrives here as CallForHelp from the subcommand.
        if (e.get_exit_code() == 0) {
            return app.exit(e);
        }
        throw UsageError(e.what());
    }

    if (*reachCmd) {
        ctx.command = "reach";
        ctx.file = ra.file;
        return runReach(ra, ctx, catalog);
    }
    if (*robustCmd) {
        ctx.command = "robust";
        ctx.file = ba.file;
        return runRobust(ba, ctx, catalog);
    }
    if (*fencesCmd) {
        ctx.command = "fences";
        ctx.file = fa.file;
        return runFences(fa, ctx, catalog);
    }
    if (*exploreCmd) {
        ctx.command = "explore";
        ctx.file = ea.file;
        return runExplore(ea, ctx, catalog);
    }
    if (*replayCmd) {
        ctx.command = "replay";
        ctx.file = pa.file;
        return runReplay(pa, ctx);
    }
    if (*instrumentCmd) {
        ctx.command = "instrument";
        ctx.file = ia.file;
        return runInstrument(ia, ctx);
    }
    ctx.command = "print";
    ctx.file = printFile;
    const LoadedProgram printed = loadProgramFile(printFile, ctx.input);
    // A translation keeps its comments (memory layout, declared goal).
    emit(printed.translation.empty() ? printProgram(printed.program) : printed.translation);
    return exitHolds;
}

} // namespace

namespace tsoreach::cli {

int runMain(int argc, char** argv, const engines::Catalog& catalog) {
    Context ctx;
    try {
        return run(argc, argv, ctx, catalog);
    } catch (const InputError& e) {
        std::cerr << e.what() << '\n';
        return exitInput;
    } catch (const UsageError& e) {
        std::cerr << "tsoreach: error: " << e.what() << "\nRun 'tsoreach --help' for usage.\n";
        return exitInput;
    } catch (const std::system_error& e) {
        std::cerr << "tsoreach: error: " << e.what() << '\n';
        return exitInput;
    } catch (const Stopped& e) {
        // A stop condition that a pass saw outside any search (e.g. an
        // interrupt while the input is parsed): a limit, not a bug.
        std::cout << "unknown: " << e.what() << '\n';
        return exitUnknown;
    } catch (const std::bad_alloc&) {
        // Memory ran out before a limit check saw it: a limit, not a bug.
        std::cout << "unknown: out of memory (the allocation failed before --max-memory was "
                     "reached; give a lower --max-memory)\n";
        return exitUnknown;
    } catch (const std::exception& e) {
        std::string line;
        for (int i = 0; i < argc; ++i) {
            line += (i == 0 ? "" : " ") + std::string(argv[i]);
        }
        std::cerr << "tsoreach: internal error: " << e.what() << "\n  tsoreach " TSOREACH_VERSION
                  << ", command '" << ctx.command << "', model '" << ctx.model << "', engine '"
                  << ctx.engine << "', file '" << ctx.file << "'\n  command line: " << line
                  << "\n  This is a bug in tsoreach; please report it with the input file and "
                     "this message.\n";
        return exitInternal;
    }
}

} // namespace tsoreach::cli
