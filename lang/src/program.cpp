#include "tsoreach/lang/program.hpp"

#include <algorithm>

namespace tsoreach {

bool Thread::isFinal(StateId s) const {
    return std::find(finals.begin(), finals.end(), s) != finals.end();
}

ThreadId Program::findThread(std::string_view name) const {
    for (std::size_t i = 0; i < threads.size(); ++i) {
        if (threads[i].name == name) {
            return ThreadId(static_cast<std::uint32_t>(i));
        }
    }
    return ThreadId::invalid();
}

bool Program::hasFinals() const {
    return std::any_of(threads.begin(), threads.end(),
                       [](const Thread& t) { return !t.finals.empty(); });
}

namespace {
template <class Names> std::uint32_t indexOf(const Names& names, std::string_view name) {
    auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? Id<void>::invalidValue
                             : static_cast<std::uint32_t>(it - names.begin());
}

bool sameExpr(const Program& a, ExprRef ea, const Program& b, ExprRef eb) {
    auto x = a.expr(ea);
    auto y = b.expr(eb);
    return std::equal(x.begin(), x.end(), y.begin(), y.end());
}
} // namespace

void indexOutgoing(Thread& t, std::span<const Transition> transitions) {
    // A counting sort by source state.
    t.outgoingBegin.assign(t.stateCount() + 1, 0);
    for (TransitionId id : t.transitions) {
        ++t.outgoingBegin[transitions[id.index()].from.index() + 1];
    }
    for (std::size_t s = 0; s < t.stateCount(); ++s) {
        t.outgoingBegin[s + 1] += t.outgoingBegin[s];
    }
    t.outgoing.resize(t.transitions.size());
    std::vector<std::uint32_t> fill(t.outgoingBegin.begin(), t.outgoingBegin.end() - 1);
    for (TransitionId id : t.transitions) {
        t.outgoing[fill[transitions[id.index()].from.index()]++] = id;
    }
}

StateId findState(const Thread& t, std::string_view name) {
    return StateId(indexOf(t.stateNames, name));
}

RegId findReg(const Thread& t, std::string_view name) {
    return RegId(indexOf(t.regNames, name));
}

bool operator==(const Program& a, const Program& b) {
    if (a.threads != b.threads || a.transitions.size() != b.transitions.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.transitions.size(); ++i) {
        const Transition& x = a.transitions[i];
        const Transition& y = b.transitions[i];
        if (x.thread != y.thread || x.from != y.from || x.to != y.to ||
            x.instr.kind != y.instr.kind || x.instr.reg != y.instr.reg ||
            !sameExpr(a, x.instr.value, b, y.instr.value) ||
            !sameExpr(a, x.instr.addr, b, y.instr.addr)) {
            return false;
        }
    }
    return true;
}

} // namespace tsoreach
