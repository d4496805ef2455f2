#pragma once
// What an engine returns: a verdict, its evidence and statistics.

#include "tsoreach/reach/trace.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tsoreach::reach {

enum class Verdict {
    Reachable,   // with a trace
    Unreachable, // a proof: the search was complete
    Unknown,     // a limit stopped the search; `reason` says which
};

std::string_view name(Verdict v); // "reachable", "unreachable", "unknown"

// Engines that iterate SC checks (lazy TSO) report their loop.
struct LoopStats {
    std::uint64_t iterations = 0;    // rounds of the loop
    std::uint64_t scQueries = 0;     // SC checks of the goal
    std::uint64_t oracleQueries = 0; // SC checks made by the robustness oracle
    std::uint64_t extensions = 0;    // extended programs built
    std::uint64_t largestStates = 0; // control states of the largest program checked
    std::uint64_t largestTransitions = 0;
};

struct Stats {
    std::uint64_t states = 0;      // distinct states stored (all SC checks, for lazy)
    std::uint64_t transitions = 0; // successor edges generated
    double timeSeconds = 0;
    double peakRssMb = 0; // peak resident set size of the process
    // Bytes the search held per stored state (visited set, parent links,
    // DFS stack; the largest search for lazy), 0 when not measured.
    double bytesPerState = 0;
    std::optional<LoopStats> loop;
};

// Peak resident set size of this process in MB.
double processPeakRssMb();

struct Result {
    Verdict verdict = Verdict::Unknown;
    std::string reason; // Unknown only
    // Unknown only: a buffer bound blocked a store (explicit engine), so a
    // search without the bound, or another method, may still decide.
    bool boundHit = false;
    std::optional<Trace> trace; // Reachable only
    Stats stats;
};

} // namespace tsoreach::reach
