#pragma once
// Exploration by reads-from classes (paper 001, digest section 3): two
// executions are equivalent when they have the same events and every read
// reads from the same write, which is coarser than Shasha-Snir traces. The
// explorer grows partial executions one thread step at a time; a read is
// given each write it might read from, and a reads-from consistency check
// (reads_from.hpp) keeps the choices some SC / TSO / PSO execution
// realises. Every partial execution is grown only from its canonical
// parent, so each is reached once and each reads-from class is explored
// once, statelessly (memory: the DFS stack).
//
// This is not the paper's RF-SMC (which grows maximal traces and mutates
// reads); it explores every partial execution, not only maximal ones. Same
// limits as dpor: no lock/unlock, cyclic programs only up to a loop bound.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/dpor.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/model.hpp"

#include <optional>
#include <string>

namespace tsoreach::reach {

// Why rf cannot explore `p` (with loops unrolled `unroll` times, if not 0).
std::optional<std::string> rfUnsupported(const Program& p, std::size_t unroll = 0);

// stats.executions: reads-from classes of complete executions; blocked:
// those of executions stopped by a failed check; redundant: children
// dropped because the node is not their canonical parent; events: partial
// executions expanded;
// outcomes: distinct final registers of complete executions.
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
