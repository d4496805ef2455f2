#include "tsoreach/reach/resource_monitor.hpp"

#include "tsoreach/reach/result.hpp"

#include <sys/resource.h>

#include <cstdio>

namespace tsoreach::reach {

double currentRssMb() {
    return residentMb();
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
    : start_(std::chrono::steady_clock::now()), poll_(options.stop),
      baselineMb_(options.stop.memoryLimitMb() != 0 ? currentRssMb() : 0), sink_(options.progress),
      lastLine_(start_) {}

bool ResourceMonitor::progressDue() const {
    return sink_ && std::chrono::steady_clock::now() - lastLine_ >= std::chrono::seconds(1);
}

void ResourceMonitor::progress(const char* engine, std::uint64_t count, const char* unit,
                               const std::string& detail) {
    if (!sink_) {
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    lastLine_ = now;
    const double s = std::chrono::duration<double>(now - start_).count();
    char line[256];
    std::snprintf(line, sizeof line, "%s: %.1f s, %llu %s (%.0f/s)%s%s, %.0f MB", engine, s,
                  static_cast<unsigned long long>(count), unit,
                  s > 0 ? static_cast<double>(count) / s : 0.0, detail.empty() ? "" : ", ",
                  detail.c_str(), currentRssMb());
    sink_(line);
}

double ResourceMonitor::elapsedSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::optional<std::string> ResourceMonitor::exceeded(std::size_t searchBytes) {
    return poll_.reason(baselineMb_ + static_cast<double>(searchBytes) / (1024.0 * 1024.0));
}

} // namespace tsoreach::reach
