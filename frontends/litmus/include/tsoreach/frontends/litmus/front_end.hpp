#pragma once
// The registry's row for herd's litmus tests, X86 and X86_64 (docs/litmus.md).

#include "tsoreach/frontends/front_end.hpp"

namespace tsoreach {

FrontEnd litmusFrontEnd();

} // namespace tsoreach
