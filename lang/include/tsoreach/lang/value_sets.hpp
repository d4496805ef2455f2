#pragma once
// A static over-approximation of the values that registers and memory cells
// can hold, as finite sets of at most `limit` values (beyond that: "any
// value"). It holds under SC, TSO and PSO alike, because a load returns
// either the cell's initial value (0 unless the program's memory
// declaration gives another) or a value some store wrote, and it is what
// transformations and reductions use to know which addresses an access with
// a computed address can touch.

#include "tsoreach/lang/program.hpp"
#include "tsoreach/lang/stop.hpp"

#include <cstddef>
#include <vector>

namespace tsoreach {

// A set of values, or every value (`any`).
struct ValueSet {
    bool any = false;
    std::vector<Value> values; // sorted, no duplicates; empty when `any`

    [[nodiscard]] bool finite() const { return !any; }
    friend bool operator==(const ValueSet&, const ValueSet&) = default;
};

struct AddressSets {
    // By TransitionId: the addresses a read or write can access (empty for
    // other instructions and for unreachable transitions).
    std::vector<ValueSet> byTransition;
    // Every address some access can touch; `any` if one is unbounded.
    ValueSet all;
    // By thread, by control state: false when no execution under any model
    // reaches the state (its checks always fail on the way).
    std::vector<std::vector<bool>> reachable;
};

// Sets larger than this become `any`.
constexpr std::size_t kDefaultValueSetLimit = 64;

// Runs the analysis to a fixpoint: flow-sensitive over each thread's
// control states (register values per state), flow-insensitive over memory
// (values stored per address, plus values stored at unknown addresses).
// Polls `stop` (seconds on programs with thousands of states) and throws
// Stopped when it holds before the analysis is done.
AddressSets accessedAddresses(const Program& p, std::size_t limit = kDefaultValueSetLimit,
                              const StopCondition& stop = StopCondition());

} // namespace tsoreach
