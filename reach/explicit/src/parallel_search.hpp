#pragma once
// The explicit search on several threads (Options::searchJobs > 1).
//
// Visited set, partitioned by hash: every state has an owner thread, picked
// by a hash of its shared part (lock holder, memory, buffers), and only its
// owner stores it, looks it up and expands it. A step that moves only its
// thread's pc and registers (a read, a local, a check) keeps the state with
// its owner, so only steps that change memory cross threads; the price is
// balance, which the values of memory decide (counters 3 10: 49/51 %,
// lamport 5: 60/40 %; a program without memory hashes whole states). So
// each thread's store is the sequential search's StateStore, touched by no
// other thread and without locks; a state is named by its index in its
// owner's store and the owner's number. A thread that makes a successor
// another thread owns appends its packed bytes and hash to a batch for that
// thread (unless it sent the same state lately), and hands full batches
// over through the owner's inbox (one lock per inbox, taken once per
// batch). The owner inserts what it receives,
// pushes the new states on its own depth-first stack and hands the emptied
// batch back to its maker (so every batch counts in its maker's memory). Every thread
// publishes what it holds when it runs out of work or some thread is
// waiting. No lock is global, and there is no stealing: a thread expands
// only the states it owns.
//
// Termination: `pending_` counts the states on stacks and in batches (made,
// not yet expanded or found to be duplicates), but each thread adds its
// changes (+ successors pushed or sent, - state expanded, - duplicate
// received) only when it hands a batch over or runs out of work. Let s_W be
// what thread W held (stack and unsent batches) when it last added, plus
// what it received since. Then pending_ equals the states in inboxes plus
// the sum of s_W, and s_W >= 1 while W holds anything: W adds with 0 only
// when it holds nothing, and then gets states only from its inbox. So
// pending_ == 0 means no state is left anywhere and none can appear.
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

#include "explicit_search.hpp"
#include "operational_semantics.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/reach/explicit/state_store.hpp"
#include "tsoreach/reach/resource_monitor.hpp"
#include "tsoreach/reach/result.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
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

