// Reads-from exploration (issue 10): exact class counts on the litmus tests
// of the digest's section 7 and on random check-free acyclic programs
// (against the brute-force enumerator's classes projected on reads-from),
// verdicts equal to dpor's and the explicit engine's, and the consistency
// checks against a brute-force search over interleavings: every witness
// runs under its model and gives the requested reads-from, and every
// instance rejected has no such interleaving.

#include "litmus.hpp"
#include "random_program.hpp"
#include "reads_from_gen.hpp"
#include "support/robustness_oracle.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/reach/dpor.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/reads_from.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/reach/rf.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <iostream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::RfEvent;
using reach::RfEventKind;
using reach::RfInstance;
using reach::RfSource;
using reach::RfWitnessStep;

constexpr MemoryModel kModels[] = {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO};

reach::ExploreResult rfRun(const Program& p, MemoryModel m) {
    reach::ExploreOptions o;
    return reach::rfExplore(p, m, o);
}

TEST(Rf, LitmusCountsAreExact) {
    for (const test::Litmus& l : test::kLitmus) {
        const std::uint64_t expected[] = {l.rfSc, l.rfTso, l.rfPso};
        for (int k = 0; k < 3; ++k) {
            const reach::ExploreResult r = rfRun(test::parse(l.text), kModels[k]);
            ASSERT_TRUE(r.complete) << r.reason;
            EXPECT_EQ(r.stats.executions, expected[k])
                << l.name << " under " << reach::name(kModels[k]);
            EXPECT_EQ(r.stats.blocked, 0U) << l.name;
            // The first maximal trace needs no check; every other class is
            // a mutation that was checked.
            if (expected[k] > 1) {
                EXPECT_GT(r.stats.consistencyChecks, 0U) << l.name;
            }
        }
    }
}

TEST(Rf, ExecutionsEqualReadsFromClassesOnRandomPrograms) {
    std::size_t programs = 0;
    std::uint64_t executions = 0;
    for (std::uint64_t seed = 0; programs < 300 && seed < 1000; ++seed) {
        const std::string text = test::randomCheckFreeProgram(seed);
        const Program p = test::parse(text);
        if (reach::rfUnsupported(p)) {
            continue; // locks
        }
        bool counted = false;
        for (const auto& [model, rob] : {std::pair{MemoryModel::SC, test::RobModel::SC},
                                         std::pair{MemoryModel::TSO, test::RobModel::TSO},
                                         std::pair{MemoryModel::PSO, test::RobModel::PSO}}) {
            test::RobOptions o;
            o.model = rob;
            o.maxStates = 50000;
            const test::RobResult brute = test::robustness(p, o);
            if (brute.verdict == test::RobVerdict::Unknown) {
                continue;
            }
            // A reads-from class: the events with their sources, without co.
            std::set<std::vector<std::vector<test::RobEvent>>> rfClasses;
            for (const test::RobKey& k : brute.classes) {
                rfClasses.insert(k.events);
            }
            const reach::ExploreResult r = rfRun(p, model);
            ASSERT_TRUE(r.complete) << r.reason << "\n" << text;
            EXPECT_EQ(r.stats.executions, rfClasses.size())
                << "seed " << seed << " under " << reach::name(model) << "\n"
                << text;
            EXPECT_EQ(r.stats.redundant, 0U) << "seed " << seed << " under " << reach::name(model);
            executions += r.stats.executions;
            counted = true;
        }
        programs += counted ? 1 : 0;
    }
    EXPECT_EQ(programs, 300U);
    std::cout << "[ rf ] " << programs << " programs, " << executions << " classes\n";
}

// Verdicts on random acyclic programs (checks and branches kept), for the
// default goal: rf, dpor and the explicit engine agree, and every rf trace
// replays (runChecked).
TEST(Rf, VerdictsEqualDporAndExplicit) {
    std::size_t compared = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        const Program p = test::parse(test::randomAcyclicProgram(seed));
        const std::optional<Goal> goal = defaultGoal(p);
        if (!goal || reach::rfUnsupported(p)) {
            continue;
        }
        for (MemoryModel m : kModels) {
            reach::Options o;
            o.stop.setTimeout(20);
            auto rf = engines::makeReachEngine("rf", m);
            auto explicitEngine = engines::makeReachEngine("explicit", m);
            const reach::Result a = reach::runChecked(*rf, p, *goal, o);
            const reach::Result b = reach::runChecked(*explicitEngine, p, *goal, o);
            if (a.verdict == reach::Verdict::Unknown || b.verdict == reach::Verdict::Unknown) {
                continue;
            }
            EXPECT_EQ(a.verdict, b.verdict) << "seed " << seed << " " << reach::name(m);
            if (!reach::dporUnsupported(p, m)) {
                auto dpor = engines::makeReachEngine("dpor", m);
                const reach::Result c = reach::runChecked(*dpor, p, *goal, o);
                if (c.verdict != reach::Verdict::Unknown) {
                    EXPECT_EQ(a.verdict, c.verdict) << "seed " << seed << " " << reach::name(m);
                }
            }
            ++compared;
        }
    }
    EXPECT_GT(compared, 600U);
}

// Every complete or blocked class's witness trace replays.
TEST(Rf, EveryExploredWitnessReplays) {
    std::size_t traces = 0;
    for (std::uint64_t seed = 0; seed < 150; ++seed) {
        const Program p = test::parse(test::randomAcyclicProgram(seed));
        if (reach::rfUnsupported(p)) {
            continue;
        }
        const Goal none(p);
        for (MemoryModel m : kModels) {
            reach::ExploreOptions o;
            o.onExecution = [&](const reach::Trace& t, bool) {
                const reach::ReplayOutcome r =
                    reach::replayTrace(p, none, t, reach::Recorded::IfGiven);
                EXPECT_TRUE(r.ok) << r.error << " seed " << seed << " " << reach::name(m);
                ++traces;
            };
            const reach::ExploreResult r = reach::rfExplore(p, m, o);
            EXPECT_TRUE(r.complete) << r.reason;
        }
    }
    EXPECT_GT(traces, 1000U);
}

