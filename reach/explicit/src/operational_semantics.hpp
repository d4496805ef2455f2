#pragma once
// The operational semantics of language.md for the explicit engine: state
// encoding and successor relation, for SC, TSO and PSO through a policy
// (memory_policy.hpp).
//
// State words, in order:
//   pc of every thread | lock holder (-1: free) | registers, thread by thread |
//   memory cells whose address is a constant somewhere in the program or
//     that do not start at 0 (Program::memory) |
//   (TSO/PSO) buffer length of every thread, in entries (low 32 bits; under
//     TSO, bit 32 + i says entry i is joined to entry i + 1: joinwrite) |
//   (TSO/PSO) buffer entries (address, value), thread by thread, oldest first |
//   (address, value) pairs of every other non-zero memory cell, by address.
// Cells that hold 0 are left out of the pairs, so equal memories encode
// equally and programs that compute addresses still have canonical states;
// a cell with a non-zero initial value always has a word, so a cell that
// is in no word and no pair holds 0 in every state.
//
// Widths. The words before the buffers (fixedWords_) count threads,
// registers, constant addresses and initial values, each named by a token of its own, so
// they are fewer than 2^31 (kMaxSourceBytes, lang/source.hpp): their
// indices fit Compiled::regWord, the dead-register words and Compiled::slot
// (an int). Transition ids and the indices into compiled_ are below the
// transition count, so 32 bits. A StepCode holds a transition id (32 bits)
// or a thread (below 2^31) and a buffer entry: a state is at most 4 MiB
// packed (StateStore, at least a byte a word), so an entry index is below
// 2^22. StepDelta's word indices are below a state's length, likewise.

#include "merged_stores.hpp"
#include "static_reductions.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/explicit/state_store.hpp"
#include "tsoreach/reach/memory_policy.hpp"
#include "tsoreach/reach/options.hpp"
#include "tsoreach/reach/trace.hpp"

#include <algorithm>
#include <optional>
#include <span>
#include <vector>

namespace tsoreach::reach {

// What a search step did: a transition, or a flush of buffer entry `entry`
// of `thread`. Packed in 64 bits for the parent links of the search.
struct StepCode {
    std::uint64_t bits = 0;
    static constexpr std::uint64_t flushBit = 1ULL << 63;
    static StepCode transition(TransitionId id) { return {id.value}; }
    static StepCode flush(std::size_t thread, std::size_t entry) {
        return {flushBit | (static_cast<std::uint64_t>(thread) << 32) | entry};
    }
    [[nodiscard]] bool isFlush() const { return (bits & flushBit) != 0; }
    [[nodiscard]] TransitionId transitionId() const {
        return TransitionId(static_cast<std::uint32_t>(bits));
    }
    [[nodiscard]] std::size_t thread() const { return (bits & ~flushBit) >> 32; }
    [[nodiscard]] std::size_t entry() const { return bits & 0xffffffffULL; }
};

// The words in which a successor differs from the state it was made from
// (a superset; an index may repeat), when the step (and the steps chain
// compression added to it) kept the state's layout and changed few words;
// otherwise `known` is false. The store packs such a successor by patching
// the packed bytes of its parent.
struct StepDelta {
    static constexpr std::size_t capacity = 8;
    std::uint32_t words[capacity] = {};
    std::uint32_t count = 0;
    bool known = true;

