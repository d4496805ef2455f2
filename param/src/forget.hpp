#pragma once
// Forgetting what no later pre-image can use (docs/backward.md,
// "Forgetting"): the node gets fewer constraints, so more states, which
// keeps "safe" sound, and it converges sooner.

#include "node.hpp"

namespace tsoreach::backward {

// Drops the events that neither wait for a source, nor bound one, nor come
// before such an event as a write or fence; then their variables.
void forget(Node& n);

} // namespace tsoreach::backward
