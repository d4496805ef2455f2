#pragma once
// Lazy TSO reachability (paper 004, Algorithm 1): decide TSO reachability by
// SC reachability checks. Check the goal under SC on R (first R = P); if it
// is not reached, ask the robustness oracle for a path σ of one thread whose
// store TSO can delay past a later load of it; if there is none, R is robust,
// so R's SC and TSO reachable states agree and the goal is TSO-unreachable;
// otherwise R := R ⊕ σ (instrument/extension.hpp), which keeps R's
// TSO-reachable states, and repeat.
//
// A reachable goal comes with the SC trace of the last R mapped back to a
// TSO trace of P and replayed. `unreachable` is reported only when the
// oracle proved some R robust, i.e. after complete searches; otherwise the
// loop ends with `unknown` (a limit, or Options::maxIterations rounds).

#include "tsoreach/instrument/extension.hpp"
#include "tsoreach/reach/engine.hpp"

namespace tsoreach::lazy {

// Rounds when Options::maxIterations is 0. Acyclic programs need few
// (the paper saw at most 2 with parallel witnesses); cyclic ones may never
// converge, and this keeps them from running unboundedly.
constexpr std::size_t kDefaultMaxIterations = 32;

// The catalog offers the terminating variant as "lazy". Trencher's variant
// keeps the delayed store's transition, so with one witness per round the
// oracle can propose the same path forever; Trencher itself explores every
// feasible witness's extension. It is available to `tsoreach instrument` and
// to tests, not as an engine.
class LazyEngine : public reach::Engine {
  public:
    explicit LazyEngine(instrument::ExtensionVariant variant) : variant_(variant) {}
    [[nodiscard]] std::string_view name() const override;
    [[nodiscard]] reach::MemoryModel model() const override { return reach::MemoryModel::TSO; }
    reach::Result run(const Program& program, const Goal& goal,
                      const reach::Options& options) override;
    // Hands goals with views to the explicit engine.
    [[nodiscard]] bool takesGoalViews() const override { return true; }

  private:
    instrument::ExtensionVariant variant_;
};

// The SC trace of an extension, as a TSO trace of the original program `p`
// (addresses and values not filled in: replay completes them).
reach::Trace originalTrace(const Program& p, std::span<const instrument::LazyOrigin> origins,
                           const reach::Trace& scTrace);

} // namespace tsoreach::lazy
