#include "tsoreach/lang/printer.hpp"

namespace tsoreach {

std::string printExpr(const Program& p, const Thread& t, ExprRef e) {
    std::string out;
    for (const ExprNode& n : p.expr(e)) {
        if (!out.empty()) {
            out += ' ';
        }
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
    return out;
}

std::string printInstruction(const Program& p, const Transition& tr) {
    const Thread& t = p.thread(tr.thread);
    const Instruction& in = tr.instr;
    std::string out(keyword(in.kind));
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
    std::string out;
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
