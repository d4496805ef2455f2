#include "tsoreach/reach/replay.hpp"

#include <algorithm>

#include "tsoreach/lang/printer.hpp"

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>

namespace tsoreach::reach {

namespace {

// The plainest possible machine state: a map for memory, a vector of
// registers per thread, and the buffers exactly as language.md describes
// them: one FIFO of (address, value) per thread under TSO, one FIFO of
// values per thread and address under PSO. Speed does not matter here;
// obviousness does. A TSO entry made by a joinwrite is joined to the next
// entry: the two (and the entries joined to those) reach memory together,
// which a trace shows as consecutive flushes of the thread.
struct Buffered {
    Value addr = 0;
    Value value = 0;
    bool joined = false;
};

struct Machine {
    std::vector<StateId> pc;
    std::vector<std::vector<Value>> regs;
    std::map<Value, Value> memory;
    std::optional<ThreadId> lockHolder;
    std::vector<std::deque<Buffered>> tsoBuffer;
    std::vector<std::map<Value, std::deque<Value>>> psoBuffer;
};

std::string show(std::optional<Value> v) {
    return v ? std::to_string(*v) : "none";
}

class Replayer {
  public:
    Replayer(const Program& p, const Goal& g, Recorded recorded)
        : p_(p), g_(g), recorded_(recorded), stack_(p.maxExprStack) {
        for (const Thread& t : p.threads) {
            m_.pc.push_back(t.initial);
            m_.regs.emplace_back(t.regCount(), 0);
        }
        m_.tsoBuffer.resize(p.threads.size());
        m_.psoBuffer.resize(p.threads.size());
        for (const MemoryCell& c : p.memory.initialCells()) {
            m_.memory[c.addr] = c.value; // every other cell starts at 0
        }
    }

    ReplayOutcome run(const Trace& original) {
        ReplayOutcome out = check(original);
        out.completed = std::move(completed_);
        out.goalTerm = goalTerm_;
        out.final = {m_.pc, m_.regs, m_.memory, true};
        for (std::size_t t = 0; t < m_.pc.size(); ++t) {
            out.final.buffersEmpty = out.final.buffersEmpty && m_.tsoBuffer[t].empty() &&
                                     std::all_of(m_.psoBuffer[t].begin(), m_.psoBuffer[t].end(),
                                                 [](const auto& q) { return q.second.empty(); });
        }
        return out;
    }

  private:
    // A cell by its program's name, else "mem[ADDR]".
    std::string cell(std::optional<Value> addr) const {
        return addr ? p_.memory.label(*addr) : "mem[none]";
    }

    ReplayOutcome check(const Trace& trace) {
        completed_ = trace;
        buffers_ = modelInfo(trace.model).buffers;
        if (trace.goalStep > trace.steps.size()) {
            return fail(0, "the goal step " + std::to_string(trace.goalStep) +
                               " is past the last step " + std::to_string(trace.steps.size()));
        }
        for (std::size_t i = 0; i < trace.goalStep; ++i) {
            if (std::optional<std::string> err = step(completed_.steps[i])) {
                return fail(i + 1, *err);
            }
        }
        if (joinedFlush_) {
            return fail(trace.goalStep, "the goal step splits the flush of a joined group");
        }
        if (ReplayOutcome goal = checkGoal(); !goal.ok) {
            return goal;
        }
        for (std::size_t i = trace.goalStep; i < trace.steps.size(); ++i) {
            if (trace.steps[i].kind != StepKind::Flush) {
                return fail(i + 1, "only flushes may follow the goal step " +
                                       std::to_string(trace.goalStep));
            }
            if (std::optional<std::string> err = step(completed_.steps[i])) {
                return fail(i + 1, *err);
            }
        }
        if (joinedFlush_) {
            return fail(trace.steps.size(), "the trace ends inside the flush of a joined group");
        }
        return ReplayOutcome{true, 0, {}, {}, 0, {}};
    }

