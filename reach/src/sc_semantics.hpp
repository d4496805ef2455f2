#pragma once
// The SC memory-model policy for the explicit engine: the state encoding and
// the successor relation of language.md under sequential consistency.
//
// State words, in order:
//   pc of every thread | lock holder (-1: free) | registers, thread by thread |
//   memory cells whose address is a constant somewhere in the program |
//   (address, value) pairs of every other non-zero cell, sorted by address.
// Cells that hold 0 are left out of the pairs, so equal memories encode
// equally and programs that compute addresses still have canonical states.

#include "state_store.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/trace.hpp"

#include <algorithm>
#include <span>
#include <vector>

namespace tsoreach::reach {

class ScSemantics {
  public:
    static constexpr StateWord noLockHolder = -1;

    explicit ScSemantics(const Program& p);

    [[nodiscard]] std::size_t threadCount() const { return threadCount_; }
    void initialState(std::vector<StateWord>& out) const;

    [[nodiscard]] bool isGoal(const Goal& g, std::span<const StateWord> s) const {
        return g.satisfiedBy(s);
    }

    // Calls emit(TransitionId, successor) for every enabled transition until
    // emit returns false. The successor span is only valid during the call,
    // and `s` must not alias storage that emit may reallocate.
    template <class Emit>
    void forEachSuccessor(std::span<const StateWord> s, std::vector<StateWord>& next, Emit&& emit) {
        const StateWord holder = s[lockWord_];
        for (std::size_t t = 0; t < threadCount_; ++t) {
            if (holder != noLockHolder && holder != static_cast<StateWord>(t)) {
                continue; // the lock holder runs alone
            }
            const auto pc = static_cast<std::size_t>(s[t]);
            const std::span<const StateWord> regs = s.subspan(regBase_[t], regCount_[t]);
            const auto [first, last] = outgoing_[t][pc];
            for (std::uint32_t i = first; i < last; ++i) {
                const Compiled& c = compiled_[i];
                switch (c.kind) {
                case InstrKind::Read: {
                    Value addr = eval(c.addr, regs);
                    Value v = load(s, c.slot >= 0 ? c.slot : slotOf(addr), addr);
                    next.assign(s.begin(), s.end());
                    next[c.regWord] = v;
                    break;
                }
                case InstrKind::Write: {
                    Value v = eval(c.value, regs);
                    Value addr = eval(c.addr, regs);
                    next.assign(s.begin(), s.end());
                    store(next, c.slot >= 0 ? c.slot : slotOf(addr), addr, v);
                    break;
                }
                case InstrKind::Local: {
                    Value v = eval(c.value, regs);
                    next.assign(s.begin(), s.end());
                    next[c.regWord] = v;
                    break;
                }
                case InstrKind::Check:
                    if (eval(c.value, regs) == 0) {
                        continue;
                    }
                    next.assign(s.begin(), s.end());
                    break;
                case InstrKind::Lock:
                    if (holder != noLockHolder) {
                        continue;
                    }
                    next.assign(s.begin(), s.end());
                    next[lockWord_] = static_cast<StateWord>(t);
                    break;
                case InstrKind::Unlock:
                    if (holder != static_cast<StateWord>(t)) {
                        continue;
                    }
                    next.assign(s.begin(), s.end());
                    next[lockWord_] = noLockHolder;
                    break;
                case InstrKind::Mfence:
                case InstrKind::Noop:
                    next.assign(s.begin(), s.end());
                    break;
                }
                next[t] = c.to;
                if (!emit(c.id, std::span<const StateWord>(next))) {
                    return;
                }
            }
        }
    }

    // The trace step of taking `id` in state `s` (addresses and values).
    [[nodiscard]] TraceStep describe(std::span<const StateWord> s, TransitionId id);

  private:
    struct Compiled {
        InstrKind kind;
        StateWord to;
        std::uint32_t regWord; // state word of the target register
        int slot;              // state word of a constant address, else -1
        std::span<const ExprNode> value;
        std::span<const ExprNode> addr;
        TransitionId id;
    };

    Value eval(std::span<const ExprNode> e, std::span<const StateWord> regs) {
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

    [[nodiscard]] Value load(std::span<const StateWord> s, int slot, Value addr) const {
        if (slot >= 0) {
            return s[static_cast<std::size_t>(slot)];
        }
        std::size_t i = findPair(s, addr);
        return (i < s.size() && s[i] == addr) ? s[i + 1] : 0;
    }

    void store(std::vector<StateWord>& s, int slot, Value addr, Value v) const {
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

    // Position of the first pair whose address is >= addr.
    [[nodiscard]] std::size_t findPair(std::span<const StateWord> s, Value addr) const {
        std::size_t lo = 0;
        std::size_t hi = (s.size() - fixedWords_) / 2;
        while (lo < hi) {
            std::size_t mid = (lo + hi) / 2;
            if (s[fixedWords_ + 2 * mid] < addr) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return fixedWords_ + 2 * lo;
    }

    const Program& program_;
    std::size_t threadCount_;
    std::size_t lockWord_;
    std::vector<std::size_t> regBase_;
    std::vector<std::size_t> regCount_;
    std::vector<Value> staticAddrs_; // sorted
    std::size_t memBase_ = 0;
    std::size_t fixedWords_ = 0;
    std::vector<Compiled> compiled_; // grouped by (thread, source state)
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> outgoing_;
    std::vector<Value> exprStack_;
};

} // namespace tsoreach::reach
