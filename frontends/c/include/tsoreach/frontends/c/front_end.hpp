#pragma once
// The registry's row for C programs with pthreads and C11 atomics
// (docs/c.md), read with libclang.

#include "tsoreach/frontends/front_end.hpp"

namespace tsoreach {

FrontEnd cFrontEnd();

} // namespace tsoreach
