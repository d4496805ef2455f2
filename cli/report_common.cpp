#include "report_common.hpp"

#include "tsoreach/lang/printer.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>

namespace tsoreach::cli::detail {

using reach::StepKind;
using reach::TraceStep;

std::string kindName(const Program& p, const TraceStep& s) {
    if (s.kind == StepKind::Flush) {
        return "flush";
    }
    return std::string(keyword(p.transition(s.transition).instr.kind));
}

// What a step did, e.g. "x := 1", "mem[1] := 1" or "r := 0".
std::string effect(const Program& p, reach::MemoryModel model, const TraceStep& s) {
    auto num = [](std::optional<Value> v) { return v ? std::to_string(*v) : std::string("?"); };
    // The cell by the name its program gives it, else by its address.
    auto cell = [&](std::optional<Value> a) { return a ? p.memory.label(*a) : "mem[?]"; };
    if (s.kind == StepKind::Flush) {
        return cell(s.addr) + " := " + num(s.value);
    }
    const Transition& tr = p.transition(s.transition);
    const Thread& th = p.thread(s.thread);
    switch (tr.instr.kind) {
    case InstrKind::Read:
        return th.regNames[tr.instr.reg.index()] + " := " + num(s.value) + " (" +
               (s.forwarded.value_or(false) ? "own buffer, " : "") + cell(s.addr) + ")";
    case InstrKind::Write:
        if (reach::modelInfo(model).buffers != reach::BufferKind::None) {
            return "buffer += " + cell(s.addr) + " := " + num(s.value);
        }
        return cell(s.addr) + " := " + num(s.value);
    case InstrKind::Local:
        return th.regNames[tr.instr.reg.index()] + " := " + num(s.value);
    case InstrKind::Check:
        return "condition holds";
    case InstrKind::Lock:
        return "takes the lock";
    case InstrKind::Unlock:
        return "releases the lock";
    case InstrKind::Atomic:
        return "takes the lock without draining (atomic block)";
    case InstrKind::EndAtomic:
        return "releases the lock without draining (end of atomic block)";
    case InstrKind::LockFor:
        return "takes the lock (stores to " + cell(s.addr) + " drained)";
    case InstrKind::UnlockFor:
        return "releases the lock (stores to " + cell(s.addr) + " drained)";
    case InstrKind::Mfence:
    case InstrKind::Noop:
        break;
    }
    return "";
}

std::vector<Value> outcomeCells(const Program& p, const reach::OutcomeList& list,
                                const reach::OutcomeList* baseline) {
    std::set<Value> cells;
    for (Value a = 0; a < p.memory.end(); ++a) {
        cells.insert(a);
    }
    for (const reach::OutcomeList* l : {&list, baseline}) {
        if (l == nullptr) {
            continue;
        }
        for (const reach::Outcome& o : l->outcomes) {
            for (const auto& cell : o.memory) {
                cells.insert(cell.first);
            }
        }
    }
    return {cells.begin(), cells.end()};
}

HerdAnswer herdAnswer(const FinalCondition& c, reach::MemoryModel model, bool reachable) {
    HerdAnswer a;
    a.validated = conditionValidated(c.quantifier, reachable);
    const std::string under = " under " + std::string(reach::name(model)) + ": ";
    if (c.quantifier == Quantifier::Forall) {
        a.word = reachable ? "No" : "Ok";
        a.line = a.word + ", " + c.text + under +
                 (reachable ? "an execution ends in a final state where the formula fails"
                            : "the formula holds in every final state");
        return a;
    }
    a.word = reachable ? "Allowed" : "Forbidden";
    a.line = std::string(a.validated ? "Ok" : "No") + ", " + c.text + under +
             (reachable ? "an execution ends in a final state where the formula holds"
                        : "no execution ends in a final state where the formula holds");
    return a;
}

bool outcomeSatisfies(const FinalCondition& c, const reach::Outcome& o) {
    return formulaHolds(c, [&](const ConditionAtom& a) -> Value {
        if (a.isCell()) {
            const auto it = o.memory.find(a.addr);
            return it == o.memory.end() ? 0 : it->second;
        }
        return o.regs[a.thread.index()][a.reg.index()];
    });
}

std::string conditionSummary(const FinalCondition& c, reach::MemoryModel model,
                             const reach::OutcomeList& l) {
    std::size_t positive = 0;
    for (const reach::Outcome& o : l.outcomes) {
        positive += outcomeSatisfies(c, o) ? 1 : 0;
    }
    const std::size_t negative = l.outcomes.size() - positive;
    // The searched formula is reachable when some outcome satisfies it
    // (forall: when some outcome does not).
    const bool reachable = c.quantifier == Quantifier::Forall ? negative > 0 : positive > 0;
    const HerdAnswer a = herdAnswer(c, model, reachable);
    return "the formula holds in " + std::to_string(positive) + " of " +
           std::to_string(l.outcomes.size()) + " final states (marked *)\n" + a.word + "\n" +
           a.line + "\n";
}

std::vector<BufferView> buffersAfterSteps(const Program& p, const reach::Trace& trace) {
    std::vector<BufferView> out;
    if (reach::modelInfo(trace.model).buffers == reach::BufferKind::None) {
        return out;
    }
    BufferView now;
    now.threads.resize(p.threads.size());
    for (std::size_t i = 0; i < trace.steps.size(); ++i) {
        const reach::TraceStep& s = trace.steps[i];
        now.overtaken.clear();
        std::vector<BufferedStore>& mine = now.threads[s.thread.index()];
        if (s.kind == reach::StepKind::Flush && s.addr) {
            const auto it = std::find_if(mine.begin(), mine.end(),
                                         [&](const BufferedStore& b) { return b.addr == *s.addr; });
            now.overtaken.assign(mine.begin(), it); // none under TSO: it is the oldest
            if (it != mine.end()) {
                mine.erase(it);
            }
        } else if (s.kind == reach::StepKind::Instruction &&
                   p.transition(s.transition).instr.kind == InstrKind::Write && s.addr && s.value) {
            mine.push_back({*s.addr, *s.value, i, p.transition(s.transition).instr.joined});
        }
        out.push_back(now);
    }
    return out;
}

std::string describeBuffers(const Program& p, const BufferView& v) {
    std::string out;
    for (std::size_t t = 0; t < v.threads.size(); ++t) {
        if (v.threads[t].empty()) {
            continue;
        }
        out += (out.empty() ? "" : "; ") + p.threads[t].name + ":";
        bool joined = false; // the previous store is joined to this one
        for (const BufferedStore& b : v.threads[t]) {
            out += (joined ? "+" : " ") + p.memory.label(b.addr) + "=" + std::to_string(b.value);
            joined = b.joined;
        }
    }
    return out;
}

std::string cellName(const Program& p, Value addr) {
    return p.memory.label(addr);
}

bool endsInSeveralStates(const Program& p, std::size_t t) {
    const Thread& th = p.threads[t];
    std::size_t ends = 0;
    for (std::size_t s = 0; s < th.stateCount(); ++s) {
        ends += th.outgoingOf(StateId(static_cast<std::uint32_t>(s))).empty() ? 1 : 0;
    }
    return ends > 1;
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

// "write 1 0 (at 3:1, a -> b)"
std::string describeTransition(const Program& p, TransitionId id) {
    const Transition& tr = p.transition(id);
    const Thread& th = p.thread(tr.thread);
    return "'" + printInstruction(p, tr) + "' (at " + placeText(tr.pos) + ", " +
           th.stateNames[tr.from.index()] + " -> " + th.stateNames[tr.to.index()] + ")";
}

nlohmann::ordered_json transitionJson(const Program& p, TransitionId id) {
    const Transition& tr = p.transition(id);
    const Thread& th = p.thread(tr.thread);
    return {{"from", th.stateNames[tr.from.index()]},
            {"to", th.stateNames[tr.to.index()]},
            {"line", tr.pos.line},
            {"col", tr.pos.col},
            {"instruction", printInstruction(p, tr)}};
}

// The cycle as events, each with the edge kind to the next one.
nlohmann::ordered_json cycleJson(const Program& p, const robustness::HbGraph& graph,
                                 const std::vector<robustness::HbArc>& cycle) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const robustness::HbArc& a : cycle) {
        const robustness::HbEvent& e = graph.events[a.from];
        nlohmann::ordered_json event = {{"step", e.step},
                                        {"thread", p.thread(e.thread).name},
                                        {"kind", e.write ? "write" : "read"},
                                        {"addr", e.addr}};
        if (std::string var = p.memory.cellName(e.addr); !var.empty()) {
            event["var"] = var;
        }
        event["edge"] = robustness::name(a.kind);
        out.push_back(std::move(event));
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
            << " " << p.memory.label(e.addr) << " -" << robustness::name(a.kind) << "->";
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

SourcePos guardedPos(const Program& p, const instrument::FencePosition& f) {
    std::optional<SourcePos> first;
    for (TransitionId id : p.thread(f.thread).outgoingOf(f.state)) {
        const SourcePos pos = p.transition(id).pos;
        if (pos.line != 0 &&
            (!first || std::pair(pos.line, pos.col) < std::pair(first->line, first->col))) {
            first = pos;
        }
    }
    return first.value_or(SourcePos{});
}

const FenceSite* siteOf(const FenceInfo& info, const instrument::FencePosition& f) {
    for (const FenceSite& s : info.sites) {
        if (s.thread == f.thread && s.state == f.state) {
            return &s;
        }
    }
    return nullptr;
}

std::string fenceText(const Program& p, const FenceInfo& info, const instrument::FencePosition& f) {
    const Thread& t = p.thread(f.thread);
    const std::string& state = t.stateNames[f.state.index()];
    if (const FenceSite* s = siteOf(info, f)) {
        return info.fenceStatement + " before " + info.file + ":" + placeText(s->pos) + " in " +
               t.name + " (state " + state + ")";
    }
    return "mfence in " + t.name + " at state " + state + " (before line " +
           placeText(guardedPos(p, f)) + ")";
}

std::string positionName(const Program& p, const instrument::FencePosition& f) {
    const Thread& t = p.thread(f.thread);
    return t.name + ":" + t.stateNames[f.state.index()];
}

} // namespace tsoreach::cli::detail
