#include "report.hpp"

#include "tsoreach/lang/printer.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tsoreach::cli {

namespace {

using reach::StepKind;
using reach::TraceStep;

std::string kindName(const Program& p, const TraceStep& s) {
    if (s.kind == StepKind::Flush) {
        return "flush";
    }
    return std::string(keyword(p.transition(s.transition).instr.kind));
}

// What a step did, e.g. "mem[1] := 1" or "r := 0".
std::string effect(const Program& p, reach::MemoryModel model, const TraceStep& s) {
    auto num = [](std::optional<Value> v) { return v ? std::to_string(*v) : std::string("?"); };
    if (s.kind == StepKind::Flush) {
        return "mem[" + num(s.addr) + "] := " + num(s.value);
    }
    const Transition& tr = p.transition(s.transition);
    const Thread& th = p.thread(s.thread);
    switch (tr.instr.kind) {
    case InstrKind::Read:
        return th.regNames[tr.instr.reg.index()] + " := " + num(s.value) + " (" +
               (s.forwarded.value_or(false) ? "own buffer, " : "") + "mem[" + num(s.addr) + "])";
    case InstrKind::Write:
        if (model != reach::MemoryModel::SC) {
            return "buffer += mem[" + num(s.addr) + "] := " + num(s.value);
        }
        return "mem[" + num(s.addr) + "] := " + num(s.value);
    case InstrKind::Local:
        return th.regNames[tr.instr.reg.index()] + " := " + num(s.value);
    case InstrKind::Check:
        return "condition holds";
    case InstrKind::Lock:
        return "takes the lock";
    case InstrKind::Unlock:
        return "releases the lock";
    case InstrKind::Mfence:
    case InstrKind::Noop:
        break;
    }
    return "";
}

std::string formatSeconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", s);
    return buf;
}

std::string formatMb(double mb) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", mb);
    return buf;
}

} // namespace

std::string traceTable(const Program& p, const reach::Trace& trace) {
    std::ostringstream out;
    // Rows of cells, then pad every column to its widest cell.
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"step", "thread", "transition", "instruction", "line", "effect"});
    std::size_t n = 0;
    for (const TraceStep& s : trace.steps) {
        const Thread& th = p.thread(s.thread);
        if (s.kind == StepKind::Flush) {
            rows.push_back(
                {std::to_string(++n), th.name, "", "flush", "", effect(p, trace.model, s)});
            continue;
        }
        const Transition& tr = p.transition(s.transition);
        rows.push_back({std::to_string(++n), th.name,
                        th.stateNames[tr.from.index()] + " -> " + th.stateNames[tr.to.index()],
                        printInstruction(p, tr), std::to_string(tr.pos.line),
                        effect(p, trace.model, s)});
    }
    std::vector<std::size_t> width(rows[0].size(), 0);
    for (const auto& row : rows) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            width[c] = std::max(width[c], row[c].size());
        }
    }
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            std::string cell = row[c];
            if (c == 0 || c == 4) { // numbers right-aligned
                cell.insert(0, width[c] - cell.size(), ' ');
            } else if (c + 1 < row.size()) {
                cell.append(width[c] - cell.size(), ' ');
            }
            line += (c == 0 ? "" : "  ") + cell;
        }
        while (!line.empty() && line.back() == ' ') {
            line.pop_back();
        }
        out << line << '\n';
    }
    return out.str();
}

nlohmann::ordered_json traceJson(const Program& p, const reach::Trace& trace) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    std::size_t n = 0;
    for (const TraceStep& s : trace.steps) {
        const Thread& th = p.thread(s.thread);
        nlohmann::ordered_json step;
        step["step"] = ++n;
        step["thread"] = th.name;
        step["kind"] = kindName(p, s);
        if (s.kind == StepKind::Instruction) {
            const Transition& tr = p.transition(s.transition);
            step["from"] = th.stateNames[tr.from.index()];
            step["to"] = th.stateNames[tr.to.index()];
            step["instruction"] = printInstruction(p, tr);
            step["line"] = tr.pos.line;
            if (tr.instr.reg.valid()) {
                step["reg"] = th.regNames[tr.instr.reg.index()];
            }
        }
        if (s.addr) {
            step["addr"] = *s.addr;
        }
        if (s.value) {
            step["value"] = *s.value;
        }
        if (s.forwarded) {
            step["source"] = *s.forwarded ? "buffer" : "memory";
        }
        out.push_back(step);
    }
    return out;
}

