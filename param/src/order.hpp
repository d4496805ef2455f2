#pragma once
// The order of event instants in a node: a transitively closed relation,
// kept acyclic (a cycle means no execution has these instants).

#include "node.hpp"

namespace tsoreach::backward {

// Adds `a before b` and its consequences; false when it closes a cycle.
[[nodiscard]] bool addBefore(Node& n, std::size_t a, std::size_t b);

// Appends an event with no order yet; returns its index.
std::size_t addEvent(Node& n, Event e);

} // namespace tsoreach::backward
