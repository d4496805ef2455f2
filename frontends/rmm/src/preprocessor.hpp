#pragma once
// Memorax's textual macros: `macro NAME(P, ...) TOKENS endmacro` defines,
// `NAME(ARG, ...)` expands.

#include "token.hpp"

#include <string>
#include <vector>

namespace tsoreach::rmm {

// `tokens` (ending with Tk::End) with every macro definition removed and
// every call expanded. Throws InputError at a malformed definition or call,
// and when the expansion grows beyond its bounds (a macro expanding itself).
std::vector<Tok> expandMacros(std::vector<Tok> tokens, const std::string& file);

} // namespace tsoreach::rmm
