#pragma once
// An mfence right after an unlock that drained the thread's buffers is a
// no-op: the step that takes it only moves the thread's pc. The .rmm front
// end writes one after every locked write (`lockfor x; write; unlockfor x;
// mfence`, docs/rmm.md), and its control state multiplies the states of
// every search (Cubicle-W mutex_8.rmm under TSO: 4.2 M states with it,
// 0.72 M without). This pass skips it; the explicit engine (every model,
// `drains` as below) and the lazy engine (TSO) run it.
//
// Which unlocks drain: `unlock` needs every buffer of its thread empty
// under every model (docs/language.md); `unlockfor A` needs only A's FIFO
// empty, which under SC and TSO is every buffer (the caller says so with
// UnlockDrains::UnlockAndUnlockFor) but under PSO is not.
//
// The rewrite. Let e be a draining unlock of thread t into a state q1 that
// is not t's initial state, whose only outgoing transition is f = `q1 -> q2
// mfence` with q2 != q1, and which the goal does not tell from q2 (every
// term accepts both or neither). Then e is redirected to q2. Ids of
// transitions and states are kept (q1 keeps f, for its other ways in).
//
// Why it is exact (same goal reachability, and traces map back). When e
// brings t to q1 its buffers are empty, and only t's own stores fill them,
// so they stay empty while t waits in q1: f is enabled whenever t may move
// and changes nothing but t's pc. (1) A trace of the result is one of the
// original with f's step inserted right after each step of a redirected e:
// the two steps lead to the state the redirected step leads to. (2) In a
// trace of the original that reaches the goal, move the f step that follows
// each e step back to right after it: the steps between are other
// threads' (t sits in q1, whose only way out is f), which do not read t's
// pc, and f neither reads nor writes what they touch (the lock, memory,
// their buffers); the states between differ only in t being in q2 instead
// of q1, which the goal does not tell apart. An e step that f does not
// follow before the goal likewise becomes the redirected step. Merging each
// pair gives a trace of the result that reaches the same goal.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"

#include <optional>
#include <vector>

namespace tsoreach::instrument {

enum class UnlockDrains {
    Unlock,             // PSO: only `unlock` empties every buffer
    UnlockAndUnlockFor, // SC, TSO: `unlockfor` does too
};

struct SkippedFences {
    Program program;
    // By transition id: the mfence of the original that a step of this
    // transition of `program` also stands for (invalid: none).
    std::vector<TransitionId> fenceAfter;
};

// The program with the mfences after draining unlocks skipped, or nullopt
// when there is none to skip.
std::optional<SkippedFences> skipFencesAfterUnlocks(const Program& p, const Goal& goal,
                                                    UnlockDrains drains);

} // namespace tsoreach::instrument
