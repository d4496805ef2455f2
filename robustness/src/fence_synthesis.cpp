#include "tsoreach/robustness/fence_synthesis.hpp"

#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/reach/explicit.hpp"
#include "tsoreach/reach/progress_ticker.hpp"
#include "tsoreach/robustness/hitting_set.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <stdexcept>

namespace tsoreach::robustness {

using instrument::FencePosition;

std::vector<FencePosition> delayedDepartures(const Program& p, const reach::Trace& t,
                                             std::size_t steps) {
    std::vector<std::size_t> buffered(p.threads.size(), 0);
    std::vector<FencePosition> out;
    for (std::size_t i = 0; i < steps && i < t.steps.size(); ++i) {
        const reach::TraceStep& s = t.steps[i];
        std::size_t& pending = buffered[s.thread.index()];
        if (s.kind == reach::StepKind::Flush) {
            if (pending == 0) {
                throw std::logic_error("delayedDepartures: a flush of an empty buffer");
            }
            --pending;
            continue;
        }
        const Transition& tr = p.transition(s.transition);
        if (pending > 0) {
            out.push_back({s.thread, tr.from});
        }
        if (tr.instr.kind == InstrKind::Write) {
            ++pending;
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

namespace {

// The hitting-set search's node budget (past it the fence set found is not
// proved minimum).
constexpr std::uint64_t kHittingSetNodes = 2'000'000;

// The state loop shared by both targets.
class Synthesis {
  public:
    Synthesis(const Program& p, const FenceOptions& options)
        : p_(p), candidates_(instrument::fenceCandidates(p)) {
        if (options.allowed) {
            std::erase_if(candidates_, [&](const FencePosition& f) {
                return std::find(options.allowed->begin(), options.allowed->end(), f) ==
                       options.allowed->end();
            });
        }
        for (std::size_t i = 0; i < candidates_.size(); ++i) {
            index_[candidates_[i]] = i;
        }
        const std::vector<std::vector<bool>> cyc =
            options.cost == FenceCost::Loops ? statesOnCycles(p) : std::vector<std::vector<bool>>();
        for (const FencePosition& f : candidates_) {
            cost_.push_back(
                options.cost == FenceCost::Loops && cyc[f.thread.index()][f.state.index()] ? 10
                                                                                           : 1);
        }
    }

    // The departures of an execution of `fenced`, mapped to p's fence
    // positions by state name.
    [[nodiscard]] std::vector<FencePosition> departures(const instrument::FencedProgram& fenced,
                                                        const reach::Trace& trace,
                                                        std::size_t steps) const {
        std::vector<FencePosition> out;
        for (const FencePosition& d : delayedDepartures(fenced.program, trace, steps)) {
            const std::string& name = fenced.program.thread(d.thread).stateNames[d.state.index()];
            const StateId s = findState(p_.thread(d.thread), name);
            if (s.valid() && index_.contains({d.thread, s})) {
                out.push_back({d.thread, s});
            }
        }
        return out;
    }

    // Adds the constraint of an execution of `fenced`; false when the
    // execution delays nothing.
    bool addConstraint(const instrument::FencedProgram& fenced, const reach::Trace& trace,
                       std::size_t steps, std::string reason, bool withPositions) {
        return addConstraint(departures(fenced, trace, steps), std::move(reason), withPositions);
    }

    bool addConstraint(std::vector<FencePosition> positions, std::string reason,
                       bool withPositions) {
        FenceConstraint c;
        c.reason = std::move(reason);
        c.positions = std::move(positions);
        if (c.positions.empty()) {
            return false;
        }
        if (withPositions) {
            c.reason += ": stores stay buffered past";
            for (const FencePosition& f : c.positions) {
                const Thread& t = p_.thread(f.thread);
                c.reason += " " + t.name + ":" + t.stateNames[f.state.index()];
            }
        }
        result.constraints.push_back(std::move(c));
        return true;
    }

    // Every fence position not in `keep` (sorted).
    [[nodiscard]] std::vector<FencePosition>
    complementOf(const std::vector<FencePosition>& keep) const {
        std::vector<FencePosition> out;
        for (const FencePosition& f : candidates_) {
            if (!std::binary_search(keep.begin(), keep.end(), f)) {
                out.push_back(f);
            }
        }
        return out;
    }

    // The next fence set: a minimum-cost hitting set of the constraints.
    // Throws Stopped when `stop` holds before it is found.
    void solve(const StopCondition& stop) {
        std::vector<std::vector<std::size_t>> sets;
        for (const FenceConstraint& c : result.constraints) {
            std::vector<std::size_t> s;
            for (const FencePosition& f : c.positions) {
                s.push_back(index_.at(f));
            }
            sets.push_back(std::move(s));
        }
        const HittingSet h = minimumHittingSet(sets, cost_, kHittingSetNodes, stop);
        exact_ = h.optimal;
        result.fences.clear();
        for (std::size_t e : h.chosen) {
            result.fences.push_back(candidates_[e]);
        }
        std::sort(result.fences.begin(), result.fences.end());
        result.cost = h.cost;
    }

    [[nodiscard]] instrument::FencedProgram fenced() const {
        return instrument::insertFences(p_, result.fences);
    }

    FenceResult found(const instrument::FencedProgram& fenced) {
        result.outcome = FenceOutcome::Found;
        result.verified = true;
        result.optimal = exact_;
        result.fencedText = printProgram(fenced.program);
        result.cuts.clear();
        for (const FencePosition& f : result.fences) {
            std::vector<std::size_t> cut;
            for (std::size_t k = 0; k < result.constraints.size(); ++k) {
                const auto& pos = result.constraints[k].positions;
                if (std::find(pos.begin(), pos.end(), f) != pos.end()) {
                    cut.push_back(k);
                }
            }
            result.cuts.push_back(std::move(cut));
        }
        return result;
    }

    // An execution whose stores stay buffered only past states outside the
    // allowed ones: no allowed fence set blocks it (the source has no place
    // for a fence where one would).
    FenceResult nowhere(const std::string& what) {
        result.outcome = FenceOutcome::Impossible;
        result.reason = "no fence at the places the source can hold one (before statements) "
                        "blocks " +
                        what + ": its stores stay buffered only inside statements";
        result.fences.clear();
        return result;
    }

    FenceResult unknown(std::string reason) {
        result.outcome = FenceOutcome::Unknown;
        result.reason = std::move(reason);
        return result;
    }

    [[nodiscard]] std::string describe(const instrument::FencedProgram& fenced,
                                       TransitionId id) const {
        const TransitionId original = fenced.origin[id.index()];
        if (!original.valid()) {
            return "a fence";
        }
        const Transition& tr = p_.transition(original);
        return "'" + printInstruction(p_, tr) + "' (at " + placeText(tr.pos) + ")";
    }

    void beginRound(std::size_t round) {
        result.rounds = round;
        round_ = round;
        constraints_ = result.constraints.size();
    }

    // A check of a (fenced) program ended after `states` states.
    void counted(std::uint64_t states) {
        ++result.checks;
        result.scStates += states;
        checks_ = result.checks;
        states_ = result.scStates;
    }

    // "fences: 3.0 s, round 2 (5 constraints), 7 checks done, 12345
    // states (4115/s), 35 MB" (the checks ended so far), for the progress
    // ticker's thread.
    [[nodiscard]] std::string progressLine(double seconds) const {
        const std::size_t done = checks_.load();
        return "fences: " + reach::progressSeconds(seconds) + ", " + roundText() + ", " +
               std::to_string(done) + (done == 1 ? " check" : " checks") + " done, " +
               reach::progressCounts(states_.load(), seconds);
    }

    [[nodiscard]] std::string roundText() const {
        if (round_.load() == 0) {
            return "SC check of the goal";
        }
        return "round " + std::to_string(round_.load()) + " (" +
               std::to_string(constraints_.load()) + " constraints)";
    }

    FenceResult result;

  private:
    std::atomic<std::size_t> checks_{0};
    std::atomic<std::uint64_t> states_{0};
    std::atomic<std::size_t> round_{0};
    std::atomic<std::size_t> constraints_{0};
    const Program& p_;
    std::vector<FencePosition> candidates_;
    std::map<FencePosition, std::size_t> index_;
    std::vector<std::uint64_t> cost_;
    bool exact_ = true;
};

} // namespace

namespace {

FenceResult robustnessRounds(Synthesis& syn, const FenceOptions& options) {
    for (std::size_t round = 1; round <= options.maxRounds; ++round) {
        syn.beginRound(round);
        const instrument::FencedProgram fenced = syn.fenced();
        const RobustnessResult r = checkTsoRobustness(fenced.program, options.search,
                                                      WitnessScope::All, options.search.jobs);
        syn.counted(r.scStates);
        switch (r.verdict) {
        case RobustVerdict::Robust:
            return syn.found(fenced);
        case RobustVerdict::Unknown:
            return syn.unknown("robustness check of the fenced program: " + r.reason);
        case RobustVerdict::NotRobust:
            break;
        }
        for (const Witness& w : r.witnesses) {
            const std::string& thread = fenced.program.thread(w.attack.thread).name;
            const std::string reason = "attack: " + thread + " delays " +
                                       syn.describe(fenced, w.attack.store) + " past " +
                                       syn.describe(fenced, w.attack.load);
            if (!syn.addConstraint(fenced, w.trace, w.trace.steps.size(), reason, false)) {
                if (options.allowed) {
                    return syn.nowhere(reason);
                }
                throw std::logic_error("a robustness witness that delays no store (" + reason +
                                       ")");
            }
        }
        syn.solve(options.search.stop);
    }
    return syn.unknown("no verified fence set after " + std::to_string(options.maxRounds) +
                       " rounds");
}

FenceResult safetyRounds(Synthesis& syn, const Program& p, const Goal& goal, reach::Engine& engine,
                         const FenceOptions& options) {
    // A check that the stop condition cut short ends the synthesis: every
    // later check would stop at once.
    StopPoll poll(options.search.stop);
    // Fences do not change SC executions: an SC-reachable goal stays reachable.
    {
        auto sc = std::make_unique<reach::ExplicitEngine>(reach::MemoryModel::SC);
        const reach::Result r = reach::runChecked(*sc, p, goal, options.search);
        syn.counted(r.stats.states);
        if (r.verdict == reach::Verdict::Reachable) {
            syn.result.outcome = FenceOutcome::Impossible;
            syn.result.reason = "the goal is reachable under SC, so no fence set prevents it";
            syn.result.scTrace = *r.trace;
            return syn.result;
        }
        if (r.verdict == reach::Verdict::Unknown) {
            return syn.unknown("SC check of the goal: " + r.reason);
        }
    }
    for (std::size_t round = 1; round <= options.maxRounds; ++round) {
        syn.beginRound(round);
        const instrument::FencedProgram fenced = syn.fenced();
        const Goal fencedGoal = goalByStateNames(p, goal, fenced.program);
        const reach::Result r =
            reach::runChecked(engine, fenced.program, fencedGoal, options.search);
        syn.counted(r.stats.states);
        switch (r.verdict) {
        case reach::Verdict::Unreachable:
            return syn.found(fenced);
        case reach::Verdict::Unknown:
            return syn.unknown(std::string(engine.name()) +
                               " check of the fenced program: " + r.reason);
        case reach::Verdict::Reachable:
            break;
        }
        std::vector<FencePosition> c = syn.departures(fenced, *r.trace, r.trace->goalStep);
        if (c.empty() && options.allowed) {
            return syn.nowhere("a trace that reaches the goal");
        }
        if (c.empty()) {
            throw std::logic_error(
                "a trace reaches the goal without delaying a store, yet SC does not reach it");
        }
        // Shrink the constraint. C must be hit whenever p fenced at every
        // position outside C reaches the goal: fences only remove
        // executions, so a fence set missing C, a subset of those, keeps
        // one. Dropping x from C is therefore tested by fencing x as well;
        // a trace found then delays only inside C \ {x}, and its departures
        // become C. Traces of a depth-first search delay stores far longer
        // than the bug needs, and constraints that large make the loop take
        // dozens of rounds.
        for (std::size_t i = 0; i < c.size() && c.size() > 1;) {
            std::vector<FencePosition> without = c;
            without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
            const instrument::FencedProgram more =
                instrument::insertFences(p, syn.complementOf(without));
            const reach::Result m = reach::runChecked(
                engine, more.program, goalByStateNames(p, goal, more.program), options.search);
            syn.counted(m.stats.states);
            if (m.verdict == reach::Verdict::Unknown && poll.reason()) {
                return syn.unknown(std::string(engine.name()) +
                                   " check of a fenced program: " + m.reason);
            }
            std::vector<FencePosition> smaller;
            if (m.verdict == reach::Verdict::Reachable) {
                smaller = syn.departures(more, *m.trace, m.trace->goalStep);
            }
            if (smaller.empty()) {
                ++i; // x is needed (or undecided: keeping it is always sound)
            } else {
                c = std::move(smaller);
                i = 0;
            }
        }
        const std::string reason = "trace " + std::to_string(syn.result.constraints.size() + 1) +
                                   " (round " + std::to_string(round) + ") reaches the goal";
        syn.addConstraint(std::move(c), reason, true);
        syn.solve(options.search.stop);
    }
    return syn.unknown("no verified fence set after " + std::to_string(options.maxRounds) +
                       " rounds");
}

} // namespace

namespace {

// The checks report into the synthesis's progress lines.
FenceOptions withProgress(const FenceOptions& options, const reach::ProgressTicker& ticker) {
    FenceOptions mine = options;
    mine.search.progress = ticker.innerSink();
    return mine;
}

} // namespace

FenceResult robustnessFences(const Program& p, const FenceOptions& options) {
    Synthesis syn(p, options);
    // One progress line a second for the whole synthesis, ending with the
    // newest line of the check under way.
    const reach::ProgressTicker ticker(options.search,
                                       [&syn](double s) { return syn.progressLine(s); });
    try {
        return robustnessRounds(syn, withProgress(options, ticker));
    } catch (const Stopped& e) { // in the hitting-set search
        return syn.unknown(std::string("fence synthesis: ") + e.what());
    }
}

FenceResult safetyFences(const Program& p, const Goal& goal, reach::Engine& engine,
                         const FenceOptions& options) {
    Synthesis syn(p, options);
    const reach::ProgressTicker ticker(options.search,
                                       [&syn](double s) { return syn.progressLine(s); });
    try {
        return safetyRounds(syn, p, goal, engine, withProgress(options, ticker));
    } catch (const Stopped& e) { // in the hitting-set search
        return syn.unknown(std::string("fence synthesis: ") + e.what());
    }
}

} // namespace tsoreach::robustness
