// The explicit engine's parallel search (Options::searchJobs) against its
// sequential search: the same verdict, reason, trace and, when the search
// is complete, the same states and transitions, for 1, 2 and 4 threads, on
// random programs under every model and reduction (parallel_search.hpp
// says why).

#include "random_program.hpp"
#include "test_util.hpp"
#include "tsoreach/lang/stop.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/explicit.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::Verdict;

constexpr std::uint64_t kSeeds = 300;

struct Config {
    reach::SearchOrder order;
    bool por;
};
constexpr Config kConfigs[] = {{reach::SearchOrder::Dfs, true},
                               {reach::SearchOrder::Dfs, false},
                               {reach::SearchOrder::Bfs, true}};

reach::Result run(const Program& p, const Goal& g, MemoryModel m, Config c, unsigned jobs) {
    reach::Options o;
    o.search = c.order;
    o.partialOrder = c.por;
    o.searchJobs = jobs;
    reach::ExplicitEngine engine(m);
    return reach::runChecked(engine, p, g, o);
}

void expectSame(const reach::Result& one, const reach::Result& many, const std::string& where) {
    ASSERT_EQ(one.verdict, many.verdict) << where;
    EXPECT_EQ(one.reason, many.reason) << where;
    if (one.verdict == Verdict::Reachable) {
        EXPECT_EQ(*one.trace, *many.trace) << where;
    }
    if (one.verdict != Verdict::Unknown) {
        EXPECT_EQ(one.stats.states, many.stats.states) << where;
        EXPECT_EQ(one.stats.transitions, many.stats.transitions) << where;
    }
}

TEST(ParallelSearch, SameAnswersAsSequentialOnRandomPrograms) {
    int reachable = 0;
    int unreachable = 0;
    for (std::uint64_t seed = 0; seed < kSeeds && !::testing::Test::HasFailure(); ++seed) {
        const std::string text = test::randomProgram(seed);
        const Program p = parseProgram(text, "seed" + std::to_string(seed));
        const Goal g = *defaultGoal(p);
        for (MemoryModel m : {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO}) {
            for (const Config& c : kConfigs) {
                if (c.order == reach::SearchOrder::Bfs && m != MemoryModel::SC) {
                    continue; // the configurations differ only under SC
                }
                const reach::Result one = run(p, g, m, c, 1);
                (one.verdict == Verdict::Reachable ? reachable : unreachable) += 1;
                for (unsigned jobs : {2U, 4U}) {
                    const std::string where = "seed " + std::to_string(seed) + ", " +
                                              std::string(reach::name(m)) + ", " +
                                              std::to_string(jobs) + " jobs:\n" + text;
                    expectSame(one, run(p, g, m, c, jobs), where);
                }
            }
        }
    }
    // Both answers are exercised.
    EXPECT_GT(reachable, 100);
    EXPECT_GT(unreachable, 100);
}

// A state space of some thousands of states, so that the threads share
// work: `threads` threads add 1 to cell 0 `rounds` times each (lost updates
// included); an observer reads the cell and checks it for `seen`.
std::string counters(int threads, int rounds, int seen) {
    std::string text;
    for (int t = 0; t < threads; ++t) {
        text += "thread t" + std::to_string(t) + " initial s0\n";
        for (int k = 0; k < rounds; ++k) {
            const std::string from = "s" + std::to_string(k);
            const std::string mid = "m" + std::to_string(k);
            const std::string to = "s" + std::to_string(k + 1);
            text += "transition " + from + " " + mid + " read r 0\n";
            text += "transition " + mid + " " + to + " write + r 1 0\n";
        }
        text += "end\n";
    }
    text += "thread observer initial a\ntransition a b read x 0\ntransition b bad check == x " +
            std::to_string(seen) + "\nend\n";
    return text;
}

TEST(ParallelSearch, SameAnswersOnALargerSpace) {
    for (int seen : {100, 5}) { // unreachable, reachable
        const Program p = test::parse(counters(3, 3, seen));
        const Goal g = parseGoalSpec(p, "observer=bad");
        for (const Config& c : kConfigs) {
            const reach::Result one = run(p, g, MemoryModel::SC, c, 1);
            EXPECT_EQ(one.verdict, seen == 5 ? Verdict::Reachable : Verdict::Unreachable);
            EXPECT_GT(one.stats.states, seen == 5 ? 10U : 10000U);
            for (unsigned jobs : {2U, 4U}) {
                expectSame(one, run(p, g, MemoryModel::SC, c, jobs),
                           "seen " + std::to_string(seen) + ", " + std::to_string(jobs) + " jobs");
            }
        }
    }
}

TEST(ParallelSearch, StateLimitHolds) {
    const Program p = test::parse(counters(3, 3, 100));
    reach::Options o;
    o.searchJobs = 2;
    o.maxStates = 1000;
    reach::ExplicitEngine engine(MemoryModel::SC);
    const reach::Result r = engine.run(p, parseGoalSpec(p, "observer=bad"), o);
    EXPECT_EQ(r.verdict, Verdict::Unknown);
    EXPECT_EQ(r.reason, "state limit of 1000 reached (--max-states)");
    EXPECT_EQ(r.stats.states, 1001U); // exactly: a state limit makes the search sequential
}

// The memory limit stops the threads mid-search (each thread counts its
// store, its stack and every batch it made, wherever the batch is).
TEST(ParallelSearch, MemoryLimitHolds) {
    const Program p = test::parse(counters(3, 3, 100));
    reach::Options o;
    o.searchJobs = 2;
    // Above what the process holds, below the 4 MiB block each thread's
    // store has at its first growth.
    const auto limit = static_cast<std::uint64_t>(residentMb()) + 3;
    o.stop.setMemoryLimitMb(limit);
    reach::ExplicitEngine engine(MemoryModel::SC);
    const reach::Result r = engine.run(p, parseGoalSpec(p, "observer=bad"), o);
    EXPECT_EQ(r.verdict, Verdict::Unknown);
    EXPECT_EQ(r.reason, "memory limit of " + std::to_string(limit) + " MB reached (--max-memory)");
    EXPECT_GT(r.stats.states, 0U);
}

// More threads than the program has states to share: most threads wait for
// the whole search, which must still end with the sequential answer.
TEST(ParallelSearch, ManyThreadsOnATinyProgram) {
    for (int seen : {100, 1}) { // unreachable, reachable
        const Program p = test::parse(counters(2, 1, seen));
        const Goal g = parseGoalSpec(p, "observer=bad");
        const reach::Result one = run(p, g, MemoryModel::SC, kConfigs[0], 1);
        for (unsigned jobs : {8U, 16U}) {
            expectSame(one, run(p, g, MemoryModel::SC, kConfigs[0], jobs),
                       "seen " + std::to_string(seen) + ", " + std::to_string(jobs) + " jobs");
        }
    }
}

} // namespace
} // namespace tsoreach
