// The lazy TSO engine and the buffering extension R ⊕ σ (paper 004):
// Lemma 1 (an extension keeps the TSO-reachable states) against the
// brute-force explorer, the loop's properties from §4.9 of the digest, and
// the shape checks of the extension. Agreement with the explicit engine on
// examples and random programs is in examples_test and differential_test.

#include "lazy_regressions.hpp"
#include "random_program.hpp"
#include "support/brute_force.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/tsoreach/parser.hpp"
#include "tsoreach/instrument/extension.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lazy/lazy_engine.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <gtest/gtest.h>

#include <tuple>

#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <set>

namespace tsoreach {
namespace {

using instrument::ExtensionVariant;

// The loop alone: no explicit probes (they decide small programs first).
reach::Result lazyRun(const Program& p, const Goal& g, ExtensionVariant v = {}) {
    lazy::LazyEngine engine(v);
    reach::Options o;
    o.explicitProbes = false;
    return reach::runChecked(engine, p, g, o);
}

TEST(Lazy, DekkerNeedsExactlyOneExtension) {
    const Program p = test::parse(R"(thread t1 initial a final cs
transition a b write 1 0
transition b c read r 1
transition c cs check == r 0
end
thread t2 initial a final cs
transition a b write 1 1
transition b c read r 0
transition c cs check == r 0
end)");
    const Goal g = *defaultGoal(p);
    EXPECT_EQ(
        reach::runChecked(*engines::makeReachEngine("explicit", reach::MemoryModel::SC), p, g, {})
            .verdict,
        reach::Verdict::Unreachable);
    const reach::Result r = lazyRun(p, g);
    ASSERT_EQ(r.verdict, reach::Verdict::Reachable);
    ASSERT_TRUE(r.stats.loop.has_value());
    EXPECT_EQ(r.stats.loop->extensions, 1U);
    EXPECT_EQ(r.stats.loop->iterations, 2U);
    EXPECT_EQ(r.stats.loop->scQueries, 2U);
    EXPECT_EQ(r.trace->model, reach::MemoryModel::TSO);
}

// The explicit probes (--probe) decide small programs before the loop; one
// that meets the buffer bound leaves the program to the loop.
TEST(Lazy, ProbesDecideSmallProgramsBeforeTheLoop) {
    const std::string sb = "thread t0 initial a final d transition a b write 1 0 "
                           "transition b c read r 1 transition c d check == r 0 end "
                           "thread t1 initial a final d transition a b write 1 1 "
                           "transition b c read r 0 transition c d check == r 0 end";
    std::string fenced = sb;
    for (std::size_t at = fenced.find("transition b c"); at != std::string::npos;
         at = fenced.find("transition b c", at + 30)) {
        fenced.replace(at, 14, "transition b m mfence transition m c");
    }
    // Stores 1 and 2 in turn forever (they do not merge), never loads.
    const std::string unbounded = "thread t initial a final z transition a c write 1 0 "
                                  "transition c a write 2 0 transition a z check == 1 2 end";
    for (unsigned jobs : {1U, 2U}) {
        reach::Options o;
        o.jobs = jobs;
        lazy::LazyEngine engine(ExtensionVariant::Terminating);
        for (const auto& [text, verdict, rounds] :
             {std::tuple{sb, reach::Verdict::Reachable, 0U},
              std::tuple{fenced, reach::Verdict::Unreachable, 0U},
              std::tuple{unbounded, reach::Verdict::Unreachable, 1U}}) {
            const Program p = test::parse(text);
            const reach::Result r = reach::runChecked(engine, p, *defaultGoal(p), o);
            EXPECT_EQ(r.verdict, verdict) << text;
            ASSERT_TRUE(r.stats.loop.has_value());
            EXPECT_EQ(r.stats.loop->iterations, rounds) << text;
        }
    }
}

TEST(Lazy, ScReachableGoalsNeedNoOracle) {
    const Program p = test::parse(test::kMessagePassing);
    for (const Goal& g : {*defaultGoal(p)}) {
        const reach::Result r = lazyRun(p, g);
        if (r.verdict == reach::Verdict::Reachable && r.stats.loop->extensions == 0) {
            EXPECT_EQ(r.stats.loop->oracleQueries, 0U);
            EXPECT_EQ(r.stats.loop->iterations, 1U);
        }
    }
    const Program sc = test::parse(R"(thread t initial a final b
transition a b write 1 0 end)");
    const reach::Result r = lazyRun(sc, *defaultGoal(sc));
    ASSERT_EQ(r.verdict, reach::Verdict::Reachable);
    EXPECT_EQ(r.stats.loop->oracleQueries, 0U);
    EXPECT_EQ(r.stats.loop->iterations, 1U);
}

TEST(Lazy, RobustProgramsEndInTheFirstRound) {
    // SB with both fences: robust, so the first oracle call proves it.
    const Program p = test::parse(R"(thread t0 initial a final d
transition a b write 1 0 transition b c mfence transition c d read r 1
transition d e check == r 0 end
thread t1 initial a final d
transition a b write 1 1 transition b c mfence transition c d read r 0
transition d e check == r 0 end)");
    Goal g(p);
    g.accept(ThreadId(0), findState(p.threads[0], "e"));
    g.accept(ThreadId(1), findState(p.threads[1], "e"));
    const reach::Result r = lazyRun(p, g);
    EXPECT_EQ(r.verdict, reach::Verdict::Unreachable);
    EXPECT_EQ(r.stats.loop->iterations, 1U);
    EXPECT_EQ(r.stats.loop->extensions, 0U);
}

// A thread that stops holding the lock freezes the others' buffers: t1
// reads x = 0 after t0 went past its store of x, which SC cannot do. The
// program is robust (nothing conflicts with t0's load), so robustness alone
// would prove the goal unreachable: with the lock held at the goal the
// explicit engine must answer instead. Goals that leave t1 unnamed may have
// the lock held too.
TEST(Lazy, LockHeldAtTheGoalFreezesBuffers) {
    const Program p = test::parse(R"(thread t0 initial a final d
transition a b write 1 0 transition b c read r 1 transition c d check == r 0 end
thread t1 initial a final c
transition a b lock transition b c read s 0 transition c d check == s 0
transition d e unlock end)");
    const Goal held = *defaultGoal(p);
    EXPECT_EQ(lazyRun(p, held).verdict, reach::Verdict::Reachable);
    Goal held2(p);
    held2.accept(ThreadId(0), findState(p.threads[0], "d"));
    held2.accept(ThreadId(1), findState(p.threads[1], "d"));
    EXPECT_EQ(lazyRun(p, held2).verdict, reach::Verdict::Reachable);
    // With t1 past its unlock, SC reaches it (t1 first).
    Goal free(p);
    free.accept(ThreadId(0), findState(p.threads[0], "d"));
    free.accept(ThreadId(1), findState(p.threads[1], "e"));
    EXPECT_EQ(lazyRun(p, free).verdict, reach::Verdict::Reachable);
}

TEST(Lazy, InvalidPathsAreRefused) {
    const Program p = test::parse(R"(thread t initial a
transition a b write 1 0 transition b c mfence transition c d read r 1
transition d e read s 0 end)");
    const auto origins = instrument::identityOrigins(p);
    auto extend = [&](std::vector<std::uint32_t> ids) {
        std::vector<TransitionId> sigma;
        for (std::uint32_t i : ids) {
            sigma.emplace_back(i);
        }
        return instrument::extendByPath(p, origins, sigma, ExtensionVariant::Terminating, "x");
    };
    EXPECT_THROW(extend({}), instrument::InvalidPath);
    EXPECT_THROW(extend({0, 1, 2}), instrument::InvalidPath); // crosses a fence
    EXPECT_THROW(extend({2, 3}), instrument::InvalidPath);    // starts with a load
    EXPECT_THROW(extend({0, 2}), instrument::InvalidPath);    // not connected
}

// A state of an extension as the state of P it stands for: P's names stand
// for themselves, a copy on a buffered path for the state it copies (through
// every extension on the way); "" for a state inside an exit or a lookup.
using StateNames = std::vector<std::map<std::string, std::string>>; // by thread

StateNames namesOf(const Program& p) {
    StateNames out(p.threads.size());
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        for (const std::string& n : p.threads[t].stateNames) {
            out[t][n] = n;
        }
    }
    return out;
}

StateNames namesThrough(const StateNames& r, const instrument::Extension& ext, const Program& e) {
    StateNames out(e.threads.size());
    for (std::size_t t = 0; t < e.threads.size(); ++t) {
        for (const std::string& n : e.threads[t].stateNames) {
            std::string inR = n;
            for (const instrument::StateCopy& c : ext.copies) {
                if (c.thread.index() == t && c.copy == n) {
                    inR = c.original;
                }
            }
            const auto found = r[t].find(inR);
            out[t][n] = found == r[t].end() ? "" : found->second;
        }
    }
    return out;
}

// Everything a brute-force run of `p` reaches, projected on the original
// program's control states (through `names`), registers (by name) and
// memory, two ways. `empty`: states whose buffers are empty and whose
// threads are all at states of the original program (Lemma 1 as the paper
// states it). `any`: any buffers, and a copy on a buffered path counts as
// the state it copies (the states a goal sees). States inside an exit or a
// lookup are left out. A capped run gives no sets.
struct Projections {
    std::set<std::string> empty;
    std::set<std::string> any;
};

std::optional<Projections> reachable(const Program& p, const Program& original,
                                     const StateNames& names, test::BruteModel m) {
    Projections out;
    test::BruteOptions o;
    o.model = m;
    o.noGoal = true;
    o.maxStates = 150000;
    o.bufferBound = 8;
    o.onState = [&](const test::BruteState& s) {
        bool empty = std::all_of(s.fifo.begin(), s.fifo.end(), [](auto& f) { return f.empty(); });
        std::string key;
        for (std::size_t t = 0; t < p.threads.size(); ++t) {
            const Thread& th = p.threads[t];
            const std::string& here = th.stateNames[s.pcs[t]];
            const std::string& state = names[t].at(here);
            if (state.empty()) {
                return; // inside an exit or a lookup
            }
            empty = empty && state == here;
            key += state + "|";
            for (const std::string& reg : original.threads[t].regNames) {
                const RegId r = findReg(th, reg);
                key += std::to_string(r.valid() ? s.regs[t][r.index()] : 0) + ",";
            }
            key += ";";
        }
        for (const auto& [a, v] : s.mem) {
            key += std::to_string(a) + "=" + std::to_string(v) + " ";
        }
        if (empty) {
            out.empty.insert(key);
        }
        out.any.insert(std::move(key));
    };
    if (!test::bruteForce(p, Goal(p), o).reason.empty()) {
        return std::nullopt; // a capped run proves nothing
    }
    return out;
}

bool includes(const std::set<std::string>& big, const std::set<std::string>& small) {
    return std::includes(big.begin(), big.end(), small.begin(), small.end());
}

// Lemma 1 for R ⊕ σ against R, both projections, under TSO; and
// SC(R) ⊆ SC(R ⊕ σ) ⊆ TSO(R). False when a brute-force run was capped.
bool checkLemma1(const Program& r, const Program& p, const StateNames& rNames, const Program& e,
                 const StateNames& eNames, const std::string& what) {
    const auto tso = reachable(r, p, rNames, test::BruteModel::TSO);
    const auto etso = tso ? reachable(e, p, eNames, test::BruteModel::TSO) : std::nullopt;
    if (!tso || !etso) {
        return false;
    }
    EXPECT_EQ(etso->empty, tso->empty) << what << "\n(empty buffers)";
    EXPECT_EQ(etso->any, tso->any) << what << "\n(any buffers)";
    const auto sc = reachable(r, p, rNames, test::BruteModel::SC);
    const auto esc = reachable(e, p, eNames, test::BruteModel::SC);
    if (sc && esc) {
        EXPECT_TRUE(includes(esc->any, sc->any)) << what;
        EXPECT_TRUE(includes(tso->any, esc->any)) << what;
    }
    return true;
}

TEST(Lazy, ExtensionsKeepTsoReachableStates) {
    // Lemma 1, with σ from the oracle, both variants.
    int compared = 0;
    for (std::uint64_t seed = 0; seed < 400 && compared < 40; ++seed) {
        const Program p = test::parse(test::randomAcyclicProgram(seed));
        const robustness::RobustnessResult oracle =
            robustness::checkTsoRobustness(p, {}, robustness::WitnessScope::FirstPerThread);
        if (oracle.witnesses.empty()) {
            continue;
        }
        bool complete = true;
        for (ExtensionVariant v : {ExtensionVariant::Terminating, ExtensionVariant::Trencher}) {
            const instrument::Extension ext = instrument::extendByPath(
                p, instrument::identityOrigins(p), oracle.witnesses.front().path, v, "x");
            const Program& e = ext.program;
            complete =
                checkLemma1(p, p, namesOf(p), e, namesThrough(namesOf(p), ext, e),
                            "seed " + std::to_string(seed) + "\n" + printProgram(ext.program)) &&
                complete;
        }
        compared += complete ? 1 : 0;
    }
    EXPECT_GE(compared, 30);
    std::cout << "[ lazy ] Lemma 1 checked on " << compared << " programs\n";
}

// The path of `p` through the transitions on these source lines.
std::vector<TransitionId> pathOnLines(const Program& p,
                                      std::initializer_list<std::uint32_t> lines) {
    std::vector<TransitionId> out;
    for (std::uint32_t line : lines) {
        for (std::size_t i = 0; i < p.transitions.size(); ++i) {
            if (p.transitions[i].pos.line == line) {
                out.emplace_back(static_cast<std::uint32_t>(i));
            }
        }
    }
    return out;
}

TEST(Lazy, ReportedPathsKeepTsoReachableStates) {
    for (const test::ReportedPath& c : test::kReportedPaths) {
        const Program p = test::parse(c.program);
        const std::vector<TransitionId> sigma = pathOnLines(p, c.lines);
        ASSERT_EQ(sigma.size(), c.lines.size()) << c.name;
        const instrument::Extension ext = instrument::extendByPath(
            p, instrument::identityOrigins(p), sigma, ExtensionVariant::Terminating, "x");
        const Program& e = ext.program;
        EXPECT_TRUE(checkLemma1(p, p, namesOf(p), e, namesThrough(namesOf(p), ext, e),
                                std::string(c.name) + "\n" + printProgram(ext.program)))
            << c.name << ": capped";
    }
}

// The reported programs end to end: the lazy engine finds the goal the
// explicit engine finds, under the default goal and each final as a goal.
TEST(Lazy, ReportedProgramsReachTheirGoals) {
    for (const test::ReportedPath& c : test::kReportedPaths) {
        const Program p = test::parse(c.program);
        if (!p.hasFinals()) {
            continue;
        }
        const Goal g = *defaultGoal(p);
        const reach::Result r = lazyRun(p, g);
        EXPECT_EQ(r.verdict, reach::Verdict::Reachable) << c.name;
        if (r.trace) {
            EXPECT_TRUE(reach::replayTrace(p, g, *r.trace).ok) << c.name;
        }
    }
}

// Programs with the shapes the oracle's paths and the goals of users take:
// threads whose loops come back to a store's source (bounded by a counter,
// so buffers stay bounded), goal states in the middle of a thread, branches
// off a path, locks held at a goal, and fences. Values stay within 0..3.
class ShapedProgram {
  public:
    explicit ShapedProgram(std::uint64_t seed) : gen_(seed) {}

