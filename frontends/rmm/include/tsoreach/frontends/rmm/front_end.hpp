#pragma once
// The registry's row for Memorax's .rmm language (docs/rmm.md).

#include "tsoreach/frontends/front_end.hpp"

namespace tsoreach {

FrontEnd rmmFrontEnd();

} // namespace tsoreach
