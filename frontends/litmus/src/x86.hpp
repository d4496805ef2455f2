#pragma once
// herd's X86 (Intel syntax: `MOV [x],$1`, `MOV EAX,[x]`) and X86_64 (AT&T
// syntax: `movl $1,(x)`, `movl (x),%eax`) litmus tests as programs of
// tsoreach's language (docs/litmus.md has the table):
//   MOV             read, write or local
//   MFENCE          mfence; LFENCE: noop (no model here reorders loads)
//   XCHG with memory, and every LOCK-prefixed ADD/SUB/INC/DEC/XADD/CMPXCHG/
//   XCHG: lock, read, write, unlock: `lock` waits for the thread's buffers
//   to drain and `unlock` for its write, and no other thread moves between,
//   so the instruction is atomic and a full fence, as on x86
//   the same instructions without LOCK: a read, then a write (not atomic)
// Straight-line code only: each thread a chain of states start -> r1 -> ...
// -> done (the state after the last row's instruction is `done`).

#include "litmus_source.hpp"
#include "tsoreach/lang/condition.hpp"
#include "tsoreach/lang/program.hpp"

namespace tsoreach::litmus {

struct LitmusProgram {
    Program program;
    FinalCondition condition;
    std::vector<ConditionAtom> locations; // `locations [...]` (values unused)
};

LitmusProgram translateX86(const LitmusSource& src);

} // namespace tsoreach::litmus
