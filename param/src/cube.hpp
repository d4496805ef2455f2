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

[[nodiscard]] std::vector<std::size_t> eventsPerProc(const Node& n);

// Every state of `phi` is one of `psi`'s, by a renaming of psi's processes
// and events into phi's (checked: literal implication, order inclusion).
// Both nodes have `forced` and `eventsOf` filled.
[[nodiscard]] bool covers(const Model& m, const Node& psi, const Node& phi,
                          std::uint64_t& solverCalls);

} // namespace tsoreach::backward
