#pragma once
// The outcomes of a program: its final states (every thread at a control
// state without transitions, every buffer empty), each with the threads'
// registers and memory, gathered from the executions or final states an
// engine enumerates (ExploreOptions::onExecution). Each one is read off the
// independent replay of its trace, never off an engine's state encoding.

#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/explore.hpp"
#include "tsoreach/reach/model.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tsoreach::reach {

struct Outcome {
    std::vector<StateId> pc;              // by thread
    std::vector<std::vector<Value>> regs; // by thread, by register
    std::map<Value, Value> memory;        // the cells not 0 at the end
    std::uint64_t executions = 0;         // that end here (counted by dpor and rf)
    bool absentFromBaseline = false;      // set by markNew()
    friend bool operator<(const Outcome& a, const Outcome& b) {
        return std::tie(a.pc, a.regs, a.memory) < std::tie(b.pc, b.regs, b.memory);
    }
};

struct OutcomeList {
    ExecutionClasses classes = ExecutionClasses::ShashaSnir;
    bool complete = false; // every final state found (false: see reason)
    std::string reason;
    std::vector<Outcome> outcomes; // sorted
    std::uint64_t blocked = 0;     // executions or states that end blocked
    double seconds = 0;
};

using Enumerate = std::function<ExploreResult(const ExploreOptions&)>;

// Runs `enumerate` (an engine's exploration of `program` under `model`) and
// gathers the final states of the executions it reports. Throws
// TraceReplayError when an execution does not replay.
OutcomeList collectOutcomes(const Program& program, MemoryModel model, const Enumerate& enumerate,
                            const ExploreOptions& options);

// Marks the outcomes of `list` that `baseline` does not have.
void markNew(OutcomeList& list, const OutcomeList& baseline);

} // namespace tsoreach::reach
