#pragma once
// Exploration by reads-from classes (paper 001, digest section 3): two
// executions are equivalent when they have the same events and every read
// reads from the same write, which is coarser than Shasha-Snir traces.
//
// RF-SMC style: only maximal executions are explored. A call gets a node
// (an execution closed under program order and reads-from, with a witness
// from the consistency check, reads_from.hpp) and extends it to a maximal
// execution by an SC run; its class is counted if new. For every step the
// extension added, each other enabled transition and, for a read, each
// other write not causally after it is a mutation; its child keeps the
// node plus the causal pasts of the step's predecessor and of the new
// source, and is explored if the consistency check realises it (sources
// that coherence rules out in every execution are dropped before the
// check). Any maximal execution containing the node contains the child of
// its first difference with the extension, so every class is explored
// (induction on what the node lacks). A child explored after a sibling
// sleeps on it (sleep sets), which drops most repeats before their check;
// the rest are recognised by a set of 128-bit class digests, so each class
// is counted exactly once but a class can be explored more than once
// (`redundant`). Not the paper's bookkeeping (schedules per read,
// committed reads), which makes every call a new class. Memory: the
// explicit DFS stack and the class digests. Same limits as dpor: no
// lock/unlock, cyclic programs only up to a loop bound.

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
// those of executions stopped by a failed check; events: maximal
// executions explored (calls); redundant: those of them whose class was
// explored already (events = executions + blocked + redundant);
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
