#pragma once
// The .rmm parser: recursive descent over statements and expressions, with
// the nesting depth capped so that the native stack stays small whatever
// the input.

#include "syntax.hpp"
#include "token.hpp"

#include <string>
#include <vector>

namespace tsoreach::rmm {

// The test of `tokens` (macros expanded, ending with Tk::End). Throws
// InputError at the first syntax error.
Test parseTest(std::vector<Tok> tokens, const std::string& file);

} // namespace tsoreach::rmm