    std::string generate() {
        std::string out;
        const std::uint64_t threads = below(4) == 0 ? 3 : 2;
        for (std::uint64_t t = 0; t < threads; ++t) {
            thread(out, t);
        }
        return out;
    }

    // A path of thread t from a store to a load, avoiding fences and locks,
    // found by random walks; empty if none was found.
    std::vector<TransitionId> path(const Program& p) {
        std::vector<TransitionId> stores;
        for (std::size_t i = 0; i < p.transitions.size(); ++i) {
            if (p.transitions[i].instr.kind == InstrKind::Write) {
                stores.emplace_back(static_cast<std::uint32_t>(i));
            }
        }
        for (int attempt = 0; attempt < 20 && !stores.empty(); ++attempt) {
            std::vector<TransitionId> walk{stores[below(stores.size())]};
            std::vector<std::size_t> ends; // walk lengths that end with a load
            while (walk.size() < 12) {
                const Transition& last = p.transition(walk.back());
                const auto next = p.thread(last.thread).outgoingOf(last.to);
                if (next.empty()) {
                    break;
                }
                const TransitionId step = next[below(next.size())];
                const InstrKind k = p.transition(step).instr.kind;
                if (k == InstrKind::Mfence || k == InstrKind::Lock || k == InstrKind::Unlock) {
                    break;
                }
                walk.push_back(step);
                if (k == InstrKind::Read) {
                    ends.push_back(walk.size());
                }
            }
            if (!ends.empty()) {
                walk.resize(ends[below(ends.size())]);
                return walk;
            }
        }
        return {};
    }

