#pragma once

#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/explore.hpp"

namespace tsoreach::reach {

// Explicit-state search over the operational semantics of the model.
class ExplicitEngine final : public Engine {
  public:
    explicit ExplicitEngine(MemoryModel model);
    [[nodiscard]] std::string_view name() const override { return "explicit"; }
    [[nodiscard]] MemoryModel model() const override { return model_; }
    Result run(const Program& program, const Goal& goal, const Options& options) override;
    [[nodiscard]] bool takesGoalViews() const override { return true; }

  private:
    MemoryModel model_;
};

// Every state without successors of an acyclic program (cyclic ones with
// options.limits.unroll), each handed to options.onExecution as a trace
// that ends in it (blocked: some thread is not at a state without
// transitions, or a store is still buffered because a thread ended holding
// the lock). ExploreStats::executions counts the states where every
// thread is done, `blocked` the others. The search keeps every register
// (no live-register reduction) and every store (no merging), so two final
// states never merge; partial-order reduction stays, since ample sets keep
// every state without successors (docs/architecture.md, "Outcomes").
ExploreResult explicitFinalStates(const Program& program, MemoryModel model,
                                  const ExploreOptions& options);

} // namespace tsoreach::reach
