#pragma once
// Forgetting what no later pre-image can use (docs/backward.md,
// "Forgetting"): the node gets fewer constraints, so more states, which
// keeps "safe" sound, and it converges sooner.

#include "node.hpp"

#include <cstdint>

namespace tsoreach::backward {

// How much a pass forgets. `Coarse` also drops a waiting read with no fact
// beyond its value (unfenced, no `notInit`, `ownExcluded` or bound): such a
// read keeps splitting later pre-images while seldom closing a cycle, and
// dropping it only weakens the node (docs/backward.md, "Two passes").
enum class Forgetting : std::uint8_t { Fine, Coarse };

// Drops the events that neither wait for a source, nor bound one, nor come
// before such an event as a write or fence; then their variables.
void forget(Node& n, Forgetting how);

} // namespace tsoreach::backward
