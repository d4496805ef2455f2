// Differential test: random programs through every registered engine of every
// model, against the brute-force explorer of brute_force.hpp. Engines join as
// soon as they are registered for a model. A failure prints the seed and the
// program text; `test::randomProgram(seed)` regenerates it.

#include "random_program.hpp"
#include "support/brute_force.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/reach/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <span>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::Verdict;
using test::BruteModel;
using test::BruteVerdict;

constexpr std::uint64_t kSeeds = 1000;
// Stop after this many failing seeds: one bug should not print hundreds of programs.
constexpr int kMaxFailingSeeds = 5;
// The brute force lets a thread buffer max(4, its write transitions) <= 6
// stores. An engine allowed at least as many explores at least the same
// states: where the brute force is definite, the engine must agree exactly,
// shortest trace and state count included.
constexpr std::size_t kEngineBufferBound = 6;
constexpr MemoryModel kModels[] = {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO};

// Search order with (--por, --live): every reduction alone and together.
using Configuration = std::pair<reach::SearchOrder, std::pair<bool, bool>>;
constexpr Configuration kConfigurations[] = {
    {reach::SearchOrder::Dfs, {false, false}}, {reach::SearchOrder::Bfs, {false, false}},
    {reach::SearchOrder::Dfs, {true, false}},  {reach::SearchOrder::Dfs, {false, true}},
    {reach::SearchOrder::Dfs, {true, true}},   {reach::SearchOrder::Bfs, {true, true}},
};

BruteModel bruteModel(MemoryModel m) {
    switch (m) {
    case MemoryModel::SC:
        return BruteModel::SC;
    case MemoryModel::TSO:
        return BruteModel::TSO;
    case MemoryModel::PSO:
        break;
    }
    return BruteModel::PSO;
}

Verdict engineVerdict(BruteVerdict v) {
    switch (v) {
    case BruteVerdict::Reachable:
        return Verdict::Reachable;
    case BruteVerdict::Unreachable:
        return Verdict::Unreachable;
    case BruteVerdict::Unknown:
        break;
    }
    return Verdict::Unknown;
}

test::BruteResult runBrute(const Program& p, const Goal& g, MemoryModel m) {
    test::BruteOptions o;
    o.model = bruteModel(m);
    return test::bruteForce(p, g, o);
}

std::string reproduce(std::uint64_t seed, const std::string& text) {
    return "\nseed " + std::to_string(seed) + " (test::randomProgram(" + std::to_string(seed) +
           ")):\n" + text;
}

struct Tally {
    int compared = 0;      // programs whose brute-force verdict was definite
    int skipped = 0;       // brute force said unknown
    int engineUnknown = 0; // TSO/PSO engine runs that said unknown (a bounded engine may)
    int runs = 0;          // engine runs compared
    int porReduced = 0;    // complete --por on runs that stored fewer states
    int liveReduced = 0;   // complete --live on (only) runs that stored fewer states
};

// A generated program with its brute-force verdicts, computed once per model
// and shared by the tests of this file.
struct Sample {
    std::uint64_t seed;
    std::string text;
    Program program;
    Goal goal;
    std::map<MemoryModel, test::BruteResult> results;

    const test::BruteResult& bruteForce(MemoryModel m) {
        auto it = results.find(m);
        if (it == results.end()) {
            it = results.emplace(m, runBrute(program, goal, m)).first;
        }
        return it->second;
    }
};

std::vector<Sample>& samples() {
    static std::vector<Sample> all = [] {
        std::vector<Sample> out;
        for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
            std::string text = test::randomProgram(seed);
            Program p = parseProgram(text, "seed" + std::to_string(seed));
            Goal g = *defaultGoal(p);
            out.push_back(Sample{seed, std::move(text), std::move(p), std::move(g), {}});
        }
        return out;
    }();
    return all;
}

TEST(RandomProgram, DeterministicAndParses) {
    EXPECT_EQ(test::randomProgram(7), test::randomProgram(7));
    std::set<std::string> distinct;
    for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
        const std::string text = test::randomProgram(seed);
        distinct.insert(text);
        Program p = parseProgram(text, "seed" + std::to_string(seed));
        EXPECT_TRUE(defaultGoal(p).has_value()) << reproduce(seed, text);
        EXPECT_GE(p.threads.size(), 1U);
        EXPECT_LE(p.threads.size(), 3U);
    }
    EXPECT_GE(distinct.size(), kSeeds * 9 / 10);
}

