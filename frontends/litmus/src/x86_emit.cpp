#include "x86_emit.hpp"

#include <vector>

namespace tsoreach::litmus {

namespace {

using K = Operand::Kind;

// Expressions of one instruction, at its width.
class Values {
  public:
    Values(const EmitContext& c, const Insn& in) : c_(c), width_(in.width) {}

    // `e` kept at the width: modulo 2^32 for 32 bits.
    [[nodiscard]] Expr fit(const Expr& e) const {
        return width_ == 32 ? Expr::apply(ExprOp::BitAnd, e, Expr::constant(0xFFFFFFFF)) : e;
    }
    // An immediate or a register operand's value at the width.
    [[nodiscard]] Expr value(const Operand& o) const {
        return o.kind == K::Imm ? Expr::constant(fitWidth(o.imm, width_)) : fit(reg(o.name));
    }
    [[nodiscard]] Expr reg(const std::string& name) const { return Expr::reg(c_.b.reg(name)); }
    [[nodiscard]] Expr cell(const Operand& o) const {
        const VarId v = c_.memory.find(o.name);
        return Expr::cell(v, c_.memory.var(v).base);
    }

  private:
    const EmitContext& c_;
    int width_;
};

// The steps of an instruction without a branch, in order.
std::vector<Instr> straightSteps(const EmitContext& c, const Insn& in) {
    const Values v(c, in);
    const RegId tmp = c.b.reg(c.tmp);
    const Operand& dst = in.ops.empty() ? Operand{} : in.ops[0];
    switch (in.mn) {
    case Mn::Mov:
        if (dst.kind == K::Mem) {
            return {Instr::write(v.value(in.ops[1]), v.cell(dst))};
        }
        if (in.ops[1].kind == K::Mem) { // the cell holds the value at its width
            return {Instr::read(c.b.reg(dst.name), v.cell(in.ops[1]))};
        }
        return {Instr::local(c.b.reg(dst.name), v.value(in.ops[1]))};
    case Mn::Mfence:
        return {Instr::plain(InstrKind::Mfence)};
    case Mn::Lfence:
    case Mn::Nop:
        return {Instr::plain(InstrKind::Noop)};
    case Mn::Xchg: {
        const Operand& r = in.ops[0].kind == K::Reg ? in.ops[0] : in.ops[1];
        const Operand& m = in.ops[0].kind == K::Mem ? in.ops[0] : in.ops[1];
        return {Instr::read(tmp, v.cell(m)), Instr::write(v.value(r), v.cell(m)),
                Instr::local(c.b.reg(r.name), Expr::reg(tmp))};
    }
    case Mn::Add:
    case Mn::Sub:
    case Mn::Inc:
    case Mn::Dec: {
        const ExprOp op = in.mn == Mn::Add || in.mn == Mn::Inc ? ExprOp::Add : ExprOp::Sub;
        const Expr by = in.ops.size() == 2 ? v.value(in.ops[1]) : Expr::constant(1);
        if (dst.kind == K::Reg) {
            return {Instr::local(c.b.reg(dst.name), v.fit(Expr::apply(op, v.reg(dst.name), by)))};
        }
        return {Instr::read(tmp, v.cell(dst)),
                Instr::write(v.fit(Expr::apply(op, Expr::reg(tmp), by)), v.cell(dst))};
    }
    case Mn::Xadd:
        return {Instr::read(tmp, v.cell(dst)),
                Instr::write(v.fit(Expr::apply(ExprOp::Add, Expr::reg(tmp), v.value(in.ops[1]))),
                             v.cell(dst)),
                Instr::local(c.b.reg(in.ops[1].name), Expr::reg(tmp))};
    case Mn::Cmpxchg:
        break;
    }
    return {};
}

// Adds `steps` from `from`, through new states, to `to`.
void chain(const EmitContext& c, const std::vector<Instr>& steps, std::string from,
           const std::string& to, int& k) {
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string next =
            i + 1 == steps.size() ? to : "r" + std::to_string(c.row) + "." + std::to_string(++k);
        c.b.addTransition(c.b.state(from), c.b.state(next), steps[i], c.pos);
        from = next;
    }
}

// CMPXCHG [m],src: tmp := [m]; if tmp equals the accumulator, [m] := src,
// else the accumulator := tmp. Two branches from `test` that meet at `join`.
void emitCmpxchg(const EmitContext& c, const Insn& in, const std::string& test,
                 const std::string& join, int& k) {
    const Values v(c, in);
    const Expr tmp = v.reg(c.tmp);
    const Expr acc = v.fit(v.reg(c.accumulator));
    const auto inner = [&] { return "r" + std::to_string(c.row) + "." + std::to_string(++k); };
    const std::string equal = inner();
    const std::string differ = inner();
    c.b.addTransition(c.b.state(test), c.b.state(equal),
                      Instr::check(Expr::apply(ExprOp::Eq, tmp, acc)), c.pos);
    c.b.addTransition(c.b.state(equal), c.b.state(join),
                      Instr::write(v.value(in.ops[1]), v.cell(in.ops[0])), c.pos);
    c.b.addTransition(c.b.state(test), c.b.state(differ),
                      Instr::check(Expr::apply(ExprOp::Ne, tmp, acc)), c.pos);
    c.b.addTransition(c.b.state(differ), c.b.state(join), Instr::local(c.b.reg(c.accumulator), tmp),
                      c.pos);
}

} // namespace

void emitInstruction(const EmitContext& c, const Insn& in, const std::string& from,
                     const std::string& to) {
    const bool locked = in.locked || in.mn == Mn::Xchg; // XCHG with memory always locks
    int k = 0;
    const auto inner = [&] { return "r" + std::to_string(c.row) + "." + std::to_string(++k); };
    std::string at = from;
    if (locked) {
        const std::string next = inner();
        c.b.addTransition(c.b.state(at), c.b.state(next), Instr::plain(InstrKind::Lock), c.pos);
        at = next;
    }
    const std::string end = locked ? inner() : to;
    if (in.mn == Mn::Cmpxchg) {
        const std::string test = inner();
        chain(c, {Instr::read(c.b.reg(c.tmp), Values(c, in).cell(in.ops[0]))}, at, test, k);
        emitCmpxchg(c, in, test, end, k);
    } else {
        chain(c, straightSteps(c, in), at, end, k);
    }
    if (locked) {
        c.b.addTransition(c.b.state(end), c.b.state(to), Instr::plain(InstrKind::Unlock), c.pos);
    }
}

} // namespace tsoreach::litmus
