#pragma once
// Instructions of a transition. The kind table is the single source of the
// keywords; the parser, printer and reports derive from it.

#include "tsoreach/lang/expr.hpp"
#include "tsoreach/lang/ids.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace tsoreach {

// name, keyword, operands as written
#define TSOREACH_INSTRUCTIONS(X)                                                                   \
    X(Read, "read")           /* read REG ADDR */                                                  \
    X(Write, "write")         /* write VALUE ADDR */                                               \
    X(Local, "local")         /* local REG EXPR */                                                 \
    X(Check, "check")         /* check EXPR */                                                     \
    X(Mfence, "mfence")       /* mfence */                                                         \
    X(Noop, "noop")           /* noop */                                                           \
    X(Lock, "lock")           /* lock */                                                           \
    X(Unlock, "unlock")       /* unlock */                                                         \
    X(Atomic, "atomic")       /* atomic: the lock, taken without draining (docs/language.md) */    \
    X(EndAtomic, "endatomic") /* endatomic: the lock, released without draining */                 \
    X(LockFor, "lockfor")     /* lockfor ADDR: the lock, once the stores to ADDR are drained */    \
    X(UnlockFor, "unlockfor") /* unlockfor ADDR: the release, once they are drained again */

enum class InstrKind : std::uint8_t {
#define TSOREACH_X(name, keyword) name,
    TSOREACH_INSTRUCTIONS(TSOREACH_X)
#undef TSOREACH_X
};

std::string_view keyword(InstrKind kind);
std::optional<InstrKind> instructionFromKeyword(std::string_view token);

// Operand use by kind:
//   Read:  reg := mem[addr]          Write: mem[addr] := value
//   Local: reg := value              Check: blocks unless value != 0
//   LockFor, UnlockFor: addr (the address whose stores must have drained)
// A joined write (`joinwrite VALUE ADDR`, docs/language.md) is a Write whose
// store is joined to the thread's next store: under TSO the two are one
// buffer entry that reaches memory at once. Every static analysis sees a
// write; only the buffer semantics differ.
struct Instruction {
    InstrKind kind = InstrKind::Noop;
    RegId reg;           // Read, Local
    ExprRef value;       // Write (stored value), Local (assigned value), Check (condition)
    ExprRef addr;        // Read, Write
    bool joined = false; // Write: joined to the thread's next store
    friend bool operator==(const Instruction&, const Instruction&) = default;
};

// Takes or releases the one global lock (lock/unlock drain the thread's
// buffers first, atomic/endatomic do not, lockfor/unlockfor drain the
// buffer(s) holding stores to their address: under SC and TSO exactly
// lock/unlock, under PSO that address's FIFO only).
[[nodiscard]] inline bool takesLock(InstrKind k) {
    return k == InstrKind::Lock || k == InstrKind::Atomic || k == InstrKind::LockFor;
}
[[nodiscard]] inline bool releasesLock(InstrKind k) {
    return k == InstrKind::Unlock || k == InstrKind::EndAtomic || k == InstrKind::UnlockFor;
}
[[nodiscard]] inline bool isLockForEdge(InstrKind k) {
    return k == InstrKind::LockFor || k == InstrKind::UnlockFor;
}
[[nodiscard]] inline bool isAtomicBlockEdge(InstrKind k) {
    return k == InstrKind::Atomic || k == InstrKind::EndAtomic;
}

// The keyword the instruction is written with ("joinwrite" for a joined
// write, else keyword(kind)).
[[nodiscard]] std::string_view instructionKeyword(const Instruction& in);
inline constexpr std::string_view kJoinWriteKeyword = "joinwrite";

[[nodiscard]] inline bool accessesMemory(InstrKind k) {
    return k == InstrKind::Read || k == InstrKind::Write;
}

} // namespace tsoreach
