// Robustness against TSO by attacks (work in progress, issue 5) against the
// brute-force robustness oracle: litmus programs and random acyclic programs
// without locks and with constant addresses.

#include "random_program.hpp"
#include "support/robustness_oracle.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/instrument/attack.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/robustness/happens_before.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <gtest/gtest.h>

namespace tsoreach {
namespace {

using robustness::RobustVerdict;

RobustVerdict attackVerdict(const Program& p) {
    return robustness::checkTsoRobustness(p, {}, robustness::WitnessScope::First).verdict;
}

TEST(Attacks, LitmusVerdicts) {
    struct Case {
        const char* name;
        const char* text;
        RobustVerdict expected;
    };
    const Case cases[] = {
        {"SB", R"(thread t0 initial a transition a b write 1 0 transition b c read r 1 end
thread t1 initial a transition a b write 1 1 transition b c read r 0 end)",
         RobustVerdict::NotRobust},
        {"SB+mfences", R"(thread t0 initial a transition a b write 1 0 transition b m mfence
transition m c read r 1 end
thread t1 initial a transition a b write 1 1 transition b m mfence transition m c read r 0 end)",
         RobustVerdict::Robust},
        {"SB+one fence", R"(thread t0 initial a transition a b write 1 0 transition b m mfence
transition m c read r 1 end
thread t1 initial a transition a b write 1 1 transition b c read r 0 end)",
         RobustVerdict::NotRobust},
        {"MP", R"(thread t0 initial a transition a b write 1 0 transition b c write 1 1 end
thread t1 initial a transition a b read r 1 transition b c read s 0 end)",
         RobustVerdict::Robust},
        {"LB", R"(thread t0 initial a transition a b read r 0 transition b c write 1 1 end
thread t1 initial a transition a b read r 1 transition b c write 1 0 end)",
         RobustVerdict::Robust},
        // t1's read of y after t0's load of y is no happens-before edge, so
        // t1's later store to x does not close a cycle.
        {"read-read is no conflict", R"(thread t0 initial a transition a b write 1 0
transition b c read r 1 end
thread t1 initial a transition a b read r 1 transition b c write 2 0 end)",
         RobustVerdict::Robust},
        // ... but a store to y after t0's load is (from-read).
        {"read-write is a conflict", R"(thread t0 initial a transition a b write 1 0
transition b c read r 1 end
thread t1 initial a transition a b write 1 1 transition b c write 2 0 end)",
         RobustVerdict::NotRobust},
        // A locked block runs as a unit: t2's block reads y before t0's
        // delayed store lands and z after t1's store, which no SC execution
        // with atomic blocks allows, although po/rf/co/fr alone have no cycle.
        {"locked block as a unit", R"(thread t0 initial a transition a b write 1 1
transition b c read r 2 end
thread t1 initial a transition a b write 1 2 end
thread t2 initial a transition a b lock transition b c read p 1 transition c d read q 2
transition d e unlock end)",
         RobustVerdict::NotRobust},
        // The same block with a fence in t0 is robust.
        {"fenced, with a locked block", R"(thread t0 initial a transition a b write 1 1
transition b m mfence transition m c read r 2 end
thread t1 initial a transition a b write 1 2 end
thread t2 initial a transition a b lock transition b c read p 1 transition c d read q 2
transition d e unlock end)",
         RobustVerdict::Robust},
        // The attacker may not pass a lock: it drains the buffer, although
        // a lock-free path (blocked here) leads from the store to the load.
        {"lock on the only feasible path", R"(thread t0 initial a transition a b write 1 0
transition b l lock transition l u unlock transition u c read r 1 transition b u check 0 end
thread t1 initial a transition a b write 1 1 transition b m mfence transition m c read r 0 end)",
         RobustVerdict::Robust},
        // A locked read-modify-write's own read is no conflict for its write:
        // t1's block here is unrelated to t0's attack.
        {"locked read-modify-write", R"(thread t0 initial a transition a b write 1 0
transition b c read r 2 end
thread t1 initial a transition a b lock transition b c read r 1
transition c d write + r 1 1 transition d e unlock transition e f read s 0 end)",
         RobustVerdict::Robust},
        {"forwarding only",
         "thread t initial a transition a b write 1 0 "
         "transition b c read r 0 end",
         RobustVerdict::Robust},
    };
    for (const Case& c : cases) {
        EXPECT_EQ(attackVerdict(test::parse(c.text)), c.expected) << c.name;
    }
}

