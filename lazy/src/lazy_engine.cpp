#include "tsoreach/lazy/lazy_engine.hpp"

#include "tsoreach/lang/parser.hpp"
#include "tsoreach/lang/value_sets.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <sstream>

namespace tsoreach::lazy {

using instrument::LazyOrigin;
using instrument::LazyRole;

std::string_view LazyEngine::name() const {
    return variant_ == instrument::ExtensionVariant::Terminating ? "lazy" : "lazy-trencher";
}

Goal translateGoal(const Program& p, const Goal& goal, const Program& to) {
    Goal out(to);
    for (ThreadId t : goal.constrainedThreads()) {
        for (StateId s : goal.acceptedStates(t)) {
            const StateId mapped = findState(to.thread(t), p.thread(t).stateNames[s.index()]);
            if (!mapped.valid()) {
                throw std::logic_error("goal state '" + p.thread(t).stateNames[s.index()] +
                                       "' lost by an extension");
            }
            out.accept(t, mapped);
        }
    }
    return out;
}

reach::Trace originalTrace(const Program& p, std::span<const LazyOrigin> origins,
                           const reach::Trace& scTrace) {
    reach::Trace t;
    t.model = reach::MemoryModel::TSO;
    std::vector<std::size_t> pending(p.threads.size(), 0); // issued, not yet landed
    auto flush = [&](ThreadId th) {
        reach::TraceStep f;
        f.kind = reach::StepKind::Flush;
        f.thread = th;
        t.steps.push_back(f);
    };
    for (std::size_t i = 0; i < scTrace.goalStep; ++i) {
        const reach::TraceStep& s = scTrace.steps[i];
        const LazyOrigin o = origins[s.transition.index()];
        reach::TraceStep step;
        step.thread = s.thread;
        step.transition = o.original;
        switch (o.role) {
        case LazyRole::None:
            break;
        case LazyRole::Step:
            t.steps.push_back(step);
            if (p.transition(o.original).instr.kind == InstrKind::Write) {
                // Reaches memory at once: in the extension no store of this
                // thread waits here (a wrong guess fails the replay).
                flush(s.thread);
            }
            break;
        case LazyRole::Issue:
            t.steps.push_back(step);
            ++pending[s.thread.index()];
            break;
        case LazyRole::Land:
            if (pending[s.thread.index()] == 0) {
                throw std::logic_error("an extension lands a store that was never issued");
            }
            --pending[s.thread.index()];
            flush(s.thread);
            break;
        }
    }
    t.goalStep = t.steps.size();
    // Threads the goal does not constrain may stop inside an extension
    // with stores still buffered: they land after the goal.
    for (std::size_t th = 0; th < pending.size(); ++th) {
        for (; pending[th] > 0; --pending[th]) {
            flush(ThreadId(static_cast<std::uint32_t>(th)));
        }
    }
    return t;
}

namespace {

using Clock = std::chrono::steady_clock;

struct Size {
    std::uint64_t states = 0;
    std::uint64_t transitions = 0;
};

Size sizeOf(const Program& p) {
    Size s;
    for (const Thread& t : p.threads) {
        s.states += t.stateCount();
    }
    s.transitions = p.transitions.size();
    return s;
}

// Stops a running oracle and waits for it, so that it never outlives the
// program it reads, also when the round ends by an exception.
class OracleGuard {
  public:
    OracleGuard(std::atomic<bool>& stop, std::future<robustness::RobustnessResult>& pending)
        : stop_(stop), pending_(pending) {}
    OracleGuard(const OracleGuard&) = delete;
    OracleGuard& operator=(const OracleGuard&) = delete;
    ~OracleGuard() {
        if (pending_.valid()) {
            stop_ = true;
            pending_.wait();
        }
    }

