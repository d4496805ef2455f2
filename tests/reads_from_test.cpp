// VerifyPSO with fence maps (issue 10, digest 3.4): on random small PSO
// instances, realizable ones from random executions and mostly
// unrealizable ones from reads-from mutations of them, verifyReadsFrom
// agrees with a brute-force search over all interleavings and with the
// per-buffer search it replaced, and every witness replays under PSO with
// the requested reads-from.

#include "reads_from_gen.hpp"
#include "tsoreach/reach/reads_from_detail.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::RfEvent;
using reach::RfEventKind;
using reach::RfInstance;
using reach::RfSource;
using test::GenOptions;
using test::InstanceSim;

std::string show(const RfInstance& x) {
    std::ostringstream out;
    for (std::size_t t = 0; t < x.threads.size(); ++t) {
        out << "T" << t << ":";
        for (const RfEvent& e : x.threads[t]) {
            switch (e.kind) {
            case RfEventKind::Write:
                out << " W" << e.addr;
                break;
            case RfEventKind::Fence:
                out << " F";
                break;
            case RfEventKind::Read:
                out << " R" << e.addr << "<-";
                if (e.source.initial()) {
                    out << "init";
                } else {
                    out << e.source.thread << "." << e.source.index;
                }
                break;
            }
        }
        out << "\n";
    }
    return out.str();
}

struct Tally {
    std::size_t instances = 0, realizable = 0, withFences = 0, realizableWithFences = 0;
};

// Checks one instance three ways; false (with a gtest failure) on disagreement.
bool crossCheck(const RfInstance& x, bool brute, Tally& tally) {
    const InstanceSim sim(x);
    const auto fresh = reach::verifyReadsFrom(x, MemoryModel::PSO);
    const auto old = reach::detail::verifyReadsFromPsoPerBuffer(x);
    ++tally.instances;
    const bool fences = test::hasFence(x);
    tally.withFences += fences ? 1 : 0;
    EXPECT_EQ(fresh.has_value(), old.has_value()) << show(x);
    if (brute) {
        EXPECT_EQ(fresh.has_value(), sim.realizable()) << show(x);
    }
    if (fresh) {
        ++tally.realizable;
        tally.realizableWithFences += fences ? 1 : 0;
        EXPECT_EQ(sim.check(*fresh), "") << show(x);
    }
    if (old) {
        EXPECT_EQ(sim.check(*old), "") << show(x);
    }
    return !::testing::Test::HasFailure();
}

void report(const char* what, const Tally& t) {
    std::cout << "[ vpso ] " << what << ": " << t.instances << " instances (" << t.withFences
              << " with fences), realizable " << t.realizable << " (" << t.realizableWithFences
              << " with fences)\n";
}

TEST(ReadsFromPso, AgreesWithBruteForceAndPerBufferSearch) {
    std::mt19937_64 rng(1021);
    GenOptions o;
    o.maxEvents = 5;
    o.fencePercent = 15;
    Tally tally;
    for (int k = 0; k < 3000; ++k) {
        // Shorter threads when there are many, to bound the brute force.
        o.maxThreads = 2 + static_cast<std::size_t>(k % 3);
        o.maxEvents = o.maxThreads == 4 ? 5 : 7;
        const RfInstance x = test::randomInstance(rng, o, static_cast<unsigned>(k % 3));
        ASSERT_TRUE(crossCheck(x, true, tally)) << "instance " << k;
    }
    report("small, brute force", tally);
    EXPECT_GT(tally.realizable, 600U);
    EXPECT_LT(tally.realizable, tally.instances - 600);
    EXPECT_GT(tally.realizableWithFences, 300U);
}

// Sources drawn uniformly (not from an execution): mostly unrealizable,
// many caught only by the search.
TEST(ReadsFromPso, AgreesOnArbitrarySources) {
    std::mt19937_64 rng(77);
    GenOptions o;
    o.maxThreads = 3;
    o.maxEvents = 4;
    o.maxAddrs = 2;
    o.fencePercent = 20;
    Tally tally;
    for (int k = 0; k < 1500; ++k) {
        RfInstance x = test::randomShape(rng, o);
        for (auto& evs : x.threads) {
            for (RfEvent& e : evs) {
                if (e.kind == RfEventKind::Read) {
                    const auto options = test::sourcesOf(x, e.addr);
                    e.source = options[rng() % options.size()];
                }
            }
        }
        ASSERT_TRUE(crossCheck(x, true, tally)) << "instance " << k;
    }
    report("arbitrary sources, brute force", tally);
    EXPECT_GT(tally.realizable, 200U);
}

