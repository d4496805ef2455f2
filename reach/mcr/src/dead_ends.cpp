#include "dead_ends.hpp"

#include <deque>

namespace tsoreach::reach::mcr {

DeadEnds::DeadEnds(const Machine& m, const Goal& goal) : m_(m), p_(m.program()), goal_(goal) {
    const Program& p = p_;
    preds_.resize(p.threads.size());
    for (std::uint32_t t = 0; t < p.threads.size(); ++t) {
        const Thread& th = p.threads[t];
        preds_[t].resize(th.stateCount());
        for (std::uint32_t s = 0; s < th.stateCount(); ++s) {
            for (TransitionId id : th.outgoingOf(StateId(s))) {
                preds_[t][p.transition(id).to.value].push_back(StateId(s));
            }
        }
    }
    for (std::size_t term = 0; term < goal.termCount(); ++term) {
        accepting_.push_back(backwardFrom(
            [&](std::uint32_t t, StateId s) { return goal.termAccepts(term, ThreadId(t), s); }));
    }
    holding_ = mustHold();
    for (std::size_t term = 0; term < goal.termCount(); ++term) {
        impossible_.push_back(twoHolders(term));
    }
    releasing_ = backwardFrom([&](std::uint32_t t, StateId s) {
        for (TransitionId id : p.threads[t].outgoingOf(s)) {
            if (releasesLock(p.transition(id).instr.kind)) {
                return true;
            }
        }
        return false;
    });
}

DeadEnds::Marks
DeadEnds::backwardFrom(const std::function<bool(std::uint32_t, StateId)>& to) const {
    Marks marks(p_.threads.size());
    for (std::uint32_t t = 0; t < p_.threads.size(); ++t) {
        marks[t].assign(p_.threads[t].stateCount(), false);
        std::deque<StateId> work;
        for (std::uint32_t s = 0; s < marks[t].size(); ++s) {
            if (to(t, StateId(s))) {
                marks[t][s] = true;
                work.push_back(StateId(s));
            }
        }
        while (!work.empty()) {
            const StateId s = work.front();
            work.pop_front();
            for (StateId q : preds_[t][s.value]) {
                if (!marks[t][q.value]) {
                    marks[t][q.value] = true;
                    work.push_back(q);
                }
            }
        }
    }
    return marks;
}

// Greatest fixpoint: a state holds the lock if every transition into it
// takes the lock, or keeps it from a state that holds it (the initial
// state does not).
DeadEnds::Marks DeadEnds::mustHold() const {
    Marks held(p_.threads.size());
    for (std::uint32_t t = 0; t < p_.threads.size(); ++t) {
        const Thread& th = p_.threads[t];
        held[t].assign(th.stateCount(), true);
        held[t][th.initial.value] = false;
        for (bool changed = true; changed;) {
            changed = false;
            for (std::uint32_t s = 0; s < th.stateCount(); ++s) {
                for (TransitionId id : th.outgoingOf(StateId(s))) {
                    const auto& tr = p_.transition(id);
                    const InstrKind k = tr.instr.kind;
                    const bool after = takesLock(k) || (!releasesLock(k) && held[t][s]);
                    if (!after && held[t][tr.to.value]) {
                        held[t][tr.to.value] = false;
                        changed = true;
                    }
                }
            }
        }
    }
    return held;
}

// Two threads of the term hold the lock in every state the term accepts.
bool DeadEnds::twoHolders(std::size_t term) const {
    std::size_t holders = 0;
    for (ThreadId t : goal_.termThreads(term)) {
        bool always = true;
        for (StateId s : goal_.termAcceptedStates(term, t)) {
            always = always && holding_[t.index()][s.value];
        }
        holders += always ? 1 : 0;
    }
    return holders >= 2;
}

bool DeadEnds::canAccept(std::size_t term, std::uint32_t t, StateId s, bool moves) const {
    return moves ? accepting_[term][t][s.value] : goal_.termAccepts(term, ThreadId(t), s);
}

bool DeadEnds::dead(const Config& c) const {
    // A holder that can never release freezes the others where they are.
    const std::int32_t h = c.holder;
    const auto holder = static_cast<std::uint32_t>(h);
    const bool frozen = h >= 0 && (!releasing_[holder][c.pc[holder].value] ||
                                   m_.blocked(holder, c.pc[holder], c.regs[holder]));
    for (std::size_t term = 0; term < goal_.termCount(); ++term) {
        bool possible = !impossible_[term];
        for (ThreadId t : goal_.termThreads(term)) {
            const std::uint32_t i = t.index();
            const bool moves = (!frozen || i == holder) && !m_.blocked(i, c.pc[i], c.regs[i]);
            possible = possible && canAccept(term, i, c.pc[i], moves);
        }
        if (possible) {
            return false;
        }
    }
    return true;
}

bool DeadEnds::deadWith(std::uint32_t t, StateId s, const std::vector<Value>& regs) const {
    const bool moves = !m_.blocked(t, s, regs);
    for (std::size_t term = 0; term < goal_.termCount(); ++term) {
        bool possible = !impossible_[term];
        for (ThreadId u : goal_.termThreads(term)) {
            possible = possible && (u.index() != t || canAccept(term, t, s, moves));
        }
        if (possible) {
            return false;
        }
    }
    return true;
}

} // namespace tsoreach::reach::mcr
