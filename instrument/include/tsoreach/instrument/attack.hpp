#pragma once
// The robustness attack instrumentation (paper 004 §4.7, after ESOP'13): for
// an attacker thread t, a store w and a later load l of t, an SC program whose
// goal is SC-reachable iff some TSO execution delays w past l and closes a
// happens-before cycle through l (a witness of non-robustness).
//
// Computed addresses are supported when the value-set analysis
// (lang/value_sets.hpp) bounds the addresses an access can touch; otherwise
// the program raises UnsupportedProgram.

#include "tsoreach/lang/program.hpp"
#include "tsoreach/lang/stop.hpp"
#include "tsoreach/lang/value_sets.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tsoreach::instrument {

struct Attack {
    ThreadId thread;
    TransitionId store;         // a write of `thread`
    TransitionId load;          // a read of `thread`, reachable from the store's target
                                // without crossing mfence, lock or unlock
    std::uint32_t distance = 0; // fewest transitions between them on such a path
};

class UnsupportedProgram : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Every (thread, store, load) whose load the store can be delayed past,
// ordered by distance, then by thread, store and load.
// Throws Stopped when `stop` holds before it is done.
std::vector<Attack> candidateAttacks(const Program& p, const StopCondition& stop = StopCondition());

// Where a transition of the instrumented program comes from: an original
// transition executed as under SC (`delayed` false: a store reaches memory at
// once), or by the attacker (`delayed`: stores wait in its buffer), or
// nothing (invalid `original`: shadow bookkeeping).
struct StepOrigin {
    TransitionId original;
    bool delayed = false;
};

struct AttackProgram {
    Program program;                 // goal: the attacker thread in state "success"
    std::vector<StepOrigin> origins; // by TransitionId of `program`
};

// The instrumented SC program of `attack`. Throws UnsupportedProgram.
AttackProgram attackProgram(const Program& p, const Attack& attack);
// The same with the program's address sets computed once (accessedAddresses);
// throws Stopped when `stop` holds before it is done. Transitions that
// execute an original one get its source position.
AttackProgram attackProgram(const Program& p, const Attack& attack, const AddressSets& sets,
                            const StopCondition& stop = StopCondition());

// Several attacks of one thread in one program: the attacker may delay any
// of `stores` first and end at any of `loads`. Its goal is SC-reachable iff
// the goal of attackProgram(p, {thread, w, l}) is for some w of `stores` and
// l of `loads`: the attacker copy is entered once, by the delay of some w
// (whose address a register records), and left once, to "prefinal", by
// some l; a run uses one of each and the other entry and exit edges not at
// all, so it is a run of the program of (w, l), and every run of that
// program is one of this. A robustness check decides every attack of a
// thread with one search when none is feasible.
struct AttackFamily {
    ThreadId thread;
    std::vector<TransitionId> stores;
    std::vector<TransitionId> loads;
};

AttackProgram attackProgram(const Program& p, const AttackFamily& family, const AddressSets& sets,
                            const StopCondition& stop = StopCondition());

// Throws UnsupportedProgram if no attack of `p` can be instrumented.
void checkSupported(const Program& p, const AddressSets& sets);

// Rules out attacks without search, from the addresses each thread touches
// and writes (computed once per program).
class FeasibilityFilter {
  public:
    FeasibilityFilter(const Program& p, const AddressSets& sets); // keeps a reference to sets
    // False when the attack is infeasible for a reason visible without
    // search: the cycle needs another thread to write an address the load
    // may read (its first event after the load) and to touch an address the
    // store may write (or the late flush closes nothing).
    [[nodiscard]] bool mayBeFeasible(const Attack& attack) const;

  private:
    const AddressSets& sets_;
    std::vector<ValueSet> touched_; // by thread
    std::vector<ValueSet> written_; // by thread
};

} // namespace tsoreach::instrument
