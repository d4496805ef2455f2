// The lazy TSO engine and the buffering extension R ⊕ σ (paper 004):
// Lemma 1 (an extension keeps the TSO-reachable states) against the
// brute-force explorer, the loop's properties from §4.9 of the digest, and
// the shape checks of the extension. Agreement with the explicit engine on
// examples and random programs is in examples_test and differential_test.

#include "brute_force.hpp"
#include "random_program.hpp"
#include "test_util.hpp"
#include "tsoreach/instrument/extension.hpp"
#include "tsoreach/lang/parser.hpp"
#include "tsoreach/lazy/lazy_engine.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <gtest/gtest.h>

#include <set>

namespace tsoreach {
namespace {

using instrument::ExtensionVariant;

reach::Result lazyRun(const Program& p, const Goal& g, ExtensionVariant v = {}) {
    lazy::LazyEngine engine(v);
    return reach::runChecked(engine, p, g, {});
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
        reach::runChecked(*reach::makeEngine("explicit", reach::MemoryModel::SC), p, g, {}).verdict,
        reach::Verdict::Unreachable);
    const reach::Result r = lazyRun(p, g);
    ASSERT_EQ(r.verdict, reach::Verdict::Reachable);
    ASSERT_TRUE(r.stats.loop.has_value());
    EXPECT_EQ(r.stats.loop->extensions, 1U);
    EXPECT_EQ(r.stats.loop->iterations, 2U);
    EXPECT_EQ(r.stats.loop->scQueries, 2U);
    EXPECT_EQ(r.trace->model, reach::MemoryModel::TSO);
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

// Everything a brute-force TSO (or SC) run reaches with empty buffers,
// projected on P's threads' control states (by name), registers (by name)
// and memory; states inside an extension's new states are left out.
std::set<std::string> reachable(const Program& p, const Program& original, test::BruteModel m) {
    std::set<std::string> out;
    test::BruteOptions o;
    o.model = m;
    o.noGoal = true;
    o.maxStates = 400000;
    bool complete = true;
    o.onState = [&](const test::BruteState& s) {
        for (const auto& f : s.fifo) {
            if (!f.empty()) {
                return;
            }
        }
        std::string key;
        for (std::size_t t = 0; t < p.threads.size(); ++t) {
            const Thread& th = p.threads[t];
            const std::string& state = th.stateNames[s.pcs[t]];
            if (!findState(original.threads[t], state).valid()) {
                return; // inside an extension
            }
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
        out.insert(key);
    };
    const test::BruteResult r = test::bruteForce(p, Goal(p), o);
    complete = r.reason.empty();
    if (!complete) {
        out.clear(); // a capped run proves nothing
        out.insert("<capped: " + r.reason + ">");
    }
    return out;
}

TEST(Lazy, ExtensionsKeepTsoReachableStates) {
    // Lemma 1, with σ from the oracle, both variants; plus SC(R) ⊆
    // SC(R ⊕ σ) ⊆ TSO(R).
    int compared = 0;
    for (std::uint64_t seed = 0; seed < 400 && compared < 60; ++seed) {
        const Program p = test::parse(test::randomAcyclicProgram(seed));
        const robustness::RobustnessResult oracle =
            robustness::checkTsoRobustness(p, {}, robustness::WitnessScope::FirstPerThread);
        if (oracle.witnesses.empty()) {
            continue;
        }
        const std::set<std::string> tso = reachable(p, p, test::BruteModel::TSO);
        const std::set<std::string> sc = reachable(p, p, test::BruteModel::SC);
        if (tso.size() == 1 && tso.begin()->starts_with("<capped")) {
            continue;
        }
        for (ExtensionVariant v : {ExtensionVariant::Terminating, ExtensionVariant::Trencher}) {
            const instrument::Extension ext = instrument::extendByPath(
                p, instrument::identityOrigins(p), oracle.witnesses.front().path, v, "x");
            const Program e = parseProgram(ext.text, "extension");
            const std::set<std::string> etso = reachable(e, p, test::BruteModel::TSO);
            const std::set<std::string> esc = reachable(e, p, test::BruteModel::SC);
            if (etso.size() == 1 && etso.begin()->starts_with("<capped")) {
                continue;
            }
            EXPECT_EQ(etso, tso) << "seed " << seed << "\n" << ext.text;
            EXPECT_TRUE(std::includes(esc.begin(), esc.end(), sc.begin(), sc.end()))
                << "seed " << seed;
            EXPECT_TRUE(std::includes(tso.begin(), tso.end(), esc.begin(), esc.end()))
                << "seed " << seed << "\n"
                << ext.text;
        }
        ++compared;
    }
    EXPECT_GE(compared, 40);
    std::cout << "[ lazy ] Lemma 1 checked on " << compared << " programs\n";
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
