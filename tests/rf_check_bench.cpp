// The PSO reads-from check, VerifyPSO with fence maps against the
// per-buffer search it replaced, on random instances (random PSO
// executions, half of them with one read given another source). Prints a
// Markdown table row per configuration; exits 1 if the two ever disagree
// or a witness does not replay. Run by bench/rf_check.sh.
//   rf_check_bench SEED INSTANCES THREADS EVENTS ADDRS FENCE_PERCENT WRITE_PERCENT

#include "reads_from_gen.hpp"
#include "tsoreach/reach/reads_from_detail.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace tsoreach;

namespace {

// States after which the per-buffer search gives up on an instance.
constexpr std::uint64_t kBudget = 200000;

struct Side {
    double seconds = 0, slowest = 0;
    std::uint64_t states = 0;
};

double since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void account(Side& side, double took, const reach::RfCheckStats& stats) {
    side.seconds += took;
    side.slowest = std::max(side.slowest, took);
    side.states += stats.searchStates;
}

void replay(const reach::RfInstance& x, const std::optional<std::vector<reach::RfWitnessStep>>& w) {
    if (w && !test::InstanceSim(x).check(*w).empty()) {
        std::fprintf(stderr, "a witness does not replay\n");
        std::exit(1);
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 8) {
        std::fprintf(stderr,
                     "usage: %s SEED INSTANCES THREADS EVENTS ADDRS FENCE_PERCENT WRITE_PERCENT\n",
                     argv[0]);
        return 2;
    }
    std::mt19937_64 rng(std::stoull(argv[1]));
    const std::size_t count = std::stoul(argv[2]);
    test::GenOptions o;
    o.minThreads = o.maxThreads = std::stoul(argv[3]);
    o.maxEvents = std::stoul(argv[4]);
    o.maxAddrs = std::stoul(argv[5]);
    o.fencePercent = static_cast<unsigned>(std::stoul(argv[6]));
    o.writePercent = static_cast<unsigned>(std::stoul(argv[7]));
    const bool verbose = std::getenv("RF_CHECK_BENCH_VERBOSE") != nullptr;
    // Totals over the instances both decide; the fence maps' alone over
    // those the per-buffer search gave up on.
    Side fresh, old, freshAlone;
    std::size_t realizable = 0, closure = 0, gaveUp = 0;
    for (std::size_t k = 0; k < count; ++k) {
        const reach::RfInstance x = test::randomInstance(rng, o, static_cast<unsigned>(k % 2));
        reach::RfCheckStats fs, os;
        auto start = std::chrono::steady_clock::now();
        const auto a = reach::verifyReadsFrom(x, reach::MemoryModel::PSO, &fs);
        const double freshTook = since(start);
        replay(x, a);
        bool stopped = false;
        start = std::chrono::steady_clock::now();
        const auto b = reach::detail::verifyReadsFromPsoPerBuffer(x, &os, kBudget, &stopped);
        const double oldTook = since(start);
        realizable += a ? 1 : 0;
        closure += fs.closureRejections;
        if (verbose) {
            std::fprintf(stderr,
                         "instance %zu: realizable %d, per-buffer %.4f s%s, fence maps %.4f s\n", k,
                         a ? 1 : 0, oldTook, stopped ? " (gave up)" : "", freshTook);
        }
        if (stopped) {
            ++gaveUp;
            account(freshAlone, freshTook, fs);
            continue;
        }
        replay(x, b);
        if (a.has_value() != b.has_value()) {
            std::fprintf(stderr, "disagreement on instance %zu\n", k);
            return 1;
        }
        account(fresh, freshTook, fs);
        account(old, oldTook, os);
    }
    // | threads | events/thread | addresses | fences/writes % | instances |
    // realizable | rejected by closure | by search | both decide: per-buffer
    // states, s, slowest s; fence maps states, s, slowest s | per-buffer
    // gave up: count, fence maps s, slowest s |
    std::printf(
        "| %zu | <=%zu | <=%zu | %u/%u | %zu | %zu | %zu | %zu | %llu | %.3f | %.4f | %llu | "
        "%.3f | %.4f | %zu | %.3f | %.4f |\n",
        o.maxThreads, o.maxEvents, o.maxAddrs, o.fencePercent, o.writePercent, count, realizable,
        closure, count - realizable - closure, static_cast<unsigned long long>(old.states),
        old.seconds, old.slowest, static_cast<unsigned long long>(fresh.states), fresh.seconds,
        fresh.slowest, gaveUp, freshAlone.seconds, freshAlone.slowest);
    return 0;
}
