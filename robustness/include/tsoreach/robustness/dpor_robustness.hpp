#pragma once
// Robustness by exhaustive exploration (paper 000, digest section 2.7): a
// program is robust against a model iff none of its maximal executions has
// a cyclic happens-before relation (Shasha-Snir). The dpor engine explores
// one execution per Shasha-Snir trace, so checking each explored execution
// decides robustness for the programs it supports (acyclic, no locks). This
// is how tsoreach checks robustness against PSO.

#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/model.hpp"
#include "tsoreach/reach/options.hpp"
#include "tsoreach/reach/trace.hpp"
#include "tsoreach/robustness/happens_before.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tsoreach::robustness {

struct ExploredRobustness {
    RobustVerdict verdict = RobustVerdict::Unknown;
    std::string reason;           // Unknown only
    reach::Trace trace;           // NotRobust: an execution, replayed, values filled in
    HbGraph graph;                // NotRobust: its happens-before relation
    std::vector<HbArc> cycle;     // NotRobust: a cycle of it
    std::uint64_t executions = 0; // maximal executions checked (complete or blocked)
    double seconds = 0;
};

ExploredRobustness robustnessByExploration(const Program& p, reach::MemoryModel model,
                                           const reach::Options& limits);

} // namespace tsoreach::robustness