std::string textReport(const Program& p, const Goal& g, const RunInfo& info, const reach::Result& r,
                       bool withStats) {
    std::ostringstream out;
    out << reach::name(r.verdict);
    if (r.verdict == reach::Verdict::Unknown) {
        out << ": " << r.reason;
    }
    out << '\n';
    if (r.trace && g.termCount() > 1) {
        out << "goal term " << r.trace->goalTerm + 1 << " of " << g.termCount()
            << " holds: " << g.describeTerm(p, r.trace->goalTerm) << '\n';
    }
    if (r.trace && !r.trace->steps.empty()) {
        out << traceTable(p, *r.trace);
        if (r.trace->goalStep < r.trace->steps.size()) {
            const std::size_t first = r.trace->goalStep + 1;
            const std::size_t last = r.trace->steps.size();
            out << "(the goal holds after step " << r.trace->goalStep << "; "
                << (first == last ? "step " + std::to_string(first) + " flushes the store"
                                  : "steps " + std::to_string(first) + "-" + std::to_string(last) +
                                        " flush the stores")
                << " still buffered)\n";
        }
    }
    if (r.trace && r.trace->steps.empty()) {
        out << "(the initial state satisfies the goal)\n";
    }
    if (!withStats && r.verdict == reach::Verdict::Unknown && r.stats.states > 0) {
        // How far the search got, which tells whether a larger limit may
        // help (nothing when the engine refused the program outright).
        out << "(stopped after " << r.stats.states << " states, " << r.stats.transitions
            << " transitions, " << formatSeconds(r.stats.timeSeconds) << " s, peak memory "
            << formatMb(r.stats.peakRssMb) << " MB; --stats for more)\n";
    }
    if (withStats) {
        out << "model:        " << reach::name(info.model) << '\n';
        out << "engine:       " << info.engine << " (" << reach::name(info.options.search) << ")\n";
        out << "goal:         " << g.describe(p) << '\n';
        out << "states:       " << r.stats.states << '\n';
        out << "transitions:  " << r.stats.transitions << '\n';
        out << "time:         " << formatSeconds(r.stats.timeSeconds) << " s\n";
        double rate =
            r.stats.timeSeconds > 0 ? static_cast<double>(r.stats.states) / r.stats.timeSeconds : 0;
        out << "states/s:     " << static_cast<std::uint64_t>(rate) << '\n';
        out << "peak memory:  " << formatMb(r.stats.peakRssMb) << " MB\n";
        if (r.stats.bytesPerState > 0) {
            out << "bytes/state:  " << static_cast<std::uint64_t>(r.stats.bytesPerState + 0.5)
                << '\n';
        }
        if (const auto& l = r.stats.loop) {
            out << "iterations:   " << l->iterations << '\n';
            out << "SC queries:   " << l->scQueries << " (goal), " << l->oracleQueries
                << " (robustness oracle)\n";
            out << "extensions:   " << l->extensions << '\n';
            out << "largest:      " << l->largestStates << " control states, "
                << l->largestTransitions << " transitions\n";
        }
    }
    return out.str();
}

