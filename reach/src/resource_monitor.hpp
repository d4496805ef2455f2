#pragma once
// Watches the search limits: wall-clock time and resident memory. Checking
// the clock and /proc costs more than a search step, so the engines ask only
// every few thousand steps.

#include "tsoreach/reach/options.hpp"

#include <chrono>
#include <optional>
#include <string>

namespace tsoreach::reach {

// Current resident set size of this process in MB (0 if unknown).
double currentRssMb();
// Peak resident set size of this process in MB.
double peakRssMb();

class ResourceMonitor {
  public:
    explicit ResourceMonitor(const Options& options);

    // The reason to stop, if a time or memory limit is exceeded.
    std::optional<std::string> exceeded() const;
    [[nodiscard]] double elapsedSeconds() const;

  private:
    std::chrono::steady_clock::time_point start_;
    Options options_;
};

} // namespace tsoreach::reach
