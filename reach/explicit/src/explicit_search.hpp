#pragma once
// Explicit-state reachability over an operational semantics (SC, TSO, PSO).
// No recursion: DFS keeps an explicit stack of state indices, BFS walks the
// store in discovery order, which is already a FIFO queue. Parent links (an
// index per state) give the trace; its steps are found again (stepTo).

#include "operational_semantics.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/reach/explicit/state_store.hpp"
#include "tsoreach/reach/resource_monitor.hpp"
#include "tsoreach/reach/result.hpp"

#include <algorithm>
#include <functional>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tsoreach::reach {

// Why a search that ended without the goal is not a proof under TSO/PSO.
inline std::string boundHitReason(const Options& options) {
    return "buffer bound " + std::to_string(options.bufferBound) +
           " reached (--buffer-bound): a store was blocked, so the search did not cover every "
           "state";
}

// One search: the store, the parent links and the buffers the inner loop
// reuses, with the loop's steps as member functions (all inline, so the
// loop compiles as the single function it was; nothing allocates per step).
template <class Semantics> class ExplicitSearch {
  public:
    // A state without successors (every thread done or blocked, buffers
    // empty): with `onFinal`, the search hands over the trace to each one
    // it expands, and goes on.
    using FinalStateHook = std::function<void(const Trace&)>;

    ExplicitSearch(Semantics& sem, const Goal& goal, const Options& options, MemoryModel model,
                   FinalStateHook onFinal = {})
        : sem_(sem), goal_(goal), options_(options), model_(model), monitor_(options),
          onFinal_(std::move(onFinal)) {}

    Result run() {
        try {
            search();
        } catch (const std::length_error& e) {
            // A state longer than the store's blocks: a limit of the store,
            // not an answer.
            result_.reason = e.what();
            return finish(Verdict::Unknown, store_.size());
        } catch (const std::bad_alloc&) {
            return outOfMemory();
        }
        return conclude();
    }

  private:
    static constexpr StateIndex noParent = 0xffffffffU;
    // Successors and expansions between limit checks: a clock read costs
    // about as much as a few successors, so checks stay under 1% of the time
    // while the overshoot stays small even when a state has many successors.
    static constexpr std::uint64_t checkEvery = 256;

    // A successor of the state being expanded: its key, step, whether it
    // satisfies the goal, and the words it changed (with their values) when
    // known.
    struct Successor {
        StateStore::Key key;
        bool goal = false;
        StepDelta delta;
        StateWord values[StepDelta::capacity] = {};
    };

    void search() {
        start();
        StateIndex idx = 0;
        while (found_ == noParent && stopReason_.empty() && !limitHit() && nextToExpand(idx)) {
            if (idx != preloaded_) {
                store_.get(idx, current_, currentKey_);
            }
            preloaded_ = noParent;
            collectSuccessors();
            if (succCount_ == 0 && onFinal_) {
                onFinal_(traceTo(idx)); // current_ is unpacked again next time
                continue;
            }
            preloadPushedLast(insertSuccessors(idx));
        }
    }

    // The initial state, stored and queued.
    void start() {
        sem_.initialState(current_);
        store_.insert(current_);
        parent_.push_back(noParent);
        if (sem_.isGoal(goal_, current_)) {
            found_ = 0;
        }
        stack_.push_back(0);
    }

    // The next state to expand: the top of the DFS stack, or the next one in
    // discovery order for BFS; false when there is none.
    bool nextToExpand(StateIndex& idx) {
        if (options_.search == SearchOrder::Dfs) {
            if (stack_.empty()) {
                return false;
            }
            idx = stack_.back();
            stack_.pop_back();
            return true;
        }
        if (cursor_ == store_.size()) {
            return false;
        }
        idx = static_cast<StateIndex>(cursor_++);
        return true;
    }

    // Every successor of `current_` is packed and hashed as it is made
    // (which prefetches its table slot); the insertions follow, so that
    // their probes (cache misses on large tables) overlap. Most successors
    // change a few words, so their packed bytes are the current state's
    // with those words rewritten.
    void collectSuccessors() {
        succCount_ = 0;
        sem_.forEachSuccessor(current_, next_, [&](StepCode, std::span<const StateWord> succ) {
            if (succs_.size() == succCount_) {
                succs_.emplace_back();
            }
            Successor& x = succs_[succCount_++];
            x.delta = sem_.lastDelta();
            if (x.delta.known) {
                store_.makeKey(succ, x.key, currentKey_, x.delta.changed());
                for (std::uint32_t j = 0; j < x.delta.count; ++j) {
                    x.values[j] = succ[x.delta.words[j]];
                }
            } else {
                store_.makeKey(succ, x.key);
            }
            x.goal = sem_.isGoal(goal_, succ);
            return true;
        });
        for (std::size_t k = 0; k < succCount_; ++k) {
            store_.prefetchCandidate(succs_[k].key);
        }
    }

    // Stores the new successors of state `idx` (stopping at the goal or a
    // limit) and, for DFS, pushes them; the index in succs_ of the one
    // pushed last, or succCount_ if none was.
    std::size_t insertSuccessors(StateIndex idx) {
        std::size_t pushedLast = succCount_;
        for (std::size_t k = 0; k < succCount_; ++k) {
            ++result_.stats.transitions;
            if (limitHit()) {
                break;
            }
            if (store_.size() >= StateStore::maxStates) {
                stopReason_ = "more than " + std::to_string(StateStore::maxStates) +
                              " states, the most the state store holds";
                break;
            }
            if (!store_.insert(succs_[k].key)) {
                continue;
            }
            const auto succIdx = static_cast<StateIndex>(store_.size() - 1);
            parent_.push_back(idx);
            if (succs_[k].goal) {
                found_ = succIdx;
                break;
            }
            if (options_.maxStates != 0 && store_.size() > options_.maxStates) {
                stopReason_ = "state limit of " + std::to_string(options_.maxStates) +
                              " reached (--max-states)";
                break;
            }
            if (options_.search == SearchOrder::Dfs) {
                stack_.push_back(succIdx);
                pushedLast = k;
            }
        }
        return pushedLast;
    }

    // A DFS expands next the successor it pushed last: `current_` and
    // `currentKey_` are then made from the expanded state and that
    // successor's changes, not unpacked from the store.
    void preloadPushedLast(std::size_t pushedLast) {
        if (pushedLast >= succCount_ || !succs_[pushedLast].delta.known || found_ != noParent ||
            !stopReason_.empty()) {
            return;
        }
        const Successor& x = succs_[pushedLast];
        for (std::uint32_t j = 0; j < x.delta.count; ++j) {
            current_[x.delta.words[j]] = x.values[j];
        }
        std::swap(currentKey_, succs_[pushedLast].key);
        preloaded_ = stack_.back();
    }

    // True when a limit is exceeded; then stopReason_ says which.
    bool limitHit() {
        if (++sinceCheck_ < checkEvery) {
            return false;
        }
        sinceCheck_ = 0;
        const std::size_t bytes = store_.bytesAtNextGrowth() + parent_.bytesAtNextGrowth() +
                                  stack_.capacity() * sizeof(StateIndex);
        if (auto why = monitor_.exceeded(bytes)) {
            stopReason_ = *why;
            return true;
        }
        if (monitor_.progressDue()) { // the line is built only when printed
            monitor_.progress("explicit", store_.size(), "states",
                              "depth " + std::to_string(stack_.size()));
        }
        if (options_.stopAtBound && sem_.boundHit()) {
            stopReason_ = boundHitReason(options_);
            return true;
        }
        return false;
    }

    // The verdict of a search that ran to its end, a goal or a limit.
    Result conclude() {
        if (found_ != noParent) {
            result_.trace = traceTo(found_);
            return finish(Verdict::Reachable, store_.size());
        }
        result_.boundHit = sem_.boundHit();
        if (!stopReason_.empty()) {
            result_.reason = stopReason_;
            return finish(Verdict::Unknown, store_.size());
        }
        if (sem_.boundHit()) {
            result_.reason = boundHitReason(options_);
            return finish(Verdict::Unknown, store_.size());
        }
        return finish(Verdict::Unreachable, store_.size());
    }

    // Frees the search without allocating before building the result.
    Result outOfMemory() {
        const std::size_t states = store_.size();
        store_.release();
        parent_.release();
        std::vector<StateIndex>().swap(stack_);
        result_.reason = "out of memory";
        return finish(Verdict::Unknown, states);
    }

    Result finish(Verdict v, std::size_t states) {
        result_.verdict = v;
        result_.stats.states = states;
        result_.stats.timeSeconds = monitor_.elapsedSeconds();
        result_.stats.peakRssMb = peakRssMb();
        if (states != 0) {
            result_.stats.bytesPerState =
                static_cast<double>(store_.bytes() + parent_.bytes() +
                                    stack_.capacity() * sizeof(StateIndex)) /
                static_cast<double>(states);
        }
        return result_;
    }

    // The steps from the initial state to `goal` along the parent links,
    // then the buffers drained.
    Trace traceTo(StateIndex goal) {
        std::vector<StateIndex> path;
        for (StateIndex i = goal; i != noParent; i = parent_[i]) {
            path.push_back(i);
        }
        std::reverse(path.begin(), path.end());
        Trace trace;
        trace.model = model_;
        for (std::size_t k = 1; k < path.size(); ++k) {
            store_.get(path[k - 1], current_);
            sem_.describeStep(current_, stepTo(path[k]), trace.steps);
        }
        trace.goalStep = trace.steps.size();
        store_.get(goal, current_);
        drainBuffers(trace);
        sem_.completeTrace(trace);
        return trace;
    }

    // The step from `current_` (the parent of state `child`) that made
    // `child`: the first successor equal to it, which is the one that
    // stored it (an earlier equal one would have). Steps are not stored
    // per state: rebuilding the few of a trace is cheaper than 8 bytes a
    // state.
    StepCode stepTo(StateIndex child) {
        StateStore::Key target;
        StateStore::Key candidate;
        store_.get(child, next_);
        StateStore::packKey(next_, target);
        std::optional<StepCode> found;
        sem_.forEachSuccessor(current_, next_, [&](StepCode code, std::span<const StateWord> succ) {
            StateStore::packKey(succ, candidate);
            if (candidate.hash != target.hash ||
                !std::ranges::equal(candidate.bytes(), target.bytes())) {
                return true;
            }
            found = code;
            return false;
        });
        if (!found) {
            throw std::logic_error("a parent link without a step to its state");
        }
        return *found;
    }

    // Flushes from `current_` until the buffers are empty: flushes keep the
    // goal, and they show the user where the delayed stores land.
    void drainBuffers(Trace& trace) {
        std::vector<StateWord> drained;
        for (bool flushed = true; flushed;) {
            flushed = false;
            sem_.forEachSuccessor(current_, next_,
                                  [&](StepCode code, std::span<const StateWord> succ) {
                                      if (!code.isFlush()) {
                                          return true;
                                      }
                                      sem_.describeStep(current_, code, trace.steps);
                                      drained.assign(succ.begin(), succ.end());
                                      flushed = true;
                                      return false;
                                  });
            if (flushed) {
                current_.swap(drained);
            }
        }
    }

    Semantics& sem_;
    const Goal& goal_;
    const Options& options_;
    MemoryModel model_;
    ResourceMonitor monitor_;
    Result result_;
    StateStore store_;
    ChunkedVector<StateIndex> parent_;
    std::vector<StateWord> current_;
    std::vector<StateWord> next_;
    std::vector<StateIndex> stack_;
    std::size_t cursor_ = 0; // BFS: the next state to expand
    // The successors of the state being expanded, the first succCount_ of
    // them; only grows, so that keys keep their buffers.
    std::vector<Successor> succs_;
    std::size_t succCount_ = 0;
    StateStore::Key currentKey_; // the expanded state packed, to patch
    StateIndex preloaded_ = noParent;
    StateIndex found_ = noParent;
    std::string stopReason_;
    std::uint64_t sinceCheck_ = 0;
    FinalStateHook onFinal_;
};

template <class Semantics>
Result explicitSearch(Semantics& sem, const Goal& goal, const Options& options, MemoryModel model,
                      typename ExplicitSearch<Semantics>::FinalStateHook onFinal = {}) {
    return ExplicitSearch<Semantics>(sem, goal, options, model, std::move(onFinal)).run();
}

} // namespace tsoreach::reach