  private:
    std::atomic<bool>& stop_;
    std::future<robustness::RobustnessResult>& pending_;
};

void progress(const reach::Options& options, std::size_t round, Size size, const reach::Result& sc,
              const std::string& what, double seconds) {
    if (!options.progress) {
        return;
    }
    std::ostringstream line;
    line << "round " << round << ": program " << size.states << " states, " << size.transitions
         << " transitions; SC check " << sc.stats.states << " states in " << sc.stats.timeSeconds
         << " s; " << what << "; " << seconds << " s";
    options.progress(line.str());
}

} // namespace

reach::Result LazyEngine::run(const Program& program, const Goal& goal,
                              const reach::Options& options) {
    const auto start = Clock::now();
    reach::Result out;
    reach::LoopStats loop;
    const std::size_t maxRounds =
        options.maxIterations != 0 ? options.maxIterations : kDefaultMaxIterations;
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    auto finish = [&](reach::Verdict v, std::string reason) {
        out.verdict = v;
        out.reason = std::move(reason);
        out.stats.timeSeconds = elapsed();
        out.stats.peakRssMb = reach::processPeakRssMb();
        out.stats.loop = loop;
        return out;
    };
    // Limits apply to the whole run: each search gets what is left.
    auto remaining = [&](reach::Options o) {
        if (options.timeoutSeconds > 0) {
            o.timeoutSeconds = std::max(1e-3, options.timeoutSeconds - elapsed());
        }
        return o;
    };

    // A goal state that no execution under any model reaches (the value
    // analysis sees its checks fail) needs no loop, which might not end.
    const AddressSets analysis = accessedAddresses(program);
    for (ThreadId t : goal.constrainedThreads()) {
        const std::vector<StateId> accepted = goal.acceptedStates(t);
        if (std::none_of(accepted.begin(), accepted.end(),
                         [&](StateId s) { return analysis.reachable[t.index()][s.index()]; })) {
            return finish(reach::Verdict::Unreachable, "");
        }
    }

    // A goal counts as reached when its control states are, whatever the
    // buffers hold (language.md). Without locks buffers can always be
    // flushed, so this is reachability with empty buffers, which is what
    // robustness speaks about (Lemma 5). A thread that stops holding the
    // lock freezes the other threads' buffers, and then a robust R can
    // reach under TSO a goal that SC cannot: so with locks, a negative
    // answer is left to the explicit engine (positive ones are replayed
    // traces, sound either way).
    const bool hasLock =
        std::any_of(program.transitions.begin(), program.transitions.end(),
                    [](const Transition& tr) { return tr.instr.kind == InstrKind::Lock; });
    auto confirmByExplicit = [&] {
        auto exact = reach::makeEngine("explicit", reach::MemoryModel::TSO);
        const reach::Result e = reach::runChecked(*exact, program, goal, remaining(options));
        out.stats.states += e.stats.states;
        out.stats.transitions += e.stats.transitions;
        out.trace = e.trace;
        return finish(e.verdict, e.reason.empty() ? "" : "explicit engine (locks): " + e.reason);
    };

    // R and the origins of its transitions in P; R starts as P.
    Program r = program;
    std::vector<LazyOrigin> origins = instrument::identityOrigins(program);
    auto sc = reach::makeEngine("explicit", reach::MemoryModel::SC);
    for (std::size_t round = 1;; ++round) {
        loop.iterations = round;
        const Size size = sizeOf(r);
        loop.largestStates = std::max(loop.largestStates, size.states);
        loop.largestTransitions = std::max(loop.largestTransitions, size.transitions);

        // 1. The goal under SC on R, and 2. the oracle on R, side by side
        // when there are two jobs or more: the oracle's answer is needed
        // unless the goal check finds the goal, which then cancels it.
        const Goal rGoal = translateGoal(program, goal, r);
        const bool overlap = options.jobs >= 2 && round <= maxRounds;
        std::atomic<bool> stopOracle{false};
        reach::Options oracleOptions = remaining(options);
        oracleOptions.cancel = &stopOracle;
        oracleOptions.cancelAlso = nullptr;
        std::future<robustness::RobustnessResult> pending;
        if (overlap) {
            pending = std::async(std::launch::async, [&] {
                return robustness::checkTsoRobustness(
                    r, oracleOptions, robustness::WitnessScope::First, options.jobs - 1);
            });
        }
        // However this round ends, the oracle is stopped before R changes.
        const OracleGuard guard(stopOracle, pending);

        const reach::Result scResult = reach::runChecked(*sc, r, rGoal, remaining(options));
        ++loop.scQueries;
        out.stats.states += scResult.stats.states;
        out.stats.transitions += scResult.stats.transitions;
        if (scResult.verdict == reach::Verdict::Reachable) {
            reach::Trace mapped = originalTrace(program, origins, *scResult.trace);
            const reach::ReplayOutcome replay =
                reach::replayTrace(program, goal, mapped, reach::Recorded::IfGiven);
            if (!replay.ok) {
                throw reach::TraceReplayError("the lazy engine's trace (round " +
                                              std::to_string(round) +
                                              ") does not replay under TSO: " + replay.error);
            }
            out.trace = replay.completed;
            return finish(reach::Verdict::Reachable, "");
        }
        if (scResult.verdict == reach::Verdict::Unknown) {
            return finish(reach::Verdict::Unknown, scResult.reason);
        }
        if (round > maxRounds) {
            return finish(reach::Verdict::Unknown, "no conclusion after " +
                                                       std::to_string(maxRounds) +
                                                       " rounds (--max-iterations)");
        }

        // 2. The oracle: the first feasible attack's path (the shortest
        // attacks come first), or a proof that R is robust.
        robustness::RobustnessResult oracle;
        if (overlap) {
            // The caller's cancel flags reach the oracle through stopOracle.
            while (pending.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
                if ((options.cancel != nullptr && options.cancel->load()) ||
                    (options.cancelAlso != nullptr && options.cancelAlso->load())) {
                    stopOracle = true;
                }
            }
            oracle = pending.get();
        } else {
            oracle = robustness::checkTsoRobustness(r, remaining(options),
                                                    robustness::WitnessScope::First, 1);
        }
        loop.oracleQueries += oracle.scQueries;
        out.stats.states += oracle.scStates;
        switch (oracle.verdict) {
        case robustness::RobustVerdict::Robust:
            // Reach_SC(R) = Reach_TSO(R) = Reach_TSO(P) on the original
            // registers, memory and control states (Lemmas 1 and 5).
            progress(options, round, size, scResult, "robust", elapsed());
            if (hasLock) {
                return confirmByExplicit();
            }
            return finish(reach::Verdict::Unreachable, "");
        case robustness::RobustVerdict::Unknown:
            return finish(reach::Verdict::Unknown, "robustness oracle: " + oracle.reason);
        case robustness::RobustVerdict::NotRobust:
            break;
        }

        // 3. R := R ⊕ σ.
        const std::vector<TransitionId>& sigma = oracle.witnesses.front().path;
        progress(options, round, size, scResult,
                 "oracle " + std::to_string(oracle.scStates) + " states, witness from " +
                     std::to_string(oracle.checked) + "/" + std::to_string(oracle.attacks) +
                     " attacks, extending by " + std::to_string(sigma.size()) + " steps",
                 elapsed());
        const std::string tag = "x" + std::to_string(round);
        instrument::Extension ext = instrument::extendByPath(r, origins, sigma, variant_, tag);
        ++loop.extensions;
        r = parseProgram(ext.text, program.sourceName + " (extension " + tag + ")");
        if (options.onProgram) {
            options.onProgram(round + 1, ext.text);
        }
        origins = std::move(ext.origins);
    }
}

} // namespace tsoreach::lazy
