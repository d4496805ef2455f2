#include "tsoreach/reach/replay.hpp"

#include "tsoreach/lang/printer.hpp"

#include <map>
#include <optional>
#include <string>

namespace tsoreach::reach {

namespace {

// The plainest possible machine state: a map for memory, a vector of
// registers per thread. Speed does not matter here; obviousness does.
struct Machine {
    std::vector<StateId> pc;
    std::vector<std::vector<Value>> regs;
    std::map<Value, Value> memory;
    std::optional<ThreadId> lockHolder;
};

std::string show(std::optional<Value> v) {
    return v ? std::to_string(*v) : "none";
}

class Replayer {
  public:
    Replayer(const Program& p, const Goal& g) : p_(p), g_(g), stack_(p.maxExprStack) {
        for (const Thread& t : p.threads) {
            m_.pc.push_back(t.initial);
            m_.regs.emplace_back(t.regCount(), 0);
        }
    }

    ReplayOutcome run(const Trace& trace) {
        if (trace.model != MemoryModel::SC) {
            return fail(0, "replay under --model " + std::string(name(trace.model)) +
                               " is not supported yet");
        }
        for (std::size_t i = 0; i < trace.steps.size(); ++i) {
            if (std::optional<std::string> err = step(trace.steps[i])) {
                return fail(i + 1, *err);
            }
        }
        for (ThreadId t : g_.constrainedThreads()) {
            if (!g_.accepts(t, m_.pc[t.index()])) {
                const Thread& th = p_.thread(t);
                return fail(0, "the trace ends with thread '" + th.name + "' in state '" +
                                   th.stateNames[m_.pc[t.index()].index()] +
                                   "', which the goal does not accept");
            }
        }
        return ReplayOutcome{true, 0, {}};
    }

  private:
    static ReplayOutcome fail(std::size_t step, std::string why) {
        std::string where = step == 0 ? "at the end" : "at step " + std::to_string(step);
        return ReplayOutcome{false, step, where + ": " + why};
    }

    Value eval(ThreadId t, ExprRef e) { return evaluate(p_.expr(e), m_.regs[t.index()], stack_); }

    Value readMemory(Value addr) const {
        auto it = m_.memory.find(addr);
        return it == m_.memory.end() ? 0 : it->second;
    }

    std::optional<std::string> step(const TraceStep& s) {
        if (s.kind != StepKind::Instruction) {
            return "a flush step under SC";
        }
        if (!s.thread.valid() || s.thread.index() >= p_.threads.size()) {
            return "no such thread";
        }
        if (!s.transition.valid() || s.transition.index() >= p_.transitions.size()) {
            return "no such transition";
        }
        const Transition& tr = p_.transition(s.transition);
        const Thread& th = p_.thread(s.thread);
        const std::string what =
            "thread '" + th.name + "' transition " + th.stateNames[tr.from.index()] + " -> " +
            th.stateNames[tr.to.index()] + " (" + printInstruction(p_, tr) + ")";
        if (tr.thread != s.thread) {
            return what + " belongs to another thread";
        }
        if (tr.from != m_.pc[s.thread.index()]) {
            return what + " taken in state '" + th.stateNames[m_.pc[s.thread.index()].index()] +
                   "'";
        }
        if (m_.lockHolder && *m_.lockHolder != s.thread) {
            return what + " while thread '" + p_.thread(*m_.lockHolder).name + "' holds the lock";
        }
        std::optional<Value> addr;
        std::optional<Value> value;
        auto& regs = m_.regs[s.thread.index()];
        switch (tr.instr.kind) {
        case InstrKind::Read:
            addr = eval(s.thread, tr.instr.addr);
            value = readMemory(*addr);
            regs[tr.instr.reg.index()] = *value;
            break;
        case InstrKind::Write:
            value = eval(s.thread, tr.instr.value);
            addr = eval(s.thread, tr.instr.addr);
            m_.memory[*addr] = *value;
            break;
        case InstrKind::Local:
            value = eval(s.thread, tr.instr.value);
            regs[tr.instr.reg.index()] = *value;
            break;
        case InstrKind::Check:
            if (eval(s.thread, tr.instr.value) == 0) {
                return what + ": the condition is false";
            }
            break;
        case InstrKind::Lock:
            if (m_.lockHolder) {
                return what + ": the lock is held";
            }
            m_.lockHolder = s.thread;
            break;
        case InstrKind::Unlock:
            if (m_.lockHolder != s.thread) {
                return what + ": the thread does not hold the lock";
            }
            m_.lockHolder.reset();
            break;
        case InstrKind::Mfence:
        case InstrKind::Noop:
            break;
        }
        if (addr != s.addr || value != s.value) {
            return what + ": recorded address " + show(s.addr) + " value " + show(s.value) +
                   ", replay gives address " + show(addr) + " value " + show(value);
        }
        m_.pc[s.thread.index()] = tr.to;
        return std::nullopt;
    }

    const Program& p_;
    const Goal& g_;
    Machine m_;
    std::vector<Value> stack_;
};

} // namespace

ReplayOutcome replayTrace(const Program& program, const Goal& goal, const Trace& trace) {
    return Replayer(program, goal).run(trace);
}

} // namespace tsoreach::reach
