#include "tsoreach/lang/printer.hpp"

namespace tsoreach {

namespace {

// Appends `nodes` as written, separated by spaces.
void printNodes(std::string& out, const Thread& t, std::span<const ExprNode> nodes) {
    bool first = true;
    for (const ExprNode& n : nodes) {
        if (!first) {
            out += ' ';
        }
        first = false;
        switch (n.op) {
        case ExprOp::Const:
            out += std::to_string(n.value);
            break;
        case ExprOp::Reg:
            out += t.regNames[n.reg.index()];
            break;
        default:
            out += spelling(n.op);
            break;
        }
    }
}

// The initial values of a variable as the declaration writes them.
std::string printInit(const MemoryVar& v) {
    if (v.init.empty()) {
        return {};
    }
    if (!v.array) {
        return " = " + std::to_string(v.init[0]);
    }
    std::string out = " = {";
    for (std::size_t k = 0; k < v.init.size(); ++k) {
        out += (k > 0 ? ", " : "") + std::to_string(v.init[k]);
    }
    return out + "}";
}

} // namespace

std::string printExpr(const Program& p, const Thread& t, ExprRef e) {
    const std::span<const ExprNode> nodes = p.expr(e);
    std::string out;
    if (!nodes.empty() && nodes[0].var.valid()) {
        // A named address (checkMemoryWellFormed): `x`, `flag[2]` or `flag[e]`.
        const MemoryVar& v = p.memory.var(nodes[0].var);
        if (nodes[0].op == ExprOp::Const) {
            return v.array ? p.memory.cellName(nodes[0].value) : v.name;
        }
        out = v.name + "[";
        printNodes(out, t, nodes.subspan(2));
        return out + "]";
    }
    printNodes(out, t, nodes);
    return out;
}

std::string printMemory(const Program& p) {
    if (p.memory.empty()) {
        return {};
    }
    std::string out = "memory";
    for (const MemoryVar& v : p.memory.vars) {
        out += ' ' + v.name;
        if (v.array) {
            out += '[' + std::to_string(v.size) + ']';
        }
        out += printInit(v);
    }
    return out + '\n';
}

std::string printInstruction(const Program& p, const Transition& tr) {
    const Thread& t = p.thread(tr.thread);
    const Instruction& in = tr.instr;
    std::string out(instructionKeyword(in));
    switch (in.kind) {
    case InstrKind::Read:
        out += ' ' + t.regNames[in.reg.index()] + ' ' + printExpr(p, t, in.addr);
        break;
    case InstrKind::Write:
        out += ' ' + printExpr(p, t, in.value) + ' ' + printExpr(p, t, in.addr);
        break;
    case InstrKind::Local:
        out += ' ' + t.regNames[in.reg.index()] + ' ' + printExpr(p, t, in.value);
        break;
    case InstrKind::Check:
        out += ' ' + printExpr(p, t, in.value);
        break;
    case InstrKind::LockFor:
    case InstrKind::UnlockFor:
        out += ' ' + printExpr(p, t, in.addr);
        break;
    case InstrKind::Mfence:
    case InstrKind::Noop:
    case InstrKind::Lock:
    case InstrKind::Unlock:
    case InstrKind::Atomic:
    case InstrKind::EndAtomic:
        break;
    }
    return out;
}

std::string printProgram(const Program& p) {
    std::string out = printMemory(p);
    for (const Thread& t : p.threads) {
        if (!out.empty()) {
            out += '\n';
        }
        out += "thread " + t.name + '\n';
        out += "initial " + t.stateNames[t.initial.index()] + '\n';
        for (StateId f : t.finals) {
            out += "final " + t.stateNames[f.index()] + '\n';
        }
        for (TransitionId id : t.transitions) {
            const Transition& tr = p.transition(id);
            out += "transition " + t.stateNames[tr.from.index()] + ' ' +
                   t.stateNames[tr.to.index()] + ' ' + printInstruction(p, tr) + '\n';
        }
        out += "end\n";
    }
    return out;
}

} // namespace tsoreach
