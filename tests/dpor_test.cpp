// DPOR over chronological traces (issue 9): the number of complete
// executions is the number of Shasha-Snir traces, exactly, on the litmus
// tests of the digest's section 7 and on random check-free acyclic programs
// (against the brute-force enumerator of the tests); reachability verdicts
// agree with the explicit engine.

#include "litmus.hpp"
#include "random_program.hpp"
#include "support/robustness_oracle.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/instrument/unroll.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/reach/dpor.hpp"
#include "tsoreach/robustness/dpor_robustness.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

namespace tsoreach {
namespace {

using reach::MemoryModel;

reach::ExploreStats explore(const std::string& text, MemoryModel m) {
    const Program p = test::parse(text);
    reach::ExploreOptions o;
    const reach::ExploreResult r = reach::dporExplore(p, m, o);
    EXPECT_TRUE(r.complete) << r.reason;
    return r.stats;
}

TEST(Dpor, LitmusCountsAreExact) {
    for (const test::Litmus& l : test::kLitmus) {
        const std::uint64_t expected[] = {l.sc, l.tso, l.pso};
        const MemoryModel models[] = {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO};
        for (int k = 0; k < 3; ++k) {
            const reach::ExploreStats s = explore(l.text, models[k]);
            EXPECT_EQ(s.executions, expected[k]) << l.name << " under " << reach::name(models[k]);
            EXPECT_EQ(s.blocked, 0U) << l.name;
        }
    }
}

TEST(Dpor, ExecutionsEqualShashaSnirClassesOnRandomPrograms) {
    std::size_t programs = 0;
    std::uint64_t executions = 0;
    std::uint64_t redundant = 0;
    for (std::uint64_t seed = 0; programs < 300 && seed < 1000; ++seed) {
        const std::string text = test::randomCheckFreeProgram(seed);
        const Program p = test::parse(text);
        if (reach::dporUnsupported(p, MemoryModel::PSO)) {
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
            reach::ExploreOptions eo;
            const reach::ExploreResult r = reach::dporExplore(p, model, eo);
            ASSERT_TRUE(r.complete) << r.reason << "\n" << text;
            EXPECT_EQ(r.stats.executions, brute.ssClasses)
                << "seed " << seed << " under " << reach::name(model) << "\n"
                << text;
            executions += r.stats.executions;
            redundant += r.stats.redundant;
            counted = true;
        }
        programs += counted ? 1 : 0;
    }
    EXPECT_EQ(programs, 300U);
    std::cout << "[ dpor ] " << programs << " programs, " << executions << " executions, "
              << redundant << " redundant\n";
}

TEST(Dpor, VerdictsAgreeWithTheExplicitEngine) {
    std::size_t reachable = 0;
    std::size_t checked = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        const std::string text = test::randomAcyclicProgram(seed);
        const Program p = test::parse(text);
        const std::optional<Goal> goal = defaultGoal(p);
        if (!goal || reach::dporUnsupported(p, MemoryModel::PSO)) {
            continue;
        }
        for (MemoryModel m : {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO}) {
            auto dpor = engines::makeReachEngine("dpor", m);
            auto exp = engines::makeReachEngine("explicit", m);
            const reach::Result a = reach::runChecked(*dpor, p, *goal, {});
            const reach::Result b = reach::runChecked(*exp, p, *goal, {});
            ASSERT_NE(a.verdict, reach::Verdict::Unknown) << a.reason << "\n" << text;
            EXPECT_EQ(a.verdict, b.verdict)
                << "seed " << seed << " under " << reach::name(m) << "\n"
                << text;
            reachable += a.verdict == reach::Verdict::Reachable ? 1 : 0;
            ++checked;
        }
    }
    EXPECT_GT(checked, 300U);
    std::cout << "[ dpor ] " << checked << " verdicts, " << reachable << " reachable\n";
}

TEST(Dpor, CyclicProgramsAndLocksAreUnknownWithTheReason) {
    const Program loop = test::parse("thread t initial a final b transition a a read r 0 "
                                     "transition a b check == r 1 end\n");
    auto e = engines::makeReachEngine("dpor", MemoryModel::TSO);
    const reach::Result r = e->run(loop, *defaultGoal(loop), {});
    EXPECT_EQ(r.verdict, reach::Verdict::Unknown);
    EXPECT_NE(r.reason.find("control-flow cycle"), std::string::npos) << r.reason;
    const Program lock = test::parse("thread t initial a final b transition a b lock end\n");
    EXPECT_EQ(e->run(lock, *defaultGoal(lock), {}).verdict, reach::Verdict::Unknown);
}

TEST(Dpor, RobustnessAgreesWithTheBruteForceOracle) {
    std::size_t programs = 0;
    std::size_t notRobust[2] = {0, 0};
    for (std::uint64_t seed = 0; programs < 150 && seed < 600; ++seed) {
        const std::string text = test::randomAcyclicProgram(seed);
        const Program p = test::parse(text);
        if (reach::dporUnsupported(p, MemoryModel::PSO)) {
            continue;
        }
        bool counted = false;
        int k = 0;
        for (const auto& [model, rob] : {std::pair{MemoryModel::TSO, test::RobModel::TSO},
                                         std::pair{MemoryModel::PSO, test::RobModel::PSO}}) {
            test::RobOptions o;
            o.model = rob;
            o.maxStates = 50000;
            const test::RobResult brute = test::robustness(p, o);
            if (brute.verdict == test::RobVerdict::Unknown) {
                ++k;
                continue;
            }
            const robustness::ExploredRobustness r =
                robustness::robustnessByExploration(p, model, {});
            ASSERT_NE(r.verdict, robustness::RobustVerdict::Unknown) << r.reason;
            EXPECT_EQ(r.verdict == robustness::RobustVerdict::Robust,
                      brute.verdict == test::RobVerdict::Robust)
                << "seed " << seed << " under " << reach::name(model) << "\n"
                << text;
            notRobust[k++] += r.verdict == robustness::RobustVerdict::NotRobust ? 1 : 0;
            counted = true;
        }
        programs += counted ? 1 : 0;
    }
    EXPECT_EQ(programs, 150U);
    EXPECT_GT(notRobust[1], notRobust[0]); // PSO breaks more programs than TSO
    std::cout << "[ dpor ] robustness of " << programs << " programs: " << notRobust[0]
              << " not robust against TSO, " << notRobust[1] << " against PSO\n";
}

TEST(Dpor, FindsTheCycleWhereBothThreadsReadTheirOwnStores) {
    // Found by the random comparison: t0 reads its own x before t1's x
    // lands, t1 reads its own y before t0's y lands.
    const Program p = test::parse(R"(thread t0 initial q0
transition q0 q1 write 1 0
transition q1 q2 write 1 2
transition q2 q3 write 2 1
transition q3 q4 read r1 0
end
thread t1 initial q0
transition q0 q1 write 2 1
transition q1 q2 write 2 0
transition q2 q3 read r0 1
end)");
    test::RobOptions o;
    o.model = test::RobModel::TSO;
    const test::RobResult brute = test::robustness(p, o);
    reach::ExploreOptions eo;
    const reach::ExploreResult r = reach::dporExplore(p, MemoryModel::TSO, eo);
    EXPECT_EQ(r.stats.executions, brute.ssClasses);
    EXPECT_EQ(robustness::robustnessByExploration(p, MemoryModel::TSO, {}).verdict,
              robustness::RobustVerdict::NotRobust);
}

TEST(Dpor, UnrollingBoundsLoopsAndKeepsNegativeAnswersUnknown) {
    // Dekker with spin loops: the bug needs no iteration of them.
    std::ifstream in(std::string(TSOREACH_SOURCE_DIR) + "/examples/dekker.txt");
    std::stringstream text;
    text << in.rdbuf();
    const Program p = test::parse(text.str());
    const instrument::UnrolledProgram u = instrument::unrollLoops(p, 2);
    EXPECT_FALSE(hasControlCycle(u.program));
    EXPECT_TRUE(u.cut);
    ASSERT_EQ(u.origin.size(), u.program.transitions.size());
    for (std::size_t i = 0; i < u.origin.size(); ++i) {
        EXPECT_EQ(u.program.transitions[i].instr.kind, p.transition(u.origin[i]).instr.kind);
    }
    reach::Options o;
    o.unroll = 2;
    auto tso = engines::makeReachEngine("dpor", MemoryModel::TSO);
    EXPECT_EQ(reach::runChecked(*tso, p, *defaultGoal(p), o).verdict, reach::Verdict::Reachable);
    auto sc = engines::makeReachEngine("dpor", MemoryModel::SC);
    const reach::Result r = reach::runChecked(*sc, p, *defaultGoal(p), o);
    EXPECT_EQ(r.verdict, reach::Verdict::Unknown);
    EXPECT_NE(r.reason.find("unrolled 2 times"), std::string::npos) << r.reason;
}

TEST(Dpor, ThreadChoicesAreExploredWhole) {
    // Found by review. A thread's choices conflict with each other without
    // a race: (1) an mfence that waits for the thread's own store is a
    // choice only after the flush; (2) t0 reading y must also be tried
    // after t1's write to y, though t0 could read x instead.
    const char* fenceChoice = R"(thread t0 initial q0 final q2
transition q0 q1 write 1 0
transition q1 q2 mfence
transition q1 q3 noop
end)";
    const char* readChoice = R"(thread t0 initial q0 final q2
transition q0 q1 read r0 0
transition q0 q1 read r1 1
transition q1 q2 check == r1 1
end
thread t1 initial q0
transition q0 q1 write 1 0
transition q1 q2 write 1 1
end)";
    for (const char* text : {fenceChoice, readChoice}) {
        const Program p = test::parse(text);
        for (MemoryModel m : {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO}) {
            auto dpor = engines::makeReachEngine("dpor", m);
            auto exp = engines::makeReachEngine("explicit", m);
            EXPECT_EQ(reach::runChecked(*dpor, p, *defaultGoal(p), {}).verdict,
                      reach::runChecked(*exp, p, *defaultGoal(p), {}).verdict)
                << reach::name(m) << "\n"
                << text;
        }
    }
}

TEST(Dpor, RepeatedClassesOfBranchingThreadsCountAsRedundant) {
    // t0 reads x or y, t1 writes x then y: each read before or after its
    // write, 4 classes under SC; exploring t0 whole reaches some twice.
    const reach::ExploreStats s = explore(R"(thread t0 initial q0
transition q0 q1 read r0 0
transition q0 q1 read r1 1
end
thread t1 initial q0
transition q0 q1 write 1 0
transition q1 q2 write 1 1
end)",
                                          MemoryModel::SC);
    EXPECT_EQ(s.executions, 4U);
    EXPECT_EQ(s.outcomes, 3U); // r0 = 1 and r1 = 1 are two; both 0 is one
    EXPECT_GT(s.redundant, 0U);
}

} // namespace
} // namespace tsoreach
