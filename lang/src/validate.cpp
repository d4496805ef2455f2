#include "tsoreach/lang/validate.hpp"

#include "tsoreach/lang/suggest.hpp"
#include "tsoreach/lang/tokens.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>

#include <unordered_set>

namespace tsoreach {

namespace {

void checkThread(const Program& p, const Thread& t) {
    auto fail = [&](const std::string& what) {
        throw InputError(p.sourceName, t.pos, "thread '" + t.name + "': " + what);
    };
    if (!detail::isNameToken(t.name)) {
        fail("the thread name is not a token");
    }
    if (t.stateCount() >= Id<void>::invalidValue || t.regCount() >= Id<void>::invalidValue) {
        fail("too many states or registers");
    }
    for (const std::string& s : t.stateNames) {
        if (!detail::isNameToken(s)) {
            fail("state name '" + s + "' is not a token");
        }
    }
    for (const std::string& r : t.regNames) {
        if (!detail::isRegisterToken(r)) {
            fail("register name '" + r + "' is not a register token");
        }
    }
}

} // namespace

void checkWellFormed(const Program& p) {
    if (p.threads.empty()) {
        throw InputError(p.sourceName, {}, "empty program: expected at least one 'thread'");
    }
    if (p.threads.size() >= Id<void>::invalidValue ||
        p.transitions.size() >= Id<void>::invalidValue ||
        p.exprPool.size() >= Id<void>::invalidValue) {
        throw InputError(p.sourceName, {}, "too many threads, transitions or expression nodes");
    }
    std::unordered_set<std::string_view> names;
    for (const Thread& t : p.threads) {
        if (!names.insert(t.name).second) {
            throw InputError(p.sourceName, t.pos, "duplicate thread name '" + t.name + "'");
        }
        checkThread(p, t);
    }
    checkMemoryWellFormed(p);
}

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

GoalCheck checkGoal(const Program& p, const Goal& goal) {
    GoalCheck check;
    std::vector<Warning>& out = check.warnings;
    std::size_t deadTerms = 0;
    for (std::size_t i = 0; i < goal.termCount(); ++i) {
        bool dead = false;
        for (ThreadId t : goal.termThreads(i)) {
            std::vector<bool> reach = controlReachable(p, t);
            bool any = false;
            for (StateId s : goal.termAcceptedStates(i, t)) {
                any = any || reach[s.index()];
            }
            if (!any) {
                dead = true;
                const Thread& th = p.thread(t);
                const bool several = goal.termCount() > 1;
                out.push_back({th.pos, "no goal state of thread '" + th.name +
                                           "' is reachable from its initial state '" +
                                           th.stateNames[th.initial.index()] +
                                           "' in its control-flow graph; the goal" +
                                           (several ? " term " + std::to_string(i + 1) : "") +
                                           " is unreachable"});
            }
        }
        deadTerms += dead ? 1 : 0;
    }
    check.unreachable = deadTerms == goal.termCount();
    return check;
}

std::vector<bool> mentionedStates(const Program& p, ThreadId t) {
    const Thread& th = p.thread(t);
    std::vector<bool> out(th.stateCount(), false);
    out[th.initial.index()] = true;
    for (TransitionId id : th.transitions) {
        out[p.transition(id).from.index()] = true;
        out[p.transition(id).to.index()] = true;
    }
    return out;
}

std::string notAStateDetail(const Program& p, ThreadId t, std::string_view name) {
    const Thread& th = p.thread(t);
    const std::vector<bool> mentioned = mentionedStates(p, t);
    std::vector<std::string> states;
    for (std::size_t s = 0; s < th.stateCount(); ++s) {
        if (mentioned[s]) {
            states.push_back(th.stateNames[s]);
        }
    }
    std::string out = "(its states: " + nameList(states) + ")";
    if (std::optional<std::string> close = closestName(name, states)) {
        out += "; did you mean '" + *close + "'?";
    }
    return out;
}

namespace {

// Where a message about goal state s of thread t points.
SourcePos goalStatePos(const Thread& t, StateId s, GoalOrigin origin) {
    if (origin != GoalOrigin::CommandLine) {
        for (std::size_t i = 0; i < t.finals.size() && i < t.finalPos.size(); ++i) {
            if (t.finals[i] == s && t.finalPos[i].line != 0) {
                return t.finalPos[i];
            }
        }
    }
    return t.pos;
}

} // namespace

std::vector<Warning> unmentionedGoalStates(const Program& p, const Goal& goal, GoalOrigin origin) {
    std::vector<Warning> out;
    for (ThreadId t : goal.constrainedThreads()) {
        const Thread& th = p.thread(t);
        const std::vector<bool> mentioned = mentionedStates(p, t);
        for (StateId s : goal.acceptedStates(t)) {
            if (mentioned[s.index()]) {
                continue;
            }
            const std::string& name = th.stateNames[s.index()];
            const char* what = origin == GoalOrigin::Finals ? "final state '" : "goal state '";
            out.push_back({goalStatePos(th, s, origin),
                           what + name + "' of thread '" + th.name + "'" +
                               (origin == GoalOrigin::CommandLine ? " (--goal)" : "") +
                               " is not a state of the thread: no transition enters or leaves "
                               "it " +
                               notAStateDetail(p, t, name)});
        }
    }
    return out;
}

} // namespace tsoreach
