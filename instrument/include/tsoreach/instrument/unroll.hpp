#pragma once
// Loop unrolling: an acyclic program whose executions are the executions of
// p in which each thread takes at most k back edges (edges that close a
// cycle in a depth-first search of its control flow from its initial
// state). Copy c of state q stands for "q after c back edges"; copy 0 keeps
// q's name, copy c > 0 is named q~uC (more u's if p's names contain ~u). For engines that need
// acyclic programs (dpor): a goal reached in the unrolled program is reached in p; a goal not
// reached only says so for executions within the bound.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/lang/stop.hpp"

#include <string>
#include <vector>

namespace tsoreach::instrument {

struct UnrolledProgram {
    Program program;                  // copies keep p's source positions
    std::vector<TransitionId> origin; // by transition of `program`: the one of p
    // By thread, by state of `program`: the state of p it copies.
    std::vector<std::vector<StateId>> stateOrigin;
    bool cut = false; // some back edge was dropped (p had a cycle)
};

// Throws Stopped when `stop` holds before it is done.
UnrolledProgram unrollLoops(const Program& p, std::size_t k,
                            const StopCondition& stop = StopCondition());

// The goal of p on the unrolled program: every copy of an accepted state
// is accepted.
Goal unrolledGoal(const Goal& goal, const UnrolledProgram& u);

} // namespace tsoreach::instrument
