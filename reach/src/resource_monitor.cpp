#include "resource_monitor.hpp"

#include "tsoreach/reach/interrupt.hpp"
#include "tsoreach/reach/result.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace tsoreach::reach {

namespace {
std::atomic<bool> interruptFlag{false};
static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler sets it");
} // namespace

void requestInterrupt() noexcept {
    interruptFlag.store(true, std::memory_order_relaxed);
}

bool interruptRequested() noexcept {
    return interruptFlag.load(std::memory_order_relaxed);
}

double currentRssMb() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr) {
        return 0;
    }
    long pages = 0;
    long resident = 0;
    int n = std::fscanf(f, "%ld %ld", &pages, &resident);
    std::fclose(f);
    if (n != 2) {
        return 0;
    }
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
           (1024.0 * 1024.0);
}

double peakRssMb() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) / 1024.0; // ru_maxrss is in KB on Linux
}

double processPeakRssMb() {
    return peakRssMb();
}

ResourceMonitor::ResourceMonitor(const Options& options)
    : start_(std::chrono::steady_clock::now()), options_(options), baselineMb_(currentRssMb()) {}

double ResourceMonitor::elapsedSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::optional<std::string> ResourceMonitor::exceeded(std::size_t searchBytes) {
    if (interruptRequested()) {
        return std::string("interrupted (SIGINT)");
    }
    const bool pastDeadline = options_.deadline != std::chrono::steady_clock::time_point{} &&
                              std::chrono::steady_clock::now() >= options_.deadline;
    if (pastDeadline ||
        (options_.timeoutSeconds > 0 && elapsedSeconds() >= options_.timeoutSeconds)) {
        std::ostringstream os;
        os << "timeout after "
           << (options_.reportedTimeoutSeconds > 0 ? options_.reportedTimeoutSeconds
                                                   : options_.timeoutSeconds)
           << " s (--timeout)";
        return os.str();
    }
    if (options_.maxMemoryMb > 0) {
        // /proc costs microseconds: read it at most every 20 ms, whatever
        // the rate of calls (engines whose steps allocate much, such as dpor
        // on thousands of threads, call rarely; the explicit engine often).
        constexpr auto readRssEvery = std::chrono::milliseconds(20);
        double used = baselineMb_ + static_cast<double>(searchBytes) / (1024.0 * 1024.0);
        const auto now = std::chrono::steady_clock::now();
        if (now - lastRssRead_ >= readRssEvery) {
            lastRssRead_ = now;
            lastRssMb_ = currentRssMb();
        }
        used = std::max(used, lastRssMb_);
        if (used >= static_cast<double>(options_.maxMemoryMb)) {
            std::ostringstream os;
            os << "memory limit of " << options_.maxMemoryMb << " MB reached (--max-memory)";
            return os.str();
        }
    }
    return std::nullopt;
}

} // namespace tsoreach::reach