std::string jsonReport(const Program& p, const Goal& g, const RunInfo& info,
                       const reach::Result& r) {
    nlohmann::ordered_json j;
    j["tool"] = "tsoreach";
    j["version"] = TSOREACH_VERSION;
    j["command"] = info.command;
    j["file"] = info.file;
    j["model"] = reach::name(info.model);
    j["engine"] = info.engine;
    j["search"] = reach::name(info.options.search);
    if (info.model != reach::MemoryModel::SC) {
        j["buffer_bound"] = info.options.bufferBound;
    }
    j["reductions"] = {{"por", info.options.partialOrder}, {"live", info.options.liveRegisters}};
    j["verdict"] = reach::name(r.verdict);
    if (r.verdict == reach::Verdict::Unknown) {
        j["reason"] = r.reason;
    }
    // One entry per constrained thread of each term; "term" numbers the
    // terms (a goal of several terms holds when one of them does).
    nlohmann::ordered_json goal = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < g.termCount(); ++i) {
        for (ThreadId t : g.termThreads(i)) {
            nlohmann::ordered_json states = nlohmann::ordered_json::array();
            for (StateId s : g.termAcceptedStates(i, t)) {
                states.push_back(p.thread(t).stateNames[s.index()]);
            }
            goal.push_back({{"thread", p.thread(t).name}, {"states", states}, {"term", i}});
        }
    }
    j["goal"] = goal;
    j["goal_terms"] = g.termCount();
    j["trace"] = r.trace ? traceJson(p, *r.trace) : nlohmann::ordered_json::array();
    if (r.trace) {
        j["goal_step"] = r.trace->goalStep;
        j["goal_term"] = r.trace->goalTerm;
    }
    j["stats"] = {{"states", r.stats.states},
                  {"transitions", r.stats.transitions},
                  {"time_s", r.stats.timeSeconds},
                  {"peak_rss_mb", r.stats.peakRssMb}};
    if (r.stats.bytesPerState > 0) {
        j["stats"]["bytes_per_state"] = r.stats.bytesPerState;
    }
    if (const auto& l = r.stats.loop) {
        j["stats"]["iterations"] = l->iterations;
        j["stats"]["sc_queries"] = l->scQueries;
        j["stats"]["oracle_queries"] = l->oracleQueries;
        j["stats"]["extensions"] = l->extensions;
        j["stats"]["largest_program"] = {{"states", l->largestStates},
                                         {"transitions", l->largestTransitions}};
    }
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string replayJson(const std::string& file, const std::string& traceFile,
                       reach::MemoryModel model, const Goal& g, const Program& p,
                       const reach::Trace& trace, const reach::ReplayOutcome& outcome) {
    nlohmann::ordered_json j;
    j["tool"] = "tsoreach";
    j["version"] = TSOREACH_VERSION;
    j["command"] = "replay";
    j["file"] = file;
    j["trace_file"] = traceFile;
    j["model"] = reach::name(model);
    j["goal"] = g.describe(p);
    if (outcome.ok) {
        j["goal_term"] = outcome.goalTerm;
    }
    j["steps"] = trace.steps.size();
    j["goal_step"] = trace.goalStep;
    j["verdict"] = outcome.ok ? "valid" : "invalid";
    if (!outcome.ok) {
        j["failed_step"] = outcome.failedStep;
        j["error"] = outcome.error;
    }
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

namespace {

std::string verdictName(robustness::RobustVerdict v) {
    switch (v) {
    case robustness::RobustVerdict::Robust:
        return "robust";
    case robustness::RobustVerdict::NotRobust:
        return "not-robust";
    case robustness::RobustVerdict::Unknown:
        break;
    }
    return "unknown";
}

// "write 1 0 (line 3, a -> b)"
std::string describeTransition(const Program& p, TransitionId id) {
    const Transition& tr = p.transition(id);
    const Thread& th = p.thread(tr.thread);
    return "'" + printInstruction(p, tr) + "' (line " + std::to_string(tr.pos.line) + ", " +
           th.stateNames[tr.from.index()] + " -> " + th.stateNames[tr.to.index()] + ")";
}

nlohmann::ordered_json transitionJson(const Program& p, TransitionId id) {
    const Transition& tr = p.transition(id);
    const Thread& th = p.thread(tr.thread);
    return {{"from", th.stateNames[tr.from.index()]},
            {"to", th.stateNames[tr.to.index()]},
            {"line", tr.pos.line},
            {"instruction", printInstruction(p, tr)}};
}

// The cycle as events, each with the edge kind to the next one.
nlohmann::ordered_json cycleJson(const Program& p, const robustness::HbGraph& graph,
                                 const std::vector<robustness::HbArc>& cycle) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const robustness::HbArc& a : cycle) {
        const robustness::HbEvent& e = graph.events[a.from];
        out.push_back({{"step", e.step},
                       {"thread", p.thread(e.thread).name},
                       {"kind", e.write ? "write" : "read"},
                       {"addr", e.addr},
                       {"edge", robustness::name(a.kind)}});
    }
    return out;
}

