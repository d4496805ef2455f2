#include "tsoreach/reach/resource_monitor.hpp"

#include "tsoreach/reach/result.hpp"

#include <sys/resource.h>

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
      baselineMb_(options.stop.memoryLimitMb() != 0 ? currentRssMb() : 0) {}

double ResourceMonitor::elapsedSeconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::optional<std::string> ResourceMonitor::exceeded(std::size_t searchBytes) {
    return poll_.reason(baselineMb_ + static_cast<double>(searchBytes) / (1024.0 * 1024.0));
}

} // namespace tsoreach::reach
