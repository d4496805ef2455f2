#include "tsoreach/robustness/happens_before.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <algorithm>
#include <deque>
#include <map>

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
    case HbEdge::Atomic:
        return "atomic";
    }
    return "?";
}

HbGraph happensBefore(const Program& p, const reach::Trace& trace) {
    HbGraph g;
    constexpr std::size_t none = static_cast<std::size_t>(-1);
    std::vector<std::size_t> lastOfThread(p.threads.size(), none);
    std::vector<bool> inBlock(p.threads.size(), false);
    std::vector<std::size_t> lastInBlock(p.threads.size(), none);
    // Stores of each thread not yet flushed, oldest first (under PSO a
    // flush names its address).
    std::vector<std::deque<std::size_t>> pending(p.threads.size());
    std::map<Value, std::size_t> lastFlushed;            // address -> store event
    std::map<Value, std::vector<std::size_t>> waitingFr; // address -> loads awaiting next flush
    std::map<std::size_t, std::vector<std::size_t>> forwardedFrom; // buffered store -> its loads
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
        // Loads that read this store from their own buffer observe memory
        // from now on: the next store to land here overwrites their value.
        if (auto it = forwardedFrom.find(store); it != forwardedFrom.end()) {
            waitingFr[a] = std::move(it->second);
            forwardedFrom.erase(it);
        }
    };
    for (std::size_t i = 0; i < trace.steps.size(); ++i) {
        const reach::TraceStep& s = trace.steps[i];
        const std::size_t t = s.thread.index();
        if (s.kind == reach::StepKind::Flush) {
            // TSO: the oldest store; PSO: the oldest to the flush's address.
            std::deque<std::size_t>& q = pending[t];
            auto it = q.begin();
            if (s.addr) {
                it = std::find_if(q.begin(), q.end(),
                                  [&](std::size_t st) { return g.events[st].addr == *s.addr; });
            }
            if (it != q.end()) {
                land(*it);
                q.erase(it);
            }
            continue;
        }
        const InstrKind kind = p.transition(s.transition).instr.kind;
        if (takesLock(kind) || releasesLock(kind)) {
            inBlock[t] = takesLock(kind);
            lastInBlock[t] = none;
            continue;
        }
        if (!accessesMemory(kind) || !s.addr) {
            continue;
        }
        const std::size_t e = g.events.size();
        g.events.push_back({i + 1, s.thread, kind == InstrKind::Write, *s.addr});
        if (lastOfThread[t] != none) {
            g.arcs.push_back({lastOfThread[t], e, HbEdge::Po});
        }
        lastOfThread[t] = e;
        if (inBlock[t]) {
            if (lastInBlock[t] != none) {
                g.arcs.push_back({e, lastInBlock[t], HbEdge::Atomic});
            }
            lastInBlock[t] = e;
        }
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
        } else {
            // Read from the newest buffered store of its own to the address
            // (rf is po, already an arc); fr follows when that store lands.
            const std::deque<std::size_t>& q = pending[t];
            for (auto it = q.rbegin(); it != q.rend(); ++it) {
                if (g.events[*it].addr == *s.addr) {
                    forwardedFrom[*it].push_back(e);
                    break;
                }
            }
        }
    }
    return g;
}

std::vector<HbArc> findCycle(const HbGraph& g) {
    const std::size_t n = g.events.size();
    // The events of one locked block form one node (joined by Atomic arcs).
    std::vector<std::size_t> unit(n);
    for (std::size_t v = 0; v < n; ++v) {
        unit[v] = v;
    }
    auto find = [&](std::size_t v) {
        while (unit[v] != v) {
            v = unit[v] = unit[unit[v]];
        }
        return v;
    };
    for (const HbArc& a : g.arcs) {
        if (a.kind == HbEdge::Atomic) {
            unit[find(a.from)] = find(a.to);
        }
    }
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    Graph bg(n);
    std::vector<std::vector<std::size_t>> out(n); // arc indices by source unit
    for (std::size_t i = 0; i < g.arcs.size(); ++i) {
        const HbArc& a = g.arcs[i];
        if (find(a.from) != find(a.to)) {
            boost::add_edge(find(a.from), find(a.to), bg);
            out[find(a.from)].push_back(i);
        }
    }
    std::vector<int> component(n);
    boost::strong_components(bg, boost::make_iterator_property_map(
                                     component.begin(), boost::get(boost::vertex_index, bg)));
    // An arc between two units of one component lies on a cycle: close it
    // by a shortest path (BFS inside the component) back to its source unit.
    for (const HbArc& arc : g.arcs) {
        const std::size_t src = find(arc.from);
        const std::size_t dst = find(arc.to);
        if (src == dst || component[src] != component[dst]) {
            continue;
        }
        constexpr std::size_t none = static_cast<std::size_t>(-1);
        std::vector<std::size_t> via(n, none); // arc index that reached each unit
        std::vector<bool> seen(n, false);
        std::deque<std::size_t> queue{dst};
        seen[dst] = true;
        while (!queue.empty() && !seen[src]) {
            const std::size_t v = queue.front();
            queue.pop_front();
            for (std::size_t ai : out[v]) {
                const std::size_t w = find(g.arcs[ai].to);
                if (!seen[w] && component[w] == component[src]) {
                    seen[w] = true;
                    via[w] = ai;
                    queue.push_back(w);
                }
            }
        }
        std::vector<HbArc> path{arc};
        std::vector<HbArc> back;
        for (std::size_t v = src; v != dst; v = find(g.arcs[via[v]].from)) {
            back.push_back(g.arcs[via[v]]);
        }
        path.insert(path.end(), back.rbegin(), back.rend());
        // Inside a block, step from the event entered to the event left.
        std::vector<HbArc> cycle;
        for (std::size_t k = 0; k < path.size(); ++k) {
            cycle.push_back(path[k]);
            const HbArc& nextArc = path[(k + 1) % path.size()];
            if (path[k].to != nextArc.from) {
                cycle.push_back({path[k].to, nextArc.from, HbEdge::Atomic});
            }
        }
        return cycle;
    }
    return {};
}

} // namespace tsoreach::robustness
