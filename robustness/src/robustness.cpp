#include "tsoreach/robustness/robustness.hpp"

#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/explicit.hpp"
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

// Decides one instrumented program: depth-first, then (Auto, when the
// budget did not decide) breadth-first; counts queries and states.
reach::Result searchAttack(const Program& attack, reach::Options mine, AttackSearch search,
                           const reach::Options& options, const std::atomic<bool>& cancelled,
                           std::atomic<std::uint64_t>& queries,
                           std::atomic<std::uint64_t>& states) {
    auto engine = std::make_unique<reach::ExplicitEngine>(reach::MemoryModel::SC);
    const Goal goal = *defaultGoal(attack);
    reach::Result res;
    bool decided = false;
    if (search != AttackSearch::Bfs) {
        mine.search = reach::SearchOrder::Dfs;
        const bool budget = search == AttackSearch::Auto &&
                            (options.maxStates == 0 || options.maxStates > kAutoDfsStates);
        if (budget) {
            mine.maxStates = kAutoDfsStates;
        }
        res = reach::runChecked(*engine, attack, goal, mine);
        ++queries;
        states += res.stats.states;
        // Undecided within the budget only: try breadth-first.
        decided = !(budget && res.verdict == reach::Verdict::Unknown &&
                    res.stats.states >= kAutoDfsStates && !cancelled);
    }
    if (!decided) {
        mine.search = reach::SearchOrder::Bfs;
        mine.maxStates = options.maxStates;
        res = reach::runChecked(*engine, attack, goal, mine);
        ++queries;
        states += res.stats.states;
    }
    return res;
}