  private:
    // Two addresses mostly, so that threads observe each other's stores.
    std::string addr() {
        return below(6) == 0 ? "r" : std::to_string(below(8) == 0 ? 2 : below(2));
    }
    std::string instruction() {
        switch (below(12)) {
        case 0:
        case 1:
        case 2:
        case 3:
            return "write " +
                   std::string(below(3) == 0   ? "r"
                               : below(2) == 0 ? "1"
                                               : "2") +
                   " " + addr();
        case 4:
        case 5:
        case 6:
        case 7:
            return "read " + std::string(below(2) == 0 ? "r" : "s") + " " + addr();
        case 8:
            return "local r % + r 1 3";
        case 9:
            return below(2) == 0 ? "check == r 0" : "check != s 1";
        case 10:
            return "noop";
        default:
            return below(2) == 0 ? "mfence" : "noop";
        }
    }

    void thread(std::string& out, std::uint64_t t) {
        const std::uint64_t m = 3 + below(5); // spine s0 .. sm
        out += "thread t" + std::to_string(t) + "\ninitial s0\n";
        // Locked region [lockAt, unlockAt) on the spine, or none; the loop
        // stays out of it (a second lock by the holder would block).
        std::uint64_t lockAt = m;
        std::uint64_t unlockAt = m;
        if (below(6) == 0) {
            lockAt = below(m - 1);
            unlockAt = lockAt + 1 + below(m - lockAt); // may be m: held to the end
        }
        for (std::uint64_t f = 0, n = below(3); f < n; ++f) {
            out += "final s" + std::to_string(1 + below(m)) + "\n"; // mid-spine goals too
        }
        // Without locks, often a loop back to an earlier state, taken at
        // most K times; its head often stores (σ then comes back to its
        // store's source).
        const bool loop = lockAt == m && below(3) != 0;
        const std::uint64_t loopFrom = 1 + below(m);
        const std::uint64_t loopTo = below(loopFrom);
        for (std::uint64_t k = 0; k < m; ++k) {
            const std::string instr = k == lockAt                            ? "lock"
                                      : k == unlockAt                        ? "unlock"
                                      : loop && k == loopTo && below(2) == 0 ? "write 1 0"
                                                                             : instruction();
            edge(out, k, k + 1, instr);
            if (below(4) == 0 && k != lockAt && k != unlockAt) { // a branch off the spine
                edge(out, k, std::min(m, k + 1 + below(2)), instruction());
            }
        }
        if (loop) {
            const std::string via = "l" + std::to_string(loopFrom);
            out += "transition s" + std::to_string(loopFrom) + " " + via + " local c + c 1\n";
            out += "transition " + via + " s" + std::to_string(loopTo) + " check < c " +
                   std::to_string(1 + below(2)) + "\n";
        }
        out += "end\n";
    }

