#pragma once
// Control-flow cycles of threads: a fence on a cycle may run many times, and
// a cyclic program is where semi-decision procedures (the lazy loop) may not
// converge.

#include "tsoreach/lang/program.hpp"

#include <vector>

namespace tsoreach {

// By thread, by control state: true when the state lies on a cycle of its
// thread's control-flow graph (a self-loop counts).
std::vector<std::vector<bool>> statesOnCycles(const Program& p);

// True when some thread's control-flow graph has a cycle.
bool hasControlCycle(const Program& p);

// The first joined write (joinwrite) of p, if any: engines without its
// semantics refuse such programs.
const Transition* firstJoinedWrite(const Program& p);

// By thread, by control state: true when the state can be reached from the
// target of a `lock` without crossing an `unlock` (the thread may hold the
// lock there).
std::vector<std::vector<bool>> statesMayHoldLock(const Program& p);

} // namespace tsoreach
