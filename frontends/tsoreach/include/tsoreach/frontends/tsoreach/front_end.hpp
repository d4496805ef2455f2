#pragma once
// The registry's row for tsoreach's own language (docs/language.md).

#include "tsoreach/frontends/front_end.hpp"

namespace tsoreach {

FrontEnd tsoreachFrontEnd();

} // namespace tsoreach