    static void edge(std::string& out, std::uint64_t from, std::uint64_t to,
                     const std::string& instr) {
        out +=
            "transition s" + std::to_string(from) + " s" + std::to_string(to) + " " + instr + "\n";
    }

    std::uint64_t below(std::uint64_t n) { return gen_() % n; }

    std::mt19937_64 gen_;
};

TEST(Lazy, ExtensionsByAnyPathKeepTsoReachableStates) {
    // Lemma 1 for paths that come back to their store's source, pass goal
    // states, branch, and for an extension of an extension.
    // TSOREACH_LEMMA1_PROGRAMS=N checks N programs (docs/testing.md).
    const char* env = std::getenv("TSOREACH_LEMMA1_PROGRAMS");
    const int wanted = env != nullptr ? std::atoi(env) : 60;
    int compared = 0;
    int nested = 0;
    for (std::uint64_t seed = 0; seed < 5ULL * wanted && compared < wanted; ++seed) {
        ShapedProgram gen(seed);
        const Program p = test::parse(gen.generate());
        const std::vector<TransitionId> sigma = gen.path(p);
        if (sigma.empty()) {
            continue;
        }
        const instrument::Extension ext = instrument::extendByPath(
            p, instrument::identityOrigins(p), sigma, ExtensionVariant::Terminating, "x");
        const Program& e = ext.program;
        const StateNames eNames = namesThrough(namesOf(p), ext, e);
        const std::string what = "seed " + std::to_string(seed) + "\n" + printProgram(ext.program);
        if (!checkLemma1(p, p, namesOf(p), e, eNames, what)) {
            continue;
        }
        ++compared;
        const std::vector<TransitionId> sigma2 = gen.path(e);
        if (seed % 2 == 0 || sigma2.empty()) {
            continue;
        }
        const instrument::Extension ext2 =
            instrument::extendByPath(e, ext.origins, sigma2, ExtensionVariant::Terminating, "y");
        const Program& e2 = ext2.program;
        nested += checkLemma1(e, p, eNames, e2, namesThrough(eNames, ext2, e2),
                              what + "\nextended again:\n" + printProgram(ext2.program))
                      ? 1
                      : 0;
    }
    EXPECT_GE(compared, wanted * 2 / 3);
    EXPECT_GE(nested, wanted / 4);
    std::cout << "[ lazy ] Lemma 1 checked on " << compared << " shaped programs, " << nested
              << " extended twice\n";
}

TEST(Lazy, TracesMapBackThroughSeveralExtensions) {
    // Three threads that each need a delayed store: several extensions, one
    // trace of the original program.
    const Program p = test::parse(R"(thread t0 initial a final d
transition a b write 1 0 transition b c read r 1 transition c d check == r 0 end
thread t1 initial a final d
transition a b write 1 1 transition b c read r 2 transition c d check == r 0 end
thread t2 initial a final d
transition a b write 1 2 transition b c read r 0 transition c d check == r 0 end)");
    const reach::Result r = lazyRun(p, *defaultGoal(p));
    ASSERT_EQ(r.verdict, reach::Verdict::Reachable);
    EXPECT_GE(r.stats.loop->extensions, 1U);
    const reach::ReplayOutcome replay = reach::replayTrace(p, *defaultGoal(p), *r.trace);
    EXPECT_TRUE(replay.ok) << replay.error;
}

} // namespace
} // namespace tsoreach
