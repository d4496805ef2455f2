#pragma once
// Canonical printing: parseProgram(printProgram(p)) == p.

#include "tsoreach/lang/program.hpp"

#include <string>

namespace tsoreach {

// An expression as written; an address names its cell where the source
// did (`x`, `flag[2]`, `flag[+ i 1]`).
std::string printExpr(const Program& p, const Thread& t, ExprRef e);
// The `memory` declaration line (with its newline); empty without one.
std::string printMemory(const Program& p);
// The instruction as written, e.g. "write + r 1 0".
std::string printInstruction(const Program& p, const Transition& tr);
std::string printProgram(const Program& p);

} // namespace tsoreach