// Four threads and many fences: where fence maps matter.
TEST(ReadsFromPso, AgreesWithBruteForceWithManyFences) {
    std::mt19937_64 rng(9);
    GenOptions o;
    o.minThreads = 4;
    o.maxThreads = 4;
    o.maxEvents = 5;
    o.maxAddrs = 3;
    o.fencePercent = 25;
    Tally tally;
    for (int k = 0; k < 1500; ++k) {
        const RfInstance x = test::randomInstance(rng, o, static_cast<unsigned>(k % 2));
        ASSERT_TRUE(crossCheck(x, true, tally)) << "instance " << k;
    }
    report("four threads, many fences, brute force", tally);
    EXPECT_GT(tally.realizableWithFences, 300U);
}

// Larger instances, beyond the brute force: the two searches agree.
TEST(ReadsFromPso, AgreesWithPerBufferSearchOnLargerInstances) {
    std::mt19937_64 rng(4242);
    GenOptions o;
    o.maxThreads = 4;
    o.maxEvents = 9;
    o.maxAddrs = 4;
    o.fencePercent = 12;
    Tally tally;
    for (int k = 0; k < 600; ++k) {
        const RfInstance x = test::randomInstance(rng, o, static_cast<unsigned>(k % 2));
        ASSERT_TRUE(crossCheck(x, false, tally)) << "instance " << k;
    }
    report("larger, per-buffer search", tally);
    EXPECT_GT(tally.realizable, 300U);
}

// A fence that must wait for another thread's read: T0's write to x is
// stuck behind T1's write that T2 still has to read, so T0's fence (and
// its read of y after it) must follow T2's read.
TEST(ReadsFromPso, FenceWaitsForHeldAddress) {
    RfInstance x;
    x.threads.resize(3);
    x.threads[1] = {{RfEventKind::Write, 0, {}}};
    x.threads[2] = {{RfEventKind::Read, 0, RfSource{1, 0}}, {RfEventKind::Write, 1, {}}};
    x.threads[0] = {{RfEventKind::Read, 0, RfSource{1, 0}},
                    {RfEventKind::Write, 0, {}},
                    {RfEventKind::Fence, 0, {}},
                    {RfEventKind::Read, 1, RfSource{2, 1}}};
    const auto w = reach::verifyReadsFrom(x, MemoryModel::PSO);
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(InstanceSim(x).check(*w), "");
    // T2 then reads T0's write, which reaches memory at T0's fence at the
    // latest, while T0 reads y's initial value after that fence.
    x.threads[2].push_back({RfEventKind::Read, 0, RfSource{0, 1}});
    x.threads[0][3].source = RfSource{};
    EXPECT_EQ(reach::verifyReadsFrom(x, MemoryModel::PSO).has_value(), InstanceSim(x).realizable());
}

// Two traces with the same thread events where only the fence map tells
// them apart. T0 writes a to x, reads d from T3, fences, writes b to y;
// T1 writes c to x; T2 reads b, then c; T3 reads c, then writes d. If a
// reaches memory before c, T0's fence may run once T3 is done. If a is
// written after c is in memory, a is stuck behind c, which holds x until
// T2 reads it, and T2 reads it only after b, written after the fence: a
// dead end. Every live trace passes the thread events {a, c, T3's read, d,
// T0's read}, which dead traces also reach; keying states on thread events
// alone loses the witness whenever a dead trace comes first, so every
// thread order is tried.
TEST(ReadsFromPso, FenceMapKeepsTheLiveTrace) {
    std::vector<std::uint32_t> order = {0, 1, 2, 3};
    std::size_t orders = 0;
    do {
        const auto& at = order; // role -> thread
        RfInstance x;
        x.threads.resize(4);
        x.threads[at[0]] = {{RfEventKind::Write, 0, {}},
                            {RfEventKind::Read, 2, RfSource{at[3], 1}},
                            {RfEventKind::Fence, 0, {}},
                            {RfEventKind::Write, 1, {}}};
        x.threads[at[1]] = {{RfEventKind::Write, 0, {}}};
        x.threads[at[2]] = {{RfEventKind::Read, 1, RfSource{at[0], 3}},
                            {RfEventKind::Read, 0, RfSource{at[1], 0}}};
        x.threads[at[3]] = {{RfEventKind::Read, 0, RfSource{at[1], 0}},
                            {RfEventKind::Write, 2, {}}};
        const auto w = reach::verifyReadsFrom(x, MemoryModel::PSO);
        ASSERT_TRUE(w.has_value()) << show(x);
        EXPECT_EQ(InstanceSim(x).check(*w), "") << show(x);
        ++orders;
    } while (std::next_permutation(order.begin(), order.end()));
    EXPECT_EQ(orders, 24U);
}

} // namespace
} // namespace tsoreach
