#pragma once
// Static checks that do not make a program invalid but usually mean a
// mistake, such as a goal state that no path of its thread can reach.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"

#include <string>
#include <vector>

namespace tsoreach {

struct Warning {
    SourcePos pos;
    std::string message;
};

// Control states of `t` reachable from its initial state in its control-flow
// graph (ignoring what instructions may block), indexed by StateId.
std::vector<bool> controlReachable(const Program& p, ThreadId t);

struct GoalCheck {
    // A constrained thread of a term none of whose accepted states is
    // reachable in its control-flow graph.
    std::vector<Warning> warnings;
    // Every term has such a thread: no execution under any model reaches the goal.
    bool unreachable = false;
};

GoalCheck checkGoal(const Program& p, const Goal& goal);

} // namespace tsoreach
