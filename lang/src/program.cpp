#include "tsoreach/lang/program.hpp"

#include "tsoreach/lang/tokens.hpp"

#include <algorithm>
#include <unordered_map>

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

namespace {

void checkVars(const Program& p) {
    const MemoryLayout& m = p.memory;
    std::unordered_map<std::string_view, const MemoryVar*> seen;
    Value next = 0;
    for (const MemoryVar& v : m.vars) {
        auto fail = [&](const std::string& what) {
            throw InputError(p.sourceName, v.pos, "memory variable '" + v.name + "': " + what);
        };
        if (!detail::isMemoryNameToken(v.name)) {
            fail("the name is not a memory-name token");
        }
        if (!seen.emplace(v.name, &v).second) {
            fail("declared twice");
        }
        if (v.base != next || v.size < 1 || (!v.array && v.size != 1) ||
            v.size > (Value{1} << 62) - v.base) {
            fail("not laid out after the previous variable, or a bad size");
        }
        if (v.init.size() > static_cast<std::size_t>(v.size) ||
            (!v.init.empty() && v.init.back() == 0)) {
            fail("more initial values than cells, or trailing zeros");
        }
        next = v.base + v.size;
    }
    for (const Thread& t : p.threads) {
        for (const std::string& r : t.regNames) {
            if (m.find(r).valid() || (!m.empty() && r.find_first_of("[]") != std::string::npos)) {
                throw InputError(p.sourceName, t.pos,
                                 "thread '" + t.name + "': register '" + r +
                                     "' has the name of a memory variable or a bracket");
            }
        }
    }
}

bool plainNodes(std::span<const ExprNode> nodes) {
    return std::none_of(nodes.begin(), nodes.end(),
                        [](const ExprNode& n) { return n.var.valid(); });
}

// An address operand: named at most at its root, as the parser makes it.
bool wellNamedAddress(const MemoryLayout& m, std::span<const ExprNode> e) {
    if (e.empty() || !e[0].var.valid()) {
        return plainNodes(e);
    }
    if (e[0].var.index() >= m.vars.size()) {
        return false;
    }
    const MemoryVar& v = m.var(e[0].var);
    if (e[0].op == ExprOp::Const) {
        return e.size() == 1 && v.holds(e[0].value);
    }
    if (e[0].op != ExprOp::Add || !v.array || e.size() < 3 || e[1].op != ExprOp::Const ||
        e[1].var.valid() || e[1].value != v.base || !plainNodes(e.subspan(2))) {
        return false;
    }
    // A constant index is in range, and a single integer is the cell
    // itself, as the parser reads them.
    const std::optional<Value> k = constantValue(e.subspan(2));
    return !k || (e.size() > 3 && *k >= 0 && *k < v.size);
}

} // namespace

void checkMemoryWellFormed(const Program& p) {
    checkVars(p);
    for (const Transition& tr : p.transitions) {
        if (!plainNodes(p.expr(tr.instr.value)) ||
            !wellNamedAddress(p.memory, p.expr(tr.instr.addr))) {
            throw InputError(p.sourceName, tr.pos,
                             "thread '" + p.thread(tr.thread).name +
                                 "': a memory name that is not a declared cell or not a whole "
                                 "address operand");
        }
    }
}

bool operator==(const Program& a, const Program& b) {
    if (a.memory != b.memory || a.threads != b.threads ||
        a.transitions.size() != b.transitions.size()) {
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