    ReplayOutcome checkGoal() {
        std::vector<std::size_t> pcs;
        for (StateId s : m_.pc) {
            pcs.push_back(s.index());
        }
        auto view = [&](ThreadId t, Value addr) { return load(t.index(), addr).first; };
        if (std::optional<std::size_t> term = g_.satisfiedTerm(pcs, view, !m_.lockHolder)) {
            goalTerm_ = *term;
            return ReplayOutcome{true, 0, {}, {}, 0, {}};
        }
        // Name, for each term, a constrained thread outside its accepted states.
        std::string why;
        for (std::size_t i = 0; i < g_.termCount(); ++i) {
            for (ThreadId t : g_.termThreads(i)) {
                if (!g_.termAccepts(i, t, m_.pc[t.index()])) {
                    const Thread& th = p_.thread(t);
                    why += std::string(why.empty() ? "" : "; ") + "the goal step leaves thread '" +
                           th.name + "' in state '" + th.stateNames[m_.pc[t.index()].index()] +
                           "', which the goal" +
                           (g_.termCount() > 1 ? " term " + std::to_string(i + 1) : "") +
                           " does not accept";
                    break;
                }
            }
        }
        if (why.empty()) { // the states are accepted: a view is not, or the lock is held
            why = m_.lockHolder ? "a goal term on views of memory holds only while no thread "
                                  "holds the lock"
                                : "the goal's conditions on views of memory do not hold at the "
                                  "goal step";
        }
        return fail(0, why);
    }

    static ReplayOutcome fail(std::size_t step, std::string why) {
        std::string where = step == 0 ? "at the goal step" : "at step " + std::to_string(step);
        return ReplayOutcome{false, step, where + ": " + why, {}, 0, {}};
    }

    // A recorded field against the replayed one.
    template <class T>
    bool matches(const std::optional<T>& rec, const std::optional<T>& real) const {
        return rec == real || (recorded_ == Recorded::IfGiven && !rec);
    }

    Value eval(ThreadId t, ExprRef e) { return evaluate(p_.expr(e), m_.regs[t.index()], stack_); }

    Value readMemory(Value addr) const {
        auto it = m_.memory.find(addr);
        return it == m_.memory.end() ? 0 : it->second;
    }

    // Whether thread t has no buffered store.
    bool bufferEmpty(std::size_t t) const {
        switch (buffers_) {
        case BufferKind::None:
            return true;
        case BufferKind::Fifo:
            return m_.tsoBuffer[t].empty();
        case BufferKind::FifoPerAddress:
            for (const auto& [addr, fifo] : m_.psoBuffer[t]) {
                if (!fifo.empty()) {
                    return false;
                }
            }
            return true;
        }
        return true;
    }

    // Whether thread t holds no buffered store that a store to addr would
    // have to wait for: none at all under TSO (one FIFO), none to addr
    // under PSO.
    bool drainedFor(std::size_t t, Value addr) const {
        if (buffers_ == BufferKind::FifoPerAddress) {
            auto it = m_.psoBuffer[t].find(addr);
            return it == m_.psoBuffer[t].end() || it->second.empty();
        }
        return bufferEmpty(t);
    }

    // What thread t reads at addr, and whether its own buffer served it.
    std::pair<Value, bool> load(std::size_t t, Value addr) const {
        if (buffers_ == BufferKind::Fifo) {
            const auto& fifo = m_.tsoBuffer[t];
            for (auto it = fifo.rbegin(); it != fifo.rend(); ++it) {
                if (it->addr == addr) {
                    return {it->value, true};
                }
            }
        } else if (buffers_ == BufferKind::FifoPerAddress) {
            auto it = m_.psoBuffer[t].find(addr);
            if (it != m_.psoBuffer[t].end() && !it->second.empty()) {
                return {it->second.back(), true};
            }
        }
        return {readMemory(addr), false};
    }

