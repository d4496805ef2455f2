#pragma once
// Watches a search's stop condition (Options::stop: deadline, memory,
// interrupt, cancel flags). Checking the clock and /proc costs more than a
// search step, so the engines ask only every few hundred steps.

#include "tsoreach/reach/options.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
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

    // The reason to stop, if any. Memory is the resident size at the start
    // plus `searchBytes`, what the search holds now (cheap, checked every
    // call), and every 20 ms the real resident size.
    std::optional<std::string> exceeded(std::size_t searchBytes);
    // With --progress (Options::progress), whether a line is due: a second
    // has passed since the last one. The engines ask where they check their
    // limits, and build the line only then.
    [[nodiscard]] bool progressDue() const;
    // Prints "ENGINE: 3.0 s, 1234567 UNIT (410000/s), DETAIL, 350 MB";
    // `detail` may be empty ("depth 57", "2 threads").
    void progress(const char* engine, std::uint64_t count, const char* unit,
                  const std::string& detail = "");
    [[nodiscard]] double elapsedSeconds() const;

  private:
    std::chrono::steady_clock::time_point start_;
    StopPoll poll_;
    double baselineMb_ = 0;
    std::function<void(const std::string&)> sink_; // Options::progress
    std::chrono::steady_clock::time_point lastLine_;
};

} // namespace tsoreach::reach
