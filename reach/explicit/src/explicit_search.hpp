#pragma once
// Explicit-state reachability over an operational semantics (SC, TSO, PSO).
// No recursion: DFS keeps an explicit stack of state indices, BFS walks the
// store in discovery order, which is already a FIFO queue. Parent links give
// the trace.

#include "operational_semantics.hpp"
#include "tsoreach/reach/resource_monitor.hpp"
#include "tsoreach/reach/explicit/state_store.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/reach/result.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace tsoreach::reach {

template <class Semantics>
Result explicitSearch(Semantics& sem, const Goal& goal, const Options& options, MemoryModel model) {
    constexpr StateIndex noParent = 0xffffffffU;
    // Successors and expansions between limit checks: a clock read costs
    // about as much as a few successors, so checks stay under 1% of the time
    // while the overshoot stays small even when a state has many successors.
    constexpr std::uint64_t checkEvery = 256;

    ResourceMonitor monitor(options);
    Result result;
    StateStore store;
    ChunkedVector<StateIndex> parent;
    ChunkedVector<StepCode> via;
    std::vector<StateWord> current;
    std::vector<StateWord> next;
    std::vector<StateIndex> stack;
    // The successors of the state being expanded: their keys, steps,
    // whether they satisfy the goal, and the words they changed (with their
    // values) when known. Only grows, so that keys keep their buffers.
    struct Successor {
        StateStore::Key key;
        StepCode code;
        bool goal = false;
        StepDelta delta;
        StateWord values[StepDelta::capacity] = {};
    };
    std::vector<Successor> succs;
    std::size_t succCount = 0;
    StateStore::Key currentKey; // the expanded state packed, to patch
    // A DFS expands next the successor it pushed last: `current` and
    // `currentKey` are then made from the expanded state and that
    // successor's changes, not unpacked from the store.
    StateIndex preloaded = noParent;
    StateIndex found = noParent;
    std::string stopReason;
    std::uint64_t sinceCheck = 0;

    // True when a limit is exceeded; then stopReason says which.
    auto limitHit = [&]() {
        if (++sinceCheck < checkEvery) {
            return false;
        }
        sinceCheck = 0;
        const std::size_t bytes = store.bytesAtNextGrowth() + parent.bytesAtNextGrowth() +
                                  via.bytesAtNextGrowth() + stack.capacity() * sizeof(StateIndex);
        if (auto why = monitor.exceeded(bytes)) {
            stopReason = *why;
            return true;
        }
        return false;
    };

    auto finish = [&](Verdict v, std::size_t states) {
        result.verdict = v;
        result.stats.states = states;
        result.stats.timeSeconds = monitor.elapsedSeconds();
        result.stats.peakRssMb = peakRssMb();
        if (states != 0) {
            result.stats.bytesPerState =
                static_cast<double>(store.bytes() + parent.bytes() + via.bytes()) /
                static_cast<double>(states);
        }
        return result;
    };

    try {
        sem.initialState(current);
        store.insert(current);
        parent.push_back(noParent);
        via.push_back(StepCode{});
        if (sem.isGoal(goal, current)) {
            found = 0;
        }
        stack.push_back(0);
        std::size_t cursor = 0;

        while (found == noParent && stopReason.empty() && !limitHit()) {
            StateIndex idx;
            if (options.search == SearchOrder::Dfs) {
                if (stack.empty()) {
                    break;
                }
                idx = stack.back();
                stack.pop_back();
            } else {
                if (cursor == store.size()) {
                    break;
                }
                idx = static_cast<StateIndex>(cursor++);
            }
            if (idx != preloaded) {
                store.get(idx, current, currentKey);
            }
            preloaded = noParent;

            // Every successor is packed and hashed as it is made (which
            // prefetches its table slot); the insertions follow, so that
            // their probes (cache misses on large tables) overlap. Most
            // successors change a few words, so their packed bytes are the
            // current state's with those words rewritten.
            succCount = 0;
            sem.forEachSuccessor(current, next,
                                 [&](StepCode code, std::span<const StateWord> succ) {
                                     if (succs.size() == succCount) {
                                         succs.emplace_back();
                                     }
                                     Successor& x = succs[succCount++];
                                     x.delta = sem.lastDelta();
                                     if (x.delta.known) {
                                         store.makeKey(succ, x.key, currentKey, x.delta.changed());
                                         for (std::uint32_t j = 0; j < x.delta.count; ++j) {
                                             x.values[j] = succ[x.delta.words[j]];
                                         }
                                     } else {
                                         store.makeKey(succ, x.key);
                                     }
                                     x.code = code;
                                     x.goal = sem.isGoal(goal, succ);
                                     return true;
                                 });
            for (std::size_t k = 0; k < succCount; ++k) {
                store.prefetchCandidate(succs[k].key);
            }
            std::size_t pushedLast = succCount;
            for (std::size_t k = 0; k < succCount; ++k) {
                ++result.stats.transitions;
                if (limitHit()) {
                    break;
                }
                if (store.size() >= StateStore::maxStates) {
                    stopReason = "more than " + std::to_string(StateStore::maxStates) +
                                 " states, the most the state store holds";
                    break;
                }
                if (!store.insert(succs[k].key)) {
                    continue;
                }
                const auto succIdx = static_cast<StateIndex>(store.size() - 1);
                parent.push_back(idx);
                via.push_back(succs[k].code);
                if (succs[k].goal) {
                    found = succIdx;
                    break;
                }
                if (options.maxStates != 0 && store.size() > options.maxStates) {
                    stopReason = "state limit of " + std::to_string(options.maxStates) +
                                 " reached (--max-states)";
                    break;
                }
                if (options.search == SearchOrder::Dfs) {
                    stack.push_back(succIdx);
                    pushedLast = k;
                }
            }
            if (pushedLast < succCount && succs[pushedLast].delta.known && found == noParent &&
                stopReason.empty()) {
                const Successor& x = succs[pushedLast];
                for (std::uint32_t j = 0; j < x.delta.count; ++j) {
                    current[x.delta.words[j]] = x.values[j];
                }
                std::swap(currentKey, succs[pushedLast].key);
                preloaded = stack.back();
            }
        }
    } catch (const std::length_error& e) {
        // A state longer than the store's blocks: a limit of the store, not
        // an answer.
        result.reason = e.what();
        return finish(Verdict::Unknown, store.size());
    } catch (const std::bad_alloc&) {
        // Free the search without allocating before building the result.
        const std::size_t states = store.size();
        store.release();
        parent.release();
        via.release();
        std::vector<StateIndex>().swap(stack);
        result.reason = "out of memory";
        return finish(Verdict::Unknown, states);
    }

    if (found != noParent) {
        std::vector<StateIndex> path;
        for (StateIndex i = found; i != noParent; i = parent[i]) {
            path.push_back(i);
        }
        std::reverse(path.begin(), path.end());
        Trace trace;
        trace.model = model;
        for (std::size_t k = 1; k < path.size(); ++k) {
            store.get(path[k - 1], current);
            sem.describeStep(current, via[path[k]], trace.steps);
        }
        trace.goalStep = trace.steps.size();
        // Drain the buffers: flushes keep the goal, and they show the user
        // where the delayed stores land.
        store.get(found, current);
        std::vector<StateWord> drained;
        for (bool flushed = true; flushed;) {
            flushed = false;
            sem.forEachSuccessor(current, next,
                                 [&](StepCode code, std::span<const StateWord> succ) {
                                     if (!code.isFlush()) {
                                         return true;
                                     }
                                     trace.steps.push_back(sem.describe(current, code));
                                     drained.assign(succ.begin(), succ.end());
                                     flushed = true;
                                     return false;
                                 });
            if (flushed) {
                current.swap(drained);
            }
        }
        result.trace = std::move(trace);
        return finish(Verdict::Reachable, store.size());
    }
    if (!stopReason.empty()) {
        result.reason = stopReason;
        return finish(Verdict::Unknown, store.size());
    }
    if (sem.boundHit()) {
        result.reason = "buffer bound " + std::to_string(options.bufferBound) +
                        " reached (--buffer-bound): a store was blocked, so the search "
                        "did not cover every state";
        return finish(Verdict::Unknown, store.size());
    }
    return finish(Verdict::Unreachable, store.size());
}

} // namespace tsoreach::reach
