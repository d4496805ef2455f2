#pragma once
// A counterexample: the steps from the initial state to a goal state.

#include "tsoreach/lang/ids.hpp"
#include "tsoreach/lang/value.hpp"
#include "tsoreach/reach/model.hpp"

#include <optional>
#include <span>
#include <vector>

namespace tsoreach::reach {

enum class StepKind : std::uint8_t {
    Instruction, // a transition of `thread`
    Flush,       // a store leaves `thread`'s buffer for memory (TSO, PSO)
};

struct TraceStep {
    StepKind kind = StepKind::Instruction;
    ThreadId thread;
    TransitionId transition;   // Instruction steps
    std::optional<Value> addr; // read, write, flush: the address accessed
    // read: value read; write, flush: value stored; local: value assigned
    std::optional<Value> value;
    std::optional<bool> forwarded; // read: served by the thread's own store buffer?
    friend bool operator==(const TraceStep&, const TraceStep&) = default;
};

struct Trace {
    MemoryModel model = MemoryModel::SC;
    std::vector<TraceStep> steps;
    // The goal holds after the first goalStep steps. Under TSO/PSO the steps
    // after it only flush the stores still buffered, to show where they land.
    std::size_t goalStep = 0;
    // The goal term the goal step satisfies, set by the replay of runChecked.
    std::size_t goalTerm = 0;
    friend bool operator==(const Trace&, const Trace&) = default;
};

// The trace with, right after each instruction step of a transition that
// stands for a skipped mfence too (`fenceAfter`, by transition id, invalid:
// none; instrument/fences_after_unlocks.hpp), that mfence's step; goalStep
// counts the inserted steps before it.
Trace withSkippedFences(const Trace& t, std::span<const TransitionId> fenceAfter);

} // namespace tsoreach::reach
