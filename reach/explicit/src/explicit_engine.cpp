#include "tsoreach/reach/explicit.hpp"

#include "explicit_search.hpp"
#include "parallel_search.hpp"
#include "tsoreach/instrument/fences_after_unlocks.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/reach/stateless_explore.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace tsoreach::reach {

ExplicitEngine::ExplicitEngine(MemoryModel model) : model_(model) {}

namespace {
// One semantics per thread of the search: the static reductions run once
// per semantics (they poll the limits). A state limit makes the search
// sequential: it counts states in the sequential search's order, so that
// the answer within the limit does not depend on the threads either; so
// does stopping at the buffer bound (a probe's small search).
template <class Policy>
Result search(const Program& program, const Goal& goal, const Options& options) {
    using Semantics = OperationalSemantics<Policy>;
    const unsigned threads =
        options.maxStates != 0 || options.stopAtBound
            ? 1U
            : std::clamp(options.searchJobs, 1U, 1U << SharedStateStore::maxArenaBits);
    std::unique_ptr<Semantics> first;
    try {
        first = std::make_unique<Semantics>(program, options, &goal);
    } catch (const Stopped& e) {
        Result r;
        r.reason = std::string("preparing the search: ") + e.what();
        return r;
    }
    if (threads == 1) {
        return explicitSearch(*first, goal, options, Policy::model);
    }
    // The other threads make their own semantics (parallel_search.hpp).
    auto make = [&] { return std::make_unique<Semantics>(program, options, &goal); };
    return parallelExplicitSearch<Semantics>(*first, make, threads, goal, options, Policy::model);
}

// Joined writes have no PSO semantics (docs/language.md).
std::optional<std::string> joinedWritesUnsupported(const Program& p, MemoryModel m) {
    const Transition* tr = firstJoinedWrite(p);
    if (tr == nullptr || m != MemoryModel::PSO) {
        return std::nullopt;
    }
    return p.sourceName + ":" + std::to_string(tr->pos.line) + ":" + std::to_string(tr->pos.col) +
           ": joined stores (joinwrite) are defined under SC and TSO only";
}

// A goal no state satisfies: thread 0 constrained, no state accepted.
Goal neverHolds(const Program& program) {
    Goal g(program);
    if (!program.threads.empty()) {
        g.constrain(ThreadId(0));
    }
    return g;
}

template <class Policy>
ExploreResult finalStatesUnder(const Program& program, const ExploreOptions& o) {
    using Semantics = OperationalSemantics<Policy>;
    Options options = o.limits;
    options.liveRegisters = false; // the registers are the outcome
    options.mergeStores = false;
    options.searchJobs = 1;
    const Goal never = neverHolds(program);
    const Goal always(program); // for the replay: the trace's end is its goal
    ExploreResult out;
    out.classes = ExecutionClasses::FinalStates;
    auto onFinal = [&](const Trace& t) {
        const ReplayOutcome replay = replayTrace(program, always, t);
        if (!replay.ok) {
            throw TraceReplayError("a final state's trace does not replay: " + replay.error);
        }
        // Stuck with stores buffered (another thread ended holding the
        // lock): not a final state either.
        bool blocked = !replay.final.buffersEmpty;
        for (std::size_t k = 0; k < program.threads.size(); ++k) {
            const Thread& th = program.threads[k];
            blocked = blocked || !th.outgoingOf(replay.final.pc[k]).empty();
        }
        ++(blocked ? out.stats.blocked : out.stats.executions);
        if (o.onExecution) {
            o.onExecution(replay.completed, blocked);
        }
    };
    Result r;
    try {
        Semantics sem(program, options, &never);
        r = explicitSearch(sem, never, options, Policy::model, onFinal);
    } catch (const Stopped& e) {
        r.reason = std::string("preparing the search: ") + e.what();
    }
    out.complete = r.verdict == Verdict::Unreachable;
    out.reason = r.reason;
    out.stats.events = r.stats.states;
    out.stats.outcomes = out.stats.executions;
    out.stats.timeSeconds = r.stats.timeSeconds;
    return out;
}

Result searchUnder(MemoryModel m, const Program& program, const Goal& goal,
                   const Options& options) {
    switch (m) {
    case MemoryModel::SC:
        return search<ScPolicy>(program, goal, options);
    case MemoryModel::TSO:
        return search<TsoPolicy>(program, goal, options);
    case MemoryModel::PSO:
        return search<PsoPolicy>(program, goal, options);
    }
    throw EngineUnavailable("unknown memory model");
}
} // namespace

Result ExplicitEngine::run(const Program& program, const Goal& goal, const Options& options) {
    if (std::optional<std::string> why = joinedWritesUnsupported(program, model_)) {
        Result r;
        r.reason = *why;
        return r;
    }
    // An mfence right after an unlock that drained the buffers is a no-op:
    // the search skips its control state, and the trace gets its step back.
    const instrument::UnlockDrains drains = model_ == MemoryModel::PSO
                                                ? instrument::UnlockDrains::Unlock
                                                : instrument::UnlockDrains::UnlockAndUnlockFor;
    if (const auto skipped = instrument::skipFencesAfterUnlocks(program, goal, drains)) {
        Result r = searchUnder(model_, skipped->program, goal, options);
        if (r.trace) {
            r.trace = withSkippedFences(*r.trace, skipped->fenceAfter);
        }
        return r;
    }
    return searchUnder(model_, program, goal, options);
}

ExploreResult explicitFinalStates(const Program& program, MemoryModel model,
                                  const ExploreOptions& options) {
    if (std::optional<std::string> why = joinedWritesUnsupported(program, model)) {
        ExploreResult r;
        r.classes = ExecutionClasses::FinalStates;
        r.reason = *why;
        return r;
    }
    if (options.limits.unroll == 0 && hasControlCycle(program)) {
        ExploreResult r;
        r.classes = ExecutionClasses::FinalStates;
        r.reason = "the program has a control-flow cycle: its final states are listed for "
                   "acyclic programs; bound the loops with --unroll K";
        return r;
    }
    return exploreUnrolled(program, options, [model](const Program& p, const ExploreOptions& o) {
        switch (model) {
        case MemoryModel::SC:
            return finalStatesUnder<ScPolicy>(p, o);
        case MemoryModel::TSO:
            return finalStatesUnder<TsoPolicy>(p, o);
        case MemoryModel::PSO:
            return finalStatesUnder<PsoPolicy>(p, o);
        }
        throw EngineUnavailable("unknown memory model");
    });
}

} // namespace tsoreach::reach
