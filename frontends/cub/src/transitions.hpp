#pragma once
// The paths of one .cub transition for one process (instantiate.cpp's
// header comment gives their shape).

#include "paths.hpp"
#include "scope.hpp"

namespace tsoreach::cub {

// Emits, in the thread being built for process k, a path main -> main for
// every injective choice of t's other parameters whose guard can hold.
void emitTransition(ProgramBuilder& b, PathEmitter& paths, const Scope& scope,
                    const TransitionDecl& t, Value k);

} // namespace tsoreach::cub
