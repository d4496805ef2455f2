#include "tsoreach/reach/progress_ticker.hpp"

#include "tsoreach/reach/resource_monitor.hpp"

#include <condition_variable>
#include <cstdio>

namespace tsoreach::reach {

ProgressTicker::ProgressTicker(const Options& options,
                               std::function<std::string(double seconds)> line) {
    if (!options.progress) {
        return;
    }
    inner_ = std::make_shared<Inner>();
    thread_ = std::jthread(
        [sink = options.progress, line = std::move(line), inner = inner_](std::stop_token stop) {
            using Clock = std::chrono::steady_clock;
            const auto start = Clock::now();
            std::mutex m;
            std::condition_variable_any wake;
            std::unique_lock<std::mutex> held(m);
            for (auto next = start + std::chrono::seconds(1);; next += std::chrono::seconds(1)) {
                // Sleeps until `next`; the ticker's destruction ends the wait.
                wake.wait_until(held, stop, next, [] { return false; });
                if (stop.stop_requested()) {
                    return;
                }
                const auto now = Clock::now();
                std::string text = line(std::chrono::duration<double>(now - start).count());
                const std::lock_guard<std::mutex> guard(inner->lock);
                if (!inner->line.empty() && now - inner->at < std::chrono::milliseconds(1500)) {
                    text += "; now " + inner->line;
                }
                sink(text);
            }
        });
}

ProgressTicker::Sink ProgressTicker::innerSink() const {
    if (!inner_) {
        return nullptr;
    }
    return [inner = inner_](const std::string& line) {
        const std::lock_guard<std::mutex> guard(inner->lock);
        inner->line = line;
        inner->at = std::chrono::steady_clock::now();
    };
}

std::string progressCounts(std::uint64_t states, double seconds) {
    char text[128];
    std::snprintf(text, sizeof text, "%llu states (%.0f/s), %.0f MB",
                  static_cast<unsigned long long>(states),
                  seconds > 0 ? static_cast<double>(states) / seconds : 0.0, currentRssMb());
    return text;
}

std::string progressSeconds(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", seconds);
    return text;
}

} // namespace tsoreach::reach
