#pragma once
// Node-level checks of the search: the unsafe cubes as nodes, the const
// invariants, meeting the initial states, and covering up to renaming.

#include "model.hpp"

#include <cstdint>

namespace tsoreach::backward {

[[nodiscard]] std::vector<Node> unsafeNodes(const Model& m);

// The node's const cells satisfy an invariant cube for distinct processes:
// no setup has such consts, and consts never change.
[[nodiscard]] bool excludedByInvariant(const Model& m, const Node& n);

// Some initial state is in the node: its cells meet `init`, every read
// still unsatisfied takes the initial value, before any write to its cell.
[[nodiscard]] bool meetsInit(const Model& m, const Node& n);

// Fills the node's `forced`, `eventsOf`, `keys` and `keyBag`.
void summarize(const Model& m, Node& n);

// Every state of `phi` is one of `psi`'s, by a renaming of psi's processes
// and events into phi's (checked: literal implication, order inclusion).
// Both nodes are summarized. The search for a renaming stops after
// kCoverSteps steps and answers "not covered" (which only costs nodes), so
// that one call cannot outlast the limits polled between calls.
inline constexpr std::uint64_t kCoverSteps = 1U << 16;
[[nodiscard]] bool covers(const Model& m, const Node& psi, const Node& phi,
                          std::uint64_t& solverCalls);

} // namespace tsoreach::backward
