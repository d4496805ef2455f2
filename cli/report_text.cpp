// The text reports, for people.

#include "report.hpp"
#include "report_common.hpp"

#include "tsoreach/lang/printer.hpp"

#include <sstream>
#include <variant>

namespace tsoreach::cli {

using namespace detail;
using reach::StepKind;
using reach::TraceStep;

std::string traceTable(const Program& p, const reach::Trace& trace) {
    std::ostringstream out;
    // Rows of cells, then pad every column to its widest cell.
    // Under TSO and PSO a last column shows the buffers after each step.
    const std::vector<BufferView> buffers = buffersAfterSteps(p, trace);
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"step", "thread", "transition", "instruction", "at", "effect"});
    if (!buffers.empty()) {
        rows.back().push_back("buffers (oldest first)");
    }
    std::size_t n = 0;
    for (const TraceStep& s : trace.steps) {
        const Thread& th = p.thread(s.thread);
        std::string what = effect(p, trace.model, s);
        if (!buffers.empty() && !buffers[n].overtaken.empty()) {
            BufferView older;
            older.threads.resize(p.threads.size());
            older.threads[s.thread.index()] = buffers[n].overtaken;
            what += " (overtakes" + describeBuffers(p, older).substr(th.name.size() + 1) + ")";
        }
        if (s.kind == StepKind::Flush) {
            rows.push_back({std::to_string(n + 1), th.name, "", "flush", "", what});
        } else {
            const Transition& tr = p.transition(s.transition);
            rows.push_back({std::to_string(n + 1), th.name,
                            th.stateNames[tr.from.index()] + " -> " + th.stateNames[tr.to.index()],
                            printInstruction(p, tr), placeText(tr.pos), what});
        }
        if (!buffers.empty()) {
            rows.back().push_back(describeBuffers(p, buffers[n]));
        }
        ++n;
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

namespace {

std::string textReport(const Program& p, const Goal& g, const RunInfo& info, const reach::Result& r,
                       bool withStats) {
    std::ostringstream out;
    if (info.condition != nullptr && r.verdict != reach::Verdict::Unknown) {
        const detail::HerdAnswer a =
            detail::herdAnswer(*info.condition, info.model, r.verdict == reach::Verdict::Reachable);
        out << a.word << '\n' << a.line << (r.trace ? " (trace below)" : "") << '\n';
    } else {
        out << reach::name(r.verdict);
        if (r.verdict == reach::Verdict::Unknown) {
            out << ": " << r.reason;
        }
        out << '\n';
    }
    if (r.trace && g.termCount() > 1 && info.condition == nullptr) {
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
        out += "  " + fenceText(p, info, f) + "\n";
        if (i < r.cuts.size()) {
            for (std::size_t k : r.cuts[i]) {
                out += "      cuts " + r.constraints[k].reason + "\n";
            }
        }
    }
    if (r.outcome == robustness::FenceOutcome::Impossible && !r.scTrace.steps.empty()) {
        out += "SC trace to the goal:\n" + traceTable(p, r.scTrace);
    }
    if (!info.applied.empty()) {
        out += info.applied + "\n";
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
    if (r.classes == reach::ExecutionClasses::Values) {
        out << "executions:   " << s.executions << " (distinct values read, complete executions)\n"
            << "blocked:      " << s.blocked
            << " (distinct values read, stopped by a failed check)\n"
            << "redundant:    " << s.redundant << " (runs whose values were read already)\n"
            << "outcomes:     " << s.outcomes << " (distinct final registers)\n"
            << "maximal:      " << s.events << " (maximal executions explored)\n"
            << "SMT queries:  " << s.smtQueries << " (" << s.smtSat << " sat, " << s.smtUnsat
            << " unsat, " << s.solverSeconds << " s in the solver)\n"
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

// One outcome on one line: each thread's registers (and its end state
// where it has several), then the cells.
std::string outcomeLine(const Program& p, const reach::Outcome& o,
                        const std::vector<Value>& cells) {
    std::string line;
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        const Thread& th = p.threads[t];
        line += (t == 0 ? "" : "  ") + th.name + ":";
        if (endsInSeveralStates(p, t)) {
            line += " @" + th.stateNames[o.pc[t].index()];
        }
        for (std::size_t r = 0; r < th.regCount(); ++r) {
            line += " " + th.regNames[r] + "=" + std::to_string(o.regs[t][r]);
        }
    }
    if (!cells.empty()) {
        line += "  |";
        for (Value c : cells) {
            const auto it = o.memory.find(c);
            line +=
                " " + cellName(p, c) + "=" + std::to_string(it == o.memory.end() ? 0 : it->second);
        }
    }
    return line;
}

std::string outcomesText(const OutcomesReport& r) {
    const reach::OutcomeList& l = r.list;
    const std::vector<Value> cells = outcomeCells(r.program, l, r.baseline);
    const bool counted = l.classes != reach::ExecutionClasses::FinalStates;
    std::ostringstream out;
    if (!l.complete) {
        out << "unknown: " << l.reason << "\n";
    }
    out << "outcomes under " << reach::name(r.info.model) << " (" << r.info.engine
        << "): " << l.outcomes.size() << "\n";
    std::size_t fresh = 0;
    for (const reach::Outcome& o : l.outcomes) {
        const bool positive = r.info.condition != nullptr && outcomeSatisfies(*r.info.condition, o);
        out << (positive ? "* " : "  ") << outcomeLine(r.program, o, cells);
        if (counted) {
            out << "  (" << o.executions << (o.executions == 1 ? " execution)" : " executions)");
        }
        if (o.absentFromBaseline) {
            out << "  not under " << reach::name(*r.info.diff);
            ++fresh;
        }
        out << "\n";
    }
    out << (l.complete ? "every final state found" : "the list may lack final states");
    if (l.blocked != 0) {
        out << "; " << l.blocked << (counted ? " executions" : " states") << " end blocked";
    }
    out << "\n";
    if (r.info.condition != nullptr && l.complete) {
        out << conditionSummary(*r.info.condition, r.info.model, l);
    }
    if (r.baseline != nullptr) {
        const std::string base(reach::name(*r.info.diff));
        if (!r.baseline->complete) {
            out << "not compared with " << base << ": " << r.baseline->reason << "\n";
        } else {
            out << fresh << " of " << l.outcomes.size() << " not under " << base << " ("
                << r.baseline->outcomes.size() << " outcomes under " << base << ")\n";
        }
    }
    return out.str();
}

} // namespace

namespace {

class TextFormat final : public ReportFormat {
  public:
    [[nodiscard]] std::optional<std::string> outcomes(const OutcomesReport& r) const override {
        return outcomesText(r);
    }
    [[nodiscard]] std::string_view name() const override { return "text"; }
    [[nodiscard]] std::optional<std::string> reach(const ReachReport& r) const override {
        return textReport(r.program, r.goal, r.info, r.result, r.withStats);
    }
    [[nodiscard]] std::optional<std::string> robust(const RobustReport& r) const override {
        if (const auto* a = std::get_if<robustness::RobustnessResult>(&r.outcome)) {
            return robustText(r.program, *a, r.seconds);
        }
        return exploredRobustText(r.program, r.model, r.engine,
                                  std::get<robustness::ExploredRobustness>(r.outcome));
    }
    [[nodiscard]] std::optional<std::string> fences(const FencesReport& r) const override {
        return fencesText(r.program, r.info, r.result);
    }
    [[nodiscard]] std::optional<std::string> explore(const ExploreReport& r) const override {
        return exploreText(r.info, r.result, r.traces);
    }
    [[nodiscard]] std::optional<std::string> replay(const ReplayReport& r) const override {
        if (!r.outcome.ok) {
            return "invalid: " + r.outcome.error + "\n";
        }
        return "valid: the trace replays under " + std::string(reach::name(r.model)) +
               " and the goal (" + r.goal.describe(r.program) + ") holds after step " +
               std::to_string(r.trace.goalStep) + "\n";
    }
};

} // namespace

std::unique_ptr<ReportFormat> textFormat() {
    return std::make_unique<TextFormat>();
}

std::unique_ptr<ReportFormat> outputFormat(bool json, const Warnings& warnings) {
    return json ? jsonFormat(warnings.all()) : textFormat();
}

} // namespace tsoreach::cli
