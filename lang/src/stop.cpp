#include "tsoreach/lang/stop.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <unistd.h>

namespace tsoreach {

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

double residentMb() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr) {
        return 0;
    }
    long pages = 0;
    long resident = 0;
    const int n = std::fscanf(f, "%ld %ld", &pages, &resident);
    std::fclose(f);
    if (n != 2) {
        return 0;
    }
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
           (1024.0 * 1024.0);
}

void StopCondition::setTimeout(double seconds) {
    timeoutSeconds_ = seconds > 0 ? seconds : 0;
    deadline_ = seconds > 0 ? StopClock::now() + std::chrono::duration_cast<StopClock::duration>(
                                                     std::chrono::duration<double>(seconds))
                            : StopClock::time_point{};
}

StopCondition StopCondition::orWhen(const std::atomic<bool>& flag) const {
    if (flagCount_ == kMaxFlags) {
        throw std::logic_error("StopCondition: more than " + std::to_string(kMaxFlags) +
                               " cancel flags");
    }
    StopCondition out = *this;
    out.flags_[out.flagCount_++] = &flag;
    return out;
}

bool StopCondition::cancelled() const {
    for (std::size_t i = 0; i < flagCount_; ++i) {
        if (flags_[i]->load(std::memory_order_relaxed)) {
            return true;
        }
    }
    return false;
}

std::optional<std::string> StopCondition::limitReason() const {
    if (interruptRequested()) {
        return std::string("interrupted (SIGINT)");
    }
    if (timeoutSeconds_ > 0 && StopClock::now() >= deadline_) {
        std::ostringstream os;
        os << "timeout after " << timeoutSeconds_ << " s (--timeout)";
        return os.str();
    }
    return std::nullopt;
}

std::optional<std::string> StopCondition::memoryReason(double usedMb) const {
    if (memoryMb_ == 0 || usedMb < static_cast<double>(memoryMb_)) {
        return std::nullopt;
    }
    return "memory limit of " + std::to_string(memoryMb_) + " MB reached (--max-memory)";
}

// A limit is named before "cancelled": when both hold, the limit is what
// the user needs to hear.
std::optional<std::string> StopPoll::reason(double estimateMb) {
    if (std::optional<std::string> why = stop_.limitReason()) {
        return why;
    }
    if (stop_.memoryLimitMb() != 0) {
        constexpr auto readEvery = std::chrono::milliseconds(20);
        const auto now = StopClock::now();
        if (now - lastRead_ >= readEvery) {
            lastRead_ = now;
            lastMb_ = residentMb();
        }
        if (std::optional<std::string> why = stop_.memoryReason(std::max(estimateMb, lastMb_))) {
            return why;
        }
    }
    if (stop_.cancelled()) {
        return std::string("cancelled");
    }
    return std::nullopt;
}

void StopPoll::throwIfStopped() {
    if (std::optional<std::string> why = reason()) {
        throw Stopped(*why);
    }
}

} // namespace tsoreach