TEST(Attacks, CandidatesStopAtFences) {
    Program p = test::parse("thread t initial a transition a b write 1 0 transition b c read r 1 "
                            "transition c d mfence transition d e read s 1 end");
    auto attacks = instrument::candidateAttacks(p);
    ASSERT_EQ(attacks.size(), 1U);
    EXPECT_EQ(attacks[0].load, TransitionId(1));
}

TEST(Attacks, UnboundedAddressesGiveUnknown) {
    // An address that counts up without bound: no finite shadow memory.
    const Program p = test::parse("thread t initial a transition a a local r + r 1 "
                                  "transition a b write 1 r "
                                  "transition b c read s 1 end");
    EXPECT_THROW(instrument::attackProgram(p, instrument::candidateAttacks(p).at(0)),
                 instrument::UnsupportedProgram);
    const robustness::RobustnessResult r =
        robustness::checkTsoRobustness(p, {}, robustness::WitnessScope::First);
    EXPECT_EQ(r.verdict, RobustVerdict::Unknown);
    EXPECT_NE(r.reason.find("test.txt:1:49: the address of this access"), std::string::npos)
        << r.reason;
    // A computed address with a few values is supported.
    EXPECT_EQ(attackVerdict(test::parse("thread t initial a transition a a local r - 1 r "
                                        "transition a b write 1 + r 2 "
                                        "transition b c read s 1 end")),
              RobustVerdict::Robust);
}

// Every random acyclic program the attacks support: the same verdict as the
// brute-force oracle's TSO robustness.
TEST(Attacks, AgreeWithTheBruteForceOracle) {
    int compared = 0;
    int nonRobust = 0;
    int withLocks = 0;
    for (std::uint64_t seed = 0; seed < 1000 && compared < 300; ++seed) {
        const std::string text = test::randomAcyclicProgram(seed);
        const Program p = parseProgram(text, "acyclic" + std::to_string(seed));
        RobustVerdict got;
        try {
            got = attackVerdict(p);
        } catch (const instrument::UnsupportedProgram&) {
            continue;
        }
        test::RobResult oracle = test::robustness(p, test::RobModel::TSO);
        if (oracle.verdict == test::RobVerdict::Unknown) {
            continue;
        }
        ++compared;
        withLocks += text.find("lock") != std::string::npos ? 1 : 0;
        const RobustVerdict want = oracle.verdict == test::RobVerdict::Robust
                                       ? RobustVerdict::Robust
                                       : RobustVerdict::NotRobust;
        nonRobust += want == RobustVerdict::NotRobust ? 1 : 0;
        EXPECT_EQ(got, want) << "seed " << seed << "\n" << text;
    }
    std::cout << "[ attacks ] " << compared << " programs compared, " << nonRobust
              << " not robust, " << withLocks << " with locks\n";
    EXPECT_GE(withLocks, 20);
    EXPECT_EQ(compared, 300);
    EXPECT_GE(nonRobust, 10);
}

