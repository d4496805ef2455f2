#include "tsoreach/instrument/unroll.hpp"

#include "tsoreach/lang/parser.hpp"
#include "tsoreach/lang/printer.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

#include <map>

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

} // namespace

UnrolledProgram unrollLoops(const Program& p, std::size_t k, const StopCondition& stop) {
    StopPoll poll(stop);
    UnrolledProgram out;
    const std::string marker = copyMarker(p);
    auto copyName = [&](const std::string& state, std::size_t c) {
        return c == 0 ? state : state + marker + std::to_string(c);
    };
    std::vector<std::map<std::string, StateId>> originOfName(p.threads.size());
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        const Thread& th = p.threads[t];
        for (std::size_t s = 0; s < th.stateCount(); ++s) {
            poll.throwIfStopped(); // k copies each: --unroll can be large
            for (std::size_t c = 0; c <= k; ++c) {
                originOfName[t][copyName(th.stateNames[s], c)] =
                    StateId(static_cast<std::uint32_t>(s));
            }
        }
    }
    for (const Thread& th : p.threads) {
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
        out.text += "thread " + th.name + "\ninitial " + th.stateNames[th.initial.index()] + "\n";
        for (StateId f : th.finals) {
            for (std::size_t c = 0; c <= k; ++c) {
                out.text += "final " + copyName(th.stateNames[f.index()], c) + "\n";
            }
        }
        for (std::size_t c = 0; c <= k; ++c) {
            poll.throwIfStopped();
            for (std::size_t i = 0; i < th.transitions.size(); ++i) {
                const Transition& tr = p.transition(th.transitions[i]);
                const std::size_t to = back[i] ? c + 1 : c;
                if (to > k) {
                    out.cut = true;
                    continue;
                }
                out.text += "transition " + copyName(th.stateNames[tr.from.index()], c) + " " +
                            copyName(th.stateNames[tr.to.index()], to) + " " +
                            printInstruction(p, tr) + "\n";
                out.origin.push_back(th.transitions[i]);
            }
        }
        out.text += "end\n";
    }
    out.program =
        parseProgram(out.text, p.sourceName + " (unrolled " + std::to_string(k) + ")", stop);
    // The parser numbers transitions in the order of the text, thread by
    // thread, as they were written.
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        std::vector<StateId>& origin = out.stateOrigin.emplace_back();
        for (const std::string& n : out.program.threads[t].stateNames) {
            origin.push_back(originOfName[t].at(n));
        }
    }
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
