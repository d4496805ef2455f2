#include "tsoreach/lang/validate.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>

namespace tsoreach {

std::vector<bool> controlReachable(const Program& p, ThreadId t) {
    const Thread& th = p.thread(t);
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    Graph g(th.stateCount());
    for (TransitionId id : th.transitions) {
        const Transition& tr = p.transition(id);
        boost::add_edge(tr.from.index(), tr.to.index(), g);
    }
    std::vector<boost::default_color_type> color(th.stateCount(), boost::white_color);
    auto colors =
        boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, g));
    boost::breadth_first_visit(g, th.initial.index(), boost::color_map(colors));
    std::vector<bool> out(th.stateCount());
    for (std::size_t s = 0; s < out.size(); ++s) {
        out[s] = color[s] != boost::white_color;
    }
    return out;
}

std::vector<Warning> checkGoal(const Program& p, const Goal& goal) {
    std::vector<Warning> out;
    for (ThreadId t : goal.constrainedThreads()) {
        std::vector<bool> reach = controlReachable(p, t);
        bool any = false;
        for (StateId s : goal.acceptedStates(t)) {
            any = any || reach[s.index()];
        }
        if (!any) {
            const Thread& th = p.thread(t);
            out.push_back({th.pos, "no goal state of thread '" + th.name +
                                       "' is reachable from its initial state '" +
                                       th.stateNames[th.initial.index()] +
                                       "' in its control-flow graph; the goal is unreachable"});
        }
    }
    return out;
}

} // namespace tsoreach