std::string cycleText(const Program& p, const robustness::HbGraph& graph,
                      const std::vector<robustness::HbArc>& cycle) {
    std::ostringstream out;
    out << "happens-before cycle:";
    for (const robustness::HbArc& a : cycle) {
        const robustness::HbEvent& e = graph.events[a.from];
        out << " [" << e.step << "] " << p.thread(e.thread).name << " " << (e.write ? "W" : "R")
            << " mem[" << e.addr << "] -" << robustness::name(a.kind) << "->";
    }
    out << " [" << graph.events[cycle.front().from].step << "]\n";
    return out.str();
}

// The first line of a robustness report.
std::string verdictLine(robustness::RobustVerdict v, const std::string& reason) {
    if (v == robustness::RobustVerdict::NotRobust) {
        return "not robust\n";
    }
    return verdictName(v) + (v == robustness::RobustVerdict::Unknown ? ": " + reason : "") + "\n";
}

} // namespace

std::string exploredRobustText(const Program& p, const std::string& model,
                               const std::string& engine, const robustness::ExploredRobustness& r) {
    std::ostringstream out;
    out << verdictLine(r.verdict, r.reason);
    if (r.verdict == robustness::RobustVerdict::NotRobust) {
        out << "an execution under " << model << " whose happens-before relation has a cycle:\n"
            << traceTable(p, r.trace) << cycleText(p, r.graph, r.cycle);
    }
    out << "(" << engine << ": " << r.executions << " executions checked, "
        << formatSeconds(r.seconds) << " s)\n";
    return out.str();
}

