#pragma once
// When a run must end before its answer: one stop condition per command
// (docs/architecture.md, "Limits"). It carries the wall-clock deadline of
// --timeout, the memory limit of --max-memory and the cancel flags of
// callers whose answer no longer needs the run; the user's interrupt
// (SIGINT) always counts. The CLI makes one per command; every search polls
// it (reach's ResourceMonitor) and so does every static pass that can take
// seconds (StopPoll). Nested runs copy it and may add a flag, never lift a
// limit: the deadline is absolute, so no search gets a fresh budget.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace tsoreach {

using StopClock = std::chrono::steady_clock;

// Thrown by a static pass that saw its stop condition; it leaves no result.
// what() is the reason, e.g. "timeout after 5 s (--timeout)".
class Stopped : public std::runtime_error {
  public:
    explicit Stopped(const std::string& reason) : std::runtime_error(reason) {}
};

// The user's interrupt. A signal handler can only set a flag that lives for
// the whole process, so this is the one process-wide flag of the library.
// Async-signal-safe: only stores to a lock-free atomic.
void requestInterrupt() noexcept;
[[nodiscard]] bool interruptRequested() noexcept;

// Resident set size of this process in MB (0 if unknown); reads /proc.
double residentMb();

class StopCondition {
  public:
    static constexpr std::size_t kMaxFlags = 4;

    // Stops `seconds` from now (0: no deadline); reasons name `seconds`,
    // the user's number. Set once, where the command starts.
    void setTimeout(double seconds);
    void setMemoryLimitMb(std::uint64_t mb) { memoryMb_ = mb; }

    // A copy that also stops once `flag` is true. The flag must outlive
    // every run given the copy. Throws std::logic_error beyond kMaxFlags.
    [[nodiscard]] StopCondition orWhen(const std::atomic<bool>& flag) const;

    [[nodiscard]] std::uint64_t memoryLimitMb() const { return memoryMb_; }

    // A cancel flag is set.
    [[nodiscard]] bool cancelled() const;
    // The interrupt or the deadline, if either has come (reads the clock).
    [[nodiscard]] std::optional<std::string> limitReason() const;
    // The reason when `usedMb` reaches the memory limit.
    [[nodiscard]] std::optional<std::string> memoryReason(double usedMb) const;

  private:
    StopClock::time_point deadline_{};
    double timeoutSeconds_ = 0;
    std::uint64_t memoryMb_ = 0;
    std::array<const std::atomic<bool>*, kMaxFlags> flags_{};
    std::size_t flagCount_ = 0;
};

// Polls a stop condition from one thread: the interrupt, the clock and the
// flags on every call (tens of nanoseconds), the resident size at most
// every 20 ms (a /proc read costs microseconds).
class StopPoll {
  public:
    explicit StopPoll(const StopCondition& stop) : stop_(stop) {}

    // The reason to stop, if any. `estimateMb`: memory the caller knows it
    // will hold (a search: the resident size at its start plus its data at
    // the next growth); the larger of it and the last resident size read
    // is compared with the memory limit.
    [[nodiscard]] std::optional<std::string> reason(double estimateMb = 0);
    // Throws Stopped with the reason, if any.
    void throwIfStopped();

  private:
    StopCondition stop_;
    StopClock::time_point lastRead_{};
    double lastMb_ = 0;
};

} // namespace tsoreach