    void add(std::size_t w) {
        if (count < capacity) {
            words[count++] = static_cast<std::uint32_t>(w);
        } else {
            known = false;
        }
    }
    [[nodiscard]] std::span<const std::uint32_t> changed() const { return {words, count}; }
};

// Per thread, the most stores its buffer may hold. A thread whose
// control-flow graph has no reachable cycle gets the most writes of any of
// its paths, so its buffer is never capped; any other thread gets `bound`.
std::vector<std::size_t> bufferBounds(const Program& p, std::size_t bound);

template <class Policy> class OperationalSemantics {
  public:
    static constexpr StateWord noLockHolder = -1;

    // `goal` decides which steps are visible to partial-order reduction;
    // without one (or with o.por off, or under TSO/PSO) nothing is reduced.
    OperationalSemantics(const Program& p, const Options& o, const Goal* goal = nullptr);
    OperationalSemantics(const OperationalSemantics&) = delete;
    OperationalSemantics& operator=(const OperationalSemantics&) = delete;

    void initialState(std::vector<StateWord>& out) const;

    [[nodiscard]] bool isGoal(const Goal& g, std::span<const StateWord> s) const {
        if (!g.hasViews()) {
            return g.satisfiedBy(s);
        }
        auto view = [&](ThreadId t, Value addr) {
            const std::size_t k = t.index();
            return load(s, k, bufBase(s, k), slotOf(addr), addr).first;
        };
        return g.satisfiedTerm(s, view, s[lockWord_] == noLockHolder).has_value();
    }

    // True once a store was blocked by the buffer bound: the search was then
    // not over the whole state space.
    [[nodiscard]] bool boundHit() const { return boundHit_; }

    // Calls emit(StepCode, successor) for every enabled step until emit
    // returns false. The successor span is only valid during the call, and
    // `s` must not alias storage that emit may reallocate. During the call,
    // lastDelta() says which words the successor changed.
    template <class Emit>
    void forEachSuccessor(std::span<const StateWord> s, std::vector<StateWord>& next, Emit&& emit) {
        bool nextIsCopy = false; // see expandThread
        const StateWord holder = s[lockWord_];
        if constexpr (!Policy::buffered) {
            // Partial-order reduction: the first thread that may run alone
            // and has an enabled step is expanded alone.
            if (por_ && holder == noLockHolder) {
                for (std::size_t t = 0; t < threadCount_; ++t) {
                    if (!por_->ampleCandidate(t, s)) {
                        continue;
                    }
                    const int n = expandThread(s, t, fixedWords_, holder, next, nextIsCopy, emit);
                    if (n != 0) {
                        return; // expanded alone, or emit asked to stop
                    }
                }
            }
        }
        // First word of thread t's buffer, advanced thread by thread so that
        // a state costs O(threads), not O(threads^2), to locate buffers.
        std::size_t base = fixedWords_;
        for (std::size_t t = 0; t < threadCount_; base += 2 * bufferLength(s, t), ++t) {
            if (holder != noLockHolder && holder != static_cast<StateWord>(t)) {
                continue; // the lock holder runs alone, flushes included
            }
            if (expandThread(s, t, base, holder, next, nextIsCopy, emit) < 0) {
                return;
            }
        }
    }

    // The trace steps of taking `code` in state `s` (addresses and values):
    // the step itself, then under SC the steps that chain compression adds.
    void describeStep(std::span<const StateWord> s, StepCode code, std::vector<TraceStep>& out) {
        out.push_back(describe(s, code));
        if constexpr (Policy::buffered) {
            // A joined group's flush is one search step; the trace shows a
            // flush per store, in order, as the replay checker expects.
            if (code.isFlush()) {
                const std::size_t t = code.thread();
                const std::size_t at = bufBase(s, t) + 2 * code.entry();
                for (std::size_t i = 1; i <= joinedAfter(s, t, code.entry()); ++i) {
                    TraceStep more = out.back();
                    more.addr = s[at + 2 * i];
                    more.value = s[at + 2 * i + 1];
                    out.push_back(more);
                }
            }
        }
        if constexpr (!Policy::buffered) {
            if (!compress_) {
                return;
            }
            const std::size_t t = program_.transition(code.transitionId()).thread.index();
            bool found = false;
            compress_ = false;
            auto pick = [&](StepCode c, std::span<const StateWord> succ) {
                if (c.bits != code.bits) {
                    return true;
                }
                chainState_.assign(succ.begin(), succ.end());
                found = true;
                return false;
            };
            bool nextIsCopy = false;
            expandThread(s, t, fixedWords_, s[lockWord_], chainNext_, nextIsCopy, pick);
            compress_ = true;
            if (found) {
                std::vector<StateWord> state = chainState_;
                compressChain(state, t, &out);
            }
        }
    }

    // The trace step of taking `code` in state `s` (addresses and values).
    [[nodiscard]] TraceStep describe(std::span<const StateWord> s, StepCode code);

    // A trace of this semantics made a trace of the full semantics of
    // language.md, which the replay checker takes: merged stores put back.
    void completeTrace(Trace& trace) const {
        if (owners_) {
            trace = restoreMergedStores(program_, *owners_, trace);
        }
    }

    // The first word of the memory (cells, buffers, pairs: every word after
    // it is shared state); the lock holder is word threads().
    [[nodiscard]] std::size_t memoryBegin() const { return memBase_; }
    [[nodiscard]] std::size_t lockWord() const { return lockWord_; }

    // The words the successor being emitted changed (see StepDelta).
    [[nodiscard]] const StepDelta& lastDelta() const { return delta_; }

  private:
    // Chain compression (SC with partial-order reduction): while thread t,
    // which just moved, may run alone and has exactly one enabled step, the
    // step is taken at once and the state in between is not stored. That
    // is the ample set {step} at that state, so the reduction's conditions
    // still hold; chains end because sticky steps are never ample. The
    // chain is a function of the state, so traces are rebuilt by running it
    // again (`steps` then receives each step). The words the chain changes
    // are added to `changes` when given.
    void compressChain(std::vector<StateWord>& s, std::size_t t, std::vector<TraceStep>* steps,
                       StepDelta* changes = nullptr) {
        while (s[lockWord_] == noLockHolder && por_->ampleCandidate(t, s)) {
            int count = 0;
            StepCode only;
            StepDelta onlyDelta;
            compress_ = false;
            auto single = [&](StepCode c, std::span<const StateWord> succ) {
                if (++count > 1) {
                    return false;
                }
                only = c;
                onlyDelta = delta_;
                chainState_.assign(succ.begin(), succ.end());
                return true;
            };
            bool nextIsCopy = false;
            expandThread(std::span<const StateWord>(s), t, fixedWords_, noLockHolder, chainNext_,
                         nextIsCopy, single);
            compress_ = true;
            if (count != 1) {
                return;
            }
            if (steps != nullptr) {
                steps->push_back(describe(s, only));
            }
            if (changes != nullptr) {
                if (!onlyDelta.known) {
                    changes->known = false;
                }
                for (std::uint32_t w : onlyDelta.changed()) {
                    changes->add(w);
                }
            }
            s.swap(chainState_);
        }
    }

    // Emits the steps of thread t (flushes, then transitions) whose buffer
    // starts at word `base`. Returns how many were emitted, or -1 when emit
    // asked to stop. `nextIsCopy` says whether `next` equals s (it is kept
    // so across steps whose changes are known, which saves copying s).
    template <class Emit>
    [[gnu::always_inline]] int
    expandThread(std::span<const StateWord> s, std::size_t t, std::size_t base, StateWord holder,
                 std::vector<StateWord>& next, bool& nextIsCopy, Emit& emit) {
        int emitted = 0;
        const std::size_t buffered = bufferLength(s, t);
        if constexpr (Policy::buffered) {
            auto addrAt = [&](std::size_t i) { return s[base + 2 * i]; };
            for (std::size_t i = 0; i < buffered; ++i) {
                if (!Policy::flushable(i, addrAt) || i + joinedAfter(s, t, i) >= buffered) {
                    continue; // a joined group flushes once complete
                }
                next.assign(s.begin(), s.end());
                flush(next, t, i);
                nextIsCopy = false;
                delta_.known = false;
                ++emitted;
                if (!emit(StepCode::flush(t, i), std::span<const StateWord>(next))) {
                    return -1;
                }
            }
        }
        const auto pc = static_cast<std::size_t>(s[t]);
        const std::span<const StateWord> regs = s.subspan(regBase_[t], regCount_[t]);
        const auto [first, last] = outgoing_[t][pc];
        // `next` is made from s by copying it once, then, after each step
        // that recorded its changes, by restoring the changed words.
        auto startNext = [&] {
            delta_.count = 0;
            delta_.known = true;
            if (!nextIsCopy) {
                next.assign(s.begin(), s.end());
                nextIsCopy = true;
            }
        };
        auto set = [&](std::size_t w, StateWord v) {
            next[w] = v;
            delta_.add(w);
        };
        for (std::uint32_t i = first; i < last; ++i) {
            const Compiled& c = compiled_[i];
            switch (c.kind) {
            case InstrKind::Read: {
                Value addr = eval(c.addr, regs);
                Value v = load(s, t, base, c.slot >= 0 ? c.slot : slotOf(addr), addr).first;
                startNext();
                set(c.regWord, v);
                break;
            }
            case InstrKind::Write: {
                Value v = eval(c.value, regs);
                Value addr = eval(c.addr, regs);
                if constexpr (Policy::buffered) {
                    if (merges(c, s, t, base, addr, v)) {
                        startNext(); // merged_stores.hpp
                        break;
                    }
                    if (buffered >= bound_[t] || (c.joined && buffered >= kMaxJoined)) {
                        boundHit_ = true;
                        continue;
                    }
                    startNext();
                    enqueue(next, t, addr, v, c.joined);
                    delta_.known = false; // the layout changed
                } else {
                    startNext();
                    const int slot = c.slot >= 0 ? c.slot : slotOf(addr);
                    if (slot >= 0) {
                        set(static_cast<std::size_t>(slot), v);
                    } else {
                        storeMemory(next, slot, addr, v);
                        delta_.known = false; // the pairs may have changed length
                    }
                }
                break;
            }
            case InstrKind::Local: {
                Value v = eval(c.value, regs);
                startNext();
                set(c.regWord, v);
                break;
            }
            case InstrKind::Check:
                if (eval(c.value, regs) == 0) {
                    continue;
                }
                startNext();
                break;
            case InstrKind::Lock:
                if (holder != noLockHolder || buffered != 0) {
                    continue;
                }
                startNext();
                set(lockWord_, static_cast<StateWord>(t));
                break;
            case InstrKind::Unlock:
                if (holder != static_cast<StateWord>(t) || buffered != 0) {
                    continue;
                }
                startNext();
                set(lockWord_, noLockHolder);
                break;
            case InstrKind::Atomic: // the lock, whatever the buffers hold
                if (holder != noLockHolder) {
                    continue;
                }
                startNext();
                set(lockWord_, static_cast<StateWord>(t));
                break;
            case InstrKind::EndAtomic:
                if (holder != static_cast<StateWord>(t)) {
                    continue;
                }
                startNext();
                set(lockWord_, noLockHolder);
                break;
            case InstrKind::LockFor:
            case InstrKind::UnlockFor: {
                const bool take = c.kind == InstrKind::LockFor;
                if (holder != (take ? noLockHolder : static_cast<StateWord>(t)) ||
                    !drainedFor(s, base, buffered, eval(c.addr, regs))) {
                    continue;
                }
                startNext();
                set(lockWord_, take ? static_cast<StateWord>(t) : noLockHolder);
                break;
            }
            case InstrKind::Mfence:
                if (buffered != 0) {
                    continue;
                }
                startNext();
                break;
            case InstrKind::Noop:
                startNext();
                break;
            }
            set(t, c.to);
            for (std::uint32_t w : c.dead) {
                set(w, 0);
            }
            if constexpr (!Policy::buffered) {
                if (compress_) {
                    // May take further steps (whose expansions overwrite
                    // delta_) and swaps `next` for another vector of the
                    // same length when the changes stay known.
                    StepDelta changes = delta_;
                    compressChain(next, t, nullptr, &changes);
                    delta_ = changes;
                }
            }
            ++emitted;
            const bool more = emit(StepCode::transition(c.id), std::span<const StateWord>(next));
            if (delta_.known) {
                for (std::uint32_t w : delta_.changed()) {
                    next[w] = s[w];
                }
            } else {
                nextIsCopy = false;
            }
            if (!more) {
                return -1;
            }
        }
        return emitted;
    }

    // Whether a write may be merged: never, when its thread owns its
    // constant address, or after a look at the address it computes.
    enum class Merge : std::uint8_t { Never, Owned, Check };

    struct Compiled {
        InstrKind kind;
        bool joined; // a joinwrite under TSO (under SC a write)
        Merge merge;
        StateWord to;
        std::uint32_t regWord; // state word of the target register
        int slot;              // state word of a constant address, else -1
        std::span<const ExprNode> value;
        std::span<const ExprNode> addr;
        TransitionId id;
        // The state words of the registers dead at `to`, zeroed after the
        // step (live-register reduction): a view of deadWords_, shared by
        // the transitions into `to`.
        std::span<const std::uint32_t> dead;
    };

    // The common shapes, a leaf or an operator on two leaves, without a
    // call into the general evaluator.
    [[gnu::always_inline]] Value eval(std::span<const ExprNode> e,
                                      std::span<const StateWord> regs) {
        auto isLeaf = [](const ExprNode& n) {
            return n.op == ExprOp::Const || n.op == ExprOp::Reg;
        };
        auto leaf = [&](const ExprNode& n) {
            return n.op == ExprOp::Const ? n.value : regs[n.reg.index()];
        };
        if (e.size() == 1) {
            return leaf(e[0]);
        }
        if (e.size() == 3 && isLeaf(e[1]) && isLeaf(e[2])) { // prefix order: op, first, second
            const Value a = leaf(e[1]);
            const Value b = leaf(e[2]);
            switch (e[0].op) {
            case ExprOp::Eq:
                return a == b ? 1 : 0;
            case ExprOp::Ne:
                return a != b ? 1 : 0;
            default:
                return applyOperator(e[0].op, a, b);
            }
        }
        return evaluate(e, regs, exprStack_);
    }

    // State word holding `addr`, or -1 if it lives in the sorted pairs.
    [[nodiscard]] int slotOf(Value addr) const {
        auto it = std::lower_bound(staticAddrs_.begin(), staticAddrs_.end(), addr);
        if (it != staticAddrs_.end() && *it == addr) {
            return static_cast<int>(memBase_ + static_cast<std::size_t>(it - staticAddrs_.begin()));
        }
        return -1;
    }

    // First word of thread t's buffer entries (fixedWords_ under SC, whose
    // states have no buffer lengths to read: describe() asks for a load).
    [[nodiscard]] std::size_t bufBase(std::span<const StateWord> s, std::size_t t) const {
        std::size_t base = fixedWords_;
        if constexpr (!Policy::buffered) {
            return base;
        }
        for (std::size_t u = 0; u < t; ++u) {
            base += 2 * lengthOf(s[bufLenWord_ + u]);
        }
        return base;
    }

    // First word of the memory pairs: after all buffer entries.
    [[nodiscard]] std::size_t pairsBase(std::span<const StateWord> s) const {
        if constexpr (Policy::buffered) {
            return bufBase(s, threadCount_);
        } else {
            return fixedWords_;
        }
    }

    // Entries in thread t's buffer (0 under SC).
    // Whether a buffer of `buffered` entries from word `base` holds no store
    // that one to addr would queue behind (lockfor, unlockfor).
    [[nodiscard]] static bool drainedFor(std::span<const StateWord> s, std::size_t base,
                                         std::size_t buffered, Value addr) {
        if constexpr (Policy::buffered) {
            return Policy::drainedFor(buffered, addr,
                                      [&](std::size_t i) { return s[base + 2 * i]; });
        }
        return buffered == 0;
    }

    [[nodiscard]] std::size_t bufferLength(std::span<const StateWord> s, std::size_t t) const {
        if constexpr (Policy::buffered) {
            return lengthOf(s[bufLenWord_ + t]);
        } else {
            return 0;
        }
    }

    // A buffer-length word: the length, and above it the joined bits.
    static constexpr std::size_t kMaxJoined = 31; // a joined store's entry index, at most
    [[nodiscard]] static std::size_t lengthOf(StateWord w) {
        return static_cast<std::size_t>(static_cast<std::uint64_t>(w) & 0xffffffffULL);
    }
    [[nodiscard]] static std::uint64_t joinedBits(StateWord w) {
        return static_cast<std::uint64_t>(w) >> 32;
    }
    // How many entries after entry i of thread t's buffer flush with it.
    [[nodiscard]] std::size_t joinedAfter(std::span<const StateWord> s, std::size_t t,
                                          std::size_t i) const {
        if (i >= kMaxJoined) {
            return 0; // no joined bit so far up (and no shift past 63)
        }
        std::uint64_t bits = joinedBits(s[bufLenWord_ + t]) >> i;
        std::size_t n = 0;
        for (; (bits & 1U) != 0; bits >>= 1) {
            ++n;
        }
        return n;
    }

    // The value thread t reads at addr, and whether its buffer (starting at
    // word `base`) served it.
    [[nodiscard]] std::pair<Value, bool> load(std::span<const StateWord> s, std::size_t t,
                                              std::size_t base, int slot, Value addr) const {
        if constexpr (Policy::buffered) {
            for (std::size_t i = lengthOf(s[bufLenWord_ + t]); i-- > 0;) {
                if (s[base + 2 * i] == addr) {
                    return {s[base + 2 * i + 1], true};
                }
            }
        }
        if (slot >= 0) {
            return {s[static_cast<std::size_t>(slot)], false};
        }
        std::size_t i = findPair(s, addr);
        return {(i < s.size() && s[i] == addr) ? s[i + 1] : 0, false};
    }

    [[nodiscard]] Merge mergeKind(const Transition& tr) const {
        if (!owners_ || tr.instr.kind != InstrKind::Write) {
            return Merge::Never;
        }
        const auto t = static_cast<std::int32_t>(tr.thread.index());
        if (auto a = constantValue(program_.expr(tr.instr.addr))) {
            return owners_->owner(*a) == t ? Merge::Owned : Merge::Never;
        }
        return Merge::Check;
    }

    // Whether thread t's store of v to addr is merged with the newest
    // store to addr in its buffer (merged_stores.hpp).
    [[nodiscard]] bool merges(const Compiled& c, std::span<const StateWord> s, std::size_t t,
                              std::size_t base, Value addr, Value v) const {
        if (c.merge == Merge::Never ||
            (c.merge == Merge::Check && owners_->owner(addr) != static_cast<std::int32_t>(t))) {
            return false;
        }
        for (std::size_t i = bufferLength(s, t); i-- > 0;) {
            if (s[base + 2 * i] == addr) {
                return s[base + 2 * i + 1] == v;
            }
        }
        return false;
    }

    // Buffered models only. `if constexpr` rather than a requires-clause:
    // clang 14 instantiates constrained members in the explicit
    // instantiations below even when the constraint fails.
    void enqueue(std::vector<StateWord>& s, std::size_t t, Value addr, Value v, bool joined) const {
        if constexpr (Policy::buffered) {
            const std::size_t base = bufBase(s, t);
            const std::size_t len = lengthOf(s[bufLenWord_ + t]);
            if (joined) { // TSO only: the entry goes at the end
                s[bufLenWord_ + t] = static_cast<StateWord>(
                    static_cast<std::uint64_t>(s[bufLenWord_ + t]) | (1ULL << (32 + len)));
            }
            auto addrAt = [&](std::size_t i) { return s[base + 2 * i]; };
            const std::size_t at = base + 2 * Policy::insertAt(len, addr, addrAt);
            StateWord pair[2] = {addr, v};
            s.insert(s.begin() + static_cast<std::ptrdiff_t>(at), pair, pair + 2);
            ++s[bufLenWord_ + t];
        }
    }

    // Flushes entry `entry` of thread t's buffer, and the entries joined
    // to it (TSO: entry 0 and its group, whose bits shift out).
    void flush(std::vector<StateWord>& s, std::size_t t, std::size_t entry) const {
        if constexpr (Policy::buffered) {
            const std::size_t group = 1 + joinedAfter(s, t, entry);
            const std::size_t at = bufBase(s, t) + 2 * entry;
            for (std::size_t k = 0; k < group; ++k) {
                const Value addr = s[at];
                const Value v = s[at + 1];
                s.erase(s.begin() + static_cast<std::ptrdiff_t>(at),
                        s.begin() + static_cast<std::ptrdiff_t>(at) + 2);
                // The length first: storeMemory finds the pairs behind the
                // buffers. Joined bits exist under TSO only, from entry 0.
                const auto w = static_cast<std::uint64_t>(s[bufLenWord_ + t]);
                s[bufLenWord_ + t] =
                    static_cast<StateWord>((((w >> 32) >> 1) << 32) | ((w & 0xffffffffULL) - 1));
                storeMemory(s, slotOf(addr), addr, v);
            }
        }
    }

    void storeMemory(std::vector<StateWord>& s, int slot, Value addr, Value v) const {
        if (slot >= 0) {
            s[static_cast<std::size_t>(slot)] = v;
            return;
        }
        std::size_t i = findPair(s, addr);
        bool present = i < s.size() && s[i] == addr;
        if (present && v == 0) {
            s.erase(s.begin() + static_cast<std::ptrdiff_t>(i),
                    s.begin() + static_cast<std::ptrdiff_t>(i) + 2);
        } else if (present) {
            s[i + 1] = v;
        } else if (v != 0) {
            StateWord pair[2] = {addr, v};
            s.insert(s.begin() + static_cast<std::ptrdiff_t>(i), pair, pair + 2);
        }
    }

    // Position of the first memory pair whose address is >= addr.
    [[nodiscard]] std::size_t findPair(std::span<const StateWord> s, Value addr) const {
        const std::size_t base = pairsBase(s);
        std::size_t lo = 0;
        std::size_t hi = (s.size() - base) / 2;
        while (lo < hi) {
            std::size_t mid = (lo + hi) / 2;
            if (s[base + 2 * mid] < addr) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return base + 2 * lo;
    }

    const Program& program_;
    std::size_t threadCount_;
    std::size_t lockWord_;
    std::vector<std::size_t> regBase_;
    std::vector<std::size_t> regCount_;
    std::vector<Value> staticAddrs_; // sorted
    std::size_t memBase_ = 0;
    std::size_t bufLenWord_ = 0; // first of the per-thread buffer lengths
    std::size_t fixedWords_ = 0;
    std::vector<std::size_t> bound_;
    bool boundHit_ = false;
    std::vector<Compiled> compiled_; // grouped by (thread, source state)
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> outgoing_;
    std::vector<Value> exprStack_;
    // By thread, by control state: the state words of the registers dead
    // there. Compiled::dead views them, so the semantics is not copied.
    std::vector<std::vector<std::vector<std::uint32_t>>> deadWords_;
    std::optional<StoreOwners> owners_; // TSO/PSO with --merge-stores on only
    std::optional<PorTable> por_;       // SC with --por on only
    bool compress_ = false;             // chain compression (with por_)
    StepDelta delta_;                   // of the successor being emitted
    std::vector<StateWord> chainNext_;
    std::vector<StateWord> chainState_;
};

extern template class OperationalSemantics<ScPolicy>;
extern template class OperationalSemantics<TsoPolicy>;
extern template class OperationalSemantics<PsoPolicy>;

} // namespace tsoreach::reach