// One search for all the attacks of a thread (AttackFamily) answers whether
// any of them is feasible.
TEST(Attacks, FamilyIsFeasibleIffOneOfItsAttacksIs) {
    auto feasible = [](const instrument::AttackProgram& a) {
        reach::Options o;
        o.maxStates = 10000;
        const reach::Result r =
            reach::runChecked(*engines::makeReachEngine("explicit", reach::MemoryModel::SC),
                              a.program, *defaultGoal(a.program), o);
        return r.verdict == reach::Verdict::Unknown ? std::optional<bool>()
                                                    : r.verdict == reach::Verdict::Reachable;
    };
    int families = 0;
    int feasibleFamilies = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        const std::string text =
            seed % 2 == 0 ? test::randomAcyclicProgram(seed) : test::randomShapesProgram(seed);
        const Program p = parseProgram(text, "seed" + std::to_string(seed));
        const AddressSets sets = accessedAddresses(p);
        try {
            instrument::checkSupported(p, sets);
        } catch (const instrument::UnsupportedProgram&) {
            continue;
        }
        const std::vector<instrument::Attack> attacks = instrument::candidateAttacks(p);
        if (attacks.size() > 24) {
            continue; // keeps the test fast
        }
        for (std::size_t t = 0; t < p.threads.size(); ++t) {
            instrument::AttackFamily f{ThreadId(static_cast<std::uint32_t>(t)), {}, {}};
            bool anyFeasible = false;
            bool anyUnknown = false;
            for (const instrument::Attack& a : attacks) {
                if (a.thread != f.thread) {
                    continue;
                }
                f.stores.push_back(a.store);
                f.loads.push_back(a.load);
                const std::optional<bool> one = feasible(instrument::attackProgram(p, a, sets));
                anyFeasible = anyFeasible || one == true;
                anyUnknown = anyUnknown || !one;
            }
            if (f.stores.size() < 2 || (anyUnknown && !anyFeasible)) {
                continue;
            }
            std::sort(f.stores.begin(), f.stores.end());
            f.stores.erase(std::unique(f.stores.begin(), f.stores.end()), f.stores.end());
            std::sort(f.loads.begin(), f.loads.end());
            f.loads.erase(std::unique(f.loads.begin(), f.loads.end()), f.loads.end());
            const std::optional<bool> whole = feasible(instrument::attackProgram(p, f, sets));
            if (!whole) {
                continue;
            }
            ++families;
            feasibleFamilies += *whole ? 1 : 0;
            EXPECT_EQ(*whole, anyFeasible) << "seed " << seed << " thread " << t << "\n" << text;
        }
    }
    std::cout << "[ attacks ] " << families << " families compared, " << feasibleFamilies
              << " feasible\n";
    EXPECT_GE(families, 100);
    EXPECT_GE(feasibleFamilies, 20);
}

TEST(Attacks, StoreBufferingWitnessHasTheDekkerCycle) {
    Program p =
        test::parse(R"(thread t0 initial a transition a b write 1 0 transition b c read r 1 end
thread t1 initial a transition a b write 1 1 transition b c read r 0 end)");
    robustness::RobustnessResult r =
        robustness::checkTsoRobustness(p, {}, robustness::WitnessScope::All);
    ASSERT_EQ(r.verdict, RobustVerdict::NotRobust);
    ASSERT_EQ(r.witnesses.size(), 2U);
    for (const robustness::Witness& w : r.witnesses) {
        std::vector<robustness::HbEdge> kinds;
        for (const robustness::HbArc& a : w.cycle) {
            kinds.push_back(a.kind);
        }
        using robustness::HbEdge;
        EXPECT_EQ(kinds, (std::vector<HbEdge>{HbEdge::Po, HbEdge::Fr, HbEdge::Po, HbEdge::Fr}));
    }
}

TEST(Attacks, ScTracesHaveAcyclicHappensBefore) {
    // Every SC trace's happens-before is acyclic: check the engine's SC traces
    // of random programs (goal reached) against the cycle finder.
    int checked = 0;
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
        const Program p = parseProgram(test::randomProgram(seed), "seed");
        auto engine = engines::makeReachEngine("explicit", reach::MemoryModel::SC);
        const reach::Result r = reach::runChecked(*engine, p, *defaultGoal(p), {});
        if (r.verdict != reach::Verdict::Reachable) {
            continue;
        }
        ++checked;
        EXPECT_TRUE(robustness::findCycle(robustness::happensBefore(p, *r.trace)).empty())
            << "seed " << seed;
    }
    EXPECT_GE(checked, 50);
}

