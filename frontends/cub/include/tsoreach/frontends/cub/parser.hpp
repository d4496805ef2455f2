#pragma once
// Reads a Cubicle-W file (docs/parameterized.md, "The language"). Throws
// InputError at the first construct outside the subset, naming it.

#include "tsoreach/frontends/cub/ast.hpp"

#include <string>
#include <string_view>

namespace tsoreach::cub {

System parseCub(std::string_view text, const std::string& sourceName);

} // namespace tsoreach::cub
