// The JSON reports (docs/json.md), for scripts.

#include "diagnostics.hpp"
#include "report.hpp"
#include "report_common.hpp"

#include "tsoreach/lang/printer.hpp"

#include <nlohmann/json.hpp>

#include <variant>

namespace tsoreach::cli {

using namespace detail;
using reach::StepKind;
using reach::TraceStep;

namespace {

// A thread's buffered stores, oldest first.
nlohmann::ordered_json storesJson(const Program& p, const std::vector<BufferedStore>& stores) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const BufferedStore& b : stores) {
        nlohmann::ordered_json one = {{"addr", b.addr}};
        if (std::string var = p.memory.cellName(b.addr); !var.empty()) {
            one["var"] = var;
        }
        one["value"] = b.value;
        out.push_back(one);
    }
    return out;
}

} // namespace

nlohmann::ordered_json traceJson(const Program& p, const reach::Trace& trace) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    const std::vector<BufferView> buffers = buffersAfterSteps(p, trace);
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
            step["col"] = tr.pos.col;
            if (tr.instr.reg.valid()) {
                step["reg"] = th.regNames[tr.instr.reg.index()];
            }
        }
        if (s.addr) {
            step["addr"] = *s.addr;
            if (std::string var = p.memory.cellName(*s.addr); !var.empty()) {
                step["var"] = var; // the cell's name in the program, e.g. "flag[1]"
            }
        }
        if (s.value) {
            step["value"] = *s.value;
        }
        if (s.forwarded) {
            step["source"] = *s.forwarded ? "buffer" : "memory";
        }
        if (!buffers.empty()) { // after the step (n counts it already)
            const BufferView& v = buffers[n - 1];
            nlohmann::ordered_json threads = nlohmann::ordered_json::object();
            for (std::size_t t = 0; t < v.threads.size(); ++t) {
                if (!v.threads[t].empty()) {
                    threads[p.threads[t].name] = storesJson(p, v.threads[t]);
                }
            }
            step["buffers"] = threads;
            if (!v.overtaken.empty()) {
                step["overtakes"] = storesJson(p, v.overtaken);
            }
        }
        out.push_back(step);
    }
    return out;
}

namespace {

nlohmann::ordered_json jsonReport(const Program& p, const Goal& g, const RunInfo& info,
                                  const reach::Result& r) {
    nlohmann::ordered_json j = jsonHeader(info.command);
    j["file"] = info.file;
    j["model"] = reach::name(info.model);
    j["engine"] = info.engine;
    j["search"] = reach::name(info.options.search);
    if (reach::modelInfo(info.model).buffers != reach::BufferKind::None) {
        j["buffer_bound"] = info.options.bufferBound;
    }
    j["reductions"] = {{"por", info.options.partialOrder},
                       {"live", info.options.liveRegisters},
                       {"merge_stores", info.options.mergeStores}};
    j["verdict"] = reach::name(r.verdict);
    if (r.verdict == reach::Verdict::Unknown) {
        j["reason"] = r.reason;
    }
    if (info.condition != nullptr) {
        j["condition"] = {{"text", info.condition->text}};
        if (r.verdict != reach::Verdict::Unknown) {
            const detail::HerdAnswer a = detail::herdAnswer(*info.condition, info.model,
                                                            r.verdict == reach::Verdict::Reachable);
            j["condition"]["answer"] = a.word;
            j["condition"]["validated"] = a.validated;
        }
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
    return j;
}

nlohmann::ordered_json replayJson(const std::string& file, const std::string& traceFile,
                                  reach::MemoryModel model, const Goal& g, const Program& p,
                                  const reach::Trace& trace, const reach::ReplayOutcome& outcome) {
    nlohmann::ordered_json j = jsonHeader("replay");
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
    return j;
}

nlohmann::ordered_json exploredRobustJson(const Program& p, const std::string& file,
                                          const std::string& model, const std::string& engine,
                                          const robustness::ExploredRobustness& r) {
    nlohmann::ordered_json j = jsonHeader("robust");
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
    return j;
}

nlohmann::ordered_json robustJson(const Program& p, const RobustReport& report,
                                  const robustness::RobustnessResult& r) {
    nlohmann::ordered_json j = jsonHeader("robust");
    j["file"] = report.file;
    j["model"] = report.model;
    j["engine"] = report.engine;
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
                  {"time_s", report.seconds},
                  {"peak_rss_mb", reach::processPeakRssMb()}};
    return j;
}

nlohmann::ordered_json fencesJson(const Program& p, const FenceInfo& info,
                                  const robustness::FenceResult& r) {
    nlohmann::ordered_json j = jsonHeader("fences");
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
        nlohmann::ordered_json fence = {{"thread", p.thread(f.thread).name},
                                        {"state", p.thread(f.thread).stateNames[f.state.index()]},
                                        {"line", guardedPos(p, f).line},
                                        {"col", guardedPos(p, f).col},
                                        {"cuts", cuts}};
        if (const FenceSite* s = siteOf(info, f)) {
            fence["insert"] = {
                {"line", s->pos.line}, {"col", s->pos.col}, {"statement", info.fenceStatement}};
        }
        fences.push_back(std::move(fence));
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
    if (!info.applied.empty()) {
        j["applied"] = info.applied;
    }
    if (r.outcome == robustness::FenceOutcome::Impossible && !r.scTrace.steps.empty()) {
        j["sc_trace"] = traceJson(p, r.scTrace);
    }
    j["stats"] = {{"rounds", r.rounds},
                  {"checks", r.checks},
                  {"states", r.scStates},
                  {"time_s", info.seconds},
                  {"peak_rss_mb", reach::processPeakRssMb()}};
    return j;
}

nlohmann::ordered_json exploreJson(const ExploreInfo& info, const reach::ExploreResult& r) {
    nlohmann::ordered_json j = jsonHeader("explore");
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
    if (r.classes == reach::ExecutionClasses::Values) {
        j["stats"]["smt_queries"] = r.stats.smtQueries;
        j["stats"]["smt_sat"] = r.stats.smtSat;
        j["stats"]["smt_unsat"] = r.stats.smtUnsat;
        j["stats"]["solver_s"] = r.stats.solverSeconds;
    }
    return j;
}

nlohmann::ordered_json outcomeJson(const Program& p, const reach::Outcome& o,
                                   const std::vector<Value>& cells, bool counted, bool diff) {
    nlohmann::ordered_json j;
    nlohmann::ordered_json threads = nlohmann::ordered_json::object();
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        const Thread& th = p.threads[t];
        nlohmann::ordered_json regs = nlohmann::ordered_json::object();
        for (std::size_t r = 0; r < th.regCount(); ++r) {
            regs[th.regNames[r]] = o.regs[t][r];
        }
        threads[th.name] = {{"state", th.stateNames[o.pc[t].index()]}, {"registers", regs}};
    }
    j["threads"] = threads;
    nlohmann::ordered_json memory = nlohmann::ordered_json::array();
    for (Value c : cells) {
        const auto it = o.memory.find(c);
        nlohmann::ordered_json cell = {{"addr", c}};
        if (std::string var = p.memory.cellName(c); !var.empty()) {
            cell["var"] = var; // as in a trace step: only a declared cell has one
        }
        cell["value"] = it == o.memory.end() ? 0 : it->second;
        memory.push_back(cell);
    }
    j["memory"] = memory;
    if (counted) {
        j["executions"] = o.executions;
    }
    if (diff) {
        j["new"] = o.absentFromBaseline;
    }
    return j;
}

