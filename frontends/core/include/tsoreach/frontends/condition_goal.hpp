#pragma once
// The goal of a final condition (lang/condition.hpp): a program and a goal
// whose reachable goal states are exactly the final states where the
// searched formula holds (searchedTerms: the formula for exists/~exists,
// its negation for forall).
//
// The construction. Let D = t_1 \/ ... \/ t_m be the searched DNF. Every
// thread keeps its transitions; at each of its end states e (no outgoing
// transition) it may take, for each term t_k that has atoms of its
// registers, a transition `check <those atoms>` to a new state e.k. When
// some atom reads a memory cell, each thread first does `mfence` and
// `write 1 done.T` at e (both to new states), and an observer thread reads
// each done flag (`check == d 1`: a read that comes too early blocks, so
// only executions where every thread has finished go on), then each cell of
// the atoms, and branches the same way on the cell atoms. Term k of the goal
// asks every thread to be in one of its states e.k (atoms in t_k) or at its
// last state (e, or after the done flag); the observer likewise.
// Why it is exact: registers are final once a thread is at an end state;
// the done flag of T reaches memory after all of T's stores (the mfence),
// so when the observer has seen every flag no store is buffered anywhere
// and no thread writes again: it reads the final memory. Conversely any
// final state extends to one of these states (flush every buffer, let the
// observer run). A buffered store at a goal state changes neither. So a goal
// state is reachable iff a final state satisfies some t_k, under every
// memory model whose fences drain a thread's stores. An unsatisfiable
// searched formula (no term) gets one term whose branch of the first thread
// is `check 0`: a goal state no execution reaches.

#include "tsoreach/frontends/front_end.hpp"

namespace tsoreach {

// At most this many terms (larger conditions are an input error).
inline constexpr std::size_t kMaxConditionTerms = 4096;

// `in` with its condition made the goal: the program above, `goal` set;
// `in` itself when it has no condition. Throws InputError at the condition
// when its DNF has more than kMaxConditionTerms terms.
LoadedProgram withConditionGoal(const LoadedProgram& in);

// The goal as --goal options ("--goal P0=end.1,P1=end.1 --goal ..."), for
// a translation's comments.
std::string goalOptions(const Program& p, const Goal& g);

} // namespace tsoreach
