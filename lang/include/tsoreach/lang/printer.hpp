#pragma once
// Canonical printing: parseProgram(printProgram(p)) == p.

#include "tsoreach/lang/program.hpp"

#include <string>

namespace tsoreach {

std::string printExpr(const Program& p, const Thread& t, ExprRef e);
// The instruction as written, e.g. "write + r 1 0".
std::string printInstruction(const Program& p, const Transition& tr);
std::string printProgram(const Program& p);

} // namespace tsoreach
