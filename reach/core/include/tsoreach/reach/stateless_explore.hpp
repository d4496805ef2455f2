#pragma once
// What the explorers without a state table (dpor, rf) share: the programs they refuse,
// running on a program whose loops are unrolled (--unroll K), and the
// engine answer made from an exploration.

#include "tsoreach/instrument/unroll.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/reach/explore.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/reach/resource_monitor.hpp"

#include <optional>
#include <string>

namespace tsoreach::reach {

// Why engine `engine` (dpor or rf) cannot explore p, if it cannot.
inline std::optional<std::string> statelessUnsupported(const Program& p, std::size_t unroll,
                                                       const std::string& engine) {
    for (const Transition& tr : p.transitions) {
        if (tr.instr.kind == InstrKind::Lock || tr.instr.kind == InstrKind::Unlock) {
            return "the " + engine + " engine does not support lock/unlock yet";
        }
        if (isLockForEdge(tr.instr.kind)) {
            return "the " + engine + " engine does not support lockfor/unlockfor yet";
        }
        if (isAtomicBlockEdge(tr.instr.kind)) {
            return "the " + engine +
                   " engine does not support atomic blocks (atomic/endatomic) yet";
        }
    }
    if (firstJoinedWrite(p) != nullptr) {
        return "the " + engine + " engine does not support joined stores (joinwrite) yet";
    }
    if (unroll == 0 && hasControlCycle(p)) {
        return "the " + engine +
               " engine explores acyclic programs, and this program has a control-flow "
               "cycle: bound the loops with --unroll K";
    }
    return std::nullopt;
}

// The engine answer of an exploration that looked for `goal`. Goal traces
// carry no addresses or values of instructions: replay fills them in and
// checks the trace on the original program.
inline Result answerOf(const Program& program, const Goal& goal, const ExploreResult& e,
                       const std::string& engine) {
    Result r;
    r.stats.states = e.stats.events;
    r.stats.transitions = e.stats.events;
    r.stats.timeSeconds = e.stats.timeSeconds;
    r.stats.peakRssMb = peakRssMb();
    if (e.goalTrace) {
        const ReplayOutcome replay = replayTrace(program, goal, *e.goalTrace, Recorded::IfGiven);
        if (!replay.ok) {
            throw TraceReplayError("the " + engine +
                                   " engine's trace does not replay: " + replay.error);
        }
        r.verdict = Verdict::Reachable;
        r.trace = replay.completed;
    } else if (e.complete) {
        r.verdict = Verdict::Unreachable;
    } else {
        r.verdict = Verdict::Unknown;
        r.reason = e.reason;
    }
    return r;
}

// run(program, options) explores `program` and returns its result.
template <class Run>
ExploreResult exploreUnrolled(const Program& p, const ExploreOptions& options, Run run) {
    if (options.limits.unroll == 0 || !hasControlCycle(p)) {
        return run(p, options);
    }
    const instrument::UnrolledProgram u =
        instrument::unrollLoops(p, options.limits.unroll, options.limits.stop);
    auto mapped = [&](Trace t) {
        for (TraceStep& s : t.steps) {
            if (s.kind == StepKind::Instruction) {
                s.transition = u.origin[s.transition.index()];
            }
        }
        return t;
    };
    ExploreOptions inner = options;
    std::optional<Goal> goal;
    if (options.goal != nullptr) {
        goal = instrument::unrolledGoal(*options.goal, u);
        inner.goal = &*goal;
    }
    if (options.onExecution) {
        inner.onExecution = [&](const Trace& t, bool blocked) {
            options.onExecution(mapped(t), blocked);
        };
    }
    ExploreResult r = run(u.program, inner);
    if (r.goalTrace) {
        r.goalTrace = mapped(*r.goalTrace);
    } else if (r.complete && u.cut) {
        r.complete = false;
        r.reason = "unrolled " + std::to_string(options.limits.unroll) +
                   " times (--unroll): executions beyond the bound were not explored";
    }
    return r;
}

} // namespace tsoreach::reach
