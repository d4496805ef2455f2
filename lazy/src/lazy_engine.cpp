#include "tsoreach/lazy/lazy_engine.hpp"

#include "tsoreach/instrument/fences_after_unlocks.hpp"
#include "tsoreach/instrument/plain_locks.hpp"
#include "tsoreach/lang/control_flow.hpp"

#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lang/value_sets.hpp"
#include "tsoreach/reach/explicit.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <unordered_map>

namespace tsoreach::lazy {

using instrument::LazyOrigin;
using instrument::LazyRole;

std::string_view LazyEngine::name() const {
    return variant_ == instrument::ExtensionVariant::Terminating ? "lazy" : "lazy-trencher";
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

// For each thread of R_k, for each of its states, the state of P it stands
// for: P's states stand for themselves, a state of a buffered path for the
// state of σ it copies (instrument::StateCopy); none for the states inside
// an exit or a load's lookup.
using StatesInP = std::vector<std::vector<StateId>>;

StatesInP identityStates(const Program& p) {
    StatesInP out(p.threads.size());
    for (std::size_t t = 0; t < out.size(); ++t) {
        for (std::size_t s = 0; s < p.threads[t].stateCount(); ++s) {
            out[t].push_back(StateId(static_cast<std::uint32_t>(s)));
        }
    }
    return out;
}

StatesInP statesThroughExtension(const Program& r, const StatesInP& rInP,
                                 std::span<const instrument::StateCopy> copies,
                                 const Program& next) {
    StatesInP out(next.threads.size());
    for (std::size_t t = 0; t < out.size(); ++t) {
        // R's names, and the copies' names as the names they copy.
        std::unordered_map<std::string_view, StateId> inR;
        const Thread& rt = r.threads[t];
        for (std::size_t s = 0; s < rt.stateCount(); ++s) {
            inR.emplace(rt.stateNames[s], StateId(static_cast<std::uint32_t>(s)));
        }
        for (const instrument::StateCopy& c : copies) {
            if (c.thread.index() == t) {
                inR.emplace(c.copy, inR.at(c.original));
            }
        }
        for (const std::string& name : next.threads[t].stateNames) {
            const auto found = inR.find(name);
            out[t].push_back(found != inR.end() ? rInP[t][found->second.index()] : StateId());
        }
    }
    return out;
}

// P's goal on R_k: a state is accepted where the state of P it stands for is
// (Lemma 1 relates R_k's states on a buffered path to P's on σ).
Goal goalInExtension(const Goal& goal, const Program& rk, const StatesInP& inP) {
    Goal out(rk);
    for (std::size_t i = 0; i < goal.termCount(); ++i) {
        if (i > 0) {
            out.addTerm();
        }
        for (ThreadId t : goal.termThreads(i)) {
            out.constrain(t);
            for (std::size_t s = 0; s < inP[t.index()].size(); ++s) {
                const StateId p = inP[t.index()][s];
                if (p.valid() && goal.termAccepts(i, t, p)) {
                    out.accept(t, StateId(static_cast<std::uint32_t>(s)));
                }
            }
        }
    }
    return out;
}

// One program of the loop: R_k, the origins of its transitions in P and the
// states of P its states stand for.
struct Stage {
    std::shared_ptr<const Program> program;
    std::shared_ptr<const std::vector<LazyOrigin>> origins;
    std::shared_ptr<const StatesInP> statesInP;
    Size size;
};

enum class OracleEnd { Running, Robust, Unknown, Limit };

// How many programs the oracle may build past the one whose goal check is
// running. The goal check of R_{k+1} covers R_k's (every SC run of R_k is
// one of R_k ⊕ σ), so a check that finds the next program ready skips to
// the newest one. One is enough to keep both cores busy; more would make
// the goal checks run on larger programs than the goal needs.
constexpr std::size_t kLookAhead = 1;

// States of the first explicit probe (LazyLoop::probe), a few hundredths
// of a second; each later probe may take kProbeGrowth times as many.
constexpr std::uint64_t kFirstProbeStates = 1U << 16;
constexpr std::uint64_t kProbeGrowth = 4;
constexpr std::uint64_t kMostProbeStates = 1U << 26;

// Joins the oracle thread however run() ends, after telling it to stop.
class OracleThread {
  public:
    OracleThread(std::atomic<bool>& stop, std::condition_variable& wake)
        : stop_(stop), wake_(wake) {}
    OracleThread(const OracleThread&) = delete;
    OracleThread& operator=(const OracleThread&) = delete;
    ~OracleThread() { halt(); }
    void halt() {
        if (thread_.joinable()) {
            stop_ = true;
            wake_.notify_all();
            thread_.join();
        }
    }
    template <class F> void start(F&& body) { thread_ = std::thread(std::forward<F>(body)); }

  private:
    std::atomic<bool>& stop_;
    std::condition_variable& wake_;
    std::thread thread_;
};

// One run of the lazy loop: LazyEngine::run's steps and the state they
// share. The loop runs as two cooperating sides. The oracle side takes R_k,
// asks the oracle for a witness and builds R_{k+1} = R_k ⊕ σ; the goal side
// checks the goal under SC on the newest program. With one job they
// alternate (check R_k, then the oracle on R_k); with two or more the
// oracle side runs on its own thread, up to kLookAhead programs ahead.
// `unreachable` needs a complete goal check of a program the oracle proved
// robust; `reachable` a trace of any R_k, mapped and replayed.
class LazyLoop {
  public:
    LazyLoop(const Program& program, const Goal& goal, const reach::Options& options,
             instrument::ExtensionVariant variant)
        : program_(program), goal_(goal), options_(options), variant_(variant),
          maxRounds_(options.maxIterations != 0 ? options.maxIterations : kDefaultMaxIterations),
          threaded_(options.jobs >= 2), oracleJobs_(threaded_ ? options.jobs - 1 : 1),
          oracleThread_(stop_, wake_) {}

    // Limits apply to the whole run: options.stop's deadline is absolute,
    // and every search and static pass below gets it.
    reach::Result run() {
        // An atomic block keeps the thread's buffer while it reads, which
        // the attacks and extensions do not model (they assume that a
        // locked block drains it): the explicit engine decides.
        if (std::any_of(program_.transitions.begin(), program_.transitions.end(),
                        [](const Transition& tr) { return isAtomicBlockEdge(tr.instr.kind); })) {
            return answerByExplicit("explicit engine (atomic blocks): ");
        }
        // Likewise joined stores, one buffer entry for several stores, and
        // goals on views of memory.
        if (firstJoinedWrite(program_) != nullptr) {
            return answerByExplicit("explicit engine (joined stores): ");
        }
        if (goal_.hasViews()) {
            return answerByExplicit("explicit engine (a goal on views of memory): ");
        }
        if (std::optional<reach::Result> settled = answerByAnalysis()) {
            return *settled;
        }
        if (std::optional<reach::Result> r = probe()) {
            return finish(r->verdict, r->reason);
        }
        addStage(Program(program_), instrument::identityOrigins(program_),
                 identityStates(program_));
        if (threaded_) {
            oracleThread_.start([this] { oracleLoop(); });
        }
        auto sc = std::make_unique<reach::ExplicitEngine>(reach::MemoryModel::SC);
        for (;;) {
            const auto [stage, g] = nextGoalStage();
            const reach::Result scResult = checkGoal(*sc, stage, g);
            if (scResult.verdict == reach::Verdict::Reachable) {
                stop_ = true;
                return answerReached(stage, g, *scResult.trace);
            }
            if (scResult.verdict == reach::Verdict::Unknown) {
                stop_ = true;
                return finish(reach::Verdict::Unknown, scResult.reason);
            }
            // Not reached on R_g: wait for a newer program or the oracle's end.
            if (!threaded_) {
                oracleStep(g);
            } else if (std::optional<reach::Result> r = probeWhileWaiting(g)) {
                stop_ = true;
                return finish(r->verdict, r->reason);
            }
            if (const std::optional<OracleEnd> ended = awaitOracle(g)) {
                return answerAtOracleEnd(*ended);
            }
        }
    }

  private:
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

    void say(const std::string& line) const { // with `lock_` held
        if (options_.progress) {
            options_.progress(line);
        }
    }

    reach::Result finish(reach::Verdict v, std::string reason) {
        oracleThread_.halt(); // no more updates of `out_` and `loop_`
        loop_.iterations = goalChecked_;
        out_.verdict = v;
        out_.reason = std::move(reason);
        out_.stats.timeSeconds = elapsed();
        out_.stats.peakRssMb = reach::processPeakRssMb();
        out_.stats.loop = loop_;
        return out_;
    }

    // A goal state that no execution under any model reaches (the value
    // analysis sees its checks fail) needs no loop, which might not end.
    std::optional<reach::Result> answerByAnalysis() {
        AddressSets analysis;
        try {
            analysis = accessedAddresses(program_, kDefaultValueSetLimit, options_.stop);
        } catch (const Stopped& e) {
            return finish(reach::Verdict::Unknown, std::string("value-set analysis: ") + e.what());
        }
        for (std::size_t i = 0; i < goal_.termCount(); ++i) {
            bool live = true;
            for (ThreadId t : goal_.termThreads(i)) {
                const std::vector<StateId> accepted = goal_.termAcceptedStates(i, t);
                live = live && std::any_of(accepted.begin(), accepted.end(), [&](StateId s) {
                           return analysis.reachable[t.index()][s.index()];
                       });
            }
            if (live) {
                return std::nullopt;
            }
        }
        return finish(reach::Verdict::Unreachable, "");
    }

    // A goal counts as reached when its control states are, whatever the
    // buffers hold (language.md). While no thread holds the lock, buffers
    // can always be flushed, so this is reachability with empty buffers,
    // which is what robustness speaks about (Lemma 5). A thread that stops
    // holding the lock freezes the other threads' buffers, and then a robust
    // R can reach under TSO a goal that SC cannot: so when some goal
    // configuration may have the lock held, a negative answer is left to
    // the explicit engine (positive ones are replayed traces, sound either
    // way).
    bool lockMayBeHeldAtGoal() const {
        const std::vector<std::vector<bool>> held = statesMayHoldLock(program_);
        for (std::size_t i = 0; i < goal_.termCount(); ++i) {
            for (std::size_t k = 0; k < program_.threads.size(); ++k) {
                const ThreadId t(static_cast<std::uint32_t>(k));
                const std::vector<bool>& h = held[k];
                if (std::none_of(h.begin(), h.end(), [](bool b) { return b; })) {
                    continue; // t never holds the lock
                }
                if (!goal_.termConstrains(i, t)) {
                    return true; // t may be anywhere, holding the lock too
                }
                for (StateId s : goal_.termAcceptedStates(i, t)) {
                    if (h[s.index()]) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    // The explicit engine decides with the rest of the budget; `why`
    // prefixes the reason of an unknown answer.
    // Explicit TSO probes: small explicit searches, before the loop and,
    // with a thread of its own for the oracle, while the goal side waits
    // for the oracle's next program. A program whose buffers stay within
    // the bound (acyclic threads, or stores that merge,
    // reach/explicit/src/merged_stores.hpp) and whose state space is small
    // is decided by them, while the loop might need many rounds: a safe
    // program that is not robust yields witnesses round after round.
    // Their answers are the explicit engine's, complete or replayed. A
    // probe that meets the buffer bound ends the probes (the same search
    // would meet it again); one that spends its budget leaves a larger one
    // to the next probe; one the oracle's news cancels leaves the same.
    // --max-states bounds every search, probes too: one that meets it ends
    // the run with `unknown`.
    std::optional<reach::Result> probe() {
        if (!options_.explicitProbes) {
            return std::nullopt;
        }
        reach::Options o = options_;
        const bool userLimit = options_.maxStates != 0 && options_.maxStates <= probeBudget_;
        o.maxStates = userLimit ? options_.maxStates : probeBudget_;
        o.stopAtBound = true;
        o.progress = nullptr;
        oracleNews_ = false;
        if (threaded_) {
            o.stop = options_.stop.orWhen(oracleNews_);
        }
        auto exact = std::make_unique<reach::ExplicitEngine>(reach::MemoryModel::TSO);
        const reach::Result e = reach::runChecked(*exact, program_, goal_, o);
        const std::lock_guard<std::mutex> held(lock_);
        out_.stats.states += e.stats.states;
        out_.stats.transitions += e.stats.transitions;
        if (e.verdict != reach::Verdict::Unknown) {
            out_.trace = e.trace;
            say("explicit probe: " + std::string(reach::name(e.verdict)) + " after " +
                std::to_string(e.stats.states) + " states; " + std::to_string(elapsed()) + " s");
            return e;
        }
        if (userLimit && e.stats.states > o.maxStates) {
            return e;
        }
        std::string why = e.reason;
        if (e.stats.states > probeBudget_) {
            why = "its budget of " + std::to_string(probeBudget_) + " states spent";
            probeBudget_ = std::min(probeBudget_ * kProbeGrowth, kMostProbeStates);
        } else if (!oracleNews_ || options_.stop.cancelled()) {
            probesOver_ = true; // the buffer bound or a limit of the whole run
        }
        say("explicit probe: no answer after " + std::to_string(e.stats.states) + " states (" +
            why + "); " + std::to_string(elapsed()) + " s");
        return std::nullopt;
    }

    // Probes while the oracle works on the program after R_g (see probe).
    std::optional<reach::Result> probeWhileWaiting(std::size_t g) {
        auto oracleBusy = [&] {
            const std::lock_guard<std::mutex> held(lock_);
            return stages_.size() == g && end_ == OracleEnd::Running;
        };
        while (threaded_ && options_.explicitProbes && !probesOver_ && oracleBusy()) {
            if (std::optional<reach::Result> r = probe()) {
                return r;
            }
        }
        return std::nullopt;
    }

    // Wakes the goal side and cancels its probe: the oracle has news.
    void tellGoalSide() { // with `lock_` held
        oracleNews_ = true;
        wake_.notify_all();
    }

    reach::Result answerByExplicit(const std::string& why) {
        auto exact = std::make_unique<reach::ExplicitEngine>(reach::MemoryModel::TSO);
        const reach::Result e = reach::runChecked(*exact, program_, goal_, options_);
        out_.stats.states += e.stats.states;
        out_.stats.transitions += e.stats.transitions;
        out_.trace = e.trace;
        out_.boundHit = e.boundHit;
        return finish(e.verdict, e.reason.empty() ? "" : why + e.reason);
    }

    void addStage(Program&& r, std::vector<LazyOrigin>&& origins,
                  StatesInP&& statesInP) { // with `lock_` held
        Stage s;
        s.size = sizeOf(r);
        s.program = std::make_shared<const Program>(std::move(r));
        s.origins = std::make_shared<const std::vector<LazyOrigin>>(std::move(origins));
        s.statesInP = std::make_shared<const StatesInP>(std::move(statesInP));
        loop_.largestStates = std::max(loop_.largestStates, s.size.states);
        loop_.largestTransitions = std::max(loop_.largestTransitions, s.size.transitions);
        stages_.push_back(std::move(s));
    }

    // --- the oracle side ---

    // The oracle thread: one oracle step per program, kLookAhead ahead of
    // the goal side at most.
    void oracleLoop() {
        try {
            for (std::size_t m = 1;; ++m) {
                {
                    std::unique_lock<std::mutex> held(lock_);
                    // Step m builds R_{m+1}: at most R_{goalAt_ + kLookAhead}.
                    wake_.wait(held, [&] { return stop_ || m < goalAt_ + kLookAhead; });
                    if (stop_) {
                        return;
                    }
                }
                if (!oracleStep(m)) {
                    return;
                }
            }
        } catch (...) {
            const std::lock_guard<std::mutex> held(lock_);
            oracleError_ = std::current_exception();
            end_ = OracleEnd::Unknown;
            tellGoalSide();
        }
    }

    // The oracle side's work on stage m: false when it has nothing more to do.
    bool oracleStep(std::size_t m) {
        Stage stage;
        {
            const std::lock_guard<std::mutex> held(lock_);
            stage = stages_[m - 1];
            if (m > maxRounds_) {
                end_ = OracleEnd::Limit;
                tellGoalSide();
                return false;
            }
        }
        reach::Options oracleOptions = options_;
        // With its own thread, the goal side's answer stops the oracle.
        if (threaded_) {
            oracleOptions.stop = options_.stop.orWhen(stop_);
        }
        if (options_.progress) {
            // The oracle's lines come from a thread of its own: through
            // `say`, under the lock, so that they do not mix with the loop's.
            oracleOptions.progress = [this, m](const std::string& l) {
                const std::lock_guard<std::mutex> held(lock_);
                say("round " + std::to_string(m) + ", oracle: " + l);
            };
        }
        const robustness::RobustnessResult oracle = robustness::checkTsoRobustness(
            *stage.program, oracleOptions, robustness::WitnessScope::First, oracleJobs_);
        std::ostringstream line;
        line << "round " << m << ": program " << stage.size.states << " states, "
             << stage.size.transitions << " transitions; oracle " << oracle.scStates << " states, ";
        if (oracleEnded(oracle, line)) {
            return false;
        }
        return extend(m, stage, oracle, oracleOptions.stop, line);
    }

    // Counts the oracle's work; true (and the loop's end recorded) unless
    // it found a witness that is still wanted.
    bool oracleEnded(const robustness::RobustnessResult& oracle, std::ostringstream& line) {
        const std::lock_guard<std::mutex> held(lock_);
        loop_.oracleQueries += oracle.scQueries;
        out_.stats.states += oracle.scStates;
        if (oracle.verdict == robustness::RobustVerdict::NotRobust && !stop_) {
            return false;
        }
        if (oracle.verdict == robustness::RobustVerdict::Robust) {
            end_ = OracleEnd::Robust;
            line << "robust";
        } else {
            end_ = OracleEnd::Unknown;
            endReason_ = "robustness oracle: " + oracle.reason;
            line << "undecided (" << oracle.reason << ")";
        }
        line << "; " << elapsed() << " s";
        say(line.str());
        tellGoalSide();
        return true;
    }

    // Builds R_{m+1} = R_m ⊕ σ for the oracle's witness σ; false when the
    // stop condition cut it short.
    bool extend(std::size_t m, const Stage& stage, const robustness::RobustnessResult& oracle,
                const StopCondition& stop, std::ostringstream& line) {
        const std::vector<TransitionId>& sigma = oracle.witnesses.front().path;
        const std::string tag = "x" + std::to_string(m);
        std::optional<instrument::Extension> ext;
        StatesInP nextInP;
        try {
            ext = instrument::extendByPath(*stage.program, *stage.origins, sigma, variant_, tag,
                                           stop);
            ext->program.sourceName = program_.sourceName + " (extension " + tag + ")";
            nextInP =
                statesThroughExtension(*stage.program, *stage.statesInP, ext->copies, ext->program);
        } catch (const Stopped& e) {
            const std::lock_guard<std::mutex> held(lock_);
            end_ = OracleEnd::Unknown;
            endReason_ = std::string("building the extension: ") + e.what();
            tellGoalSide();
            return false;
        }
        const std::lock_guard<std::mutex> held(lock_);
        if (options_.onProgram) {
            options_.onProgram(m + 1, printProgram(ext->program));
        }
        ++loop_.extensions;
        addStage(std::move(ext->program), std::move(ext->origins), std::move(nextInP));
        line << "witness from " << oracle.checked << "/" << oracle.attacks
             << " attacks, extending by " << sigma.size() << " steps; " << elapsed() << " s";
        say(line.str());
        tellGoalSide();
        return true;
    }

    // --- the goal side ---

    // The program whose goal the next check decides, and its round. A newer
    // program covers the older ones, but an extension by a long path can be
    // far bigger (countdown: 27 -> 5978 states) and its SC check far
    // costlier: skip ahead only to programs of similar size.
    std::pair<Stage, std::size_t> nextGoalStage() {
        const std::lock_guard<std::mutex> held(lock_);
        const std::size_t next = goalChecked_ + 1;
        std::size_t g = stages_.size();
        while (g > next && stages_[g - 1].size.states > 2 * stages_[next - 1].size.states) {
            --g;
        }
        goalChecked_ = g;
        goalAt_ = g;
        wake_.notify_all();
        return {stages_[g - 1], g};
    }

    reach::Result checkGoal(reach::Engine& sc, const Stage& stage, std::size_t g) {
        const Goal rGoal = goalInExtension(goal_, *stage.program, *stage.statesInP);
        reach::Result r = reach::runChecked(sc, *stage.program, rGoal, options_);
        const std::lock_guard<std::mutex> held(lock_);
        ++loop_.scQueries;
        out_.stats.states += r.stats.states;
        out_.stats.transitions += r.stats.transitions;
        std::ostringstream line;
        line << "goal check on round " << g << ": " << r.stats.states << " states in "
             << r.stats.timeSeconds << " s, "
             << (r.verdict == reach::Verdict::Reachable     ? "reached"
                 : r.verdict == reach::Verdict::Unreachable ? "not reached"
                                                            : "undecided")
             << "; " << elapsed() << " s";
        say(line.str());
        return r;
    }

    // The SC trace of R_g as a TSO trace of P, replayed.
    reach::Result answerReached(const Stage& stage, std::size_t g, const reach::Trace& scTrace) {
        reach::Trace mapped = originalTrace(program_, *stage.origins, scTrace);
        const reach::ReplayOutcome replay =
            reach::replayTrace(program_, goal_, mapped, reach::Recorded::IfGiven);
        if (!replay.ok) {
            throw reach::TraceReplayError("the lazy engine's trace (round " + std::to_string(g) +
                                          ") does not replay under TSO: " + replay.error);
        }
        out_.trace = replay.completed;
        return finish(reach::Verdict::Reachable, "");
    }

    // Waits until there is a program newer than R_g (nullopt) or the oracle
    // side has ended (how).
    std::optional<OracleEnd> awaitOracle(std::size_t g) {
        std::unique_lock<std::mutex> held(lock_);
        while (stages_.size() == g && end_ == OracleEnd::Running) {
            wake_.wait_for(held, std::chrono::milliseconds(20));
            if (options_.stop.cancelled()) {
                stop_ = true;
            }
        }
        if (oracleError_) {
            std::rethrow_exception(oracleError_);
        }
        if (stages_.size() > g) {
            return std::nullopt;
        }
        return end_;
    }

    reach::Result answerAtOracleEnd(OracleEnd ended) {
        switch (ended) {
        case OracleEnd::Robust:
            // Reach_SC(R) = Reach_TSO(R) = Reach_TSO(P) on the original
            // registers, memory and control states (Lemmas 1 and 5).
            if (lockMayBeHeldAtGoal()) {
                return answerByExplicit("explicit engine (lock held at the goal): ");
            }
            return finish(reach::Verdict::Unreachable, "");
        case OracleEnd::Limit: {
            // On cyclic programs the loop is a semi-decision: a program that
            // is safe but not robust keeps yielding witnesses. The explicit
            // engine decides it whenever the buffers it needs stay within
            // --buffer-bound, so it gets the rest of the budget.
            const std::string limit =
                "no conclusion after " + std::to_string(maxRounds_) + " rounds (--max-iterations)";
            {
                const std::lock_guard<std::mutex> quiet(lock_);
                say(limit + "; handing the program to the explicit engine; " +
                    std::to_string(elapsed()) + " s");
            }
            return answerByExplicit(limit + "; explicit engine: ");
        }
        case OracleEnd::Unknown:
            return finish(reach::Verdict::Unknown,
                          options_.stop.cancelled() ? std::string("cancelled") : endReason_);
        case OracleEnd::Running:
            break;
        }
        throw std::logic_error("the lazy loop ended without an answer");
    }

    const Program& program_;
    const Goal& goal_;
    const reach::Options& options_;
    instrument::ExtensionVariant variant_;
    const Clock::time_point start_ = Clock::now();
    const std::size_t maxRounds_;
    const bool threaded_;
    const unsigned oracleJobs_;
    reach::Result out_;
    reach::LoopStats loop_;
    // Shared by both sides, guarded by `lock_` (with the progress callback).
    std::mutex lock_;
    std::condition_variable wake_;
    std::atomic<bool> stop_{false};
    std::vector<Stage> stages_;
    std::size_t goalAt_ = 1; // the stage whose goal check runs (1-based)
    // The newest program whose goal check ran: the rounds the answer
    // needed (the oracle thread may have built one more program ahead).
    std::size_t goalChecked_ = 0;
    OracleEnd end_ = OracleEnd::Running;
    std::atomic<bool> oracleNews_{false};           // cancels the goal side's probe
    std::uint64_t probeBudget_ = kFirstProbeStates; // the goal side's own
    bool probesOver_ = false;                       // likewise
    std::string endReason_;
    std::exception_ptr oracleError_;
    // Last: joined before anything the oracle thread uses goes away.
    OracleThread oracleThread_;
};

} // namespace

reach::Result LazyEngine::run(const Program& program, const Goal& goal,
                              const reach::Options& options) {
    // The lazy engine decides TSO only, where lockfor/unlockfor are exactly
    // lock/unlock (instrument/plain_locks.hpp) and an mfence right after an
    // unlock is a no-op (instrument/fences_after_unlocks.hpp).
    const std::optional<Program> plain = instrument::plainLocks(program);
    const Program& locks = plain ? *plain : program;
    const std::optional<instrument::SkippedFences> skipped = instrument::skipFencesAfterUnlocks(
        locks, goal, instrument::UnlockDrains::UnlockAndUnlockFor);
    if (!plain && !skipped) {
        return LazyLoop(program, goal, options, variant_).run();
    }
    reach::Result r = LazyLoop(skipped ? skipped->program : locks, goal, options, variant_).run();
    if (r.trace) {
        // The skipped mfences' steps back, and the lockfor steps' addresses
        // (as the original has them), by replay.
        const reach::Trace t =
            skipped ? reach::withSkippedFences(*r.trace, skipped->fenceAfter) : *r.trace;
        const reach::ReplayOutcome o =
            reach::replayTrace(program, goal, t, reach::Recorded::IfGiven);
        if (!o.ok) {
            throw reach::TraceReplayError("the lazy engine's trace does not replay: " + o.error);
        }
        r.trace = o.completed;
    }
    return r;
}

} // namespace tsoreach::lazy
