#include "tsoreach/lang/control_flow.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/strong_components.hpp>

#include <algorithm>

namespace tsoreach {

namespace {

// Sets the flag of every vertex a search discovers.
struct DiscoverMarker : boost::default_bfs_visitor {
    std::vector<bool>* seen;
    template <class Vertex, class Graph> void discover_vertex(Vertex v, const Graph&) const {
        (*seen)[v] = true;
    }
};

} // namespace

std::vector<std::vector<bool>> statesOnCycles(const Program& p) {
    std::vector<std::vector<bool>> out;
    for (const Thread& th : p.threads) {
        using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
        Graph g(th.stateCount());
        std::vector<bool> selfLoop(th.stateCount(), false);
        for (TransitionId id : th.transitions) {
            const Transition& tr = p.transition(id);
            boost::add_edge(tr.from.index(), tr.to.index(), g);
            if (tr.from == tr.to) {
                selfLoop[tr.from.index()] = true;
            }
        }
        std::vector<std::size_t> component(th.stateCount());
        const std::size_t count =
            boost::strong_components(g, boost::make_iterator_property_map(
                                            component.begin(), boost::get(boost::vertex_index, g)));
        std::vector<std::size_t> size(count, 0);
        for (std::size_t c : component) {
            ++size[c];
        }
        std::vector<bool> cyc(th.stateCount());
        for (std::size_t s = 0; s < th.stateCount(); ++s) {
            cyc[s] = selfLoop[s] || size[component[s]] > 1;
        }
        out.push_back(std::move(cyc));
    }
    return out;
}

const Transition* firstJoinedWrite(const Program& p) {
    for (const Transition& tr : p.transitions) {
        if (tr.instr.kind == InstrKind::Write && tr.instr.joined) {
            return &tr;
        }
    }
    return nullptr;
}

bool hasControlCycle(const Program& p) {
    const std::vector<std::vector<bool>> cyc = statesOnCycles(p);
    return std::any_of(cyc.begin(), cyc.end(), [](const std::vector<bool>& states) {
        return std::find(states.begin(), states.end(), true) != states.end();
    });
}

std::vector<std::vector<bool>> statesMayHoldLock(const Program& p) {
    std::vector<std::vector<bool>> out;
    for (const Thread& th : p.threads) {
        // Vertex n is a source joined to every lock's target.
        const std::size_t n = th.stateCount();
        using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
        Graph g(n + 1);
        for (TransitionId id : th.transitions) {
            const Transition& tr = p.transition(id);
            if (tr.instr.kind == InstrKind::Lock) {
                boost::add_edge(n, tr.to.index(), g);
            }
            if (tr.instr.kind != InstrKind::Unlock) {
                boost::add_edge(tr.from.index(), tr.to.index(), g);
            }
        }
        std::vector<bool> held(n + 1, false);
        boost::breadth_first_search(g, n, boost::visitor(DiscoverMarker{{}, &held}));
        held.pop_back(); // the source
        out.push_back(std::move(held));
    }
    return out;
}

} // namespace tsoreach