// The attacks of each thread that the filter leaves, as one family (threads
// with fewer than two such attacks have none: one search each anyway).
std::vector<instrument::AttackFamily> families(const Program& p,
                                               const std::vector<instrument::Attack>& attacks,
                                               const instrument::FeasibilityFilter& filter) {
    std::vector<instrument::AttackFamily> out;
    std::vector<std::size_t> count(p.threads.size(), 0);
    std::vector<instrument::AttackFamily> byThread(p.threads.size());
    auto addOnce = [](std::vector<TransitionId>& v, TransitionId id) {
        if (std::find(v.begin(), v.end(), id) == v.end()) {
            v.push_back(id);
        }
    };
    for (const instrument::Attack& a : attacks) {
        if (!filter.mayBeFeasible(a)) {
            continue;
        }
        instrument::AttackFamily& f = byThread[a.thread.index()];
        f.thread = a.thread;
        addOnce(f.stores, a.store);
        addOnce(f.loads, a.load);
        ++count[a.thread.index()];
    }
    for (std::size_t t = 0; t < byThread.size(); ++t) {
        if (count[t] >= 2) {
            out.push_back(std::move(byThread[t]));
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

} // namespace

RobustnessResult checkTsoRobustness(const Program& p, const reach::Options& options,
                                    WitnessScope scope, unsigned jobs, AttackSearch search) {
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
    const std::size_t n = attacks.size();
    r.attacks = n;
    // Unsupported programs fail here, on this thread, before any search.
    try {
        instrument::checkSupported(p, sets);
    } catch (const instrument::UnsupportedProgram& e) {
        // No attack can be checked: no proof either way.
        r.verdict = RobustVerdict::Unknown;
        r.reason = e.what();
        return r;
    }
    const instrument::FeasibilityFilter filter(p, sets);

    // Attacks form groups by scope; within a group only the feasible attack
    // of lowest index counts. Workers take attacks in index order and the
    // answer is assembled by index, so it does not depend on the number of
    // jobs.
    auto group = [&](std::size_t i) -> std::size_t {
        switch (scope) {
        case WitnessScope::First:
            return 0;
        case WitnessScope::FirstPerThread:
            return attacks[i].thread.index();
        case WitnessScope::All:
            break;
        }
        return i;
    };
    struct Outcome {
        std::optional<Witness> witness;
        std::string unknown;
    };
    std::vector<Outcome> outcomes(n);
    // cancel[i] stops attack i's search once a lower attack of its group is
    // feasible.
    std::vector<std::atomic<bool>> cancel(n);
    std::atomic<std::size_t> next{0};
    const std::size_t groups = std::max<std::size_t>(n, p.threads.size());
    std::vector<std::atomic<std::size_t>> firstFeasible(groups);
    for (std::atomic<std::size_t>& f : firstFeasible) {
        f = n;
    }
    std::atomic<std::uint64_t> queries{0};
    std::atomic<std::uint64_t> states{0};
    // min in size_t first: narrowing n could wrap with 2^32 attacks.
    const std::size_t threads = std::max<std::size_t>(1, std::min<std::size_t>(jobs, n));

    // First one search per thread for all its attacks (AttackFamily): when
    // its goal is unreachable, none of them is feasible. Robust programs,
    // where every attack must be searched to the end, need a search per
    // thread instead of one per attack. Otherwise the attacks are searched
    // one by one, as if this had not happened, so the witnesses found do not
    // change.
    const std::vector<instrument::AttackFamily> fams = families(p, attacks, filter);
    std::vector<std::atomic<bool>> infeasible(p.threads.size());
    std::atomic<std::size_t> nextFamily{0};
    const std::atomic<bool> never{false};
    onThreads(std::min(threads, std::max<std::size_t>(1, fams.size())), [&]() {
        StopPoll poll(options.stop);
        for (std::size_t k = nextFamily++; k < fams.size(); k = nextFamily++) {
            if (poll.reason()) {
                return; // the attacks then end undecided
            }
            try {
                const instrument::AttackProgram instrumented =
                    instrument::attackProgram(p, fams[k], sets, options.stop);
                const reach::Result res = searchAttack(instrumented.program, options, search,
                                                       options, never, queries, states);
                if (res.verdict == reach::Verdict::Unreachable) {
                    infeasible[fams[k].thread.index()] = true;
                }
            } catch (const Stopped&) {
                return;
            }
        }
    });

    std::mutex errorLock;
    std::exception_ptr error;
    auto work = [&]() {
        // The caller's stop condition (deadline, memory, its cancel flags)
        // holds for every attack: once it does, the attacks not started and
        // the searches under way end undecided, and so does the oracle.
        StopPoll poll(options.stop);
        try {
            for (std::size_t i = next++; i < n; i = next++) {
                if (i > firstFeasible[group(i)].load()) {
                    continue; // a lower attack of the group is feasible
                }
                if (!filter.mayBeFeasible(attacks[i])) {
                    continue; // infeasible without search (decided: no witness)
                }
                if (infeasible[attacks[i].thread.index()]) {
                    continue; // its thread's family search found no witness
                }
                if (std::optional<std::string> why = poll.reason()) {
                    outcomes[i].unknown = *why;
                    continue;
                }
                reach::Options mine = options;
                mine.stop = options.stop.orWhen(cancel[i]);
                std::optional<instrument::AttackProgram> instrumented;
                try {
                    instrumented = instrument::attackProgram(p, attacks[i], sets, mine.stop);
                } catch (const Stopped& e) {
                    outcomes[i].unknown = e.what();
                    continue;
                }
                const reach::Result res = searchAttack(instrumented->program, mine, search, options,
                                                       cancel[i], queries, states);
                if (res.verdict == reach::Verdict::Reachable) {
                    Witness w;
                    w.attack = attacks[i];
                    w.trace = witnessTrace(p, attacks[i], *instrumented, *res.trace, w.path);
                    w.graph = happensBefore(p, w.trace);
                    w.cycle = findCycle(w.graph);
                    if (w.cycle.empty()) {
                        throw std::logic_error(
                            "a robustness witness without a happens-before cycle (attack " +
                            std::to_string(i + 1) + ", trace" + describe(p, w.trace) + ")");
                    }
                    outcomes[i].witness = std::move(w);
                    std::atomic<std::size_t>& first = firstFeasible[group(i)];
                    for (std::size_t seen = first.load();
                         i < seen && !first.compare_exchange_weak(seen, i);) {
                    }
                    for (std::size_t k = i + 1; k < n; ++k) {
                        if (group(k) == group(i)) {
                            cancel[k] = true;
                        }
                    }
                } else if (res.verdict == reach::Verdict::Unknown) {
                    outcomes[i].unknown = res.reason;
                }
            }
        } catch (...) {
            std::lock_guard<std::mutex> guard(errorLock);
            if (!error) {
                error = std::current_exception();
            }
            next = n; // stop the others
        }
    };
    std::vector<std::thread> pool;
    for (unsigned k = 1; k < threads; ++k) {
        pool.emplace_back(work);
    }
    work();
    for (std::thread& t : pool) {
        t.join();
    }
    if (error) {
        std::rethrow_exception(error);
    }

    r.scQueries = queries;
    r.scStates = states;
    for (std::size_t i = 0; i < n; ++i) {
        if (i > firstFeasible[group(i)].load()) {
            continue; // not needed: a lower attack of its group is feasible
        }
        ++r.checked;
        if (outcomes[i].witness) {
            r.witnesses.push_back(std::move(*outcomes[i].witness));
        } else if (!outcomes[i].unknown.empty()) {
            ++r.undecided;
            if (r.reason.empty()) {
                r.reason = outcomes[i].unknown;
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

} // namespace tsoreach::robustness
