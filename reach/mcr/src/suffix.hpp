#pragma once
// A node's run after its configuration C (the suffix), as the encoding
// sees it, and the targets the engine asks the solver for.

#include "machine.hpp"

#include <cstdint>
#include <vector>

namespace tsoreach::reach::mcr {

// A thread step of the suffix, or one of a target (a transition the run
// did not take).
struct Event {
    std::uint32_t thread = 0;
    TransitionId tr;
    InstrKind kind = InstrKind::Noop;
    Value addr = 0;          // read, write; lockfor/unlockfor under PSO (hasAddr)
    bool hasAddr = false;    // a drain of one address (PSO lockfor/unlockfor)
    Value value = 0;         // read: the value read; write: the value stored
    std::int32_t write = -1; // a write: its number
};

// A write: buffered in C (issue < 0) or issued by event `issue`.
struct Write {
    std::uint32_t thread = 0;
    Value addr = 0;
    Value value = 0;
    std::int32_t issue = -1;
};

// Events and writes after C, per thread in program order.
struct Suffix {
    std::vector<Event> events;
    std::vector<Write> writes;                     // C's buffered ones first (numbered as in C)
    std::vector<std::vector<std::uint32_t>> steps; // by thread: its events
    std::vector<std::vector<std::uint32_t>> wrote; // by thread: its writes
};

enum class TargetKind : std::uint8_t {
    NewValue,  // the event at (thread, pos) reads `value`
    NewStep,   // thread takes `event` at pos instead of the suffix's step (or after its last)
    LockFirst, // event `lock` (never released) runs before the thread's step pos
    Flush,     // write `write`, never flushed by the suffix, becomes visible
};

struct Target {
    static Target at(TargetKind kind, std::uint32_t thread, std::uint32_t pos) {
        Target x;
        x.kind = kind;
        x.thread = thread;
        x.pos = pos;
        return x;
    }
    TargetKind kind = TargetKind::NewValue;
    std::uint32_t thread = 0;
    std::uint32_t pos = 0;
    Value value = 0;
    Event event;             // NewStep
    std::uint32_t lock = 0;  // LockFirst: the lock event
    std::uint32_t write = 0; // Flush
};

} // namespace tsoreach::reach::mcr
