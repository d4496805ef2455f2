#include "tsoreach/instrument/unroll.hpp"

#include "tsoreach/lang/builder.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

namespace tsoreach::instrument {

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                    boost::property<boost::edge_index_t, std::size_t>>;

// Marks the edges a depth-first search from the initial state classifies as
// back edges (removing them leaves the graph acyclic).
struct BackEdges : boost::default_dfs_visitor {
    std::vector<bool>* back;
    template <class Edge, class G> void back_edge(Edge e, const G& g) const {
        (*back)[boost::get(boost::edge_index, g, e)] = true;
    }
};

// A suffix that no state name of p contains, so copies never clash.
std::string copyMarker(const Program& p) {
    std::string marker = "~u";
    for (bool clash = true; clash;) {
        clash = false;
        for (const Thread& th : p.threads) {
            for (const std::string& n : th.stateNames) {
                clash = clash || n.find(marker) != std::string::npos;
            }
        }
        if (clash) {
            marker += "u";
        }
    }
    return marker;
}

// Back edges of each transition of th, by index in th.transitions.
std::vector<bool> backEdges(const Program& p, const Thread& th) {
    Graph g(th.stateCount());
    for (std::size_t i = 0; i < th.transitions.size(); ++i) {
        const Transition& tr = p.transition(th.transitions[i]);
        boost::add_edge(tr.from.index(), tr.to.index(), i, g);
    }
    std::vector<bool> back(th.transitions.size(), false);
    std::vector<boost::default_color_type> color(th.stateCount());
    BackEdges visitor;
    visitor.back = &back;
    // From the initial state first, then from the states it does not
    // reach, so that every cycle loses an edge.
    boost::depth_first_search(g, boost::visitor(visitor)
                                     .color_map(boost::make_iterator_property_map(
                                         color.begin(), boost::get(boost::vertex_index, g)))
                                     .root_vertex(th.initial.index()));
    return back;
}

} // namespace

UnrolledProgram unrollLoops(const Program& p, std::size_t k, const StopCondition& stop) {
    StopPoll poll(stop);
    UnrolledProgram out;
    ProgramBuilder b(p.sourceName + " (unrolled " + std::to_string(k) + ")", stop);
    b.setMemory(p.memory);
    const std::string marker = copyMarker(p);
    for (const Thread& th : p.threads) {
        const std::vector<bool> back = backEdges(p, th);
        std::vector<StateId>& origin = out.stateOrigin.emplace_back();
        // Copy c of state s; a new state of the program records s.
        auto copy = [&](StateId s, std::size_t c) {
            const std::string& name = th.stateNames[s.index()];
            const StateId id = b.state(c == 0 ? name : name + marker + std::to_string(c));
            if (id.index() == origin.size()) {
                origin.push_back(s);
            }
            return id;
        };
        b.addThread(th.name, th.stateNames[th.initial.index()], th.pos);
        origin.push_back(th.initial);
        for (StateId f : th.finals) {
            for (std::size_t c = 0; c <= k; ++c) {
                b.addFinal(copy(f, c));
            }
        }
        for (std::size_t c = 0; c <= k; ++c) {
            poll.throwIfStopped(); // k copies each: --unroll can be large
            for (std::size_t i = 0; i < th.transitions.size(); ++i) {
                const Transition& tr = p.transition(th.transitions[i]);
                const std::size_t to = back[i] ? c + 1 : c;
                if (to > k) {
                    out.cut = true;
                    continue;
                }
                const StateId from = copy(tr.from, c);
                b.addTransition(from, copy(tr.to, to), b.copy(p, tr), tr.pos);
                out.origin.push_back(th.transitions[i]);
            }
        }
    }
    out.program = b.build();
    return out;
}

Goal unrolledGoal(const Goal& goal, const UnrolledProgram& u) {
    Goal g(u.program);
    for (std::size_t i = 0; i < goal.termCount(); ++i) {
        if (i > 0) {
            g.addTerm();
        }
        for (ThreadId t : goal.termThreads(i)) {
            g.constrain(t);
            const std::vector<StateId>& origin = u.stateOrigin[t.index()];
            for (std::size_t s = 0; s < origin.size(); ++s) {
                if (goal.termAccepts(i, t, origin[s])) {
                    g.accept(t, StateId(static_cast<std::uint32_t>(s)));
                }
            }
        }
    }
    return g;
}

} // namespace tsoreach::instrument
