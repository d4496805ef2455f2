#include "command.hpp"
#include "report.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace tsoreach::cli {

const char* const exitCodeHelp = R"(Exit codes:
  0   the property holds (goal unreachable)
  10  the property is violated (goal reachable; a checked trace is printed)
  3   unknown: a limit (--max-states, --timeout, --max-memory) stopped the search
  2   usage or input error (FILE:LINE:COL: error: ...)
  1   internal error (a bug: please report it with the input file))";

namespace {

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

// Without --max-memory a search stops at 80% of the memory available when
// it starts (MemAvailable: free memory plus what the kernel can reclaim; the
// resident size is measured as the search runs), so a search too large for
// the machine answers `unknown` instead of being killed; --max-memory 0
// lifts the limit.
std::uint64_t memoryLimitMb(std::uint64_t given) {
    if (given != CommonArgs::kMemoryUnset) {
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

constexpr const char* kMemoryHelp = " (default: 80% of the memory available at start; 0: no limit)";

} // namespace

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

namespace {

// Whether `path` can be written: tried when the options are read, so that a
// long search does not end in "cannot write" (and lose its verdict).
std::string checkOutputFile(const std::string& path) {
    if (path == "-") {
        return "give a file name: standard output carries the report";
    }
    std::error_code ec;
    const bool existed = std::filesystem::exists(path, ec);
    {
        const std::ofstream probe(path, std::ios::binary | std::ios::app);
        if (!probe) {
            return "cannot write " + path;
        }
    }
    if (!existed) {
        std::filesystem::remove(path, ec);
    }
    return "";
}

} // namespace

const CLI::Validator writableFile([](std::string& v) { return checkOutputFile(v); }, "FILE");

void emit(const std::string& text) {
    std::cout << text;
    std::cout.flush();
    if (!std::cout) {
        throw std::system_error(errno, std::generic_category(), "cannot write to standard output");
    }
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out.flush()) {
        throw UsageError("cannot write " + path);
    }
}

Goal chooseGoal(const LoadedProgram& input, const std::vector<std::string>& goals,
                const std::string& file, bool allowUnmentioned) {
    const Program& program = input.program;
    std::optional<Goal> goal;
    GoalOrigin origin = GoalOrigin::Finals;
    if (!goals.empty() && input.condition) {
        throw UsageError("--goal cannot replace a litmus test's condition, which is its goal; "
                         "'tsoreach print' gives the test as a program whose goal you can choose");
    }
    if (!goals.empty()) {
        try {
            goal = parseGoalSpecs(program, goals);
        } catch (const GoalSpecError& e) {
            if (!e.thread().valid()) {
                throw UsageError(e.what());
            }
            throw InputError(file, program.thread(e.thread()).pos, e.what());
        }
        origin = GoalOrigin::CommandLine;
    } else if (input.goal) {
        goal = input.goal;
        origin = GoalOrigin::Declared;
    } else {
        goal = defaultGoal(program);
    }
    if (!goal) {
        throw InputError(file, program.threads.front().pos,
                         "no thread declares a 'final' state, so the program has no goal; "
                         "name one with --goal THREAD=STATE");
    }
    if (!allowUnmentioned) {
        const std::vector<Warning> bad = unmentionedGoalStates(program, *goal, origin);
        if (!bad.empty()) {
            const std::string& m = bad.front().message;
            throw InputError(file, bad.front().pos,
                             m + (m.ends_with('?') ? " " : ". ") +
                                 "--allow-unreachable-goal accepts it as an unreachable goal");
        }
    }
    return *goal;
}

void addAllowUnreachableGoal(CLI::App* cmd, bool& allow) {
    cmd->add_flag("--allow-unreachable-goal", allow,
                  "Accept goal states that no transition of their thread enters or leaves "
                  "(otherwise an input error, exit 2: usually a typo); such a goal is "
                  "unreachable. For generated programs");
}

namespace {

// How the common options read on one subcommand.
struct CommonHelp {
    std::string maxStates;       // what a state is for this subcommand (stateUnits)
    std::string stats;           // what --stats adds
    std::string progressEngines; // the catalog's engines that report progress
};

std::string stateUnits(const engines::Catalog& catalog, engines::Task task) {
    std::string out = "stored states";
    for (const engines::EngineEntry& e : catalog.entries()) {
        if (!e.stateUnit.empty() && !e.models(task).empty()) {
            out += "; " + std::string(e.name) + ": " + std::string(e.stateUnit);
        }
    }
    return out;
}

std::string progressEngines(const engines::Catalog& catalog) {
    std::string out;
    for (const engines::EngineEntry& e : catalog.entries()) {
        if (e.reportsProgress) {
            out += std::string(out.empty() ? "" : ", ") + std::string(e.name);
        }
    }
    return out.empty() ? "none" : out;
}

void addCommonOptions(CLI::App* cmd, CommonArgs& a, const CommonHelp& help) {
    cmd->add_flag("--json", a.json, "Print one JSON object (docs/json.md)");
    cmd->add_flag("--stats", a.stats, help.stats);
    cmd->add_flag("--progress", a.progress,
                  "Lines on stderr as the search proceeds, from the engines that report "
                  "progress (" +
                      help.progressEngines + "); the others say that they report none");
    cmd->add_option("--max-states", a.maxStates,
                    "Stop with 'unknown' beyond N states (" + help.maxStates + "; 0: no limit)")
        ->check(nonNegativeInteger);
    cmd->add_option("--timeout", a.timeout,
                    "Stop with 'unknown' after S seconds for the whole command (0: no limit)")
        ->check(nonNegativeNumber);
    cmd->add_option("--max-memory", a.maxMemory,
                    std::string("Stop with 'unknown' beyond MB of memory (the whole process)") +
                        kMemoryHelp)
        ->check(nonNegativeInteger);
    cmd->add_option("--jobs", a.jobs,
                    "Threads: the explicit engine's search runs on N threads, engines that run "
                    "independent searches spread them over N (default: cores; answers do not "
                    "depend on it)")
        ->check(positiveInteger);
}

reach::Options commonOptions(const CommonArgs& a) {
    reach::Options o;
    o.stop.setTimeout(a.timeout);
    o.stop.setMemoryLimitMb(memoryLimitMb(a.maxMemory));
    o.maxStates = a.maxStates;
    o.jobs = a.jobs != 0 ? a.jobs : std::max(1U, std::thread::hardware_concurrency());
    o.searchJobs = o.jobs; // engines that run searches side by side lower it
    if (a.progress) {
        // Lines may come from several threads (a task's ticker, its searches).
        o.progress = [lock = std::make_shared<std::mutex>()](const std::string& line) {
            const std::lock_guard<std::mutex> held(*lock);
            std::cerr << line << '\n' << std::flush;
        };
    }
    return o;
}

void addModelOption(CLI::App* cmd, std::string& model, const engines::Catalog& catalog,
                    engines::Task task, const std::string& help) {
    std::vector<std::string> choices;
    for (reach::MemoryModel m : catalog.models(task)) {
        choices.emplace_back(reach::name(m));
    }
    cmd->add_option("--model", model, help)->check(CLI::IsMember(choices))->capture_default_str();
}

void addEngineOption(CLI::App* cmd, std::string& engine, const engines::Catalog& catalog,
                     engines::Task task, const std::string& what) {
    // No choice check here: the catalog says why an engine does not fit
    // (no such engine, another task, another model).
    cmd->add_option("--engine", engine,
                    what +
                        " (default: the first listed for the model): " + catalog.engineHelp(task));
}

} // namespace

void noteProgress(const CommonArgs& a, const engines::EngineEntry& engine) {
    if (a.progress && !engine.reportsProgress) {
        std::cerr << "progress: engine '" << engine.name << "' reports none\n";
    }
}

const engines::EngineEntry& findEngine(const engines::Catalog& catalog, engines::Task task,
                                       const std::string& name, reach::MemoryModel model) {
    try {
        return catalog.find(task, name, model);
    } catch (const reach::EngineUnavailable& e) {
        throw UsageError(e.what());
    }
}

void EngineOptionArgs::declare(CLI::App* cmd, const engines::Catalog& catalog, engines::Task task) {
    using Kind = engines::EngineOption::Kind;
    task_ = task;
    for (const engines::Catalog::OfferedOption& offered : catalog.optionsFor(task)) {
        const engines::EngineOption& o = *offered.option;
        std::string who;
        for (std::string_view e : offered.engines) {
            who += std::string(who.empty() ? "" : ", ") + std::string(e);
        }
        const std::string help = who + ": " + o.help;
        std::string& value = values_[o.flag];
        value = o.defaultValue;
        CLI::Option* opt = o.kind == Kind::Flag ? cmd->add_flag(o.flag, help)
                                                : cmd->add_option(o.flag, value, help);
        switch (o.kind) {
        case Kind::Count:
            opt->check(positiveInteger);
            break;
        case Kind::Switch:
            opt->check(CLI::IsMember({"on", "off"}));
            break;
        case Kind::Choice:
            opt->check(CLI::IsMember(o.choices));
            break;
        case Kind::Directory:
            opt->check(CLI::ExistingDirectory);
            break;
        case Kind::Flag:
            break;
        }
        if (!o.defaultValue.empty()) {
            opt->capture_default_str();
        }
        declared_.push_back({&o, opt, who});
    }
}

void EngineOptionArgs::noteUnused(const engines::EngineEntry& engine) const {
    for (const Declared& d : declared_) {
        const bool takes = std::any_of(
            engine.options.begin(), engine.options.end(), [&](const engines::EngineOption& o) {
                return o.flag == d.option->flag &&
                       std::find(o.tasks.begin(), o.tasks.end(), task_) != o.tasks.end();
            });
        if (d.cli->count() != 0 && !takes) {
            std::cerr << "warning: " << d.option->flag << " is an option of " << d.engines
                      << "; engine '" << engine.name << "' does not use it\n";
        }
    }
}

void EngineOptionArgs::apply(engines::Settings& settings) const {
    for (const Declared& d : declared_) {
        if (d.cli->count() != 0) {
            d.option->apply(settings, values_.at(d.option->flag));
        }
    }
}

void SearchCommand::declareTarget(CLI::App* cmd, const std::string& modelHelp,
                                  const std::string& engineWhat) {
    addModelOption(cmd, model_, catalog_, task_, modelHelp);
    addEngineOption(cmd, engine_, catalog_, task_, engineWhat);
}

void SearchCommand::declareOptions(CLI::App* cmd, const std::string& statsHelp) {
    addCommonOptions(cmd, common_,
                     {stateUnits(catalog_, task_), statsHelp, progressEngines(catalog_)});
    engineOptions_.declare(cmd, catalog_, task_);
}

reach::MemoryModel SearchCommand::chosenModel(Context& ctx) const {
    ctx.model = model_;
    return *reach::memoryModelFromName(model_);
}

const engines::EngineEntry& SearchCommand::chosenEngine(Context& ctx, reach::MemoryModel m,
                                                        const std::string& fallback) const {
    const engines::EngineEntry& e =
        findEngine(catalog_, task_, engine_.empty() ? fallback : engine_, m);
    ctx.engine = std::string(e.name);
    return e;
}

engines::Settings SearchCommand::commonSettings() const {
    engines::Settings s;
    s.options = commonOptions(common_);
    return s;
}

void SearchCommand::completeSettings(engines::Settings& s,
                                     const engines::EngineEntry& engine) const {
    noteProgress(common_, engine);
    engineOptions_.noteUnused(engine);
    engineOptions_.apply(s);
}

void SearchCommand::declareHtml(CLI::App* cmd) {
    cmd->add_option("--html", html_,
                    "Write the report as one self-contained HTML page to FILE (trace lanes "
                    "with the store buffers, happens-before graph, fences in the source)")
        ->check(writableFile);
}

void SearchCommand::writeReportFiles(
    const Context& ctx, const LoadedProgram& input, const StopCondition& stop,
    const std::function<std::optional<std::string>(const ReportFormat&)>& report,
    const std::string& dot) const {
    auto write = [&](const std::string& path, const ReportFormat& format) {
        if (const std::optional<std::string> text = report(format)) {
            writeFile(path, *text); // nothing where the format does not apply
        }
    };
    if (!html_.empty()) {
        write(html_, *htmlFormat({input.source, stop, ctx.warnings.all()}));
    }
    if (!dot.empty()) {
        write(dot, *dotFormat());
    }
}

std::optional<reach::Trace> shorterTrace(const engines::Catalog& catalog, const Program& program,
                                         const Goal& goal, reach::MemoryModel model,
                                         const reach::Options& base, const reach::Trace& found) {
    reach::Options o;
    o.stop = base.stop; // the command's deadline and memory limit
    o.search = reach::SearchOrder::Bfs;
    o.jobs = o.searchJobs = 1;
    o.maxStates =
        base.maxStates != 0 ? std::min(base.maxStates, kShortTraceStates) : kShortTraceStates;
    o.bufferBound = base.bufferBound;
    const engines::EngineEntry& e = catalog.find(engines::Task::Reach, "explicit", model);
    if (e.unsupportedFor(program, model)) {
        return std::nullopt;
    }
    const reach::Result r = reach::runChecked(*e.makeReach(model), program, goal, o);
    if (r.verdict != reach::Verdict::Reachable || !r.trace ||
        r.trace->steps.size() >= found.steps.size()) {
        return std::nullopt;
    }
    return r.trace;
}

} // namespace tsoreach::cli
