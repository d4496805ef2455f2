// The value-set analysis: every address an execution accesses (under PSO, the
// most permissive model, with the brute-force explorer) lies in the set the
// analysis gives for that transition; and the sets are as small as expected
// on typical address computations.

#include "random_program.hpp"
#include "support/brute_force.hpp"
#include "test_util.hpp"
#include "tsoreach/lang/value_sets.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <utility>
#include <vector>

namespace tsoreach {
namespace {

bool contains(const ValueSet& s, Value v) {
    return s.any || std::binary_search(s.values.begin(), s.values.end(), v);
}

TEST(ValueSets, CoverEveryAccessOfRandomPrograms) {
    int programs = 0;
    std::size_t accesses = 0;
    for (std::uint64_t seed = 0; seed < 600; ++seed) {
        const std::string text =
            seed % 2 == 0 ? test::randomProgram(seed) : test::randomAcyclicProgram(seed);
        const Program p = test::parse(text);
        const AddressSets sets = accessedAddresses(p);
        test::BruteOptions o;
        o.model = test::BruteModel::PSO;
        o.maxStates = 20000;
        o.noGoal = true;
        bool ok = true;
        o.onAccess = [&](TransitionId id, Value a) {
            ++accesses;
            if (!contains(sets.byTransition[id.index()], a)) {
                ok = false;
            }
            if (!contains(sets.all, a)) {
                ok = false;
            }
        };
        test::bruteForce(p, Goal(p), o);
        EXPECT_TRUE(ok) << "seed " << seed << "\n" << text;
        ++programs;
    }
    EXPECT_GT(accesses, 10000U);
    std::cout << "[ value sets ] " << programs << " programs, " << accesses
              << " accesses checked\n";
}

TEST(ValueSets, PointersThroughMemory) {
    // Node addresses flow through memory (as in an MCS lock): the sets stay
    // exact.
    const Program p = test::parse(R"(thread t initial a
transition a b local n 4
transition b c write n 0
transition c d read p 0
transition d e write 1 + 1 * 2 p
transition e f read q + 1 * 2 n
end
thread u initial a
transition a b write 6 0
end)");
    const AddressSets s = accessedAddresses(p);
    EXPECT_EQ(s.byTransition[3], (ValueSet{false, {1, 9, 13}}));
    EXPECT_EQ(s.byTransition[4], (ValueSet{false, {9}}));
    EXPECT_EQ(s.all, (ValueSet{false, {0, 1, 9, 13}}));
}

TEST(ValueSets, CountersBecomeAny) {
    // An unbounded counter used as an address: any value; comparisons of it
    // still give 0 or 1.
    const Program p = test::parse(R"(thread t initial a
transition a b local i + i 1
transition b a write 1 i
transition b c read r < i 3
transition c d write 1 + 10 r
end)");
    const AddressSets s = accessedAddresses(p);
    EXPECT_TRUE(s.byTransition[1].any);
    EXPECT_EQ(s.byTransition[2], (ValueSet{false, {0, 1}}));
    EXPECT_TRUE(s.all.any);
}

TEST(ValueSets, ChecksBoundLoopCounters) {
    // for j := 1 to 2: read b[j]; checks that fail everywhere cut transitions.
    const Program p = test::parse(R"(thread t initial a
transition a w local j 1
transition w n read r + 1 j
transition n c local j + j 1
transition c w check <= j 2
transition c d check && > j 2 r
transition d e write 1 + 10 j
transition d f check == j 7
transition f g write 1 0
end
thread u initial a transition a b write 5 2 end)");
    const AddressSets s = accessedAddresses(p);
    EXPECT_EQ(s.byTransition[1], (ValueSet{false, {2, 3}}));
    EXPECT_EQ(s.byTransition[5], (ValueSet{false, {13}}));
    EXPECT_EQ(s.byTransition[7], ValueSet{});
    // ... and the states behind them are unreachable.
    EXPECT_TRUE(s.reachable[0][findState(p.threads[0], "e").index()]);
    EXPECT_FALSE(s.reachable[0][findState(p.threads[0], "f").index()]);
    EXPECT_FALSE(s.reachable[0][findState(p.threads[0], "g").index()]);
}

TEST(ValueSets, UnreachedTransitionsAccessNothing) {
    const Program p = test::parse(R"(thread t initial a
transition b c write 1 5
transition a d read r 2
end)");
    const AddressSets s = accessedAddresses(p);
    EXPECT_EQ(s.byTransition[0], ValueSet{});
    EXPECT_EQ(s.byTransition[1], (ValueSet{false, {2}}));
}

TEST(ValueSets, ChecksNarrowByEachComparison) {
    // r in {0..5} through memory, k in {2, 3}; the check keeps the r for
    // which some k satisfies it.
    const std::vector<std::pair<std::string, std::vector<Value>>> cases{
        {"== r k", {102, 103}},
        {"!= r k", {100, 101, 102, 103, 104, 105}},
        {"!= r 3", {100, 101, 102, 104, 105}},
        {"< r k", {100, 101, 102}},
        {"<= r k", {100, 101, 102, 103}},
        {"> r k", {103, 104, 105}},
        {">= r k", {102, 103, 104, 105}},
        {"< k r", {103, 104, 105}},
    };
    for (const auto& [cond, expected] : cases) {
        std::string text = "thread u initial a\n";
        for (int v = 1; v <= 5; ++v) {
            text += "transition a b write " + std::to_string(v) + " 0\n";
        }
        text += "end\nthread t initial a\ntransition a k local k 2\n"
                "transition a k local k 3\ntransition k r read r 0\n"
                "transition r c check " +
                cond + "\ntransition c d write 1 + 100 r\nend\n";
        const Program p = test::parse(text);
        const AddressSets s = accessedAddresses(p);
        EXPECT_EQ(s.byTransition.back(), (ValueSet{false, expected})) << cond;
    }
}

TEST(ValueSets, CancelStopsTheAnalysis) {
    const Program p = test::parse(test::randomProgram(7));
    std::atomic<bool> cancel{true};
    const StopCondition stop = StopCondition().orWhen(cancel);
    EXPECT_THROW(accessedAddresses(p, kDefaultValueSetLimit, stop), Stopped);
    cancel = false;
    EXPECT_NO_THROW(accessedAddresses(p, kDefaultValueSetLimit, stop));
}

} // namespace
} // namespace tsoreach
