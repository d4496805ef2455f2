// Outcomes (reach/outcomes.hpp, `tsoreach outcomes`): the final states the
// explicit and dpor engines report are exactly those of the brute-force
// explorer of the tests, on random acyclic programs under SC, TSO and PSO.
// (rf does not list outcomes: a reads-from class leaves the final memory
// open.)

#include "random_program.hpp"
#include "support/brute_force.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/reach/dpor.hpp"
#include "tsoreach/reach/explicit.hpp"
#include "tsoreach/reach/outcomes.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <set>
#include <tuple>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using Key =
    std::tuple<std::vector<std::uint32_t>, std::vector<std::vector<Value>>, std::map<Value, Value>>;

// The brute force's final states: every thread at a state without
// transitions, every buffer empty.
std::optional<std::set<Key>> bruteOutcomes(const Program& p, test::BruteModel m) {
    std::set<Key> out;
    test::BruteOptions o;
    o.model = m;
    o.noGoal = true;
    o.onState = [&](const test::BruteState& s) {
        for (std::size_t t = 0; t < p.threads.size(); ++t) {
            if (!p.threads[t].outgoingOf(StateId(s.pcs[t])).empty() ||
                (!s.fifo.empty() && !s.fifo[t].empty()) ||
                (!s.perAddr.empty() && !s.perAddr[t].empty())) {
                return;
            }
        }
        out.emplace(s.pcs, s.regs, s.mem);
    };
    const Goal never = [&] {
        Goal g(p);
        g.constrain(ThreadId(0));
        return g;
    }();
    if (test::bruteForce(p, never, o).verdict != test::BruteVerdict::Unreachable) {
        return std::nullopt; // state limit
    }
    return out;
}

std::set<Key> keys(const reach::OutcomeList& l) {
    std::set<Key> out;
    for (const reach::Outcome& o : l.outcomes) {
        std::vector<std::uint32_t> pcs;
        for (StateId s : o.pc) {
            pcs.push_back(s.index());
        }
        out.emplace(pcs, o.regs, o.memory);
    }
    return out;
}

reach::OutcomeList listOf(const Program& p, MemoryModel m, const engines::ExploreFunction& f) {
    return reach::collectOutcomes(p, m, [&](const reach::ExploreOptions& o) { return f(p, m, o); },
                                  {});
}

TEST(Outcomes, EveryEngineFindsTheBruteForceFinalStates) {
    const std::pair<MemoryModel, test::BruteModel> models[] = {
        {MemoryModel::SC, test::BruteModel::SC},
        {MemoryModel::TSO, test::BruteModel::TSO},
        {MemoryModel::PSO, test::BruteModel::PSO}};
    std::size_t programs = 0;
    std::size_t compared[2] = {0, 0}; // explicit, dpor
    for (std::uint64_t seed = 0; programs < 300 && seed < 2000; ++seed) {
        const std::string text = test::RandomProgram(seed).generateAcyclic();
        const Program p = test::parse(text);
        bool any = false;
        for (const auto& [model, brute] : models) {
            const std::optional<std::set<Key>> expected = bruteOutcomes(p, brute);
            if (!expected) {
                continue;
            }
            any = true;
            const std::string where = "seed " + std::to_string(seed) + " under " +
                                      std::string(reach::name(model)) + "\n" + text;
            const reach::OutcomeList e = listOf(p, model, reach::explicitFinalStates);
            ASSERT_TRUE(e.complete) << e.reason << "\n" << where;
            EXPECT_EQ(keys(e), *expected) << "explicit, " << where;
            ++compared[0];
            if (!reach::dporUnsupported(p, model)) {
                const reach::OutcomeList d = listOf(p, model, reach::dporExplore);
                ASSERT_TRUE(d.complete) << d.reason << "\n" << where;
                EXPECT_EQ(keys(d), *expected) << "dpor, " << where;
                for (const reach::Outcome& o : d.outcomes) {
                    EXPECT_GE(o.executions, 1U) << where;
                }
                ++compared[1];
            }
        }
        programs += any ? 1 : 0;
    }
    EXPECT_EQ(programs, 300U);
    std::cout << "[ outcomes ] " << programs << " programs; compared: explicit " << compared[0]
              << ", dpor " << compared[1] << "\n";
}

// SB: three outcomes under SC, the fourth (both loads 0) only under TSO.
TEST(Outcomes, StoreBufferingHasOneOutcomeMoreUnderTso) {
    const Program p = test::parse(R"(thread p initial a transition a b write 1 0
transition b c read r 1 end
thread q initial a transition a b write 1 1 transition b c read s 0 end)");
    const reach::OutcomeList sc = listOf(p, MemoryModel::SC, reach::explicitFinalStates);
    reach::OutcomeList tso = listOf(p, MemoryModel::TSO, reach::explicitFinalStates);
    EXPECT_EQ(sc.outcomes.size(), 3U);
    ASSERT_EQ(tso.outcomes.size(), 4U);
    reach::markNew(tso, sc);
    for (const reach::Outcome& o : tso.outcomes) {
        EXPECT_EQ(o.absentFromBaseline, o.regs[0][0] == 0 && o.regs[1][0] == 0);
    }
}

TEST(Outcomes, CyclicProgramsNeedUnroll) {
    const Program p = test::parse("thread t initial a transition a a write 1 0 end");
    const reach::OutcomeList l = listOf(p, MemoryModel::SC, reach::explicitFinalStates);
    EXPECT_FALSE(l.complete);
    EXPECT_NE(l.reason.find("--unroll"), std::string::npos) << l.reason;
}

} // namespace
} // namespace tsoreach
