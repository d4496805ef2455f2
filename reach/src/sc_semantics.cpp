#include "sc_semantics.hpp"

namespace tsoreach::reach {

ScSemantics::ScSemantics(const Program& p)
    : program_(p), threadCount_(p.threads.size()), lockWord_(p.threads.size()),
      exprStack_(p.maxExprStack) {
    std::size_t word = lockWord_ + 1;
    for (const Thread& t : p.threads) {
        regBase_.push_back(word);
        regCount_.push_back(t.regCount());
        word += t.regCount();
    }
    for (const Transition& tr : p.transitions) {
        if (accessesMemory(tr.instr.kind)) {
            if (auto a = constantValue(p.expr(tr.instr.addr))) {
                staticAddrs_.push_back(*a);
            }
        }
    }
    std::sort(staticAddrs_.begin(), staticAddrs_.end());
    staticAddrs_.erase(std::unique(staticAddrs_.begin(), staticAddrs_.end()), staticAddrs_.end());
    memBase_ = word;
    fixedWords_ = memBase_ + staticAddrs_.size();

    outgoing_.resize(threadCount_);
    for (std::size_t t = 0; t < threadCount_; ++t) {
        const Thread& th = p.threads[t];
        outgoing_[t].resize(th.stateCount());
        for (std::size_t s = 0; s < th.stateCount(); ++s) {
            auto first = static_cast<std::uint32_t>(compiled_.size());
            for (TransitionId id : th.outgoingOf(StateId(static_cast<std::uint32_t>(s)))) {
                const Transition& tr = p.transition(id);
                Compiled c{};
                c.kind = tr.instr.kind;
                c.to = static_cast<StateWord>(tr.to.index());
                c.regWord = tr.instr.reg.valid()
                                ? static_cast<std::uint32_t>(regBase_[t] + tr.instr.reg.index())
                                : 0;
                c.slot = -1;
                c.value = p.expr(tr.instr.value);
                c.addr = p.expr(tr.instr.addr);
                if (accessesMemory(tr.instr.kind)) {
                    if (auto a = constantValue(c.addr)) {
                        c.slot = slotOf(*a);
                    }
                }
                c.id = id;
                compiled_.push_back(c);
            }
            outgoing_[t][s] = {first, static_cast<std::uint32_t>(compiled_.size())};
        }
    }
}

void ScSemantics::initialState(std::vector<StateWord>& out) const {
    out.assign(fixedWords_, 0);
    for (std::size_t t = 0; t < threadCount_; ++t) {
        out[t] = static_cast<StateWord>(program_.threads[t].initial.index());
    }
    out[lockWord_] = noLockHolder;
}

TraceStep ScSemantics::describe(std::span<const StateWord> s, TransitionId id) {
    const Transition& tr = program_.transition(id);
    const std::size_t t = tr.thread.index();
    const std::span<const StateWord> regs = s.subspan(regBase_[t], regCount_[t]);
    TraceStep step;
    step.kind = StepKind::Instruction;
    step.thread = tr.thread;
    step.transition = id;
    switch (tr.instr.kind) {
    case InstrKind::Read: {
        Value addr = eval(program_.expr(tr.instr.addr), regs);
        step.addr = addr;
        step.value = load(s, slotOf(addr), addr);
        break;
    }
    case InstrKind::Write:
        step.value = eval(program_.expr(tr.instr.value), regs);
        step.addr = eval(program_.expr(tr.instr.addr), regs);
        break;
    case InstrKind::Local:
        step.value = eval(program_.expr(tr.instr.value), regs);
        break;
    default:
        break;
    }
    return step;
}

} // namespace tsoreach::reach
