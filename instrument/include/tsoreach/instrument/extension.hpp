#pragma once
// The buffering extension R ⊕ σ of paper 004 (§3): for a path σ of one
// thread t that starts with a store and ends with a load (no fence, lock or
// unlock on it), a program in which SC executions can delay σ's stores past
// σ's loads, as TSO can. σ's stores are recorded in fresh registers
// (address ar_j, value vr_j), σ's loads read the newest matching record
// first, else memory, and the exits re-issue the records as ordinary stores
// in FIFO order. TSO-reachable control states, registers and memory of R
// are those of R ⊕ σ (Lemma 1), so the lazy engine can iterate on it. The
// construction, case by case, and the proof of Lemma 1 for acyclic and
// cyclic threads and for goal states on σ are in docs/lazy-extension.md.
//
// Every emitted transition records what it does in terms of the original
// program P (R is P or an extension of it), so an SC trace of any
// extension maps back to a TSO trace of P.

#include "tsoreach/lang/program.hpp"
#include "tsoreach/lang/stop.hpp"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace tsoreach::instrument {

enum class LazyRole : std::uint8_t {
    None,  // bookkeeping: no event of P
    Step,  // executes P's transition `original`; a store reaches memory at once
    Issue, // executes P's store `original`; it waits in the thread's buffer
    Land,  // the oldest store waiting in the thread's buffer reaches memory
};

struct LazyOrigin {
    LazyRole role = LazyRole::None;
    TransitionId original; // Step and Issue
};

// Origins of P itself: every transition is a Step of itself.
std::vector<LazyOrigin> identityOrigins(const Program& p);

enum class ExtensionVariant : std::uint8_t {
    // The paper's: σ's first instruction is removed from R, and exits at
    // every state of the buffered path (t leaves σ; inst_1's store reaches
    // memory) keep the behaviours that removal would lose; a path that
    // comes back to src(inst_1) enters the extension again. Exact on
    // cyclic threads too; successive oracle answers never repeat, so the
    // loop terminates on acyclic programs (Thm 3).
    Terminating,
    // Trencher's: σ's first instruction stays; only the buffered path and
    // its main exit are added. Simpler, no termination guarantee.
    Trencher,
};

// A state of the buffered path that stands for a state of R: t is at
// `copy` in R ⊕ σ where t is at `original` in R with some of σ's stores
// still buffered. A goal that accepts `original` accepts `copy`.
struct StateCopy {
    ThreadId thread;
    std::string copy;     // state name in R ⊕ σ
    std::string original; // state name in R
};

struct Extension {
    Program program;                 // R ⊕ σ; copies of finals are final
    std::vector<LazyOrigin> origins; // by TransitionId of `program`
    std::vector<StateCopy> copies;
};

// Thrown when σ is not a path of one thread from a store to a load without
// fence, lock or unlock.
class InvalidPath : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

// R ⊕ σ. `origins` maps R's transitions to P; `tag` makes the names of new
// states and registers unique across successive extensions. Polls `stop`
// once per step of σ (its exits grow with |σ| times σ's stores) and while
// building, and throws Stopped when it holds. R's transitions keep their
// source positions; new ones get the position of the step of σ they
// extend.
Extension extendByPath(const Program& r, std::span<const LazyOrigin> origins,
                       std::span<const TransitionId> sigma, ExtensionVariant variant,
                       const std::string& tag, const StopCondition& stop = StopCondition());

} // namespace tsoreach::instrument
