#pragma once
// The mcr engine's own stepper: configurations of a program under SC, TSO
// or PSO (docs/language.md) and their steps. A buffer is one list per
// thread in program order; TSO flushes its front, PSO the oldest entry of
// an address, and a read takes the newest entry of its address.

#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/model.hpp"
#include "tsoreach/reach/trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace tsoreach::reach::mcr {

struct BufferEntry {
    Value addr = 0;
    Value value = 0;
    std::uint32_t write = 0; // the write's number in the current node's suffix
};

struct Config {
    std::vector<StateId> pc;
    std::vector<std::vector<Value>> regs;
    std::map<Value, Value> memory; // cells whose value differs from the initial one
    std::vector<std::vector<BufferEntry>> buffers;
    std::int32_t holder = -1; // the thread holding the lock

    // Equal keys: equal configurations (write numbers left out).
    [[nodiscard]] std::vector<Value> key() const;
};

// What one step did.
struct Effect {
    Value addr = 0;
    Value value = 0;         // read: read; write, flush: stored; local: assigned
    bool forwarded = false;  // read: from the own buffer
    std::uint32_t write = 0; // flush: the write it made visible
};

class Machine {
  public:
    Machine(const Program& p, MemoryModel model);

    [[nodiscard]] Config initial() const;
    [[nodiscard]] Value memoryAt(const Config& c, Value addr) const;
    [[nodiscard]] Value eval(const std::vector<Value>& regs, ExprRef e) const;
    // Whether the lock or a drain lets `id` run (a check's condition too).
    [[nodiscard]] bool enabled(const Config& c, std::uint32_t t, TransitionId id) const;
    // The transition the default scheduler takes for thread t, if any.
    [[nodiscard]] std::optional<TransitionId> firstEnabled(const Config& c, std::uint32_t t) const;
    // A flush of thread t (PSO: of address addr) is possible.
    [[nodiscard]] bool canFlush(const Config& c, std::uint32_t t, std::optional<Value> addr) const;
    // Thread t in state s with registers regs can never step again: every
    // transition out of s is a check they fail (only its own steps change them).
    [[nodiscard]] bool blocked(std::uint32_t t, StateId s, const std::vector<Value>& regs) const;
    // Runs an enabled step; the next write issued gets number `nextWrite`.
    Effect step(Config& c, std::uint32_t t, TransitionId id, std::uint32_t nextWrite) const;
    Effect flush(Config& c, std::uint32_t t, std::optional<Value> addr) const;
    // The address a drain or lockfor/unlockfor waits for (nullopt: all).
    [[nodiscard]] std::optional<Value> drainAddress(const Config& c, std::uint32_t t,
                                                    const Instruction& in) const;

    [[nodiscard]] const Program& program() const { return p_; }
    [[nodiscard]] MemoryModel model() const { return model_; }

  private:
    [[nodiscard]] bool drained(const Config& c, std::uint32_t t, std::optional<Value> addr) const;
    void store(Config& c, Value addr, Value value) const;

    const Program& p_;
    MemoryModel model_;
    mutable std::vector<Value> stack_;
};

} // namespace tsoreach::reach::mcr