// The reference itself on programs whose answers are known by hand.
TEST(BruteForce, KnownAnswers) {
    const auto verdicts = [](const std::string& text) {
        Program p = test::parse(text);
        Goal g = *defaultGoal(p);
        std::vector<BruteVerdict> out;
        for (MemoryModel m : kModels) {
            out.push_back(runBrute(p, g, m).verdict);
        }
        return out;
    };
    using V = std::vector<BruteVerdict>;
    const BruteVerdict R = BruteVerdict::Reachable;
    const BruteVerdict U = BruteVerdict::Unreachable;
    // SB
    EXPECT_EQ(verdicts(R"(
thread t0 initial a final d
transition a b write 1 0 transition b c read r 1 transition c d check == r 0 end
thread t1 initial a final d
transition a b write 1 1 transition b c read r 0 transition c d check == r 0 end)"),
              (V{U, R, R}));
    // MP
    EXPECT_EQ(verdicts(R"(
thread w initial a transition a b write 1 0 transition b c write 1 1 end
thread r initial a final d
transition a b read y 1 transition b c read x 0 transition c d check && == y 1 == x 0 end)"),
              (V{U, U, R}));
    // Another thread's buffered store cannot be flushed inside a locked block.
    EXPECT_EQ(verdicts(R"(
thread w initial a final b transition a b write 1 0 end
thread r initial a final e
transition a b lock transition b c read x 0 transition c d read y 0
transition d e check != x y end)"),
              (V{U, U, U}));

    Program p = test::parse(R"(
thread a initial p final z transition p q noop transition q r noop end
thread b initial p final z transition p q noop transition q r noop end)");
    test::BruteResult r = runBrute(p, *defaultGoal(p), MemoryModel::SC);
    EXPECT_EQ(r.verdict, U);
    EXPECT_EQ(r.states, 9U);

    // A store loop exceeds any buffer bound: unknown, never unreachable.
    Program loop = test::parse("thread t initial a final z transition a a write 1 0 end");
    EXPECT_EQ(runBrute(loop, *defaultGoal(loop), MemoryModel::SC).verdict, U);
    EXPECT_EQ(runBrute(loop, *defaultGoal(loop), MemoryModel::TSO).verdict, BruteVerdict::Unknown);
    EXPECT_EQ(runBrute(loop, *defaultGoal(loop), MemoryModel::PSO).verdict, BruteVerdict::Unknown);

    Program shortest = test::parse(R"(
thread t initial s final g
transition s a noop transition a b noop transition b g noop transition s g write 1 0 end)");
    r = runBrute(shortest, *defaultGoal(shortest), MemoryModel::SC);
    EXPECT_EQ(r.distance, std::optional<std::size_t>(1));
}

