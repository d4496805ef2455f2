#pragma once
// Progress for a task made of many searches (robustness's attacks, fence
// synthesis's rounds): each search may end within a second, so no search's
// own ResourceMonitor ever prints a line. A ticker prints one a second from
// a thread of its own while it lives, asking `line` what to say; `line`
// runs on that thread and reads what it needs from atomics.

#include "tsoreach/reach/options.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <thread>

namespace tsoreach::reach {

class ProgressTicker {
  public:
    // Starts nothing without Options::progress (--progress not given).
    // `line` gets the seconds since the ticker started; an empty line is
    // not printed (someone else spoke within the second).
    ProgressTicker(const Options& options, std::function<std::string(double seconds)> line);
    ProgressTicker(const ProgressTicker&) = delete;
    ProgressTicker& operator=(const ProgressTicker&) = delete;
    ~ProgressTicker() = default; // the jthread asks its loop to stop, and joins it

  private:
    std::jthread thread_;
};

// "12345 states (4100/s), 35 MB": the counts every progress line ends with.
std::string progressCounts(std::uint64_t states, double seconds);

} // namespace tsoreach::reach
