// unassignedRegisterReads (validate.hpp): a forward "definitely assigned"
// analysis per thread over its control-flow graph. A state's set is the
// registers every path from the initial state to it assigns (the
// intersection over its incoming edges of the source's set plus the edge's
// assignment), computed by a worklist from the initial state's empty set;
// states no path reaches keep no set and give no warning. The sets are bit
// words of 64 registers at a time, so the memory is one word per state
// however many registers a thread has.

#include "tsoreach/lang/validate.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>

namespace tsoreach {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

// The registers each transition of a thread reads and assigns, as dense
// indices of the registers the thread reads at all.
struct RegisterUse {
    std::vector<std::vector<std::uint32_t>> reads; // by position in Thread::transitions
    std::vector<std::uint32_t> dense;              // by RegId; kNone: never read
    std::vector<RegId> readRegs;                   // dense index -> register
    std::vector<bool> assignedSomewhere;           // by dense index

    // The dense index of the register `in` assigns; kNone: none, or one never read.
    [[nodiscard]] std::uint32_t assigns(const Instruction& in) const {
        const bool assigning = in.kind == InstrKind::Read || in.kind == InstrKind::Local;
        return assigning ? dense[in.reg.index()] : kNone;
    }
};

void addReads(const Program& p, ExprRef e, RegisterUse& use, std::vector<std::uint32_t>& out) {
    for (const ExprNode& n : p.expr(e)) {
        if (n.op != ExprOp::Reg) {
            continue;
        }
        std::uint32_t& d = use.dense[n.reg.index()];
        if (d == kNone) {
            d = static_cast<std::uint32_t>(use.readRegs.size());
            use.readRegs.push_back(n.reg);
        }
        if (std::find(out.begin(), out.end(), d) == out.end()) {
            out.push_back(d);
        }
    }
}

RegisterUse registerUse(const Program& p, const Thread& th) {
    RegisterUse use;
    use.dense.assign(th.regCount(), kNone);
    for (TransitionId id : th.transitions) {
        const Instruction& in = p.transition(id).instr;
        std::vector<std::uint32_t> reads;
        addReads(p, in.value, use, reads);
        addReads(p, in.addr, use, reads);
        use.reads.push_back(std::move(reads));
    }
    use.assignedSomewhere.assign(use.readRegs.size(), false);
    for (TransitionId id : th.transitions) {
        if (const std::uint32_t d = use.assigns(p.transition(id).instr); d != kNone) {
            use.assignedSomewhere[d] = true;
        }
    }
    return use;
}

// For the registers of dense indices [base, base + 64): the first transition
// (position in Thread::transitions) that may read each one unassigned.
void firstUnassignedReads(const Program& p, const Thread& th, const RegisterUse& use,
                          std::uint32_t base, StopPoll& poll, std::vector<std::uint32_t>& first) {
    const auto bit = [&](std::uint32_t d) {
        return d >= base && d - base < 64 ? std::uint64_t{1} << (d - base) : std::uint64_t{0};
    };
    std::vector<std::uint64_t> assigned(th.stateCount(), 0);
    std::vector<bool> reached(th.stateCount(), false);
    std::vector<bool> queued(th.stateCount(), false);
    std::deque<std::uint32_t> work{th.initial.value};
    reached[th.initial.index()] = true;
    queued[th.initial.index()] = true;
    for (std::size_t steps = 0; !work.empty(); ++steps) {
        if (steps % 256 == 0) {
            poll.throwIfStopped();
        }
        const std::uint32_t s = work.front();
        work.pop_front();
        queued[s] = false;
        for (TransitionId id : th.outgoingOf(StateId(s))) {
            const std::uint64_t out = assigned[s] | bit(use.assigns(p.transition(id).instr));
            const std::uint32_t to = p.transition(id).to.value;
            const std::uint64_t next = reached[to] ? assigned[to] & out : out;
            if (!reached[to] || next != assigned[to]) {
                reached[to] = true;
                assigned[to] = next;
                if (!queued[to]) {
                    queued[to] = true;
                    work.push_back(to);
                }
            }
        }
    }
    for (std::size_t i = 0; i < th.transitions.size(); ++i) {
        const std::uint32_t from = p.transition(th.transitions[i]).from.value;
        if (!reached[from]) {
            continue;
        }
        for (std::uint32_t d : use.reads[i]) {
            if ((bit(d) & ~assigned[from]) != 0 && first[d] == kNone) {
                first[d] = static_cast<std::uint32_t>(i);
            }
        }
    }
}

} // namespace

std::vector<Warning> unassignedRegisterReads(const Program& p, const StopCondition& stop) {
    std::vector<Warning> out;
    StopPoll poll(stop);
    for (const Thread& th : p.threads) {
        const RegisterUse use = registerUse(p, th);
        std::vector<std::uint32_t> first(use.readRegs.size(), kNone);
        for (std::uint32_t base = 0; base < use.readRegs.size(); base += 64) {
            firstUnassignedReads(p, th, use, base, poll, first);
        }
        // In the order of the transitions, then of the registers' first reads.
        std::vector<std::uint32_t> order;
        for (std::uint32_t d = 0; d < first.size(); ++d) {
            if (first[d] != kNone) {
                order.push_back(d);
            }
        }
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return first[a] < first[b]; });
        for (std::uint32_t d : order) {
            const std::string& reg = th.regNames[use.readRegs[d].index()];
            const std::string why =
                use.assignedSomewhere[d]
                    ? "some path from the initial state '" + th.stateNames[th.initial.index()] +
                          "' reaches this transition without assigning it (registers start at 0)"
                    : "no instruction of thread '" + th.name + "' assigns it, so it is always 0";
            out.push_back({p.transition(th.transitions[first[d]]).pos,
                           "register '" + reg + "' may be read before it is assigned: " + why});
        }
    }
    return out;
}

} // namespace tsoreach
