#pragma once
// Exploration by reads-from classes (paper 001, digest section 3): two
// executions are equivalent when they have the same events and every read
// reads from the same write, which is coarser than Shasha-Snir traces.
//
// RF-SMC (paper 001 digest 3.7, with the bookkeeping of Abdulla et al.
// OOPSLA'19): only maximal executions are explored, each class once. A call
// gets a node (an execution closed under program order and reads-from,
// with a witness from the consistency check, reads_from.hpp) and extends it
// to a maximal execution by an SC run. Every step the extension added is a
// branch point: its schedules keep the steps before it in the trace and
// take another enabled transition or, for a read, another source with that
// write's causal past. The call and, while the branch point is pending,
// every call explored below it propose schedules from their writes; a
// schedule is kept if new there (novelty check on digests) and realizable
// (sources that coherence rules out are dropped before the check). Branch
// points are explored from the last to the first. Siblings differ at a slot
// both have, so no class is explored twice (`redundant` stays 0; the
// argument is at the top of rf_engine.cpp); completeness follows RF-SMC's
// and is checked against brute force in tests/rf_test.cpp. Memory: the
// explicit stack of calls with their branch points and novelty digests,
// and a digest per explored class (a check that none repeats). Same limits
// as dpor: no lock/unlock, cyclic programs only up to a loop bound.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/explore.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/model.hpp"

#include <optional>
#include <string>

namespace tsoreach::reach {

// Why rf cannot explore `p` (with loops unrolled `unroll` times, if not 0).
std::optional<std::string> rfUnsupported(const Program& p, std::size_t unroll = 0);

// stats.executions: reads-from classes of complete executions; blocked:
// those of executions stopped by a failed check; events: maximal
// executions explored (calls); redundant: those of them whose class was
// explored already, 0 by construction (events = executions + blocked);
// consistencyChecks: reads-from instances decided; outcomes: distinct final
// registers of complete executions.
ExploreResult rfExplore(const Program& p, MemoryModel model, const ExploreOptions& options);

// The engine behind `--engine rf`.
class RfEngine final : public Engine {
  public:
    explicit RfEngine(MemoryModel model) : model_(model) {}
    [[nodiscard]] std::string_view name() const override { return "rf"; }
    [[nodiscard]] MemoryModel model() const override { return model_; }
    Result run(const Program& program, const Goal& goal, const Options& options) override;

  private:
    MemoryModel model_;
};

} // namespace tsoreach::reach
