// The stop condition (lang/stop.hpp): its reasons name the limit, and every
// static pass that can take seconds polls it, so that --timeout and
// --max-memory hold in every phase. A stopped robustness check is never
// `robust`.

#include "limit_programs.hpp"
#include "test_util.hpp"
#include "tsoreach/instrument/attack.hpp"
#include "tsoreach/instrument/unroll.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lang/stop.hpp"
#include "tsoreach/lang/value_sets.hpp"
#include "tsoreach/lazy/lazy_engine.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/robustness/fence_synthesis.hpp"
#include "tsoreach/robustness/hitting_set.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace tsoreach {
namespace {

// A stop condition whose deadline has passed.
StopCondition expired() {
    StopCondition stop;
    stop.setTimeout(0.001);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return stop;
}

// Two threads of `n` store-load pairs each on cells 0..3, in a loop: more
// transitions than the parser reads between two polls, and attacks that
// the other thread can close.
std::string storeLoadProgram(int n) {
    std::string out;
    for (int t = 0; t < 2; ++t) {
        out += "thread t" + std::to_string(t) + "\ninitial s0\n";
        for (int i = 0; i < n; ++i) {
            const std::string next = "s" + std::to_string(i + 1 < n ? i + 1 : 0);
            const std::string mid = "m" + std::to_string(i);
            out += "transition s" + std::to_string(i) + " " + mid + " write 1 " +
                   std::to_string((i + t) % 4) + "\n";
            out += "transition " + mid + " " + next + " read r " + std::to_string((i + t + 1) % 4) +
                   "\n";
        }
        out += "end\n";
    }
    return out;
}

TEST(Stop, ReasonsNameTheLimit) {
    StopCondition none;
    EXPECT_FALSE(StopPoll(none).reason());
    EXPECT_EQ(StopPoll(expired()).reason(), "timeout after 0.001 s (--timeout)");

    StopCondition memory;
    memory.setMemoryLimitMb(1); // below any process's resident size
    EXPECT_EQ(StopPoll(memory).reason(), "memory limit of 1 MB reached (--max-memory)");
    memory.setMemoryLimitMb(1'000'000);
    EXPECT_FALSE(StopPoll(memory).reason());

    std::atomic<bool> flag{false};
    const StopCondition flagged = none.orWhen(flag);
    EXPECT_FALSE(StopPoll(flagged).reason());
    flag = true;
    EXPECT_EQ(StopPoll(flagged).reason(), "cancelled");
    EXPECT_FALSE(StopPoll(none).reason()) << "orWhen copies";
    // A limit is named before "cancelled": it is what the user needs to hear.
    EXPECT_EQ(StopPoll(expired().orWhen(flag)).reason(), "timeout after 0.001 s (--timeout)");

    StopCondition full;
    std::atomic<bool> more[StopCondition::kMaxFlags + 1];
    for (std::size_t i = 0; i < StopCondition::kMaxFlags; ++i) {
        full = full.orWhen(more[i]);
    }
    EXPECT_THROW((void)full.orWhen(more[StopCondition::kMaxFlags]), std::logic_error);
}

// Each pass throws Stopped when its condition holds, and gives its result
// when it does not.
TEST(Stop, EveryLongStaticPassPolls) {
    const std::string text = storeLoadProgram(200);
    const Program p = test::parse(text);
    const AddressSets sets = accessedAddresses(p);
    const std::vector<instrument::Attack> attacks = instrument::candidateAttacks(p);
    ASSERT_FALSE(attacks.empty());
    const std::vector<std::vector<std::size_t>> hitting = {{0, 1}, {1, 2}, {2, 0}};
    const std::vector<std::uint64_t> cost = {1, 1, 1};

    std::atomic<bool> flag{true};
    for (const StopCondition& stop : {StopCondition().orWhen(flag), expired()}) {
        EXPECT_THROW(accessedAddresses(p, kDefaultValueSetLimit, stop), Stopped);
        EXPECT_THROW(instrument::candidateAttacks(p, stop), Stopped);
        EXPECT_THROW(instrument::attackProgram(p, attacks[0], sets, stop), Stopped);
        EXPECT_THROW(parseProgram(text, "generated", stop), Stopped);
        EXPECT_THROW(instrument::unrollLoops(p, 2, stop), Stopped);
        EXPECT_THROW(robustness::minimumHittingSet(hitting, cost, 1000, stop), Stopped);
    }
    flag = false;
    const StopCondition open = StopCondition().orWhen(flag);
    EXPECT_EQ(accessedAddresses(p, kDefaultValueSetLimit, open).all, sets.all);
    EXPECT_EQ(instrument::candidateAttacks(p, open).size(), attacks.size());
    EXPECT_EQ(printProgram(instrument::attackProgram(p, attacks[0], sets, open).program),
              printProgram(instrument::attackProgram(p, attacks[0], sets).program));
    EXPECT_EQ(parseProgram(text, "generated", open).transitions.size(), p.transitions.size());
    EXPECT_NO_THROW(instrument::unrollLoops(p, 2, open));
    EXPECT_EQ(robustness::minimumHittingSet(hitting, cost, 1000, open).cost, 2U);
}

// An oracle whose attacks were stopped, or never started, has no proof:
// unknown with the reason, never robust (this program is robust).
TEST(Stop, AStoppedRobustnessCheckIsUnknown) {
    const Program p = test::parse(R"(thread t0 initial a
transition a b write 1 0
transition b c mfence
transition c d read r 1
end
thread t1 initial a
transition a b write 1 1
transition b c mfence
transition c d read r 0
end)");
    reach::Options o;
    ASSERT_EQ(robustness::checkTsoRobustness(p, o, robustness::WitnessScope::First).verdict,
              robustness::RobustVerdict::Robust);
    std::atomic<bool> flag{true};
    for (const StopCondition& stop : {o.stop.orWhen(flag), expired()}) {
        o.stop = stop;
        for (unsigned jobs : {1U, 2U}) {
            const robustness::RobustnessResult r =
                robustness::checkTsoRobustness(p, o, robustness::WitnessScope::First, jobs);
            EXPECT_EQ(r.verdict, robustness::RobustVerdict::Unknown);
            EXPECT_FALSE(r.reason.empty());
        }
        robustness::FenceOptions f;
        f.search = o;
        EXPECT_EQ(robustness::robustnessFences(p, f).outcome, robustness::FenceOutcome::Unknown);
    }
}

// The stop condition reaches the oracle's attack searches, however many:
// attacks cut off half-way make the oracle's answer unknown, within the
// deadline (arbiter 5: its oracle takes over 30 s, and answers robust).
TEST(Stop, ADeadlineBoundsTheLazyEnginesOracle) {
    const Program p = test::parse(test::arbiterProgram(5));
    const std::vector<std::string> spec = {"c1=cs,c2=cs"};
    const Goal goal = parseGoalSpecs(p, spec);
    for (bool probes : {false, true}) {
        for (unsigned jobs : {1U, 2U}) {
            reach::Options o;
            o.jobs = jobs;
            o.stop.setTimeout(0.5);
            o.explicitProbes = probes;
            lazy::LazyEngine engine(instrument::ExtensionVariant::Terminating);
            const auto start = std::chrono::steady_clock::now();
            const reach::Result r = reach::runChecked(engine, p, goal, o);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            EXPECT_LT(seconds, 3.0);
            if (probes) { // a probe may decide it in time (arbiter 5 is safe)
                EXPECT_NE(r.verdict, reach::Verdict::Reachable);
                continue;
            }
            EXPECT_EQ(r.verdict, reach::Verdict::Unknown);
            EXPECT_EQ(r.reason, "robustness oracle: timeout after 0.5 s (--timeout)");
        }
    }
}

} // namespace
} // namespace tsoreach