std::string exploredRobustJson(const Program& p, const std::string& file, const std::string& model,
                               const std::string& engine, const robustness::ExploredRobustness& r) {
    nlohmann::ordered_json j;
    j["tool"] = "tsoreach";
    j["version"] = TSOREACH_VERSION;
    j["command"] = "robust";
    j["file"] = file;
    j["model"] = model;
    j["engine"] = engine;
    j["verdict"] = verdictName(r.verdict);
    if (r.verdict == robustness::RobustVerdict::Unknown) {
        j["reason"] = r.reason;
    }
    nlohmann::ordered_json witnesses = nlohmann::ordered_json::array();
    if (r.verdict == robustness::RobustVerdict::NotRobust) {
        witnesses.push_back(
            {{"trace", traceJson(p, r.trace)}, {"cycle", cycleJson(p, r.graph, r.cycle)}});
    }
    j["witnesses"] = witnesses;
    j["stats"] = {{"executions", r.executions},
                  {"time_s", r.seconds},
                  {"peak_rss_mb", reach::processPeakRssMb()}};
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string robustText(const Program& p, const robustness::RobustnessResult& r, double seconds) {
    std::ostringstream out;
    out << verdictLine(r.verdict, r.reason);
    for (const robustness::Witness& w : r.witnesses) {
        out << "attack: thread " << p.thread(w.attack.thread).name << " delays "
            << describeTransition(p, w.attack.store) << " past "
            << describeTransition(p, w.attack.load) << "\n";
        out << traceTable(p, w.trace);
        out << cycleText(p, w.graph, w.cycle);
    }
    out << "(" << r.checked << " of " << r.attacks << " attacks checked, " << r.witnesses.size()
        << " feasible";
    if (r.undecided != 0) {
        out << ", " << r.undecided << " undecided";
    }
    out << "; " << r.scQueries << " SC searches, " << r.scStates << " states, "
        << formatSeconds(seconds) << " s)\n";
    return out.str();
}

std::string robustJson(const Program& p, const std::string& file,
                       const robustness::RobustnessResult& r, double seconds) {
    nlohmann::ordered_json j;
    j["tool"] = "tsoreach";
    j["version"] = TSOREACH_VERSION;
    j["command"] = "robust";
    j["file"] = file;
    j["model"] = "tso";
    j["verdict"] = verdictName(r.verdict);
    if (r.verdict == robustness::RobustVerdict::Unknown) {
        j["reason"] = r.reason;
    }
    j["attacks"] = {{"total", r.attacks},
                    {"feasible", r.witnesses.size()},
                    {"checked", r.checked},
                    {"undecided", r.undecided}};
    nlohmann::ordered_json witnesses = nlohmann::ordered_json::array();
    for (const robustness::Witness& w : r.witnesses) {
        witnesses.push_back({{"thread", p.thread(w.attack.thread).name},
                             {"store", transitionJson(p, w.attack.store)},
                             {"load", transitionJson(p, w.attack.load)},
                             {"trace", traceJson(p, w.trace)},
                             {"cycle", cycleJson(p, w.graph, w.cycle)}});
    }
    j["witnesses"] = witnesses;
    j["stats"] = {{"sc_queries", r.scQueries},
                  {"sc_states", r.scStates},
                  {"time_s", seconds},
                  {"peak_rss_mb", reach::processPeakRssMb()}};
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace tsoreach::cli

namespace tsoreach::cli {

namespace {

std::string outcomeName(robustness::FenceOutcome o) {
    switch (o) {
    case robustness::FenceOutcome::Found:
        return "found";
    case robustness::FenceOutcome::Impossible:
        return "impossible";
    case robustness::FenceOutcome::Unknown:
        break;
    }
    return "unknown";
}

// The source line of the first transition a fence at `f` guards.
std::uint32_t guardedLine(const Program& p, const instrument::FencePosition& f) {
    const auto leaving = p.thread(f.thread).outgoingOf(f.state);
    std::uint32_t line = 0;
    for (TransitionId id : leaving) {
        const std::uint32_t l = p.transition(id).pos.line;
        line = line == 0 ? l : std::min(line, l);
    }
    return line;
}

std::string positionName(const Program& p, const instrument::FencePosition& f) {
    const Thread& t = p.thread(f.thread);
    return t.name + ":" + t.stateNames[f.state.index()];
}

} // namespace

std::string fencesText(const Program& p, const FenceInfo& info, const robustness::FenceResult& r) {
    std::string out;
    switch (r.outcome) {
    case robustness::FenceOutcome::Found:
        if (r.fences.empty()) {
            out += info.target == "robustness"
                       ? "no fences needed: the program is robust against " + info.model + "\n"
                       : "no fences needed: the goal is unreachable under " + info.model + "\n";
        } else {
            out += std::to_string(r.fences.size()) + " fence" + (r.fences.size() == 1 ? "" : "s") +
                   " for " + info.target + " under " + info.model + " (verified" +
                   (r.optimal ? ", minimum" : ", not proved minimum") + "):\n";
        }
        break;
    case robustness::FenceOutcome::Impossible:
        out += "no fence set helps: " + r.reason + "\n";
        break;
    case robustness::FenceOutcome::Unknown:
        out += "unknown: " + r.reason + "\n";
        break;
    }
    for (std::size_t i = 0;
         i < r.fences.size() && r.outcome != robustness::FenceOutcome::Impossible; ++i) {
        const instrument::FencePosition& f = r.fences[i];
        out += "  mfence in " + p.thread(f.thread).name + " at state " +
               p.thread(f.thread).stateNames[f.state.index()] + " (before line " +
               std::to_string(guardedLine(p, f)) + ")\n";
        if (i < r.cuts.size()) {
            for (std::size_t k : r.cuts[i]) {
                out += "      cuts " + r.constraints[k].reason + "\n";
            }
        }
    }
    if (r.outcome == robustness::FenceOutcome::Impossible && !r.scTrace.steps.empty()) {
        out += "SC trace to the goal:\n" + traceTable(p, r.scTrace);
    }
    out += "(" + std::to_string(r.rounds) + " refinement round" + (r.rounds == 1 ? "" : "s") +
           ", " + std::to_string(r.constraints.size()) + " constraint" +
           (r.constraints.size() == 1 ? "" : "s") + ", " + std::to_string(r.checks) + " checks, " +
           std::to_string(r.scStates) + " states, " + formatSeconds(info.seconds) + " s)\n";
    if (r.outcome == robustness::FenceOutcome::Found && !r.optimal) {
        out += "note: the hitting-set search hit its budget; a smaller set may exist\n";
    }
    return out;
}

std::string fencesJson(const Program& p, const FenceInfo& info, const robustness::FenceResult& r) {
    nlohmann::ordered_json j;
    j["tool"] = "tsoreach";
    j["version"] = TSOREACH_VERSION;
    j["command"] = "fences";
    j["file"] = info.file;
    j["target"] = info.target;
    j["model"] = info.model;
    j["engine"] = info.engine;
    j["outcome"] = outcomeName(r.outcome);
    if (!r.reason.empty()) {
        j["reason"] = r.reason;
    }
    nlohmann::ordered_json fences = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.fences.size(); ++i) {
        const instrument::FencePosition& f = r.fences[i];
        nlohmann::ordered_json cuts = nlohmann::ordered_json::array();
        if (i < r.cuts.size()) {
            for (std::size_t k : r.cuts[i]) {
                cuts.push_back(r.constraints[k].reason);
            }
        }
        fences.push_back({{"thread", p.thread(f.thread).name},
                          {"state", p.thread(f.thread).stateNames[f.state.index()]},
                          {"line", guardedLine(p, f)},
                          {"cuts", cuts}});
    }
    j["fences"] = fences;
    j["count"] = r.fences.size();
    j["cost"] = r.cost;
    j["verified"] = r.verified;
    j["optimal"] = r.optimal;
    nlohmann::ordered_json constraints = nlohmann::ordered_json::array();
    for (const robustness::FenceConstraint& c : r.constraints) {
        nlohmann::ordered_json positions = nlohmann::ordered_json::array();
        for (const instrument::FencePosition& f : c.positions) {
            positions.push_back(positionName(p, f));
        }
        constraints.push_back({{"reason", c.reason}, {"positions", positions}});
    }
    j["constraints"] = constraints;
    if (r.outcome == robustness::FenceOutcome::Impossible && !r.scTrace.steps.empty()) {
        j["sc_trace"] = traceJson(p, r.scTrace);
    }
    j["stats"] = {{"rounds", r.rounds},
                  {"checks", r.checks},
                  {"states", r.scStates},
                  {"time_s", info.seconds},
                  {"peak_rss_mb", reach::processPeakRssMb()}};
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string exploreText(const ExploreInfo& info, const reach::ExploreResult& r,
                        const std::string& traces) {
    std::ostringstream out;
    out << traces;
    if (r.complete) {
        out << "explored every execution class under " << reach::name(info.model) << " ("
            << info.engine << ")\n";
    } else {
        out << "unknown: " << r.reason << "\n";
        if (r.stats.events == 0) {
            return out.str(); // nothing was explored: no counts to show
        }
    }
    const reach::ExploreStats& s = r.stats;
    if (r.classes == reach::ExecutionClasses::ReadsFrom) {
        out << "executions:   " << s.executions << " (reads-from classes of complete executions)\n"
            << "blocked:      " << s.blocked << " (classes stopped by a failed check)\n"
            << "redundant:    " << s.redundant
            << " (maximal executions of a class explored already)\n"
            << "outcomes:     " << s.outcomes << " (distinct final registers)\n"
            << "maximal:      " << s.events << " (maximal executions explored)\n"
            << "consistency checks: " << s.consistencyChecks << "\n"
            << "time:         " << s.timeSeconds << " s\n";
        return out.str();
    }
    out << "executions:   " << s.executions << "\n"
        << "blocked:      " << s.blocked << " (stopped by a failed check)\n"
        << "redundant:    " << s.redundant << " (cut short by sleep sets, or repeating a class)\n"
        << "outcomes:     " << s.outcomes << " (distinct final registers and memory)\n"
        << "events:       " << s.events << "\n"
        << "time:         " << s.timeSeconds << " s\n";
    return out.str();
}

std::string exploreJson(const ExploreInfo& info, const reach::ExploreResult& r) {
    nlohmann::ordered_json j;
    j["tool"] = "tsoreach";
    j["version"] = TSOREACH_VERSION;
    j["command"] = "explore";
    j["file"] = info.file;
    j["model"] = reach::name(info.model);
    j["engine"] = info.engine;
    j["complete"] = r.complete;
    if (!r.complete) {
        j["reason"] = r.reason;
    }
    j["stats"] = {{"executions", r.stats.executions},
                  {"blocked", r.stats.blocked},
                  {"redundant", r.stats.redundant},
                  {"outcomes", r.stats.outcomes},
                  {"events", r.stats.events},
                  {"time_s", r.stats.timeSeconds},
                  {"peak_rss_mb", reach::processPeakRssMb()}};
    if (r.classes == reach::ExecutionClasses::ReadsFrom) {
        j["stats"]["consistency_checks"] = r.stats.consistencyChecks;
    }
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace tsoreach::cli
