#include "tsoreach/robustness/happens_before.hpp"

#include "tsoreach/lang/printer.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <deque>
#include <map>
#include <sstream>

namespace tsoreach::robustness {

std::string_view name(HbEdge e) {
    switch (e) {
    case HbEdge::Po:
        return "po";
    case HbEdge::Rf:
        return "rf";
    case HbEdge::Co:
        return "co";
    case HbEdge::Fr:
        return "fr";
    }
    return "?";
}

HbGraph happensBefore(const Program& p, const reach::Trace& trace) {
    HbGraph g;
    constexpr std::size_t none = static_cast<std::size_t>(-1);
    std::vector<std::size_t> lastOfThread(p.threads.size(), none);
    // Stores of each thread not yet flushed, oldest first (TSO: one FIFO;
    // PSO traces are not handled yet).
    std::vector<std::deque<std::size_t>> pending(p.threads.size());
    std::map<Value, std::size_t> lastFlushed;            // address -> store event
    std::map<Value, std::vector<std::size_t>> waitingFr; // address -> loads awaiting next flush
    // A store reaches memory: co after the previous store there, fr after the
    // loads that read the previous value.
    auto land = [&](std::size_t store) {
        const Value a = g.events[store].addr;
        if (auto it = lastFlushed.find(a); it != lastFlushed.end()) {
            g.arcs.push_back({it->second, store, HbEdge::Co});
        }
        for (std::size_t load : waitingFr[a]) {
            g.arcs.push_back({load, store, HbEdge::Fr});
        }
        waitingFr[a].clear();
        lastFlushed[a] = store;
    };
    for (std::size_t i = 0; i < trace.steps.size(); ++i) {
        const reach::TraceStep& s = trace.steps[i];
        const std::size_t t = s.thread.index();
        if (s.kind == reach::StepKind::Flush) {
            if (!pending[t].empty()) {
                land(pending[t].front());
                pending[t].pop_front();
            }
            continue;
        }
        const InstrKind kind = p.transition(s.transition).instr.kind;
        if (!accessesMemory(kind) || !s.addr) {
            continue;
        }
        const std::size_t e = g.events.size();
        g.events.push_back({i + 1, s.thread, kind == InstrKind::Write, *s.addr});
        if (lastOfThread[t] != none) {
            g.arcs.push_back({lastOfThread[t], e, HbEdge::Po});
        }
        lastOfThread[t] = e;
        if (kind == InstrKind::Write) {
            if (trace.model == reach::MemoryModel::SC) {
                land(e); // under SC a store reaches memory when executed
            } else {
                pending[t].push_back(e);
            }
        } else if (!s.forwarded.value_or(false)) {
            if (auto it = lastFlushed.find(*s.addr); it != lastFlushed.end()) {
                g.arcs.push_back({it->second, e, HbEdge::Rf});
            }
            waitingFr[*s.addr].push_back(e);
        }
    }
    return g;
}

std::vector<HbArc> findCycle(const HbGraph& g) {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    const std::size_t n = g.events.size();
    Graph bg(n);
    std::vector<std::vector<std::size_t>> out(n); // arc indices by source
    for (std::size_t i = 0; i < g.arcs.size(); ++i) {
        boost::add_edge(g.arcs[i].from, g.arcs[i].to, bg);
        out[g.arcs[i].from].push_back(i);
    }
    std::vector<int> component(n);
    boost::strong_components(bg, boost::make_iterator_property_map(
                                     component.begin(), boost::get(boost::vertex_index, bg)));
    // Any arc inside one component lies on a cycle: close it by a shortest
    // path (BFS inside the component) from its target back to its source.
    for (const HbArc& arc : g.arcs) {
        if (component[arc.from] != component[arc.to]) {
            continue;
        }
        constexpr std::size_t none = static_cast<std::size_t>(-1);
        std::vector<std::size_t> via(n, none); // arc index that reached each event
        std::deque<std::size_t> queue{arc.to};
        std::vector<bool> seen(n, false);
        seen[arc.to] = true;
        while (!queue.empty() && !seen[arc.from]) {
            const std::size_t v = queue.front();
            queue.pop_front();
            for (std::size_t ai : out[v]) {
                const std::size_t w = g.arcs[ai].to;
                if (!seen[w] && component[w] == component[arc.from]) {
                    seen[w] = true;
                    via[w] = ai;
                    queue.push_back(w);
                }
            }
        }
        std::vector<HbArc> cycle{arc};
        std::vector<HbArc> back;
        for (std::size_t v = arc.from; v != arc.to; v = g.arcs[via[v]].from) {
            back.push_back(g.arcs[via[v]]);
        }
        cycle.insert(cycle.end(), back.rbegin(), back.rend());
        return cycle;
    }
    return {};
}

std::string toDot(const Program& p, const HbGraph& g, const std::vector<HbArc>& cycle) {
    std::ostringstream os;
    os << "digraph happens_before {\n  node [shape=box, fontname=\"monospace\"];\n";
    for (std::size_t i = 0; i < g.events.size(); ++i) {
        const HbEvent& e = g.events[i];
        os << "  e" << i << " [label=\"" << e.step << ": " << p.thread(e.thread).name << " "
           << (e.write ? "W" : "R") << " mem[" << e.addr << "]\"];\n";
    }
    auto onCycle = [&](const HbArc& a) {
        for (const HbArc& c : cycle) {
            if (c.from == a.from && c.to == a.to && c.kind == a.kind) {
                return true;
            }
        }
        return false;
    };
    for (const HbArc& a : g.arcs) {
        os << "  e" << a.from << " -> e" << a.to << " [label=\"" << name(a.kind) << "\""
           << (onCycle(a) ? ", color=red, penwidth=2" : "") << "];\n";
    }
    os << "}\n";
    return os.str();
}

} // namespace tsoreach::robustness
