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

struct Stats {
    std::uint64_t states = 0;      // distinct states stored
    std::uint64_t transitions = 0; // successor edges generated
    double timeSeconds = 0;
    double peakRssMb = 0; // peak resident set size of the process
};

// Peak resident set size of this process in MB.
double processPeakRssMb();

struct Result {
    Verdict verdict = Verdict::Unknown;
    std::string reason;         // Unknown only
    std::optional<Trace> trace; // Reachable only
    Stats stats;
};

} // namespace tsoreach::reach
