#include "tsoreach/reach/progress_ticker.hpp"

#include "tsoreach/reach/resource_monitor.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>

namespace tsoreach::reach {

ProgressTicker::ProgressTicker(const Options& options,
                               std::function<std::string(double seconds)> line) {
    if (!options.progress) {
        return;
    }
    thread_ = std::jthread([sink = options.progress, line = std::move(line)](std::stop_token stop) {
        const auto start = std::chrono::steady_clock::now();
        std::mutex m;
        std::condition_variable_any wake;
        std::unique_lock<std::mutex> lock(m);
        for (auto next = start + std::chrono::seconds(1);; next += std::chrono::seconds(1)) {
            // Returns early, with true, when the ticker is destroyed.
            if (wake.wait_until(lock, stop, next, [] { return false; }) || stop.stop_requested()) {
                return;
            }
            const std::string text = line(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
            if (!text.empty()) {
                sink(text);
            }
        }
    });
}

std::string progressCounts(std::uint64_t states, double seconds) {
    char text[128];
    std::snprintf(text, sizeof text, "%llu states (%.0f/s), %.0f MB",
                  static_cast<unsigned long long>(states),
                  seconds > 0 ? static_cast<double>(states) / seconds : 0.0, currentRssMb());
    return text;
}

} // namespace tsoreach::reach
