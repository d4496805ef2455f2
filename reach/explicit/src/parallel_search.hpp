#pragma once
// The explicit search on several threads (Options::searchJobs > 1).
//
// Every thread runs the sequential search's depth-first loop on a stack of
// its own, over one visited set shared by all (shared_state_store.hpp: a
// table whose slots are claimed by compare-and-swap, packed states in an
// arena per thread). A successor stays with the thread that made it, so a
// thread's states, like the sequential search's, are mostly expanded right
// after they are made, from the copy it still holds unpacked. No lock is
// taken per state: the lock below guards only the pool of shared work, the
// idle count and the table's growth.
//
// Work: a thread whose stack is empty becomes idle and waits for the pool; a
// busy thread that sees an idle one (an atomic count, read once per
// expansion) moves the bottom half of its stack, the oldest states and so
// the largest unexplored parts, to the pool. A state is on one stack or in
// the pool from when it is stored until it is expanded.
//
// Termination: under the lock, when every running thread is idle and the
// pool is empty. An idle thread holds no state, and only a busy thread
// adds to the pool or makes states, so then no state is left to expand
// and none can appear.
//
// Growth of the shared table stops the world (shared_state_store.hpp): a
// thread whose claim to store states fails waits for every running thread
// (busy threads join between two expansions or in their next claim, idle
// ones are woken), each moves a share of the slots, and the last one done
// swaps the tables.
//
// Why the answer is the sequential search's. The successors of a state are
// a function of the state alone: partial-order reduction picks the ample
// thread by a fixed rule (the first eligible thread in index order with an
// enabled step), its cycle proviso is static (sticky transitions, a
// feedback edge set of each thread's control-flow graph: every cycle of the
// reduced graph holds a fully expanded state whatever order explores it,
// static_reductions.hpp), and chain compression runs a thread's chain from
// the state. So the reduced state graph is fixed, every complete search
// stores exactly its reachable states, and `states` and `transitions` of a
// complete search do not depend on the order or the number of threads.
// The goal is reachable in it iff the sequential search finds it. This
// search keeps no parent links: when it makes a goal state the sequential
// search runs, and its trace and counts are reported, so a reachable answer
// is the same for every number of threads too.
//
// The limit of the design: one lock for idle threads and growth, touched
// rarely; the shared table's cache lines move between cores only where two
// threads probe the same slots (random, so about 1/N of the time on N
// threads); every thread allocates from its own arena. What grows with
// the cores is the cost of a growth (all threads stop; the moves are
// shared) and of memory bandwidth, which the threads share.

#include "explicit_search.hpp"
#include "operational_semantics.hpp"
#include "shared_state_store.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/stop.hpp"
#include "tsoreach/reach/explicit/state_store.hpp"
#include "tsoreach/reach/resource_monitor.hpp"
#include "tsoreach/reach/result.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace tsoreach::reach {

// What a parallel search found: the goal, a reason it stopped early, or
// neither (complete).
struct ParallelOutcome {
    bool goalReached = false;
    std::string stopReason;
    bool boundHit = false; // a store was blocked by the buffer bound
    std::uint64_t states = 0;
    std::uint64_t transitions = 0;
    std::size_t bytes = 0; // held by the stores (packed states, offsets, tables)
};

// Makes the semantics of one more thread (it may throw Stopped).
template <class Semantics> using MakeSemantics = std::function<std::unique_ptr<Semantics>()>;

