#include "machine.hpp"

#include <algorithm>
#include <stdexcept>

namespace tsoreach::reach::mcr {

std::vector<Value> Config::key() const {
    std::vector<Value> k;
    k.push_back(holder);
    for (std::size_t t = 0; t < pc.size(); ++t) {
        k.push_back(pc[t].value);
        k.insert(k.end(), regs[t].begin(), regs[t].end());
        k.push_back(static_cast<Value>(buffers[t].size()));
        for (const BufferEntry& b : buffers[t]) {
            k.push_back(b.addr);
            k.push_back(b.value);
        }
    }
    for (const auto& [addr, value] : memory) {
        k.push_back(addr);
        k.push_back(value);
    }
    return k;
}

Machine::Machine(const Program& p, MemoryModel model)
    : p_(p), model_(model), stack_(std::max<std::size_t>(p.maxExprStack, 1)) {}

Config Machine::initial() const {
    Config c;
    for (const Thread& th : p_.threads) {
        c.pc.push_back(th.initial);
        c.regs.emplace_back(th.regCount(), 0);
        c.buffers.emplace_back();
    }
    return c;
}

Value Machine::memoryAt(const Config& c, Value addr) const {
    const auto it = c.memory.find(addr);
    return it == c.memory.end() ? p_.memory.initialValue(addr) : it->second;
}

Value Machine::eval(const std::vector<Value>& regs, ExprRef e) const {
    return evaluate(p_.expr(e), regs, stack_);
}

void Machine::store(Config& c, Value addr, Value value) const {
    if (value == p_.memory.initialValue(addr)) {
        c.memory.erase(addr);
    } else {
        c.memory[addr] = value;
    }
}

bool Machine::drained(const Config& c, std::uint32_t t, std::optional<Value> addr) const {
    const auto& b = c.buffers[t];
    return std::none_of(b.begin(), b.end(),
                        [&](const BufferEntry& e) { return !addr || e.addr == *addr; });
}

std::optional<Value> Machine::drainAddress(const Config& c, std::uint32_t t,
                                           const Instruction& in) const {
    if (model_ == MemoryModel::PSO && isLockForEdge(in.kind)) {
        return eval(c.regs[t], in.addr);
    }
    return std::nullopt;
}

bool Machine::enabled(const Config& c, std::uint32_t t, TransitionId id) const {
    const auto self = static_cast<std::int32_t>(t);
    if (c.holder >= 0 && c.holder != self) {
        return false; // the lock freezes every other thread
    }
    const Instruction& in = p_.transition(id).instr;
    switch (in.kind) {
    case InstrKind::Check:
        return eval(c.regs[t], in.value) != 0;
    case InstrKind::Mfence:
        return drained(c, t, std::nullopt);
    case InstrKind::Lock:
    case InstrKind::LockFor:
        return c.holder < 0 && drained(c, t, drainAddress(c, t, in));
    case InstrKind::Unlock:
    case InstrKind::UnlockFor:
        return c.holder == self && drained(c, t, drainAddress(c, t, in));
    case InstrKind::Atomic:
        return c.holder < 0;
    case InstrKind::EndAtomic:
        return c.holder == self;
    default:
        return true;
    }
}

std::optional<TransitionId> Machine::firstEnabled(const Config& c, std::uint32_t t) const {
    for (TransitionId id : p_.threads[t].outgoingOf(c.pc[t])) {
        if (enabled(c, t, id)) {
            return id;
        }
    }
    return std::nullopt;
}

bool Machine::blocked(std::uint32_t t, StateId s, const std::vector<Value>& regs) const {
    const auto out = p_.threads[t].outgoingOf(s);
    return std::all_of(out.begin(), out.end(), [&](TransitionId id) {
        const Instruction& in = p_.transition(id).instr;
        return in.kind == InstrKind::Check && eval(regs, in.value) == 0;
    });
}

bool Machine::canFlush(const Config& c, std::uint32_t t, std::optional<Value> addr) const {
    const auto self = static_cast<std::int32_t>(t);
    if (c.holder >= 0 && c.holder != self) {
        return false;
    }
    if (model_ != MemoryModel::PSO || !addr) {
        return !c.buffers[t].empty();
    }
    return !drained(c, t, addr);
}

Effect Machine::step(Config& c, std::uint32_t t, TransitionId id, std::uint32_t nextWrite) const {
    const Transition& tr = p_.transition(id);
    const Instruction& in = tr.instr;
    std::vector<Value>& regs = c.regs[t];
    Effect e;
    switch (in.kind) {
    case InstrKind::Read: {
        e.addr = eval(regs, in.addr);
        e.value = memoryAt(c, e.addr);
        const auto& b = c.buffers[t];
        for (auto it = b.rbegin(); it != b.rend(); ++it) {
            if (it->addr == e.addr) {
                e.value = it->value;
                e.forwarded = true;
                break;
            }
        }
        regs[in.reg.index()] = e.value;
        break;
    }
    case InstrKind::Write:
        e.addr = eval(regs, in.addr);
        e.value = eval(regs, in.value);
        e.write = nextWrite;
        if (model_ == MemoryModel::SC) {
            store(c, e.addr, e.value);
        } else {
            c.buffers[t].push_back({e.addr, e.value, nextWrite});
        }
        break;
    case InstrKind::Local:
        e.value = eval(regs, in.value);
        regs[in.reg.index()] = e.value;
        break;
    case InstrKind::LockFor:
    case InstrKind::UnlockFor:
        e.addr = eval(regs, in.addr);
        break;
    default:
        break;
    }
    if (takesLock(in.kind)) {
        c.holder = static_cast<std::int32_t>(t);
    } else if (releasesLock(in.kind)) {
        c.holder = -1;
    }
    c.pc[t] = tr.to;
    return e;
}

Effect Machine::flush(Config& c, std::uint32_t t, std::optional<Value> addr) const {
    auto& b = c.buffers[t];
    auto it = b.begin();
    if (model_ == MemoryModel::PSO && addr) {
        it =
            std::find_if(b.begin(), b.end(), [&](const BufferEntry& e) { return e.addr == *addr; });
    }
    if (it == b.end()) {
        throw std::logic_error("mcr: flush of an empty buffer");
    }
    Effect e{it->addr, it->value, false, it->write};
    store(c, e.addr, e.value);
    b.erase(it);
    return e;
}

} // namespace tsoreach::reach::mcr
