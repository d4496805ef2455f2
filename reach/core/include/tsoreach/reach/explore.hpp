#pragma once
// What the exploring engines (dpor, rf) return: the execution classes of a
// program counted, or stopped at the first one that reaches a goal.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/reach/options.hpp"
#include "tsoreach/reach/trace.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tsoreach::reach {

struct ExploreStats {
    std::uint64_t executions = 0; // complete: every thread done, every buffer empty
    std::uint64_t blocked = 0;    // stopped by a failed `check`
    // Cut short by sleep sets (Source-DPOR is not optimal), or repeating a
    // class already explored (threads that choose between transitions;
    // rf: maximal executions of a class explored already).
    std::uint64_t redundant = 0;
    std::uint64_t outcomes = 0; // distinct final registers and memory of complete executions
    std::uint64_t events = 0;   // events executed in total (rf: maximal executions explored)
    std::uint64_t consistencyChecks = 0; // rf: reads-from instances decided
    // mcr: solver queries, their answers, and the time spent in the solver.
    std::uint64_t smtQueries = 0;
    std::uint64_t smtSat = 0;
    std::uint64_t smtUnsat = 0;
    double solverSeconds = 0;
    double timeSeconds = 0;
};

// What one explored execution stands for.
enum class ExecutionClasses {
    ShashaSnir,  // dpor: the same events in the same happens-before order
    ReadsFrom,   // rf: every read reads from the same write
    FinalStates, // explicit: one per state without successors (executions are not counted)
    Values,      // mcr: every read returns the same value (the threads take the same paths)
};

struct ExploreResult {
    ExecutionClasses classes = ExecutionClasses::ShashaSnir;
    bool complete = false; // every class explored (false: see reason)
    std::string reason;
    ExploreStats stats;
    std::optional<Trace> goalTrace; // with a goal: a trace reaching it
};

struct ExploreOptions {
    // Limits (timeout, memory, cancel, states) and `unroll`: cyclic programs
    // are explored in the executions in which each thread takes at most
    // `limits.unroll` back edges (instrument/unroll.hpp), and then no answer
    // is complete; 0: cyclic programs are not explored.
    Options limits;
    const Goal* goal = nullptr; // stop at the first execution that reaches it
    // Called with every complete or blocked execution (for --print-traces);
    // `blocked` tells which.
    std::function<void(const Trace&, bool blocked)> onExecution;
};

} // namespace tsoreach::reach