template <class Semantics> class ParallelSearch {
  public:
    // One semantics per thread (their scratch buffers are not shared).
    ParallelSearch(std::span<Semantics* const> sems, const Goal& goal, const Options& options)
        : sems_(sems.begin(), sems.end()), goal_(goal), options_(options) {
        while ((std::size_t{1} << ownerBits_) < sems_.size()) {
            ++ownerBits_;
        }
        capacity_ =
            std::min<std::size_t>((std::size_t{1} << (32 - ownerBits_)) - 1, StateStore::maxStates);
        for (std::size_t k = 0; k < sems_.size(); ++k) {
            workers_.push_back(std::make_unique<Worker>());
            workers_.back()->index = k;
            workers_.back()->outgoing.resize(sems_.size());
            workers_.back()->sent.resize(sentSize);
        }
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
        for (std::size_t w = 0; w < workers_.size(); ++w) {
            out.states += workers_[w]->store.size();
            out.bytes += workers_[w]->store.bytes();
            out.transitions += workers_[w]->transitions;
            out.boundHit = out.boundHit || sems_[w]->boundHit();
        }
        return out;
    }

  private:
    static constexpr std::uint64_t checkEvery = 256;   // expansions between limit checks
    static constexpr std::size_t batchBytes = 16384;   // a batch is handed over when this full
    static constexpr std::size_t receiveGroup = 16;    // received states prefetched together
    static constexpr StateIndex noState = 0xffffffffU; // no store's index reaches it

    // A successor of the state being expanded (as in explicit_search.hpp).
    struct Successor {
        StateStore::Key key;
        std::size_t owner = 0;
        StepDelta delta;
        StateWord values[StepDelta::capacity] = {};
    };
    using Batch = std::vector<std::uint8_t>; // (hash, size, packed bytes) entries
    struct Letter {
        std::size_t from = 0; // the sender, who gets the emptied batch back
        Batch batch;
    };
    // A state sent lately: a successor equal to it need not be sent again
    // (diamonds of independent steps make many such duplicates, as in
    // StateStore's recent cache). Exact: the bytes are compared.
    struct Sent {
        std::uint64_t hash = 0;
        std::uint32_t size = 0; // 0: empty
        std::array<std::uint8_t, 48> bytes{};
    };
    static constexpr std::size_t sentSize = 1024; // a power of two

    struct alignas(64) Worker {
        std::size_t index = 0;       // in workers_
        StateStore store{12, 65536}; // grows from a small table and block
        std::vector<StateIndex> stack;
        std::int64_t unadded = 0; // see "Termination"
        std::uint64_t transitions = 0;
        std::uint64_t sinceCheck = 0;
        StateIndex preloaded = noState; // the state `current` already holds
        std::vector<StateWord> current;
        std::vector<StateWord> next;
        StateStore::Key currentKey;
        std::vector<StateStore::Key> received; // a group of received states
        std::vector<Successor> succs;          // only grows
        std::vector<Batch> outgoing;           // by owner
        std::vector<Letter> mail;              // taken from the inbox
        std::vector<Batch> spare;              // its own emptied batches, reused for sending
        std::size_t batchMemory = 0;           // capacity of every batch it made
        std::vector<Sent> sent;                // by the low bits of the hash
        // Read by the other threads: on lines of their own.
        alignas(64) std::atomic<std::size_t> bytes{0}; // for the memory limit
        alignas(64) std::mutex inboxLock;
        std::vector<Letter> inbox; // guarded by inboxLock
        alignas(64) std::mutex returnLock;
        std::vector<Batch> returned; // its batches, emptied by their receivers; guarded
        std::atomic<bool> hasMail{false};
    };

    // The owner of state s: by a hash of its shared part (lock holder,
    // memory, buffers), so that a step that changes only its thread's pc
    // and registers keeps the state with its owner (no batch); the full hash
    // when there is no memory.
    [[nodiscard]] std::size_t ownerOf(const Semantics& sem, std::span<const StateWord> s,
                                      std::uint64_t fullHash) const {
        if (sem.memoryBegin() == s.size()) {
            return ownerOf(fullHash);
        }
        std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ static_cast<std::uint64_t>(s[sem.lockWord()]);
        for (std::size_t i = sem.memoryBegin(); i < s.size(); ++i) {
            h = (h ^ static_cast<std::uint64_t>(s[i])) * 0xbf58476d1ce4e5b9ULL;
            h ^= h >> 31;
        }
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
        return ownerOf(h);
    }

    [[nodiscard]] std::size_t ownerOf(std::uint64_t hash) const {
        // Bits 16 to 47: the table slot uses the top bits, the recent
        // cache the lowest 12.
        return static_cast<std::size_t>(((hash >> 16) & 0xffffffffU) * sems_.size() >> 32);
    }

    // The initial state, stored by its owner; false when it is the goal.
    bool start() {
        std::vector<StateWord> initial;
        sems_[0]->initialState(initial);
        if (sems_[0]->isGoal(goal_, initial)) {
            goalReached_ = true;
            return false;
        }
        StateStore::Key key;
        StateStore::packKey(initial, key);
        Worker& owner = *workers_[ownerOf(*sems_[0], initial, key.hash)];
        StateIndex id = 0;
        insert(owner, key, id);
        owner.stack.push_back(id);
        pending_ = 1;
        return true;
    }

    void work(std::size_t w) {
        Worker& me = *workers_[w];
        Semantics& sem = *sems_[w];
        try {
            ResourceMonitor monitor(options_);
            while (!stopped_.load(std::memory_order_relaxed)) {
                if (me.hasMail.load(std::memory_order_relaxed)) {
                    receive(me);
                }
                if (me.stack.empty()) {
                    if (!awaitWork(me, w)) {
                        break;
                    }
                    continue;
                }
                const StateIndex id = me.stack.back();
                me.stack.pop_back();
                expand(me, w, sem, id);
                if (++me.sinceCheck >= checkEvery) {
                    me.sinceCheck = 0;
                    checkLimits(me, monitor);
                }
                if (hungry_.load(std::memory_order_relaxed) != 0) {
                    sendAll(me, w);
                }
            }
        } catch (const std::length_error& e) {
            stop(e.what()); // a state longer than a block
        } catch (const std::bad_alloc&) {
            stop("out of memory");
        } catch (...) {
            // A bug (a logic_error of the semantics): rethrown by run().
            const std::lock_guard<std::mutex> held(stopLock_);
            if (!error_) {
                error_ = std::current_exception();
            }
            stopped_ = true;
        }
    }

    // Hands over every batch, then waits for mail; false when no state is
    // left anywhere (pending_ is 0) or the search stopped.
    bool awaitWork(Worker& me, std::size_t w) {
        sendAll(me, w);
        addPending(me);
        hungry_.fetch_add(1);
        bool got = false;
        while (!stopped_.load()) {
            if (me.hasMail.load()) {
                got = true;
                break;
            }
            if (pending_.load() == 0) {
                break;
            }
            std::this_thread::yield();
        }
        hungry_.fetch_sub(1);
        if (got) {
            receive(me);
        }
        return got;
    }

    // Expands state `id` of this thread's store: successors this thread
    // owns are inserted (their slots prefetched first), the others go to
    // their owners' batches. The state pushed last is expanded next:
    // `current` is then made from this one and its changes. Stops every
    // thread at a goal state.
    void expand(Worker& me, std::size_t w, Semantics& sem, StateIndex id) {
        if (id != me.preloaded) {
            me.store.get(id >> ownerBits_, me.current, me.currentKey);
        }
        me.preloaded = noState;
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
            x.owner = ownerOf(sem, succ, x.key.hash);
            if (x.owner == w) {
                me.store.prepare(x.key); // prefetches its slot
            }
            return true;
        });
        if (goal) {
            goalReached_ = true;
            stopped_ = true;
            return;
        }
        for (std::size_t k = 0; k < count; ++k) {
            if (me.succs[k].owner == w) {
                me.store.prefetchCandidate(me.succs[k].key);
            }
        }
        std::int64_t made = 0;
        std::size_t last = count;
        for (std::size_t k = 0; k < count; ++k) {
            ++me.transitions;
            Successor& x = me.succs[k];
            if (x.owner != w) {
                made += post(me, x.owner, x.key) ? 1 : 0;
                continue;
            }
            StateIndex succ = 0;
            if (insert(me, x.key, succ)) {
                me.stack.push_back(succ);
                ++made;
                last = k;
            }
        }
        me.unadded += made - 1;
        if (last < count && me.succs[last].delta.known) {
            const Successor& x = me.succs[last];
            for (std::uint32_t j = 0; j < x.delta.count; ++j) {
                me.current[x.delta.words[j]] = x.values[j];
            }
            std::swap(me.currentKey, me.succs[last].key);
            me.preloaded = me.stack.back();
        }
        for (std::size_t o = 0; o < me.outgoing.size(); ++o) {
            if (me.outgoing[o].size() >= batchBytes) {
                send(me, o);
            }
        }
    }

    // Appends a state for thread `owner` to its batch; false when it was
    // sent lately.
    static bool post(Worker& me, std::size_t owner, const StateStore::Key& key) {
        Sent& lately = me.sent[key.hash & (sentSize - 1)];
        if (lately.size == key.size && lately.hash == key.hash &&
            std::memcmp(lately.bytes.data(), key.buffer.data(), key.size) == 0) {
            return false;
        }
        if (key.size <= lately.bytes.size()) {
            lately.hash = key.hash;
            lately.size = static_cast<std::uint32_t>(key.size);
            std::memcpy(lately.bytes.data(), key.buffer.data(), key.size);
        }
        Batch& b = me.outgoing[owner];
        const std::size_t at = b.size();
        const auto size = static_cast<std::uint32_t>(key.size);
        const std::size_t had = b.capacity();
        b.resize(at + sizeof key.hash + sizeof size + key.size);
        me.batchMemory += b.capacity() - had;
        std::memcpy(b.data() + at, &key.hash, sizeof key.hash);
        std::memcpy(b.data() + at + sizeof key.hash, &size, sizeof size);
        std::memcpy(b.data() + at + sizeof key.hash + sizeof size, key.buffer.data(), key.size);
        return true;
    }

    // Hands the batch for `owner` over (after adding to pending_, see
    // "Termination").
    void send(Worker& me, std::size_t owner) {
        if (me.outgoing[owner].empty()) {
            return;
        }
        addPending(me);
        Worker& to = *workers_[owner];
        {
            const std::lock_guard<std::mutex> held(to.inboxLock);
            to.inbox.push_back({me.index, std::move(me.outgoing[owner])});
            to.hasMail = true;
        }
        me.outgoing[owner] = takeSpare(me);
    }

    // An empty batch: one of this thread's that came back, or a new one.
    // Batches go back to their maker, so a thread that sends more than it
    // receives does not allocate one per send, and each thread's batches
    // are all counted in its batchMemory.
    static Batch takeSpare(Worker& me) {
        if (me.spare.empty()) {
            const std::lock_guard<std::mutex> held(me.returnLock);
            me.spare.swap(me.returned);
        }
        Batch b;
        if (!me.spare.empty()) {
            b.swap(me.spare.back());
            me.spare.pop_back();
        } else {
            b.reserve(batchBytes + 256);
            me.batchMemory += b.capacity();
        }
        return b;
    }

    void sendAll(Worker& me, std::size_t w) {
        for (std::size_t o = 0; o < me.outgoing.size(); ++o) {
            if (o != w) {
                send(me, o);
            }
        }
    }

    // Inserts the states in this thread's inbox, pushing the new ones.
    void receive(Worker& me) {
        {
            const std::lock_guard<std::mutex> held(me.inboxLock);
            me.mail.swap(me.inbox);
            me.hasMail = false;
        }
        // In groups, each made and prefetched before any is inserted, so
        // that the misses into the table and the packed states overlap.
        if (me.received.size() < receiveGroup) {
            me.received.resize(receiveGroup);
        }
        for (Letter& letter : me.mail) {
            const Batch& b = letter.batch;
            for (std::size_t at = 0; at < b.size();) {
                std::size_t n = 0;
                for (; n < receiveGroup && at < b.size(); ++n) {
                    std::uint64_t hash = 0;
                    std::uint32_t size = 0;
                    std::memcpy(&hash, b.data() + at, sizeof hash);
                    std::memcpy(&size, b.data() + at + sizeof hash, sizeof size);
                    at += sizeof hash + sizeof size;
                    StateStore::keyFromBytes({b.data() + at, size}, hash, me.received[n]);
                    at += size;
                    me.store.prepare(me.received[n]);
                }
                for (std::size_t k = 0; k < n; ++k) {
                    me.store.prefetchCandidate(me.received[k]);
                }
                for (std::size_t k = 0; k < n; ++k) {
                    StateIndex id = 0;
                    if (insert(me, me.received[k], id)) {
                        me.stack.push_back(id);
                    } else {
                        --me.unadded;
                    }
                }
            }
        }
        for (Letter& letter : me.mail) {
            letter.batch.clear();
            Worker& maker = *workers_[letter.from];
            const std::lock_guard<std::mutex> held(maker.returnLock);
            maker.returned.push_back(std::move(letter.batch));
        }
        me.mail.clear();
    }

    // Stores the key's state in this thread's store unless it is there;
    // true when it was new, with its name in `id`.
    bool insert(Worker& me, const StateStore::Key& key, StateIndex& id) {
        if (me.store.size() >= capacity_) {
            stop("more than " + std::to_string(capacity_) +
                 " states in one thread's part of the parallel state store, the most it holds");
            return false;
        }
        if (!me.store.insert(key)) {
            return false;
        }
        id = static_cast<StateIndex>(((me.store.size() - 1) << ownerBits_) | me.index);
        return true;
    }

    void addPending(Worker& me) {
        if (me.unadded != 0) {
            pending_.fetch_add(me.unadded);
            me.unadded = 0;
        }
    }

    void checkLimits(Worker& me, ResourceMonitor& monitor) {
        std::size_t mine = me.store.bytesAtNextGrowth() + me.stack.capacity() * sizeof(StateIndex);
        mine += me.batchMemory; // wherever its batches are
        me.bytes.store(mine, std::memory_order_relaxed);
        std::size_t bytes = 0;
        for (const auto& w : workers_) {
            bytes += w->bytes.load(std::memory_order_relaxed);
        }
        if (auto why = monitor.exceeded(bytes)) {
            stop(*why);
        }
    }

    void stop(const std::string& why) {
        const std::lock_guard<std::mutex> held(stopLock_);
        if (stopReason_.empty() && !goalReached_) {
            stopReason_ = why;
        }
        stopped_ = true;
    }

    std::vector<Semantics*> sems_;
    const Goal& goal_;
    const Options& options_;
    unsigned ownerBits_ = 0;
    std::size_t capacity_ = 0; // states per thread's store
    std::vector<std::unique_ptr<Worker>> workers_;
    std::atomic<std::int64_t> pending_{0};
    std::atomic<unsigned> hungry_{0};
    std::atomic<bool> stopped_{false};
    std::atomic<bool> goalReached_{false};
    std::mutex stopLock_;
    std::string stopReason_;   // guarded by stopLock_ until the threads end
    std::exception_ptr error_; // likewise
};

// The search on sems.size() threads, then, if it reached the goal, the
// sequential search on sems[0] for the trace (see the header comment).
template <class Semantics>
Result parallelExplicitSearch(std::span<Semantics* const> sems, const Goal& goal,
                              const Options& options, MemoryModel model) {
    const auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    ParallelOutcome out;
    try {
        out = ParallelSearch<Semantics>(sems, goal, options).run();
    } catch (const std::bad_alloc&) {
        out.stopReason = "out of memory";
    }
    if (out.goalReached) {
        Result r = explicitSearch(*sems[0], goal, options, model);
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