template <class Semantics> class ParallelSearch {
  public:
    // One semantics per thread: `first` for thread 0, and each other thread
    // makes its own with `make` when it starts, so that its scratch buffers
    // come from that thread's allocator and share no cache line with
    // another thread's (made one after the other here, they cost a third
    // more CPU time on two threads, depending on where the heap put them).
    ParallelSearch(Semantics& first, MakeSemantics<Semantics> make, std::size_t threads,
                   const Goal& goal, const Options& options)
        : make_(std::move(make)), goal_(goal), options_(options), store_(threads, initialTableBits),
          sems_(threads, nullptr), owned_(threads) {
        sems_[0] = &first;
        for (std::size_t k = 0; k < threads; ++k) {
            workers_.push_back(std::make_unique<Worker>());
        }
        active_ = workers_.size();
    }

    ParallelOutcome run() {
        if (start()) {
            std::vector<std::thread> threads;
            try {
                for (std::size_t w = 1; w < workers_.size(); ++w) {
                    threads.emplace_back([this, w] { work(w); });
                }
            } catch (const std::system_error& e) {
                stop(std::string("cannot start a search thread: ") + e.what());
                leave(workers_.size() - 1 - threads.size()); // never started
            }
            work(0);
            for (std::thread& t : threads) {
                t.join();
            }
            if (error_) {
                std::rethrow_exception(error_);
            }
        }
        ParallelOutcome out;
        out.goalReached = goalReached_.load();
        out.stopReason = stopReason_;
        out.states = store_.size();
        out.bytes = store_.bytes();
        for (std::size_t w = 0; w < workers_.size(); ++w) {
            out.transitions += workers_[w]->transitions;
            out.boundHit = out.boundHit || (sems_[w] != nullptr && sems_[w]->boundHit());
        }
        return out;
    }

  private:
    static constexpr std::uint64_t checkEvery = 256; // expansions between limit checks
    // A small first table: growing it costs little while it is small, and
    // then every search, the tests' small ones too, runs through growths
    // with all its threads.
    static constexpr unsigned initialTableBits = 10;

    // A successor of the state being expanded (as in explicit_search.hpp).
    struct Successor {
        StateStore::Key key;
        StepDelta delta;
        StateWord values[StepDelta::capacity] = {};
    };

    struct alignas(64) Worker {
        std::vector<SharedRef> stack;
        std::uint64_t transitions = 0;
        std::uint64_t sinceCheck = 0;
        SharedRef preloaded = 0; // the state `current` already holds (0: none)
        std::vector<StateWord> current;
        std::vector<StateWord> next;
        StateStore::Key currentKey;
        std::vector<Successor> succs; // only grows
        // Read by the other threads (the memory limit): on a line of its own.
        alignas(64) std::atomic<std::size_t> stackBytes{0};
        std::atomic<std::uint64_t> expanded{0}; // states expanded, updated at each check
    };

    // The initial state, stored by thread 0; false when it is the goal.
    bool start() {
        std::vector<StateWord> initial;
        sems_[0]->initialState(initial);
        if (sems_[0]->isGoal(goal_, initial)) {
            goalReached_ = true;
            return false;
        }
        StateStore::Key key;
        StateStore::packKey(initial, key);
        SharedStateStore::Arena& arena = store_.arena(0);
        store_.prepare(arena, key);
        SharedRef ref = 0;
        store_.claim(arena); // the first claim on an empty table succeeds
        store_.insert(arena, 0, key, ref);
        workers_[0]->stack.push_back(ref);
        return true;
    }

    void work(std::size_t w) {
        Worker& me = *workers_[w];
        try {
            if (sems_[w] == nullptr) {
                owned_[w] = make_();
                sems_[w] = owned_[w].get();
            }
            ResourceMonitor monitor(options_);
            while (!stopped_.load(std::memory_order_relaxed)) {
                if (store_.growthWanted()) {
                    std::unique_lock<std::mutex> lk(lock_);
                    joinGrowth(lk, w);
                    continue;
                }
                if (me.stack.empty()) {
                    if (!awaitWork(me, w)) {
                        break;
                    }
                    continue;
                }
                if (idle_.load(std::memory_order_relaxed) >
                        poolParts_.load(std::memory_order_relaxed) &&
                    me.stack.size() >= 2) {
                    share(me);
                }
                const SharedRef ref = me.stack.back();
                me.stack.pop_back();
                expand(me, w, ref);
                if (++me.sinceCheck >= checkEvery) {
                    me.sinceCheck = 0;
                    checkLimits(me, monitor);
                }
            }
        } catch (const Stopped& e) {
            stop(std::string("preparing the search: ") + e.what()); // a thread's semantics
        } catch (const std::length_error& e) {
            stop(e.what()); // a state longer than a block, or a full arena
        } catch (const std::bad_alloc&) {
            stop("out of memory");
        } catch (...) {
            // A bug (a logic_error of the semantics): rethrown by run().
            const std::lock_guard<std::mutex> held(lock_);
            if (!error_) {
                error_ = std::current_exception();
            }
            stopLocked("");
        }
        leave(1);
    }

    // Threads that end: a growth or termination no longer waits for them.
    void leave(std::size_t n) {
        const std::lock_guard<std::mutex> held(lock_);
        active_ -= n;
        cv_.notify_all();
    }

    // Waits for work from the pool; false when the search is over (every
    // running thread idle with the pool empty, or stopped).
    bool awaitWork(Worker& me, std::size_t w) {
        std::unique_lock<std::mutex> lk(lock_);
        idle_.fetch_add(1);
        for (;;) {
            if (stopped_.load() || finished_) {
                idle_.fetch_sub(1);
                return false;
            }
            if (!pool_.empty()) {
                me.stack.swap(pool_.back());
                pool_.pop_back();
                poolParts_.fetch_sub(1);
                idle_.fetch_sub(1);
                return true;
            }
            if (store_.growthWanted()) {
                idle_.fetch_sub(1);
                joinGrowth(lk, w);
                idle_.fetch_add(1);
                continue;
            }
            if (idle_.load() == active_) {
                finished_ = true;
                cv_.notify_all();
                continue;
            }
            cv_.wait(lk);
        }
    }

    // Moves the bottom half of this thread's stack to the pool (not the
    // top: it is the state `current` may hold).
    void share(Worker& me) {
        const auto half = static_cast<std::ptrdiff_t>(me.stack.size() / 2);
        std::vector<SharedRef> part(me.stack.begin(), me.stack.begin() + half);
        me.stack.erase(me.stack.begin(), me.stack.begin() + half);
        const std::lock_guard<std::mutex> held(lock_);
        pool_.push_back(std::move(part));
        poolParts_.fetch_add(1);
        cv_.notify_all();
    }

    // Takes part in the table's growth, if one is wanted (see the header):
    // every running thread arrives, one allocates the grown table, each
    // moves its share of the slots, the last one done swaps the tables.
    void joinGrowth(std::unique_lock<std::mutex>& lk, std::size_t w) {
        if (!store_.growthWanted() || stopped_.load()) {
            return;
        }
        const std::uint64_t round = growthRound_;
        const std::size_t part = arrived_++;
        cv_.notify_all(); // idle threads join too
        if (arrived_ == active_) {
            try {
                store_.beginGrowth();
            } catch (const std::bad_alloc&) {
                stopLocked("out of memory");
            } catch (const std::length_error& e) {
                stopLocked(e.what());
            }
            parts_ = arrived_;
            moving_ = true;
            cv_.notify_all();
        } else {
            cv_.wait(lk, [&] { return moving_ || stopped_.load(); });
        }
        if (stopped_.load()) {
            return;
        }
        lk.unlock();
        store_.moveToGrown(part, parts_, store_.arena(w));
        lk.lock();
        if (++moved_ == parts_) {
            store_.finishGrowth();
            arrived_ = 0;
            moved_ = 0;
            moving_ = false;
            ++growthRound_;
            cv_.notify_all();
        } else {
            cv_.wait(lk, [&] { return growthRound_ != round || stopped_.load(); });
        }
    }

    // Expands state `ref`: its new successors are stored (their slots
    // prefetched first) and pushed. The state pushed last is expanded next:
    // `current` is then made from this one and its changes. Stops every
    // thread at a goal state.
    void expand(Worker& me, std::size_t w, SharedRef ref) {
        Semantics& sem = *sems_[w];
        SharedStateStore::Arena& arena = store_.arena(w);
        if (ref != me.preloaded) {
            store_.get(ref, me.current, me.currentKey);
        }
        me.preloaded = 0;
        std::size_t count = 0;
        bool goal = false;
        sem.forEachSuccessor(me.current, me.next, [&](StepCode, std::span<const StateWord> succ) {
            if (sem.isGoal(goal_, succ)) {
                goal = true;
                return false;
            }
            if (me.succs.size() == count) {
                me.succs.emplace_back();
            }
            Successor& x = me.succs[count++];
            x.delta = sem.lastDelta();
            if (x.delta.known) {
                StateStore::packKey(succ, x.key, me.currentKey, x.delta.changed());
                for (std::uint32_t j = 0; j < x.delta.count; ++j) {
                    x.values[j] = succ[x.delta.words[j]];
                }
            } else {
                StateStore::packKey(succ, x.key);
            }
            store_.prepare(arena, x.key); // prefetches its slot
            return true;
        });
        if (goal) {
            goalReached_ = true;
            stop("");
            return;
        }
        for (std::size_t k = 0; k < count; ++k) {
            store_.prefetchCandidate(me.succs[k].key);
        }
        std::size_t last = count;
        for (std::size_t k = 0; k < count; ++k) {
            ++me.transitions;
            while (!store_.claim(arena)) {
                std::unique_lock<std::mutex> lk(lock_);
                joinGrowth(lk, w);
                if (stopped_.load()) {
                    return;
                }
            }
            SharedRef succ = 0;
            if (store_.insert(arena, w, me.succs[k].key, succ)) {
                me.stack.push_back(succ);
                last = k;
            }
        }
        if (last < count && me.succs[last].delta.known) {
            const Successor& x = me.succs[last];
            for (std::uint32_t j = 0; j < x.delta.count; ++j) {
                me.current[x.delta.words[j]] = x.values[j];
            }
            std::swap(me.currentKey, me.succs[last].key);
            me.preloaded = me.stack.back();
        }
    }

    void checkLimits(Worker& me, ResourceMonitor& monitor) {
        me.stackBytes.store(me.stack.capacity() * sizeof(SharedRef), std::memory_order_relaxed);
        me.expanded.fetch_add(checkEvery, std::memory_order_relaxed);
        std::size_t bytes = store_.bytesAtNextGrowth();
        std::uint64_t expanded = 0;
        for (const auto& w : workers_) {
            bytes += w->stackBytes.load(std::memory_order_relaxed);
            expanded += w->expanded.load(std::memory_order_relaxed);
        }
        if (&me == workers_.front().get() && monitor.progressDue()) { // one thread speaks
            monitor.progress("explicit", expanded, "states expanded",
                             std::to_string(workers_.size()) + " threads");
        }
        if (auto why = monitor.exceeded(bytes)) {
            stop(*why);
        }
    }

    void stop(const std::string& why) {
        const std::lock_guard<std::mutex> held(lock_);
        stopLocked(why);
    }

    // Stops every thread; `why` is the reason unless the goal was reached
    // or a reason was given first.
    void stopLocked(const std::string& why) {
        if (stopReason_.empty() && !goalReached_ && !why.empty()) {
            stopReason_ = why;
        }
        stopped_ = true;
        cv_.notify_all();
    }

    MakeSemantics<Semantics> make_;
    const Goal& goal_;
    const Options& options_;
    SharedStateStore store_;
    std::vector<Semantics*> sems_; // thread w's; set by thread w (0: given)
    std::vector<std::unique_ptr<Semantics>> owned_;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::atomic<bool> stopped_{false};
    std::atomic<bool> goalReached_{false};
    // Read by busy threads once per expansion: a thread shares its stack
    // while more threads are idle than parts wait in the pool.
    alignas(64) std::atomic<std::size_t> idle_{0};
    std::atomic<std::size_t> poolParts_{0};
    // Guarded by lock_:
    alignas(64) std::mutex lock_;
    std::condition_variable cv_;
    std::vector<std::vector<SharedRef>> pool_;
    std::size_t active_ = 0; // threads not yet ended
    bool finished_ = false;
    std::size_t arrived_ = 0; // at the current growth
    std::size_t parts_ = 0;
    std::size_t moved_ = 0;
    bool moving_ = false;
    std::uint64_t growthRound_ = 0;
    std::string stopReason_;
    std::exception_ptr error_;
};