TEST(Differential, EnginesAgreeWithBruteForce) {
    const auto start = std::chrono::steady_clock::now();
    std::map<MemoryModel, Tally> tally;
    int failingSeeds = 0;
    for (Sample& s : samples()) {
        if (failingSeeds >= kMaxFailingSeeds) {
            break;
        }
        const std::uint64_t seed = s.seed;
        const std::string& text = s.text;
        const Program& p = s.program;
        const Goal& goal = s.goal;
        const bool failedBefore = ::testing::Test::HasFailure();
        for (MemoryModel model : kModels) {
            const auto engines = engines::reachEnginesFor(model);
            if (engines.empty()) {
                continue;
            }
            Tally& t = tally[model];
            const test::BruteResult& bf = s.bruteForce(model);
            if (bf.verdict == BruteVerdict::Unknown) {
                ++t.skipped;
                continue;
            }
            ++t.compared;
            const Verdict expected = engineVerdict(bf.verdict);
            for (const engines::EngineEntry& info : engines) {
                if (info.unsupportedFor(p, model)) {
                    continue; // e.g. dpor on a cyclic program: unknown by design
                }
                // An engine that ignores the search options runs once.
                const std::span<const Configuration> configurations =
                    info.readsSearchOptions ? std::span(kConfigurations)
                                            : std::span(kConfigurations).first(1);
                for (const auto& [order, reductions] : configurations) {
                    const auto [por, live] = reductions;
                    const std::string where = "engine " + std::string(info.name) + " --model " +
                                              std::string(reach::name(model)) + " --search " +
                                              std::string(reach::name(order)) + " --por " +
                                              (por ? "on" : "off") + " --live " +
                                              (live ? "on" : "off") + " --merge-stores " +
                                              (por ? "on" : "off") + reproduce(seed, text);
                    auto engine = info.makeReach(model);
                    // Only the explicit engine explores the model's own
                    // state space (exact counts, BFS-shortest traces).
                    const bool explicitEngine = info.name == "explicit";
                    reach::Options o;
                    o.search = order;
                    o.partialOrder = por;
                    o.liveRegisters = live;
                    // Partial-order reduction is for SC, store merging for
                    // TSO/PSO: one switch for both here.
                    o.mergeStores = por;
                    o.stop.setTimeout(60); // a hang must not stall CI
                    o.bufferBound = kEngineBufferBound;
                    o.maxIterations = 8; // lazy on cyclic programs: may not converge
                    reach::Result r;
                    try {
                        r = reach::runChecked(*engine, p, goal, o);
                    } catch (const std::exception& e) {
                        ADD_FAILURE() << "threw: " << e.what() << "\n" << where;
                        continue;
                    }
                    ++t.runs;
                    if (r.verdict == Verdict::Unknown && model != MemoryModel::SC) {
                        ++t.engineUnknown;
                        continue;
                    }
                    EXPECT_EQ(reach::name(r.verdict), reach::name(expected)) << r.reason << "\n"
                                                                             << where;
                    if (r.verdict != expected) {
                        continue;
                    }
                    if (r.verdict == Verdict::Reachable) {
                        ASSERT_TRUE(r.trace.has_value()) << where;
                        EXPECT_EQ(r.trace->model, model) << where;
                        // Steps after goalStep only drain the buffers.
                        EXPECT_LE(r.trace->goalStep, r.trace->steps.size()) << where;
                        if (model == MemoryModel::SC) {
                            EXPECT_EQ(r.trace->goalStep, r.trace->steps.size()) << where;
                        }
                        if (order == reach::SearchOrder::Bfs && bf.distance && explicitEngine &&
                            !por && !live) {
                            EXPECT_EQ(r.trace->goalStep, *bf.distance)
                                << "BFS trace is not a shortest one\n"
                                << where;
                        }
                    }
                    // A complete search stores every reachable state once. For TSO
                    // and PSO both sides hit no buffer bound, so they agree too.
                    // Reductions only ever store fewer states, except store
                    // merging: its states need not be states of the full
                    // semantics (a merged store was never flushed).
                    const bool merged = por && model != MemoryModel::SC;
                    if (r.verdict == Verdict::Unreachable && explicitEngine && !merged) {
                        if (!por && !live) {
                            EXPECT_EQ(r.stats.states, bf.states) << "states stored\n" << where;
                        } else {
                            EXPECT_LE(r.stats.states, bf.states) << "states stored\n" << where;
                            if (r.stats.states < bf.states) {
                                (por ? t.porReduced : t.liveReduced) += live && por ? 0 : 1;
                            }
                        }
                    }
                }
            }
        }
        if (!failedBefore && ::testing::Test::HasFailure()) {
            ++failingSeeds;
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const auto& [model, t] : tally) {
        std::cout << "[ differential ] " << reach::name(model) << ": " << t.compared
                  << " programs compared (" << t.runs << " engine runs), " << t.skipped
                  << " skipped as brute-force unknown, " << t.engineUnknown << " engine unknowns, "
                  << t.porReduced << " complete runs reduced by --por alone, " << t.liveReduced
                  << " by --live alone\n";
        // Most random programs must be decided, or the test proves little.
        EXPECT_GE(t.compared, static_cast<int>(kSeeds) * 3 / 4) << reach::name(model);
        // The reductions must actually be exercised.
        EXPECT_GE(t.liveReduced, t.compared / 20) << reach::name(model);
        if (model == MemoryModel::SC) {
            EXPECT_GE(t.porReduced, t.compared / 20);
        }
    }
    std::cout << "[ differential ] " << kSeeds << " seeds in " << seconds << " s\n";
    EXPECT_FALSE(tally.empty()) << "no engine registered for any model";
}

TEST(Differential, BruteForceScWithinTsoWithinPso) {
    int compared = 0;
    int skipped = 0;
    int tsoOnly = 0; // unreachable under SC, reachable under TSO
    int psoOnly = 0; // unreachable under TSO, reachable under PSO
    for (Sample& s : samples()) {
        std::vector<BruteVerdict> v;
        for (MemoryModel m : kModels) {
            v.push_back(s.bruteForce(m).verdict);
        }
        if (std::find(v.begin(), v.end(), BruteVerdict::Unknown) != v.end()) {
            ++skipped;
        } else {
            ++compared;
        }
        // Reach_SC within Reach_TSO within Reach_PSO, wherever both sides are known.
        for (std::size_t i = 0; i < v.size(); ++i) {
            for (std::size_t j = i + 1; j < v.size(); ++j) {
                if (v[i] == BruteVerdict::Reachable && v[j] != BruteVerdict::Unknown) {
                    EXPECT_EQ(test::bruteName(v[j]), test::bruteName(BruteVerdict::Reachable))
                        << reach::name(kModels[i]) << " reachable but " << reach::name(kModels[j])
                        << " not" << reproduce(s.seed, s.text);
                }
            }
        }
        tsoOnly += v[0] == BruteVerdict::Unreachable && v[1] == BruteVerdict::Reachable ? 1 : 0;
        psoOnly += v[1] == BruteVerdict::Unreachable && v[2] == BruteVerdict::Reachable ? 1 : 0;
    }
    std::cout << "[ differential ] SC/TSO/PSO inclusion: " << compared
              << " programs with all three known, " << skipped << " with an unknown; " << tsoOnly
              << " reachable under TSO but not SC, " << psoOnly
              << " reachable under PSO but not TSO\n";
    EXPECT_GE(compared, static_cast<int>(kSeeds) / 2);
    // The generator must keep producing programs that tell the models apart.
    EXPECT_GE(tsoOnly, static_cast<int>(kSeeds) / 40);
    EXPECT_GE(psoOnly, static_cast<int>(kSeeds) / 200);
}

TEST(Differential, BruteForceAgreesWithExampleHeaders) {
    int compared = 0;
    int skipped = 0;
    for (const auto& f : test::filesUnder(TSOREACH_SOURCE_DIR "/examples", ".txt")) {
        auto expected = test::expectedVerdicts(f);
        if (expected.size() != 3) {
            continue; // examples_test reports a missing header
        }
        Program p = parseProgramFile(f.string());
        std::optional<Goal> goal = defaultGoal(p);
        ASSERT_TRUE(goal.has_value()) << f;
        for (MemoryModel m : kModels) {
            test::BruteResult r = runBrute(p, *goal, m);
            if (r.verdict == BruteVerdict::Unknown) {
                ++skipped;
                std::cout << "[ differential ] " << f.filename().string() << " " << reach::name(m)
                          << ": brute force unknown (" << r.reason << ")\n";
                continue;
            }
            ++compared;
            EXPECT_EQ(test::bruteName(r.verdict), std::string(reach::name(expected[m])))
                << f << " under " << reach::name(m);
        }
    }
    std::cout << "[ differential ] examples: " << compared << " (file, model) pairs compared, "
              << skipped << " unknown\n";
    EXPECT_GE(compared, 30);
}

// Initial values are part of every engine's semantics: acyclic programs
// whose cells 0..2 start at 0..2 (a declaration in front of the same
// random program), decided by every engine under every model as by the
// brute force; the initial values change many of the verdicts.
TEST(Differential, AcyclicProgramsFromDeclaredMemory) {
    constexpr std::uint64_t kSeedsWithMemory = 150;
    int failing = 0;
    int changed = 0;
    for (std::uint64_t seed = 0; seed < kSeedsWithMemory && failing < kMaxFailingSeeds; ++seed) {
        const std::string text = test::randomAcyclicProgramWithMemory(seed);
        const Program p = parseProgram(text, "memory" + std::to_string(seed));
        const Program zeroed = parseProgram(test::randomAcyclicProgram(seed), "zeroed");
        const Goal g = *defaultGoal(p);
        bool ok = true;
        bool differs = false;
        for (MemoryModel m : kModels) {
            const test::BruteResult brute = runBrute(p, g, m);
            ASSERT_NE(brute.verdict, BruteVerdict::Unknown) << reproduce(seed, text);
            differs = differs || brute.verdict != runBrute(zeroed, *defaultGoal(zeroed), m).verdict;
            for (const engines::EngineEntry& info : engines::reachEnginesFor(m)) {
                if (info.unsupportedFor(p, m)) {
                    continue;
                }
                auto engine = info.makeReach(m);
                const reach::Result r = reach::runChecked(*engine, p, g, {});
                if (r.verdict != engineVerdict(brute.verdict)) {
                    ok = false;
                    ADD_FAILURE() << info.name << " under " << reach::name(m) << " says "
                                  << reach::name(r.verdict) << " " << r.reason << ", brute force "
                                  << reach::name(engineVerdict(brute.verdict))
                                  << "\n(test::randomAcyclicProgramWithMemory)"
                                  << reproduce(seed, text);
                }
            }
        }
        failing += ok ? 0 : 1;
        changed += differs ? 1 : 0;
    }
    EXPECT_GE(changed, static_cast<int>(kSeedsWithMemory) / 10);
    std::cout << "[ differential ] declared memory: " << changed << " of " << kSeedsWithMemory
              << " programs change a verdict with their initial values\n";
}

// Acyclic programs have bounded buffers, so every answer is a proof: no
// engine and no brute-force run may say unknown, the models must nest, and
// every engine must agree with the brute force under every model.
TEST(Differential, AcyclicProgramsAreDecidedAndNest) {
    // TSOREACH_ACYCLIC_FIRST / TSOREACH_ACYCLIC_SEEDS run a longer campaign
    // (not in ctest): e.g. 5000 seeds from 300.
    auto fromEnv = [](const char* name, std::uint64_t fallback) {
        const char* v = std::getenv(name);
        return v != nullptr ? std::strtoull(v, nullptr, 10) : fallback;
    };
    const std::uint64_t first = fromEnv("TSOREACH_ACYCLIC_FIRST", 0);
    const std::uint64_t kAcyclicSeeds = fromEnv("TSOREACH_ACYCLIC_SEEDS", 300);
    int failing = 0;
    int tsoOnly = 0;
    int psoOnly = 0;
    for (std::uint64_t seed = first; seed < first + kAcyclicSeeds && failing < kMaxFailingSeeds;
         ++seed) {
        const std::string text = test::randomAcyclicProgram(seed);
        const Program p = parseProgram(text, "acyclic" + std::to_string(seed));
        const Goal g = *defaultGoal(p);
        std::map<MemoryModel, Verdict> verdicts;
        bool ok = true;
        for (MemoryModel m : kModels) {
            const test::BruteResult brute = runBrute(p, g, m);
            EXPECT_NE(brute.verdict, BruteVerdict::Unknown)
                << reach::name(m) << reproduce(seed, text);
            verdicts[m] = engineVerdict(brute.verdict);
            for (const engines::EngineEntry& info : engines::reachEnginesFor(m)) {
                if (info.unsupportedFor(p, m)) {
                    continue; // e.g. dpor on a program with locks
                }
                auto engine = info.makeReach(m);
                reach::Result r = reach::runChecked(*engine, p, g, {}); // default bound
                if (r.verdict != verdicts[m]) {
                    ok = false;
                    ADD_FAILURE() << info.name << " under " << reach::name(m) << " says "
                                  << reach::name(r.verdict) << " " << r.reason << ", brute force "
                                  << reach::name(verdicts[m]) << reproduce(seed, text);
                }
            }
        }
        if (verdicts[MemoryModel::SC] == Verdict::Reachable) {
            EXPECT_EQ(verdicts[MemoryModel::TSO], Verdict::Reachable) << reproduce(seed, text);
        }
        if (verdicts[MemoryModel::TSO] == Verdict::Reachable) {
            EXPECT_EQ(verdicts[MemoryModel::PSO], Verdict::Reachable) << reproduce(seed, text);
        }
        tsoOnly += verdicts[MemoryModel::SC] != verdicts[MemoryModel::TSO] ? 1 : 0;
        psoOnly += verdicts[MemoryModel::TSO] != verdicts[MemoryModel::PSO] ? 1 : 0;
        failing += ok ? 0 : 1;
    }
    // The generator must keep producing programs that tell the models apart.
    EXPECT_GE(tsoOnly, static_cast<int>(kAcyclicSeeds) / 30);
    EXPECT_GE(psoOnly, static_cast<int>(kAcyclicSeeds) / 150);
    std::cout << "[ differential ] acyclic: " << tsoOnly << " TSO-only and " << psoOnly
              << " PSO-only reachable goals in " << kAcyclicSeeds << " programs\n";
}

} // namespace
} // namespace tsoreach
