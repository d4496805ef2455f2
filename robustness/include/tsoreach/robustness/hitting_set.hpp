#pragma once
// Exact minimum-cost hitting set by branch and bound: choose elements of
// least total cost so that every given set contains a chosen one. Fence
// synthesis needs it (each set: the fence positions that would block one
// witness or trace). Instances are small (tens of sets over hundreds of
// elements), and a node budget bounds the worst case: past it the best set
// found so far is returned, marked as not proved optimal.

#include "tsoreach/lang/stop.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace tsoreach::robustness {

struct HittingSet {
    std::vector<std::size_t> chosen; // ascending element indices
    std::uint64_t cost = 0;
    bool optimal = false; // the search finished within its budget
    std::uint64_t nodes = 0;
};

// Elements are 0 .. cost.size()-1. Every set must be non-empty. Throws
// Stopped when `stop` holds before it is done (the budget can take seconds).
HittingSet minimumHittingSet(std::span<const std::vector<std::size_t>> sets,
                             std::span<const std::uint64_t> cost,
                             std::uint64_t nodeBudget = 2'000'000,
                             const StopCondition& stop = StopCondition());

} // namespace tsoreach::robustness
