#pragma once
// The brute force of brute_force.hpp as a catalog engine ("brute-force"),
// for tests: adding it to a catalog shows that an engine joins every
// catalog user (examples_test, the CLI) through one row and nothing else
// (docs/architecture.md, "How to add an engine"). Its `unreachable` holds
// only within its state cap and buffer bound, which it reports as `unknown`.

#include "support/brute_force.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/reach/replay.hpp"

#include <memory>
#include <string>

namespace tsoreach::test {

class BruteForceEngine final : public reach::Engine {
  public:
    explicit BruteForceEngine(reach::MemoryModel model) : model_(model) {}
    [[nodiscard]] std::string_view name() const override { return "brute-force"; }
    [[nodiscard]] reach::MemoryModel model() const override { return model_; }
    [[nodiscard]] bool takesGoalViews() const override { return true; }

    reach::Result run(const Program& program, const Goal& goal,
                      const reach::Options& options) override {
        BruteOptions o;
        o.model = model_ == reach::MemoryModel::SC    ? BruteModel::SC
                  : model_ == reach::MemoryModel::TSO ? BruteModel::TSO
                                                      : BruteModel::PSO;
        o.bufferBound = options.bufferBound;
        if (options.maxStates != 0) {
            o.maxStates = options.maxStates;
        }
        o.recordPath = true;
        const BruteResult b = bruteForce(program, goal, o);
        reach::Result r;
        r.stats.states = b.states;
        switch (b.verdict) {
        case BruteVerdict::Reachable:
            r.verdict = reach::Verdict::Reachable;
            r.trace = traceOf(program, goal, b.path);
            break;
        case BruteVerdict::Unreachable:
            r.verdict = reach::Verdict::Unreachable;
            break;
        case BruteVerdict::Unknown:
            r.reason = "brute force: " + b.reason;
            break;
        }
        return r;
    }

  private:
    // The path as an engine's trace: the steps are the brute force's, the
    // addresses and values those the replay computes for them (runChecked
    // then checks the result as it checks any engine's trace).
    reach::Trace traceOf(const Program& program, const Goal& goal,
                         const std::vector<BruteStep>& path) const {
        reach::Trace t;
        t.model = model_;
        for (const BruteStep& s : path) {
            reach::TraceStep step;
            step.thread = ThreadId(static_cast<std::uint32_t>(s.thread));
            if (s.flush) {
                step.kind = reach::StepKind::Flush;
                step.addr = s.addr;
                // A joined group's flush: one flush of the thread per store,
                // in a row; the replay fills in the later addresses.
                for (std::size_t more = 1; more < s.stores; ++more) {
                    t.steps.push_back(step);
                    step.addr.reset();
                }
            } else {
                step.transition = s.transition;
            }
            t.steps.push_back(step);
        }
        t.goalStep = t.steps.size();
        return reach::replayTrace(program, goal, t, reach::Recorded::IfGiven).completed;
    }

    reach::MemoryModel model_;
};

// The catalog row of the brute force: reachability under every model.
inline engines::EngineEntry bruteForceRow() {
    engines::EngineEntry e;
    e.name = "brute-force";
    e.description = "breadth-first search over a plain state struct (tests/support)";
    e.reachModels = {reach::MemoryModel::SC, reach::MemoryModel::TSO, reach::MemoryModel::PSO};
    e.makeReach = [](reach::MemoryModel m) { return std::make_unique<BruteForceEngine>(m); };
    // Its buffer bound makes a cyclic program's `unreachable` unknown.
    e.unsupported = [](const Program& p, reach::MemoryModel m) -> std::optional<std::string> {
        if (m != reach::MemoryModel::SC && hasControlCycle(p)) {
            return std::string("brute-force bounds the buffers of cyclic programs");
        }
        return std::nullopt;
    };
    return e;
}

// The standard catalog with the brute force as its last row.
inline engines::Catalog catalogWithBruteForce() {
    std::vector<engines::EngineEntry> rows = engines::standardEngines();
    rows.push_back(bruteForceRow());
    return engines::Catalog(std::move(rows));
}

} // namespace tsoreach::test