    void store(std::size_t t, Value addr, Value v, bool joined) {
        switch (buffers_) {
        case BufferKind::None:
            m_.memory[addr] = v;
            break;
        case BufferKind::Fifo:
            m_.tsoBuffer[t].push_back({addr, v, joined});
            break;
        case BufferKind::FifoPerAddress:
            m_.psoBuffer[t][addr].push_back(v);
            break;
        }
    }

    std::optional<std::string> flush(TraceStep& s) {
        const std::size_t t = s.thread.index();
        const std::string who = "flush of thread '" + p_.thread(s.thread).name + "'";
        if (recorded_ == Recorded::Required && (!s.addr || !s.value)) {
            return who + " without an address and a value";
        }
        Value addr = 0;
        Value v = 0;
        if (buffers_ == BufferKind::None) {
            return "a flush step under SC, where stores do not wait in buffers";
        }
        if (buffers_ == BufferKind::Fifo) {
            auto& fifo = m_.tsoBuffer[t];
            if (fifo.empty()) {
                return who + " with an empty buffer";
            }
            addr = fifo.front().addr;
            v = fifo.front().value;
            if (fifo.front().joined && fifo.size() == 1) {
                return who + " of " + p_.memory.label(addr) +
                       ": the store is joined to the thread's next store, which is not buffered "
                       "yet";
            }
            if (!matches(s.addr, std::optional<Value>(addr)) ||
                !matches(s.value, std::optional<Value>(v))) {
                return who + " of " + cell(s.addr) + " := " + show(s.value) +
                       " out of order: the oldest buffered store is " + p_.memory.label(addr) +
                       " := " + std::to_string(v);
            }
            joinedFlush_ = fifo.front().joined ? std::optional(s.thread) : std::nullopt;
            fifo.pop_front();
        } else {
            if (!s.addr) {
                return who + " without an address: under PSO it names the buffer to flush";
            }
            auto it = m_.psoBuffer[t].find(*s.addr);
            if (it == m_.psoBuffer[t].end() || it->second.empty()) {
                return who + ": no buffered store to address " + std::to_string(*s.addr);
            }
            addr = *s.addr;
            v = it->second.front();
            if (!matches(s.value, std::optional<Value>(v))) {
                return who + " of " + p_.memory.label(addr) + " := " + show(s.value) +
                       " out of order: the oldest buffered store to that address has value " +
                       std::to_string(v);
            }
            it->second.pop_front();
        }
        m_.memory[addr] = v;
        s.addr = addr;
        s.value = v;
        return std::nullopt;
    }

