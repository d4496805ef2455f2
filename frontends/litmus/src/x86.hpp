#pragma once
// herd's X86 (Intel syntax: `MOV [x],$1`, `MOV EAX,[x]`) and X86_64 (AT&T
// syntax: `movl $1,(x)`, `movl (x),%eax`) litmus tests as programs of
// tsoreach's language (docs/litmus.md has the table). x86_syntax reads an
// instruction, x86_emit makes its transitions; this file reads the initial
// state and the rows, lays out the locations as named memory (each with one
// width, 32 or 64 bits, for all its accesses), resolves the condition's
// atoms and builds the threads. Straight-line code only: each thread a
// chain of states start -> r1 -> ... -> done.

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
