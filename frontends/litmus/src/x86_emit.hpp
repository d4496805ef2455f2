#pragma once
// One x86 instruction as transitions of tsoreach's language, from state
// `from` to state `to` through states `r<ROW>.<k>` (docs/litmus.md has the
// table). A locked instruction (every XCHG with memory, every LOCK prefix)
// is `lock` ... `unlock`: `lock` waits until the thread's buffers are empty
// and `unlock` until its write has reached memory, and no other thread
// moves between, so it is atomic and a full fence, as on x86. A 32-bit
// result is kept modulo 2^32 (fitWidth): the value of a 32-bit cell, and
// what a 32-bit write leaves in a 64-bit register.

#include "tsoreach/lang/builder.hpp"
#include "tsoreach/lang/memory.hpp"
#include "x86_syntax.hpp"

#include <string>

namespace tsoreach::litmus {

struct EmitContext {
    ProgramBuilder& b;
    const MemoryLayout& memory; // the locations, by name
    std::string tmp;            // the register a read-modify-write reads into
    std::string accumulator;    // CMPXCHG's: EAX or rax
    SourcePos pos;              // of the instruction
    std::size_t row = 0;        // its code row, for the inner states' names
};

void emitInstruction(const EmitContext& c, const Insn& in, const std::string& from,
                     const std::string& to);

} // namespace tsoreach::litmus