    std::optional<std::string> step(TraceStep& s) {
        if (!s.thread.valid() || s.thread.index() >= p_.threads.size()) {
            return "no such thread";
        }
        if (m_.lockHolder && *m_.lockHolder != s.thread) {
            return "thread '" + p_.thread(s.thread).name + "' moves while thread '" +
                   p_.thread(*m_.lockHolder).name + "' holds the lock";
        }
        if (joinedFlush_ && (s.kind != StepKind::Flush || s.thread != *joinedFlush_)) {
            return "a joined group of thread '" + p_.thread(*joinedFlush_).name +
                   "' is flushed in part: its next store must flush in the next step";
        }
        if (s.kind == StepKind::Flush) {
            return flush(s);
        }
        if (!s.transition.valid() || s.transition.index() >= p_.transitions.size()) {
            return "no such transition";
        }
        const Transition& tr = p_.transition(s.transition);
        const Thread& th = p_.thread(s.thread);
        const std::size_t t = s.thread.index();
        const std::string what =
            "thread '" + th.name + "' transition " + th.stateNames[tr.from.index()] + " -> " +
            th.stateNames[tr.to.index()] + " (" + printInstruction(p_, tr) + ")";
        if (tr.thread != s.thread) {
            return what + " belongs to another thread";
        }
        if (tr.from != m_.pc[t]) {
            return what + " taken in state '" + th.stateNames[m_.pc[t].index()] + "'";
        }
        std::optional<Value> addr;
        std::optional<Value> value;
        bool forwarded = false;
        auto& regs = m_.regs[t];
        switch (tr.instr.kind) {
        case InstrKind::Read:
            addr = eval(s.thread, tr.instr.addr);
            std::tie(value, forwarded) = load(t, *addr);
            regs[tr.instr.reg.index()] = *value;
            break;
        case InstrKind::Write:
            if (tr.instr.joined && buffers_ == BufferKind::FifoPerAddress) {
                return what + ": joined stores (joinwrite) are defined under SC and TSO only";
            }
            value = eval(s.thread, tr.instr.value);
            addr = eval(s.thread, tr.instr.addr);
            store(t, *addr, *value, tr.instr.joined);
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
            if (!bufferEmpty(t)) {
                return what + ": the thread's store buffer is not empty";
            }
            m_.lockHolder = s.thread;
            break;
        case InstrKind::Unlock:
            if (m_.lockHolder != s.thread) {
                return what + ": the thread does not hold the lock";
            }
            if (!bufferEmpty(t)) {
                return what + ": the thread's store buffer is not empty";
            }
            m_.lockHolder.reset();
            break;
        case InstrKind::Atomic: // the lock, whatever the buffers hold
            if (m_.lockHolder) {
                return what + ": the lock is held";
            }
            m_.lockHolder = s.thread;
            break;
        case InstrKind::EndAtomic:
            if (m_.lockHolder != s.thread) {
                return what + ": the thread does not hold the lock";
            }
            m_.lockHolder.reset();
            break;
        case InstrKind::LockFor:
            addr = eval(s.thread, tr.instr.addr);
            if (m_.lockHolder) {
                return what + ": the lock is held";
            }
            if (!drainedFor(t, *addr)) {
                return what + ": the thread's buffer holds stores to that address";
            }
            m_.lockHolder = s.thread;
            break;
        case InstrKind::UnlockFor:
            addr = eval(s.thread, tr.instr.addr);
            if (m_.lockHolder != s.thread) {
                return what + ": the thread does not hold the lock";
            }
            if (!drainedFor(t, *addr)) {
                return what + ": the thread's buffer holds stores to that address";
            }
            m_.lockHolder.reset();
            break;
        case InstrKind::Mfence:
            if (!bufferEmpty(t)) {
                return what + ": the thread's store buffer is not empty";
            }
            break;
        case InstrKind::Noop:
            break;
        }
        std::optional<bool> source;
        if (tr.instr.kind == InstrKind::Read) {
            source = forwarded;
        }
        if (!matches(s.addr, addr) || !matches(s.value, value)) {
            return what + ": recorded address " + show(s.addr) + " value " + show(s.value) +
                   ", replay gives address " + show(addr) + " value " + show(value);
        }
        if (!matches(s.forwarded, source)) {
            auto from = [](std::optional<bool> b) {
                return !b ? "nothing" : *b ? "the buffer" : "memory";
            };
            return what + ": recorded as served by " + from(s.forwarded) +
                   ", but replay serves it from " + from(source);
        }
        s.addr = addr;
        s.value = value;
        s.forwarded = source;
        m_.pc[t] = tr.to;
        return std::nullopt;
    }

    const Program& p_;
    const Goal& g_;
    Machine m_;
    Recorded recorded_;
    Trace completed_;
    std::size_t goalTerm_ = 0;
    BufferKind buffers_ = BufferKind::None;
    // The thread whose joined group is half flushed: its next flush must follow.
    std::optional<ThreadId> joinedFlush_;
    std::vector<Value> stack_;
};

} // namespace

ReplayOutcome replayTrace(const Program& program, const Goal& goal, const Trace& trace,
                          Recorded recorded) {
    return Replayer(program, goal, recorded).run(trace);
}

} // namespace tsoreach::reach
