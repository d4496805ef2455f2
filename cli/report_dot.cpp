// The DOT format: a robustness witness's happens-before graph, every event
// named by thread, instruction, line, cell and value, every arc, the cycle's
// in red (robust --dot); and a reachable goal's trace (reach --dot): a lane
// per thread with its steps in order, dashed edges from a store to the flush
// that takes it to memory, and a read's source (the flush or, forwarded, the
// buffered store) in blue. The other reports have no graph. Labels are
// escaped: names may hold any character DOT quotes.

#include "graphs.hpp"
#include "report.hpp"
#include "report_common.hpp"

#include "tsoreach/lang/printer.hpp"
#include "tsoreach/robustness/happens_before.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <variant>

namespace tsoreach::cli {
namespace {

// `text` as the inside of a DOT string.
std::string dotEscaped(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
        }
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

// A step's label, escaped for DOT: the step and instruction, then its effect.
std::string stepLabel(const Program& p, const reach::Trace& t, std::size_t i) {
    const reach::TraceStep& s = t.steps[i];
    std::string label = std::to_string(i + 1) + ": ";
    if (s.kind == reach::StepKind::Flush) {
        label += "flush";
    } else {
        const Transition& tr = p.transition(s.transition);
        label += printInstruction(p, tr) + " (at " + placeText(tr.pos) + ")";
    }
    const std::string what = detail::effect(p, t.model, s);
    // DOT's line break inside a label is the two characters \n.
    return dotEscaped(label) + (what.empty() ? "" : "\\n" + dotEscaped(what));
}

} // namespace

// The trace's graph: nodes s1, s2, ... in lanes (clusters) by thread.
std::string traceDot(const Program& p, const reach::Trace& t) {
    std::ostringstream out;
    out << "digraph trace {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
    for (std::size_t th = 0; th < p.threads.size(); ++th) {
        out << "  subgraph cluster_" << th << " {\n    label=\"" << dotEscaped(p.threads[th].name)
            << "\";\n";
        std::string previous;
        for (std::size_t i = 0; i < t.steps.size(); ++i) {
            if (t.steps[i].thread.index() != th) {
                continue;
            }
            const std::string node = "s" + std::to_string(i + 1);
            const std::string label = stepLabel(p, t, i); // escaped
            out << "    " << node << " [label=\"" << label << "\""
                << (i + 1 == t.goalStep ? ", penwidth=3" : "") << "];\n";
            if (!previous.empty()) {
                out << "    " << previous << " -> " << node << ";\n";
            }
            previous = node;
        }
        out << "  }\n";
    }
    // Stores to their flushes, and reads to where their values come from.
    std::map<std::pair<std::size_t, Value>, std::vector<std::size_t>> pending; // thread, addr
    std::map<Value, std::size_t> lastFlush;                                    // by address
    for (std::size_t i = 0; i < t.steps.size(); ++i) {
        const reach::TraceStep& s = t.steps[i];
        if (!s.addr) {
            continue;
        }
        const auto key = std::make_pair(std::size_t{s.thread.index()}, *s.addr);
        if (s.kind == reach::StepKind::Flush) {
            if (auto& q = pending[key]; !q.empty()) {
                out << "  s" << q.front() + 1 << " -> s" << i + 1 << " [style=dashed];\n";
                q.erase(q.begin());
            }
            lastFlush[*s.addr] = i;
        } else if (p.transition(s.transition).instr.kind == InstrKind::Write) {
            if (t.model != reach::MemoryModel::SC) {
                pending[key].push_back(i);
            } else {
                lastFlush[*s.addr] = i;
            }
        } else if (p.transition(s.transition).instr.kind == InstrKind::Read) {
            std::optional<std::size_t> from;
            if (s.forwarded && *s.forwarded && !pending[key].empty()) {
                from = pending[key].back(); // the newest buffered store
            } else if (const auto it = lastFlush.find(*s.addr); it != lastFlush.end()) {
                from = it->second;
            }
            if (from) {
                out << "  s" << *from + 1 << " -> s" << i + 1
                    << " [color=blue, constraint=false, label=\"rf\"];\n";
            }
        }
    }
    out << "}\n";
    return out.str();
}

std::vector<std::string> eventLabel(const Program& p, const reach::Trace& t,
                                    const robustness::HbEvent& e) {
    const reach::TraceStep& s = t.steps.at(e.step - 1);
    const Transition& tr = p.transition(s.transition);
    std::string access = std::string(e.write ? "W " : "R ") + detail::cellName(p, e.addr);
    if (s.value) {
        access += " = " + std::to_string(*s.value);
    }
    return {"[" + std::to_string(e.step) + "] " + p.thread(e.thread).name + ": " +
                printInstruction(p, tr) + " (at " + placeText(tr.pos) + ")",
            access};
}

bool onCycle(const robustness::HbArc& a, const std::vector<robustness::HbArc>& cycle) {
    return std::any_of(cycle.begin(), cycle.end(), [&](const robustness::HbArc& c) {
        return c.from == a.from && c.to == a.to && c.kind == a.kind;
    });
}

std::string happensBeforeDot(const Program& p, const reach::Trace& t, const robustness::HbGraph& g,
                             const std::vector<robustness::HbArc>& cycle) {
    std::ostringstream out;
    out << "digraph happens_before {\n  node [shape=box, fontname=\"monospace\"];\n";
    // A cluster per thread keeps each thread's events in a column.
    for (std::size_t th = 0; th < p.threads.size(); ++th) {
        out << "  subgraph cluster_" << th << " {\n    label=\"" << dotEscaped(p.threads[th].name)
            << "\";\n";
        for (std::size_t v = 0; v < g.events.size(); ++v) {
            if (g.events[v].thread.index() == th) {
                const std::vector<std::string> label = eventLabel(p, t, g.events[v]);
                out << "    e" << v << " [label=\"" << dotEscaped(label[0]) << "\\n"
                    << dotEscaped(label[1]) << "\"];\n";
            }
        }
        out << "  }\n";
    }
    // The cycle's arcs after the others, so that they are drawn on top.
    for (const bool red : {false, true}) {
        for (const robustness::HbArc& a : g.arcs) {
            if (onCycle(a, cycle) == red) {
                // Arcs between threads do not rank: the lanes stay side by side.
                const bool across = g.events[a.from].thread != g.events[a.to].thread;
                out << "  e" << a.from << " -> e" << a.to << " [label=\""
                    << robustness::name(a.kind) << "\""
                    << (red ? ", color=red, fontcolor=red, penwidth=2" : ", color=gray40")
                    << (across ? ", constraint=false" : "") << "];\n";
            }
        }
    }
    out << "}\n";
    return out.str();
}

namespace {

class DotFormat final : public ReportFormat {
  public:
    [[nodiscard]] std::string_view name() const override { return "dot"; }
    // The trace of a reachable goal; nothing otherwise.
    [[nodiscard]] std::optional<std::string> reach(const ReachReport& r) const override {
        if (!r.result.trace) {
            return std::nullopt;
        }
        return traceDot(r.program, *r.result.trace);
    }
    // The first witness's graph; nothing when the program is robust or the
    // answer unknown.
    [[nodiscard]] std::optional<std::string> robust(const RobustReport& r) const override {
        if (const auto* a = std::get_if<robustness::RobustnessResult>(&r.outcome)) {
            if (a->witnesses.empty()) {
                return std::nullopt;
            }
            const robustness::Witness& w = a->witnesses.front();
            return happensBeforeDot(r.program, w.trace, w.graph, w.cycle);
        }
        const auto& e = std::get<robustness::ExploredRobustness>(r.outcome);
        if (e.verdict != robustness::RobustVerdict::NotRobust) {
            return std::nullopt;
        }
        return happensBeforeDot(r.program, e.trace, e.graph, e.cycle);
    }
    [[nodiscard]] std::optional<std::string> fences(const FencesReport&) const override {
        return std::nullopt;
    }
    [[nodiscard]] std::optional<std::string> explore(const ExploreReport&) const override {
        return std::nullopt;
    }
    [[nodiscard]] std::optional<std::string> outcomes(const OutcomesReport&) const override {
        return std::nullopt;
    }
    [[nodiscard]] std::optional<std::string> replay(const ReplayReport&) const override {
        return std::nullopt;
    }
};

} // namespace

std::unique_ptr<ReportFormat> dotFormat() {
    return std::make_unique<DotFormat>();
}

} // namespace tsoreach::cli