// rf explores maximal executions only and each class once: every call is
// one maximal execution of a new class (complete or blocked), on the litmus
// tests and on 300 random programs under every model.
TEST(Rf, ExploresMaximalExecutionsOnly) {
    for (const test::Litmus& l : test::kLitmus) {
        for (MemoryModel m : kModels) {
            const reach::ExploreResult r = rfRun(test::parse(l.text), m);
            EXPECT_EQ(r.stats.events, r.stats.executions + r.stats.blocked) << l.name;
            EXPECT_EQ(r.stats.redundant, 0U) << l.name;
        }
    }
    std::uint64_t events = 0;
    std::uint64_t classes = 0;
    std::size_t programs = 0;
    for (std::uint64_t seed = 0; programs < 300 && seed < 2000; ++seed) {
        const Program p = test::parse(test::randomAcyclicProgram(seed));
        if (reach::rfUnsupported(p)) {
            continue;
        }
        ++programs;
        for (MemoryModel m : kModels) {
            // Each reported execution leaves every thread where only
            // checks (failed ones, then) could follow.
            reach::ExploreOptions o;
            o.onExecution = [&](const reach::Trace& t, bool) {
                std::vector<StateId> pc;
                for (const Thread& th : p.threads) {
                    pc.push_back(th.initial);
                }
                for (const reach::TraceStep& step : t.steps) {
                    if (step.kind == reach::StepKind::Instruction) {
                        pc[step.thread.index()] = p.transition(step.transition).to;
                    }
                }
                for (std::size_t u = 0; u < pc.size(); ++u) {
                    for (TransitionId id : p.threads[u].outgoingOf(pc[u])) {
                        EXPECT_EQ(p.transition(id).instr.kind, InstrKind::Check)
                            << "seed " << seed << ": not maximal";
                    }
                }
            };
            const reach::ExploreResult r = reach::rfExplore(p, m, o);
            ASSERT_TRUE(r.complete) << r.reason;
            EXPECT_EQ(r.stats.events, r.stats.executions + r.stats.blocked)
                << "seed " << seed << " under " << reach::name(m);
            EXPECT_EQ(r.stats.redundant, 0U) << "seed " << seed << " under " << reach::name(m);
            events += r.stats.events;
            classes += r.stats.executions + r.stats.blocked;
        }
    }
    EXPECT_EQ(programs, 300U);
    std::cout << "[ rf ] " << events << " maximal executions for " << classes << " classes\n";
}

// --- The consistency checks against a brute-force search ----------------

using test::InstanceSim; // reads_from_gen.hpp

RfInstance randomInstance(std::mt19937_64& rng) {
    RfInstance x;
    const std::size_t threads = 2 + rng() % 2;
    x.threads.resize(threads);
    for (auto& evs : x.threads) {
        const std::size_t n = 1 + rng() % 4;
        for (std::size_t i = 0; i < n; ++i) {
            RfEvent e;
            const auto roll = rng() % 10;
            e.kind = roll < 4   ? RfEventKind::Write
                     : roll < 9 ? RfEventKind::Read
                                : RfEventKind::Fence;
            e.addr = e.kind == RfEventKind::Fence ? 0 : static_cast<Value>(rng() % 2);
            evs.push_back(e);
        }
    }
    // Sources: the initial value or any write to the address.
    for (auto& evs : x.threads) {
        for (RfEvent& e : evs) {
            if (e.kind != RfEventKind::Read) {
                continue;
            }
            std::vector<RfSource> options{RfSource{}};
            for (std::uint32_t u = 0; u < x.threads.size(); ++u) {
                for (std::uint32_t k = 0; k < x.threads[u].size(); ++k) {
                    if (x.threads[u][k].kind == RfEventKind::Write &&
                        x.threads[u][k].addr == e.addr) {
                        options.push_back(RfSource{u, k});
                    }
                }
            }
            e.source = options[rng() % options.size()];
        }
    }
    return x;
}

TEST(ReadsFrom, AgreesWithBruteForceAndWitnessesHold) {
    std::mt19937_64 rng(2021);
    std::size_t realizable[3] = {0, 0, 0};
    std::size_t instances = 0;
    for (int k = 0; k < 3000; ++k) {
        const RfInstance x = randomInstance(rng);
        ++instances;
        for (int m = 0; m < 3; ++m) {
            const InstanceSim sim(x, kModels[m]);
            const auto witness = reach::verifyReadsFrom(x, kModels[m]);
            const bool expected = sim.realizable();
            ASSERT_EQ(witness.has_value(), expected)
                << "instance " << k << " under " << reach::name(kModels[m]);
            if (witness) {
                ++realizable[m];
                EXPECT_EQ(sim.check(*witness), "")
                    << "instance " << k << " under " << reach::name(kModels[m]);
            }
        }
    }
    std::cout << "[ reads-from ] " << instances
              << " instances, realizable SC/TSO/PSO: " << realizable[0] << "/" << realizable[1]
              << "/" << realizable[2] << "\n";
    // Both answers occur often enough to mean something.
    for (std::size_t r : realizable) {
        EXPECT_GT(r, 300U);
        EXPECT_LT(r, instances - 300);
    }
}

} // namespace
} // namespace tsoreach
