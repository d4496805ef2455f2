#pragma once
// Progress for a task made of many searches (robustness's attacks, fence
// synthesis's rounds): each search may end within a second, so no search's
// own ResourceMonitor ever prints a line. A ticker prints one a second from
// a thread of its own while it lives, asking `line` what to say; `line`
// runs on that thread and reads what it needs from atomics. The task's
// searches report into the ticker (innerSink) instead of printing: their
// newest line, if it is recent, ends the ticker's next line, so a long
// search shows its live counts and nothing else prints meanwhile.

#include "tsoreach/reach/options.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace tsoreach::reach {

class ProgressTicker {
  public:
    using Sink = std::function<void(const std::string&)>;

    // Starts nothing without Options::progress (--progress not given).
    // `line` gets the seconds since the ticker started.
    ProgressTicker(const Options& options, std::function<std::string(double seconds)> line);
    ProgressTicker(const ProgressTicker&) = delete;
    ProgressTicker& operator=(const ProgressTicker&) = delete;
    ~ProgressTicker() = default; // the jthread (declared last) stops and joins first

    // What the task's searches get as Options::progress: their lines wait
    // for the ticker's next line. Empty (no progress) without --progress.
    [[nodiscard]] Sink innerSink() const;

  private:
    struct Inner {
        std::mutex lock;
        std::string line;
        std::chrono::steady_clock::time_point at;
    };
    std::shared_ptr<Inner> inner_;
    std::jthread thread_;
};

// "12345 states (4100/s), 35 MB": the counts every progress line ends with.
std::string progressCounts(std::uint64_t states, double seconds);
// "2.0 s", as the engines' lines write their time.
std::string progressSeconds(double seconds);

} // namespace tsoreach::reach
