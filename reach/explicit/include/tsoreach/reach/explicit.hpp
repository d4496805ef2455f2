#pragma once

#include "tsoreach/reach/engine.hpp"

namespace tsoreach::reach {

// Explicit-state search over the operational semantics of the model.
class ExplicitEngine final : public Engine {
  public:
    explicit ExplicitEngine(MemoryModel model);
    [[nodiscard]] std::string_view name() const override { return "explicit"; }
    [[nodiscard]] MemoryModel model() const override { return model_; }
    Result run(const Program& program, const Goal& goal, const Options& options) override;

  private:
    MemoryModel model_;
};

} // namespace tsoreach::reach
