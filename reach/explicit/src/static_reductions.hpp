#pragma once
// Static facts behind the explicit engine's two reductions.
//
// Live registers: a register that is dead at a control state (on every path
// it is written before it is read) cannot influence the future, so states
// that differ only there are merged by storing it as 0.
//
// Partial-order reduction under SC (ample sets): in a state, a thread t may
// be expanded alone when
//   C1 its transitions at pc_t commute with everything the other threads can
//      still do: no other thread can still take a lock, t writes no address
//      another thread may still access, t reads no address another thread
//      may still write (addresses over-approximated by the value-set
//      analysis when computed);
//   C2 they are invisible: none moves t into or out of a goal state;
//   C3 none is sticky. The sticky transitions of a thread are a feedback
//      edge set of its control-flow graph, so every cycle of the reduced
//      state graph (which moves some thread around a control cycle) passes
//      through a fully expanded state. They are taken among the transitions
//      that are never ample anyway where possible, so loops whose back edge
//      is a local check still reduce.
// t must also hold no lock/unlock at pc_t, and at least one of its
// transitions must be enabled (the search falls back to full expansion).
// This preserves reachability of the goal (Clarke, Grumberg, Peled).
//
// Why C1 gives independence. Two transitions a (of t) and b (of u != t)
// are independent when, in every state where a is enabled, taking b keeps
// a enabled (and vice versa) and both orders lead to the same state. Under
// SC a transition's enabledness depends only on its thread's pc and
// registers and, for lock/unlock, the lock word; its effect changes its
// thread's pc and registers and at most one memory cell, and what it
// writes depends on its own registers and, for a read, on the cell it
// reads. So a and b, neither a lock/unlock, are independent unless one
// writes a cell the other reads or writes. C1 asks this not only of the
// transitions u has at pc_u but of every transition u can take later
// (its future, a backward fixpoint over u's control-flow graph), which is
// what ample sets need: nothing another thread does before t moves can
// depend on t's step. Lock and unlock are dependent with every step (a
// thread holding the lock stops all others), hence "no other thread can
// still take a lock".
//
// Which cells an access may touch: a constant address names one cell; a
// computed address may touch any value the value-set analysis
// (value_sets.hpp) allows it, an over-approximation valid on every
// execution under SC, TSO and PSO; when the analysis bounds it by no finite
// set it may touch every cell. The tables hold one bit per address of the
// universe (every constant address and every value of every bounded
// computed access, however many: a row has as many 64-bit words as the
// universe needs) plus bit 0 for all the cells outside the universe. An
// unbounded access sets every bit, so it conflicts with every access that
// may touch a cell it may touch: each cell of the universe has its bit and
// the cells outside it are only touched by unbounded accesses, which share
// bit 0. Two bounded accesses conflict exactly when their sets meet. A
// transition the analysis finds unreachable gets no bits: it never runs.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/lang/stop.hpp"
#include "tsoreach/reach/explicit/state_store.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace tsoreach::reach {

// By thread, by control state: the registers dead there, in index order.
// Polls `stop` once per thread and throws Stopped when it holds.
std::vector<std::vector<std::vector<std::uint32_t>>>
deadRegisters(const Program& p, const StopCondition& stop = StopCondition());

class PorTable {
  public:
    // Polls `stop` (the value-set analysis of computed addresses, the
    // memory its tables will take, each thread's pass) and throws Stopped
    // when it holds.
    PorTable(const Program& p, const Goal& goal, const StopCondition& stop = StopCondition());

    // May thread t be expanded alone in a state whose pcs are `pcs`?
    [[nodiscard]] bool ampleCandidate(std::size_t t, std::span<const StateWord> pcs) const {
        const std::size_t i = base_[t] + static_cast<std::size_t>(pcs[t]);
        if (eligible_[i] == 0) {
            return false;
        }
        const bool accesses = accesses_[i] != 0;
        for (std::size_t u = 0; u < base_.size(); ++u) {
            if (u == t) {
                continue;
            }
            const std::size_t j = base_[u] + static_cast<std::size_t>(pcs[u]);
            if (futureLock_[j] != 0) {
                return false;
            }
            if (!accesses) {
                continue;
            }
            const std::uint64_t* cr = &curRead_[i * words_];
            const std::uint64_t* cw = &curWrite_[i * words_];
            const std::uint64_t* fa = &futAccess_[j * words_];
            const std::uint64_t* fw = &futWrite_[j * words_];
            for (std::size_t k = 0; k < words_; ++k) {
                if (((cw[k] & fa[k]) | (cr[k] & fw[k])) != 0) {
                    return false;
                }
            }
        }
        return true;
    }

  private:
    std::size_t words_ = 1;              // 64-bit words per address mask
    std::vector<std::size_t> base_;      // per thread: row of its state 0
    std::vector<std::uint8_t> eligible_; // static conditions (C2, C3, no lock)
    std::vector<std::uint8_t> accesses_; // some transition at the state accesses memory
    std::vector<std::uint8_t> futureLock_;
    std::vector<std::uint64_t> curRead_, curWrite_, futAccess_, futWrite_;
};

} // namespace tsoreach::reach