// The search on `threads` threads, then, if it reached the goal, the
// sequential search on `first` for the trace (see the header comment).
template <class Semantics>
Result parallelExplicitSearch(Semantics& first, MakeSemantics<Semantics> make, std::size_t threads,
                              const Goal& goal, const Options& options, MemoryModel model) {
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    ParallelOutcome out;
    try {
        out = ParallelSearch<Semantics>(first, std::move(make), threads, goal, options).run();
    } catch (const std::bad_alloc&) {
        out.stopReason = "out of memory";
    }
    if (out.goalReached) {
        Result r = explicitSearch(first, goal, options, model);
        if (r.verdict == Verdict::Unreachable) {
            throw std::logic_error("the sequential search missed a goal the parallel search "
                                   "reached");
        }
        if (r.verdict == Verdict::Unknown) {
            r.reason = "the parallel search reached the goal, but the sequential search that "
                       "finds its trace stopped: " +
                       r.reason;
        }
        r.stats.timeSeconds = elapsed();
        return r;
    }
    Result r;
    r.boundHit = out.boundHit;
    if (!out.stopReason.empty()) {
        r.reason = out.stopReason;
    } else if (out.boundHit) {
        r.reason = boundHitReason(options);
    } else {
        r.verdict = Verdict::Unreachable;
    }
    r.stats.states = out.states;
    r.stats.transitions = out.transitions;
    r.stats.timeSeconds = elapsed();
    r.stats.peakRssMb = peakRssMb();
    if (out.states != 0) {
        r.stats.bytesPerState = static_cast<double>(out.bytes) / static_cast<double>(out.states);
    }
    return r;
}

} // namespace tsoreach::reach
