#include "tsoreach/robustness/robustness.hpp"

#include "tsoreach/instrument/plain_locks.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/explicit.hpp"
#include "tsoreach/reach/progress_ticker.hpp"
#include "tsoreach/reach/replay.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

namespace tsoreach::robustness {

namespace {

// Maps the SC trace of the instrumented program back to a TSO trace of the
// original one and checks it by replay (filling in addresses and values).
reach::Trace witnessTrace(const Program& p, const instrument::Attack& attack,
                          const instrument::AttackProgram& instrumented,
                          const reach::Trace& scTrace, std::vector<TransitionId>& path) {
    reach::Trace t;
    t.model = reach::MemoryModel::TSO;
    std::size_t delayedStores = 0;
    for (std::size_t i = 0; i < scTrace.goalStep; ++i) {
        const reach::TraceStep& s = scTrace.steps[i];
        const instrument::StepOrigin origin = instrumented.origins[s.transition.index()];
        if (!origin.original.valid()) {
            continue; // shadow bookkeeping
        }
        reach::TraceStep step;
        step.thread = s.thread;
        step.transition = origin.original;
        t.steps.push_back(step);
        if (origin.delayed) {
            path.push_back(origin.original);
        }
        if (p.transition(origin.original).instr.kind == InstrKind::Write) {
            if (origin.delayed) {
                ++delayedStores;
            } else {
                reach::TraceStep flush;
                flush.kind = reach::StepKind::Flush;
                flush.thread = s.thread;
                t.steps.push_back(flush);
            }
        }
    }
    // The delayed stores reach memory last, the attack store first.
    for (std::size_t k = 0; k < delayedStores; ++k) {
        reach::TraceStep flush;
        flush.kind = reach::StepKind::Flush;
        flush.thread = attack.thread;
        t.steps.push_back(flush);
    }
    t.goalStep = t.steps.size();
    const reach::ReplayOutcome replay = reach::replayTrace(p, Goal(p), t, reach::Recorded::IfGiven);
    if (!replay.ok) {
        throw std::logic_error("the robustness witness does not replay under TSO: " + replay.error);
    }
    return replay.completed;
}

// The trace in one line, for the message of an internal error.
std::string describe(const Program& p, const reach::Trace& t) {
    std::string out;
    for (const reach::TraceStep& s : t.steps) {
        out += " " + p.thread(s.thread).name + ":";
        if (s.kind == reach::StepKind::Flush) {
            out += "flush";
        } else {
            out += "line" + std::to_string(p.transition(s.transition).pos.line);
        }
        if (s.addr) {
            out += "[" + std::to_string(*s.addr) + "]";
        }
    }
    return out;
}

// Runs `work` on `threads` threads (this one included) and rethrows the
// first exception one of them raised.
template <class Work> void onThreads(std::size_t threads, Work&& work) {
    std::mutex errorLock;
    std::exception_ptr error;
    auto guarded = [&]() {
        try {
            work();
        } catch (...) {
            const std::lock_guard<std::mutex> guard(errorLock);
            if (!error) {
                error = std::current_exception();
            }
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t k = 1; k < threads; ++k) {
        pool.emplace_back(guarded);
    }
    guarded();
    for (std::thread& t : pool) {
        t.join();
    }
    if (error) {
        std::rethrow_exception(error);
    }
}

// The attacks' searches, in three phases. (1) Probes: the first kProbes
// attacks of each thread that the filter leaves, one by one; witnesses are
// usually among them. (2) Families: each thread's remaining attacks below
// the first feasible one of their group, in one depth-first search of at
// most kFamilyStates states (AttackFamily); an unreachable family decides
// them all, which is what robust programs need (every attack searched to the
// end). (3) The attacks still undecided, one
// by one. An attack is skipped only when decided (the filter, its family,
// or a lower feasible attack of its group), so the witnesses and the answer
// are those of searching every attack in index order.
class AttackOracle {
  public:
    static constexpr std::size_t kProbes = 1;
    static constexpr std::uint64_t kFamilyStates = 4000000;

    AttackOracle(const Program& p, const reach::Options& options, WitnessScope scope, unsigned jobs,
                 AttackSearch search, std::vector<instrument::Attack> attacks, AddressSets sets)
        : p_(p), options_(options), scope_(scope), search_(search), attacks_(std::move(attacks)),
          sets_(std::move(sets)), filter_(p, sets_), n_(attacks_.size()), outcomes_(n_),
          cancel_(n_), probe_(n_, false), familyDecided_(n_, false),
          firstFeasible_(std::max<std::size_t>(n_, p.threads.size())),
          threads_(std::max<std::size_t>(1, std::min<std::size_t>(jobs, n_))) {
        for (std::atomic<std::size_t>& f : firstFeasible_) {
            f = n_;
        }
        std::vector<std::size_t> probes(p.threads.size(), 0);
        for (std::size_t i = 0; i < n_; ++i) {
            const std::size_t t = attacks_[i].thread.index();
            if (filter_.mayBeFeasible(attacks_[i]) && probes[t] < kProbes) {
                probe_[i] = true;
                ++probes[t];
            }
        }
    }

    RobustnessResult run() {
        // The attacks' searches are many and mostly short: the oracle
        // prints the progress lines (--progress), ending each with the
        // newest line of a search under way.
        const reach::ProgressTicker ticker(options_, [this](double s) { return progressLine(s); });
        searchProgress_ = ticker.innerSink();
        searchAttacks(true);
        phase_ = 1;
        searchFamilies();
        phase_ = 2;
        searchAttacks(false);
        return assemble();
    }

  private:
    struct Outcome {
        std::optional<Witness> witness;
        std::string unknown;
    };

    // Attacks form groups by scope; within a group only the feasible attack
    // of lowest index counts.
    std::size_t group(std::size_t i) const {
        switch (scope_) {
        case WitnessScope::First:
            return 0;
        case WitnessScope::FirstPerThread:
            return attacks_[i].thread.index();
        case WitnessScope::All:
            break;
        }
        return i;
    }

    // Not to be searched: decided, or after a feasible attack of its group.
    bool settled(std::size_t i) const {
        return i > firstFeasible_[group(i)].load() || !filter_.mayBeFeasible(attacks_[i]) ||
               familyDecided_[i];
    }

    // Phase 1 (probes) or 3 (the rest). Workers take attacks in index order
    // and the answer is assembled by index, so it does not depend on jobs.
    void searchAttacks(bool probes) {
        std::atomic<std::size_t> next{0};
        onThreads(threads_, [&]() {
            // The caller's stop condition (deadline, memory, its cancel
            // flags) holds for every attack: once it does, the attacks not
            // started and the searches under way end undecided.
            StopPoll poll(options_.stop);
            for (std::size_t i = next++; i < n_; i = next++) {
                if (probe_[i] != probes || settled(i)) {
                    continue;
                }
                if (std::optional<std::string> why = poll.reason()) {
                    outcomes_[i].unknown = *why;
                    continue;
                }
                searchAttack(i);
            }
        });
    }

    // "robust: 2.0 s, probes, 12 of 80 attacks searched, 1 feasible, 40
    // decided by their family's search, 18 SC searches, 4090581 states
    // (2045290/s), 57 MB" (the searches ended so far)
    std::string progressLine(double seconds) const {
        static constexpr const char* kPhases[] = {"probes", "families", "attacks one by one"};
        return "robust: " + reach::progressSeconds(seconds) + ", " + kPhases[phase_.load()] + ", " +
               std::to_string(searched_.load()) + " of " + std::to_string(n_) +
               " attacks searched, " + std::to_string(feasible_.load()) + " feasible, " +
               std::to_string(byFamilies_.load()) + " decided by their family's search, " +
               std::to_string(queries_.load()) + " SC searches, " +
               reach::progressCounts(states_.load(), seconds);
    }

    void searchAttack(std::size_t i) {
        reach::Options mine = options_;
        mine.progress = searchProgress_; // into the oracle's lines
        mine.stop = options_.stop.orWhen(cancel_[i]);
        if (threads_ > 1) {
            mine.searchJobs = 1; // the attacks already share the threads
        }
        std::optional<instrument::AttackProgram> instrumented;
        try {
            instrumented = instrument::attackProgram(p_, attacks_[i], sets_, mine.stop);
        } catch (const Stopped& e) {
            outcomes_[i].unknown = e.what();
            return;
        }
        const reach::Result res = decide(instrumented->program, mine, cancel_[i]);
        ++searched_;
        if (res.verdict == reach::Verdict::Unknown) {
            outcomes_[i].unknown = res.reason;
        } else if (res.verdict == reach::Verdict::Reachable) {
            outcomes_[i].witness = witness(i, *instrumented, *res.trace);
            ++feasible_;
            std::atomic<std::size_t>& first = firstFeasible_[group(i)];
            for (std::size_t seen = first.load();
                 i < seen && !first.compare_exchange_weak(seen, i);) {
            }
            for (std::size_t k = i + 1; k < n_; ++k) {
                if (group(k) == group(i)) {
                    cancel_[k] = true;
                }
            }
        }
    }

    Witness witness(std::size_t i, const instrument::AttackProgram& instrumented,
                    const reach::Trace& scTrace) const {
        Witness w;
        w.attack = attacks_[i];
        w.trace = witnessTrace(p_, attacks_[i], instrumented, scTrace, w.path);
        w.graph = happensBefore(p_, w.trace);
        w.cycle = findCycle(w.graph);
        if (w.cycle.empty()) {
            throw std::logic_error("a robustness witness without a happens-before cycle (attack " +
                                   std::to_string(i + 1) + ", trace" + describe(p_, w.trace) + ")");
        }
        return w;
    }

    // Phase 2: one search per thread for its attacks still to be searched.
    void searchFamilies() {
        std::vector<std::vector<std::size_t>> members(p_.threads.size());
        for (std::size_t i = 0; i < n_; ++i) {
            if (!probe_[i] && !settled(i)) {
                members[attacks_[i].thread.index()].push_back(i);
            }
        }
        std::atomic<std::size_t> next{0};
        onThreads(std::min(threads_, members.size()), [&]() {
            StopPoll poll(options_.stop);
            for (std::size_t t = next++; t < members.size(); t = next++) {
                if (members[t].size() >= 2 && !poll.reason()) {
                    searchFamily(members[t]);
                }
            }
        });
    }

    void searchFamily(const std::vector<std::size_t>& members) {
        instrument::AttackFamily f{attacks_[members.front()].thread, {}, {}};
        for (std::size_t i : members) {
            addOnce(f.stores, attacks_[i].store);
            addOnce(f.loads, attacks_[i].load);
        }
        try {
            const instrument::AttackProgram instrumented =
                instrument::attackProgram(p_, f, sets_, options_.stop);
            // Only a complete search helps here, so one depth-first search,
            // with a budget: a family in an infinite state space (a ticket
            // counter) leaves its attacks to breadth-first searches.
            reach::Options mine = options_;
            mine.progress = searchProgress_; // into the oracle's lines
            mine.search = reach::SearchOrder::Dfs;
            if (threads_ > 1) {
                mine.searchJobs = 1; // the families already share the threads
            }
            if (mine.maxStates == 0 || mine.maxStates > kFamilyStates) {
                mine.maxStates = kFamilyStates;
            }
            auto engine = std::make_unique<reach::ExplicitEngine>(reach::MemoryModel::SC);
            const Program& program = instrumented.program;
            if (count(reach::runChecked(*engine, program, *defaultGoal(program), mine)).verdict ==
                reach::Verdict::Unreachable) {
                for (std::size_t i : members) {
                    familyDecided_[i] = true; // each thread writes its own
                }
                byFamilies_ += members.size();
            }
        } catch (const Stopped&) {
            // its attacks are then searched one by one, and stop there too
        }
    }

    static void addOnce(std::vector<TransitionId>& v, TransitionId id) {
        if (std::find(v.begin(), v.end(), id) == v.end()) {
            v.push_back(id);
        }
    }

    // Dfs or Bfs as asked; Auto: depth-first and breadth-first in turn, each
    // pair with kAutoGrowth times the budget of the pair before, until one
    // decides (the caller's --max-states caps the last pair).
    reach::Result decide(const Program& attack, reach::Options mine,
                         const std::atomic<bool>& cancelled) {
        auto engine = std::make_unique<reach::ExplicitEngine>(reach::MemoryModel::SC);
        const Goal goal = *defaultGoal(attack);
        auto run = [&](reach::SearchOrder order, std::uint64_t maxStates) {
            mine.search = order;
            mine.maxStates = maxStates;
            return count(reach::runChecked(*engine, attack, goal, mine));
        };
        if (search_ != AttackSearch::Auto) {
            return run(search_ == AttackSearch::Dfs ? reach::SearchOrder::Dfs
                                                    : reach::SearchOrder::Bfs,
                       options_.maxStates);
        }
        for (std::uint64_t budget = kAutoDfsStates;; budget *= kAutoGrowth) {
            const bool last = (options_.maxStates != 0 && budget >= options_.maxStates) ||
                              budget > (std::uint64_t(1) << 56);
            const std::uint64_t cap = last ? options_.maxStates : budget;
            for (reach::SearchOrder order : {reach::SearchOrder::Dfs, reach::SearchOrder::Bfs}) {
                reach::Result res = run(order, cap);
                // Undecided within the budget only: go on.
                const bool budgetHit = res.verdict == reach::Verdict::Unknown && cap != 0 &&
                                       res.stats.states >= cap && !cancelled;
                if (!budgetHit || (last && order == reach::SearchOrder::Bfs)) {
                    return res;
                }
            }
        }
    }

    reach::Result count(reach::Result res) {
        ++queries_;
        states_ += res.stats.states;
        return res;
    }

    RobustnessResult assemble() {
        RobustnessResult r;
        r.attacks = n_;
        r.scQueries = queries_;
        r.scStates = states_;
        for (std::size_t i = 0; i < n_; ++i) {
            if (i > firstFeasible_[group(i)].load()) {
                continue; // not needed: a lower attack of its group is feasible
            }
            ++r.checked;
            if (outcomes_[i].witness) {
                r.witnesses.push_back(std::move(*outcomes_[i].witness));
            } else if (!outcomes_[i].unknown.empty()) {
                ++r.undecided;
                if (r.reason.empty()) {
                    r.reason = outcomes_[i].unknown;
                }
            }
        }
        if (!r.witnesses.empty()) {
            r.verdict = RobustVerdict::NotRobust;
            r.reason.clear();
        } else if (!r.reason.empty()) {
            r.verdict = RobustVerdict::Unknown; // an attack was not decided: no proof
        } else {
            r.verdict = RobustVerdict::Robust;
        }
        return r;
    }

    const Program& p_;
    const reach::Options& options_;
    WitnessScope scope_;
    AttackSearch search_;
    std::vector<instrument::Attack> attacks_;
    AddressSets sets_;
    instrument::FeasibilityFilter filter_; // refers to sets_
    std::size_t n_;
    std::vector<Outcome> outcomes_;
    std::vector<std::atomic<bool>> cancel_; // a lower attack of the group is feasible
    std::vector<bool> probe_;
    std::vector<char> familyDecided_;                     // written by one family's thread each
    std::vector<std::atomic<std::size_t>> firstFeasible_; // by group
    std::size_t threads_;
    std::atomic<std::uint64_t> queries_{0};
    std::atomic<std::uint64_t> states_{0};
    // For the progress lines only.
    reach::ProgressTicker::Sink searchProgress_; // set before any search
    std::atomic<int> phase_{0};                  // 0 probes, 1 families, 2 the rest
    std::atomic<std::size_t> searched_{0};
    std::atomic<std::size_t> feasible_{0};
    std::atomic<std::size_t> byFamilies_{0};
    const std::atomic<bool> never_{false};
};

} // namespace

namespace {

RobustnessResult checkPlain(const Program& p, const reach::Options& options, WitnessScope scope,
                            unsigned jobs, AttackSearch search) {
    RobustnessResult r;
    // The static passes take seconds on large extensions: they poll the
    // stop condition too, and the answer is then unknown.
    std::vector<instrument::Attack> attacks;
    AddressSets sets;
    try {
        attacks = instrument::candidateAttacks(p, options.stop);
        sets = accessedAddresses(p, kDefaultValueSetLimit, options.stop);
    } catch (const Stopped& e) {
        r.verdict = RobustVerdict::Unknown;
        r.reason = e.what();
        return r;
    }
    r.attacks = attacks.size();
    // Unsupported programs fail here, on this thread, before any search.
    try {
        instrument::checkSupported(p, sets);
    } catch (const instrument::UnsupportedProgram& e) {
        // No attack can be checked: no proof either way.
        r.verdict = RobustVerdict::Unknown;
        r.reason = e.what();
        return r;
    }
    return AttackOracle(p, options, scope, jobs, search, std::move(attacks), std::move(sets)).run();
}

// A witness of plainLocks(p) as one of p: the same steps (transition ids are
// kept), replayed on p so that its lockfor steps get their addresses.
void onOriginal(const Program& p, Witness& w) {
    const reach::ReplayOutcome replay =
        reach::replayTrace(p, Goal(p), w.trace, reach::Recorded::IfGiven);
    if (!replay.ok) {
        throw reach::TraceReplayError("a robustness witness does not replay on the program with "
                                      "lockfor: " +
                                      replay.error);
    }
    w.trace = replay.completed;
    w.graph = happensBefore(p, w.trace);
    w.cycle = findCycle(w.graph);
    if (w.cycle.empty()) {
        throw std::logic_error("a robustness witness without a happens-before cycle on the program "
                               "with lockfor (trace" +
                               describe(p, w.trace) + ")");
    }
}

} // namespace

RobustnessResult checkTsoRobustness(const Program& p, const reach::Options& options,
                                    WitnessScope scope, unsigned jobs, AttackSearch search) {
    // Robustness is against TSO, where lockfor/unlockfor are exactly
    // lock/unlock (instrument/plain_locks.hpp): the attacks run on the
    // program with locks, and each witness is replayed on the original.
    const std::optional<Program> plain = instrument::plainLocks(p);
    if (!plain) {
        return checkPlain(p, options, scope, jobs, search);
    }
    RobustnessResult r = checkPlain(*plain, options, scope, jobs, search);
    for (Witness& w : r.witnesses) {
        onOriginal(p, w);
    }
    return r;
}

} // namespace tsoreach::robustness