nlohmann::ordered_json outcomesJson(const OutcomesReport& r) {
    const reach::OutcomeList& l = r.list;
    const std::vector<Value> cells = outcomeCells(r.program, l, r.baseline);
    const bool counted = l.classes != reach::ExecutionClasses::FinalStates;
    const bool compared = r.baseline != nullptr && r.baseline->complete;
    nlohmann::ordered_json j = jsonHeader("outcomes");
    j["file"] = r.info.file;
    j["model"] = reach::name(r.info.model);
    j["engine"] = r.info.engine;
    j["complete"] = l.complete;
    if (!l.complete) {
        j["reason"] = l.reason;
    }
    j["counts"] = counted ? "executions" : "none";
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    std::size_t positive = 0;
    for (const reach::Outcome& o : l.outcomes) {
        list.push_back(outcomeJson(r.program, o, cells, counted, compared));
        if (r.info.condition != nullptr) {
            const bool holds = outcomeSatisfies(*r.info.condition, o);
            list.back()["condition"] = holds;
            positive += holds ? 1 : 0;
        }
    }
    j["outcomes"] = list;
    if (const FinalCondition* c = r.info.condition) {
        const std::size_t negative = l.outcomes.size() - positive;
        j["condition"] = {{"text", c->text}, {"positive", positive}, {"negative", negative}};
        if (l.complete) {
            const HerdAnswer a =
                herdAnswer(*c, r.info.model,
                           c->quantifier == Quantifier::Forall ? negative > 0 : positive > 0);
            j["condition"]["answer"] = a.word;
            j["condition"]["validated"] = a.validated;
        }
    }
    j["blocked"] = l.blocked;
    if (r.baseline != nullptr) {
        j["diff"] = {{"model", reach::name(*r.info.diff)},
                     {"complete", r.baseline->complete},
                     {"outcomes", r.baseline->outcomes.size()}};
        if (!r.baseline->complete) {
            j["diff"]["reason"] = r.baseline->reason;
        }
    }
    j["time_s"] = l.seconds;
    return j;
}

} // namespace

namespace {

class JsonFormat final : public ReportFormat {
  public:
    explicit JsonFormat(std::vector<FileWarning> warnings) : warnings_(std::move(warnings)) {}
    [[nodiscard]] std::optional<std::string> outcomes(const OutcomesReport& r) const override {
        return finish(outcomesJson(r));
    }
    [[nodiscard]] std::string_view name() const override { return "json"; }
    [[nodiscard]] std::optional<std::string> reach(const ReachReport& r) const override {
        return finish(jsonReport(r.program, r.goal, r.info, r.result));
    }
    [[nodiscard]] std::optional<std::string> robust(const RobustReport& r) const override {
        if (const auto* a = std::get_if<robustness::RobustnessResult>(&r.outcome)) {
            return finish(robustJson(r.program, r, *a));
        }
        return finish(exploredRobustJson(r.program, r.file, r.model, r.engine,
                                         std::get<robustness::ExploredRobustness>(r.outcome)));
    }
    [[nodiscard]] std::optional<std::string> fences(const FencesReport& r) const override {
        return finish(fencesJson(r.program, r.info, r.result));
    }
    [[nodiscard]] std::optional<std::string> explore(const ExploreReport& r) const override {
        return finish(exploreJson(r.info, r.result));
    }
    [[nodiscard]] std::optional<std::string> replay(const ReplayReport& r) const override {
        return finish(
            replayJson(r.file, r.traceFile, r.model, r.goal, r.program, r.trace, r.outcome));
    }

  private:
    // Every report ends with the run's warnings.
    std::string finish(nlohmann::ordered_json j) const {
        j["warnings"] = warningsJson(warnings_);
        return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }

    std::vector<FileWarning> warnings_;
};

} // namespace

std::unique_ptr<ReportFormat> jsonFormat(std::vector<FileWarning> warnings) {
    return std::make_unique<JsonFormat>(std::move(warnings));
}

} // namespace tsoreach::cli
