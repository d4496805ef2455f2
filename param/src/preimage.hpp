#pragma once
// The pre-image of a node by one instance of a transition (docs/backward.md,
// "Pre-image"): the nodes whose states reach the node's by that step.

#include "forget.hpp"
#include "model.hpp"

namespace tsoreach::backward {

// `args[i]` is the node process of parameter i; indices from node.procs on
// are new processes (numbered in order). Appends the resulting nodes, each
// forgotten as `how` says.
void preImage(const Model& m, const Node& node, std::uint32_t transition,
              const std::vector<std::uint32_t>& args, Forgetting how, std::vector<Node>& out);

// Whether the instance can change the node at all: a new moving process
// that writes no cell an unsatisfied read waits for leaves a node whose
// states include the node's own (so the node covers it).
[[nodiscard]] bool relevant(const Model& m, const Node& node, std::uint32_t transition,
                            const std::vector<std::uint32_t>& args);

} // namespace tsoreach::backward
