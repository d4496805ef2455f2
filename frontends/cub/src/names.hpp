#pragma once
// The checks of a parsed system that do not depend on the number of
// processes, so that a mistake is an error at every N: every name in a
// formula, term or assignment is declared (a variable with its number of
// indices, a constructor, a process variable bound there), `@` views name
// a bound process and a weak variable.

#include "tsoreach/frontends/cub/ast.hpp"

namespace tsoreach::cub {

// Throws InputError at the first undeclared or misused name.
void checkNames(const System& sys);

} // namespace tsoreach::cub
