#pragma once
// One x86 instruction of a litmus test, as written in either syntax: X86
// (Intel, destination first: `MOV [x],$1`) or X86_64 (AT&T, source first:
// `movl $1,(x)`). Operands are kept destination first. Each instruction has
// a width, 32 or 64 bits (X86: always 32; X86_64: the suffix l or q, else
// the registers'); 8- and 16-bit operands are refused.

#include "litmus_source.hpp"
#include "tsoreach/lang/value.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tsoreach::litmus {

enum class Syntax : std::uint8_t { Intel, Att };

enum class Mn : std::uint8_t { Mov, Mfence, Lfence, Nop, Xchg, Add, Sub, Inc, Dec, Xadd, Cmpxchg };

// A register by its 64-bit family name under X86_64 (rax, r8), its 32-bit
// name under X86 (EAX), with the width its spelling names.
struct RegName {
    std::string name; // empty: not a register
    int width = 0;    // 32 or 64; 8 or 16 for a partial register
};

// `name` as a register (case ignored; X86_64 names may start with '%').
RegName registerName(std::string_view name, Syntax syntax);

struct Operand {
    enum class Kind : std::uint8_t { Reg, Imm, Mem } kind = Kind::Imm;
    std::string name; // register or location
    Value imm = 0;
    std::size_t offset = 0;
};

struct Insn {
    Mn mn = Mn::Mov;
    bool locked = false;
    int width = 32;
    std::vector<Operand> ops; // destination first
    std::size_t offset = 0;
    std::string text;
};

// Parses one cell of code; fails (InputError) with the position of what is
// not read.
Insn parseInstruction(const LitmusSource& src, Piece cell, Syntax syntax);

// Whether `s` is a location name (C identifier).
bool isIdentifier(std::string_view s);

// `v` as a `width`-bit value is held: 64 bits as is, 32 bits zero-extended
// (what a 32-bit write leaves in a 64-bit register, and how tsoreach keeps a
// 32-bit cell: its values modulo 2^32, in [0, 2^32)).
Value fitWidth(Value v, int width);

} // namespace tsoreach::litmus
