#include "tsoreach/lang/builder.hpp"

#include "tsoreach/lang/validate.hpp"

#include <algorithm>
#include <stdexcept>

namespace tsoreach {

Expr Expr::constant(Value v) {
    Expr e;
    e.nodes_.push_back({ExprOp::Const, RegId(), v, VarId()});
    return e;
}

Expr Expr::reg(RegId handle) {
    Expr e;
    e.nodes_.push_back({ExprOp::Reg, handle, 0, VarId()});
    return e;
}

Expr Expr::apply(ExprOp op, const Expr& a) {
    Expr e;
    e.nodes_.reserve(1 + a.nodes_.size());
    e.nodes_.push_back({op, RegId(), 0, VarId()});
    e.nodes_.insert(e.nodes_.end(), a.nodes_.begin(), a.nodes_.end());
    return e;
}

Expr Expr::apply(ExprOp op, const Expr& a, const Expr& b) {
    Expr e = apply(op, a);
    e.nodes_.insert(e.nodes_.end(), b.nodes_.begin(), b.nodes_.end());
    return e;
}

Expr Expr::cell(VarId var, Value addr) {
    Expr e = constant(addr);
    e.nodes_[0].var = var;
    return e;
}

Expr Expr::element(VarId var, Value base, const Expr& index) {
    if (index.nodes_.size() == 1 && index.nodes_[0].op == ExprOp::Const) {
        return cell(var, arith::add(base, index.nodes_[0].value)); // `a[2]`, as parsed
    }
    Expr e = apply(ExprOp::Add, constant(base), index);
    e.nodes_[0].var = var;
    return e;
}

Expr Expr::unnamed() const {
    Expr e = *this;
    for (ExprNode& n : e.nodes_) {
        n.var = VarId();
    }
    return e;
}

Expr Expr::prefix(std::vector<ExprNode> nodes) {
    // Operands still owed, as the parser counts them.
    std::size_t owed = 1;
    for (const ExprNode& n : nodes) {
        if (owed == 0) {
            throw std::logic_error("Expr::prefix: nodes after a complete expression");
        }
        owed = owed - 1 + static_cast<std::size_t>(arity(n.op));
    }
    if (owed != 0) {
        throw std::logic_error("Expr::prefix: an expression cut short");
    }
    Expr e;
    e.nodes_ = std::move(nodes);
    return e;
}

Instr Instr::read(RegId reg, Expr addr) {
    return {InstrKind::Read, reg, {}, std::move(addr)};
}

Instr Instr::write(Expr value, Expr addr) {
    return {InstrKind::Write, RegId(), std::move(value), std::move(addr)};
}

Instr Instr::joinWrite(Expr value, Expr addr) {
    Instr i = write(std::move(value), std::move(addr));
    i.joined = true;
    return i;
}

Instr Instr::local(RegId reg, Expr value) {
    return {InstrKind::Local, reg, std::move(value), {}};
}

Instr Instr::check(Expr cond) {
    return {InstrKind::Check, RegId(), std::move(cond), {}};
}

Instr Instr::lockFor(InstrKind kind, Expr addr) {
    if (!isLockForEdge(kind)) {
        throw std::logic_error("Instr::lockFor: not lockfor or unlockfor");
    }
    return {kind, RegId(), {}, std::move(addr)};
}

Instr Instr::plain(InstrKind kind) {
    if (kind != InstrKind::Mfence && kind != InstrKind::Noop &&
        ((!takesLock(kind) && !releasesLock(kind)) || isLockForEdge(kind))) {
        throw std::logic_error("Instr::plain: an instruction with operands");
    }
    return {kind, RegId(), {}, {}};
}

ProgramBuilder::ProgramBuilder(std::string sourceName, const StopCondition& stop) : poll_(stop) {
    prog_.sourceName = std::move(sourceName);
}

void ProgramBuilder::setMemory(MemoryLayout memory) {
    prog_.memory = std::move(memory);
}

ThreadId ProgramBuilder::addThread(std::string_view name, std::string_view initial, SourcePos pos) {
    if (open_) {
        finishThread();
    }
    open_ = true;
    states_.clear();
    regHandles_.clear();
    handleNames_.clear();
    regOfHandle_.clear();
    Thread& t = prog_.threads.emplace_back();
    t.name = std::string(name);
    t.pos = pos;
    t.initial = state(initial);
    return ThreadId(static_cast<std::uint32_t>(prog_.threads.size() - 1));
}

StateId ProgramBuilder::state(std::string_view name) {
    if (!open_) {
        throw std::logic_error("ProgramBuilder: a state outside a thread");
    }
    Thread& t = prog_.threads.back();
    if (auto it = states_.find(name); it != states_.end()) {
        return StateId(it->second);
    }
    const auto id = static_cast<std::uint32_t>(t.stateNames.size());
    states_.emplace(std::string(name), id);
    t.stateNames.emplace_back(name);
    return StateId(id);
}

std::size_t ProgramBuilder::stateCount() const {
    return open_ ? prog_.threads.back().stateCount() : 0;
}

void ProgramBuilder::addFinal(StateId s, SourcePos pos) {
    if (s.index() >= stateCount()) {
        throw std::logic_error("ProgramBuilder: a final state that is not a state");
    }
    Thread& t = prog_.threads.back();
    if (!t.isFinal(s)) {
        t.finals.push_back(s);
        t.finalPos.push_back(pos);
    }
}

RegId ProgramBuilder::reg(std::string_view name) {
    if (!open_) {
        throw std::logic_error("ProgramBuilder: a register outside a thread");
    }
    if (auto it = regHandles_.find(name); it != regHandles_.end()) {
        return RegId(it->second);
    }
    const auto handle = static_cast<std::uint32_t>(handleNames_.size());
    regHandles_.emplace(std::string(name), handle);
    handleNames_.emplace_back(name);
    regOfHandle_.emplace_back();
    return RegId(handle);
}

RegId ProgramBuilder::useReg(RegId handle) {
    if (handle.index() >= regOfHandle_.size()) {
        throw std::logic_error("ProgramBuilder: not a register handle of this thread");
    }
    RegId& id = regOfHandle_[handle.index()];
    if (!id.valid()) {
        Thread& t = prog_.threads.back();
        id = RegId(static_cast<std::uint32_t>(t.regNames.size()));
        t.regNames.push_back(handleNames_[handle.index()]);
    }
    return id;
}

ExprRef ProgramBuilder::addExpr(const Expr& e) {
    if (e.nodes().empty()) {
        throw std::logic_error("ProgramBuilder: an instruction without its operand");
    }
    auto begin = static_cast<std::uint32_t>(prog_.exprPool.size());
    for (ExprNode n : e.nodes()) {
        if (n.op == ExprOp::Reg) {
            n.reg = useReg(n.reg);
        }
        prog_.exprPool.push_back(n);
    }
    ExprRef ref{begin, static_cast<std::uint32_t>(e.nodes().size())};
    prog_.maxExprStack = std::max(prog_.maxExprStack, stackDepth(prog_.expr(ref)));
    return ref;
}

TransitionId ProgramBuilder::addTransition(StateId from, StateId to, const Instr& instr,
                                           SourcePos pos) {
    if (!open_ || from.index() >= stateCount() || to.index() >= stateCount()) {
        throw std::logic_error("ProgramBuilder: a transition between states it does not know");
    }
    if (++added_ % 256 == 0) {
        poll_.throwIfStopped();
    }
    Transition tr;
    tr.thread = ThreadId(static_cast<std::uint32_t>(prog_.threads.size() - 1));
    tr.from = from;
    tr.to = to;
    tr.pos = pos;
    tr.instr.kind = instr.kind;
    // Operands in the order they are written, which numbers the registers.
    switch (instr.kind) {
    case InstrKind::Read:
        tr.instr.reg = useReg(instr.reg);
        tr.instr.addr = addExpr(instr.addr);
        break;
    case InstrKind::Write:
        tr.instr.value = addExpr(instr.value);
        tr.instr.addr = addExpr(instr.addr);
        tr.instr.joined = instr.joined;
        break;
    case InstrKind::Local:
        tr.instr.reg = useReg(instr.reg);
        tr.instr.value = addExpr(instr.value);
        break;
    case InstrKind::Check:
        tr.instr.value = addExpr(instr.value);
        break;
    case InstrKind::LockFor:
    case InstrKind::UnlockFor:
        tr.instr.addr = addExpr(instr.addr);
        break;
    case InstrKind::Mfence:
    case InstrKind::Noop:
    case InstrKind::Lock:
    case InstrKind::Unlock:
    case InstrKind::Atomic:
    case InstrKind::EndAtomic:
        break;
    }
    const TransitionId id(static_cast<std::uint32_t>(prog_.transitions.size()));
    prog_.transitions.push_back(tr);
    prog_.threads.back().transitions.push_back(id);
    return id;
}

Expr ProgramBuilder::copy(const Program& src, const Thread& t, ExprRef e) {
    Expr out;
    out.nodes_.assign(src.expr(e).begin(), src.expr(e).end());
    for (ExprNode& n : out.nodes_) {
        if (n.op == ExprOp::Reg) {
            n.reg = reg(t.regNames[n.reg.index()]);
        }
    }
    return out;
}

Instr ProgramBuilder::copy(const Program& src, const Transition& tr) {
    const Thread& t = src.thread(tr.thread);
    Instr out;
    out.kind = tr.instr.kind;
    if (tr.instr.kind == InstrKind::Read || tr.instr.kind == InstrKind::Local) {
        out.reg = reg(t.regNames[tr.instr.reg.index()]);
    }
    if (!tr.instr.value.empty()) {
        out.value = copy(src, t, tr.instr.value);
    }
    if (!tr.instr.addr.empty()) {
        out.addr = copy(src, t, tr.instr.addr);
    }
    return out;
}

// The parser numbers states by first mention in the order initial, finals,
// transitions (source, then target); the builder numbers them by first call
// of state(), so the two agree exactly when this holds.
void ProgramBuilder::finishThread() {
    Thread& t = prog_.threads.back();
    std::uint32_t next = 0;
    bool canonical = true;
    auto mention = [&](StateId s) {
        if (s.value == next) {
            ++next;
        } else {
            canonical = canonical && s.value < next;
        }
    };
    mention(t.initial);
    for (StateId f : t.finals) {
        mention(f);
    }
    for (TransitionId id : t.transitions) {
        mention(prog_.transitions[id.index()].from);
        mention(prog_.transitions[id.index()].to);
    }
    if (!canonical || next != t.stateCount()) {
        throw std::logic_error("ProgramBuilder: the states of thread '" + t.name +
                               "' are not numbered initial, finals, then by first use");
    }
    indexOutgoing(t, prog_.transitions);
    open_ = false;
}

Program ProgramBuilder::build() {
    if (open_) {
        finishThread();
    }
    checkWellFormed(prog_);
    return std::move(prog_);
}

} // namespace tsoreach