TEST(Attacks, AnswersDoNotDependOnTheNumberOfJobs) {
    int nonRobust = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const Program p = parseProgram(test::randomAcyclicProgram(seed), "seed");
        robustness::RobustnessResult one;
        try {
            one = robustness::checkTsoRobustness(p, {}, robustness::WitnessScope::First, 1);
        } catch (const instrument::UnsupportedProgram&) {
            continue;
        }
        using robustness::WitnessScope;
        for (WitnessScope scope :
             {WitnessScope::First, WitnessScope::FirstPerThread, WitnessScope::All}) {
            robustness::RobustnessResult a = robustness::checkTsoRobustness(p, {}, scope, 1);
            robustness::RobustnessResult b = robustness::checkTsoRobustness(p, {}, scope, 3);
            EXPECT_EQ(a.verdict, b.verdict) << "seed " << seed;
            EXPECT_EQ(a.checked, b.checked) << "seed " << seed;
            ASSERT_EQ(a.witnesses.size(), b.witnesses.size()) << "seed " << seed;
            for (std::size_t k = 0; k < a.witnesses.size(); ++k) {
                EXPECT_EQ(a.witnesses[k].attack.store, b.witnesses[k].attack.store);
                EXPECT_EQ(a.witnesses[k].attack.load, b.witnesses[k].attack.load);
                EXPECT_EQ(a.witnesses[k].trace, b.witnesses[k].trace);
            }
        }
        nonRobust += one.verdict == RobustVerdict::NotRobust ? 1 : 0;
    }
    EXPECT_GE(nonRobust, 10);
}

// Whether no thread's automaton has a cycle (Kahn's algorithm per thread).
bool acyclic(const Program& p) {
    for (const Thread& t : p.threads) {
        std::vector<int> indegree(t.stateCount(), 0);
        for (TransitionId id : t.transitions) {
            ++indegree[p.transition(id).to.index()];
        }
        std::vector<std::size_t> ready;
        for (std::size_t s = 0; s < indegree.size(); ++s) {
            if (indegree[s] == 0) {
                ready.push_back(s);
            }
        }
        std::size_t removed = 0;
        while (!ready.empty()) {
            const std::size_t s = ready.back();
            ready.pop_back();
            ++removed;
            for (TransitionId id : t.outgoingOf(StateId(static_cast<std::uint32_t>(s)))) {
                if (--indegree[p.transition(id).to.index()] == 0) {
                    ready.push_back(p.transition(id).to.index());
                }
            }
        }
        if (removed != t.stateCount()) {
            return false;
        }
    }
    return true;
}

// The robust=yes|no headers of the examples, by three arguments where they
// apply: a goal reachable under TSO but not SC proves non-robustness (a
// robust program has the same reachable states under both); the attacks;
// the brute-force oracle, where it finishes.
TEST(Attacks, ExampleHeaders) {
    int attacks = 0;
    int oracle = 0;
    for (const auto& f : test::filesUnder(TSOREACH_SOURCE_DIR "/examples", ".txt")) {
        const std::optional<bool> robust = test::expectedRobust(f);
        ASSERT_TRUE(robust.has_value()) << f;
        auto v = test::expectedVerdicts(f);
        if (v[reach::MemoryModel::SC] != v[reach::MemoryModel::TSO]) {
            EXPECT_FALSE(*robust) << f;
        }
        const Program p = parseProgramFile(f.string());
        try {
            EXPECT_EQ(attackVerdict(p), *robust ? RobustVerdict::Robust : RobustVerdict::NotRobust)
                << f;
            ++attacks;
        } catch (const instrument::UnsupportedProgram&) {
        }
        if (!acyclic(p)) {
            continue; // the oracle enumerates complete executions: acyclic programs only
        }
        test::RobOptions o;
        o.model = test::RobModel::TSO;
        o.maxStates = 100000;
        const test::RobResult r = test::robustness(p, o);
        if (r.verdict != test::RobVerdict::Unknown) {
            EXPECT_EQ(r.verdict == test::RobVerdict::Robust, *robust) << f << " (oracle)";
            ++oracle;
        }
    }
    std::cout << "[ attacks ] examples: " << attacks << " checked by attacks, " << oracle
              << " by the oracle\n";
    EXPECT_GE(attacks, 20);
}

} // namespace
} // namespace tsoreach
