#pragma once
// The .rmm lexer: identifiers, `$` registers, natural numbers and symbols;
// `/* ... */` comments (not nested).

#include "token.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tsoreach::rmm {

// The tokens of `text`, ending with one Tk::End token at the end of the
// text. Throws InputError at a byte no token may hold or an open comment.
std::vector<Tok> lexRmm(std::string_view text, const std::string& file);

} // namespace tsoreach::rmm
