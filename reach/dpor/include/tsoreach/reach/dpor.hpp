#pragma once
// Stateless exploration with dynamic partial-order reduction over
// chronological traces (paper 000, digest section 2): every buffered store's
// flush is an event of an auxiliary thread (one per thread under TSO, one
// per thread and address under PSO), happens-before is tracked with vector
// clocks, and Source-DPOR with sleep sets explores each Shasha-Snir trace
// of complete executions once. Executions that sleep sets cut short are
// counted as redundant.
//
// Programs without lock/unlock; cyclic ones only up to a loop bound
// (Options::unroll), which makes every negative
// answer `unknown`.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/explore.hpp"
#include "tsoreach/reach/model.hpp"
#include "tsoreach/reach/options.hpp"
#include "tsoreach/reach/trace.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tsoreach::reach {

// Why dpor cannot explore `p` under `model` (with loops unrolled `unroll`
// times, if not 0), if it cannot. Throws Stopped when `stop` holds first.
std::optional<std::string> dporUnsupported(const Program& p, MemoryModel model,
                                           std::size_t unroll = 0,
                                           const StopCondition& stop = StopCondition());

ExploreResult dporExplore(const Program& p, MemoryModel model, const ExploreOptions& options);

// The engine behind `--engine dpor`.
class DporEngine final : public Engine {
  public:
    explicit DporEngine(MemoryModel model) : model_(model) {}
    [[nodiscard]] std::string_view name() const override { return "dpor"; }
    [[nodiscard]] MemoryModel model() const override { return model_; }
    Result run(const Program& program, const Goal& goal, const Options& options) override;

  private:
    MemoryModel model_;
};

} // namespace tsoreach::reach
