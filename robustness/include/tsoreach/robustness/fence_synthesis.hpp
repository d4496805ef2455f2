#pragma once
// Minimal fence sets, counterexample-guided (issue 7, docs/fences.md).
//
// A fence at a control state q (instrument/fences.hpp) blocks every
// execution in which q's thread leaves q while its store buffer holds a
// store. So for an execution τ (a robustness witness, or a TSO trace that
// reaches the goal), let D(τ) be the set of states its threads leave with a
// non-empty buffer: a fence set F that misses D(τ) keeps τ (with the fences
// as extra steps), so every good F hits D(τ). The loop collects these sets
// from executions of the program fenced with the current F, solves the
// minimum hitting set exactly, and re-checks, until the check proves the
// property. The last F is then minimum over all fence sets (each collected
// set is necessary), provided the hitting set was solved to optimality.

#include "tsoreach/instrument/fences.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/trace.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tsoreach::robustness {

enum class FenceTarget { Robustness, Safety };
enum class FenceCost {
    Uniform, // every fence costs 1
    Loops,   // a fence on a control-flow cycle of its thread costs 10, others 1
};

// One set that every good fence set must hit, with what it came from.
struct FenceConstraint {
    std::string reason; // "attack: ..." or "trace N: ..."
    std::vector<instrument::FencePosition> positions;
};

enum class FenceOutcome {
    Found,      // `fences` makes the property hold, verified by a complete check
    Impossible, // the goal is reachable under SC (safety), or an execution can only
                // be cut at states outside FenceOptions::allowed: no fence set helps
    Unknown,    // a limit stopped a check (see reason)
};

struct FenceResult {
    FenceOutcome outcome = FenceOutcome::Unknown;
    std::string reason;
    std::vector<instrument::FencePosition> fences; // sorted
    std::vector<std::vector<std::size_t>> cuts;    // per fence: indices into constraints
    std::vector<FenceConstraint> constraints;
    std::uint64_t cost = 0;
    bool verified = false; // the fenced program was checked completely
    bool optimal = false;  // minimum cost proved (exact hitting sets, verified)
    std::size_t rounds = 0;
    std::uint64_t checks = 0;   // robustness or reachability checks of fenced programs
    std::uint64_t scStates = 0; // states stored by those checks
    std::string fencedText;     // the fenced program (when Found)
    reach::Trace scTrace;       // Impossible: the goal's SC trace
};

struct FenceOptions {
    reach::Options search; // limits for each check; its jobs for the attacks too
    FenceCost cost = FenceCost::Uniform;
    std::size_t maxRounds = 64;
    // Where fences may go (a C program: before statements); every state
    // when nullopt.
    std::optional<std::vector<instrument::FencePosition>> allowed;
};

// States that τ's threads leave with a non-empty store buffer, among the
// first `steps` steps, as (thread, state) of `p` (τ is a TSO or PSO trace
// of p).
std::vector<instrument::FencePosition> delayedDepartures(const Program& p, const reach::Trace& t,
                                                         std::size_t steps);

// The model robustnessFences works under: its constraints come from the
// attacks' witnesses, which exist for TSO only.
constexpr reach::MemoryModel kRobustnessFencesModel = reach::MemoryModel::TSO;

// Fences so that `p` is robust against TSO.
FenceResult robustnessFences(const Program& p, const FenceOptions& options);

// Fences so that `goal` is unreachable in `p` under `engine`'s model (TSO or
// PSO); `engine` decides each fenced program.
FenceResult safetyFences(const Program& p, const Goal& goal, reach::Engine& engine,
                         const FenceOptions& options);

} // namespace tsoreach::robustness
