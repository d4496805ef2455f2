#pragma once
// Static checks: what makes a built program invalid (checkWellFormed), and
// what does not make a program invalid but usually means a mistake, such as
// a goal state that no path of its thread can reach.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"

#include <string>
#include <vector>

namespace tsoreach {

// What the parser checks while it reads, for programs built otherwise
// (builder.hpp): at least one thread, distinct thread names, names that are
// tokens (printable ASCII without '#'), registers that are register tokens and
// not keywords, and ids within their 32 bits. So a built program prints as
// text that parses back to it. Throws InputError naming the thread.
void checkWellFormed(const Program& p);

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
