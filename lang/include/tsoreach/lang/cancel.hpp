#pragma once
// Cooperative cancellation of long static passes (analyses and
// transformations that take seconds on programs with thousands of states),
// for callers that run them on a thread whose answer may become moot.

#include <atomic>
#include <stdexcept>

namespace tsoreach {

// Thrown by a pass that saw its cancel flag set; it leaves no result.
class Cancelled : public std::runtime_error {
  public:
    Cancelled() : std::runtime_error("cancelled") {}
};

// Polled in the passes' outer loops; null means "never cancelled".
using CancelFlag = const std::atomic<bool>*;

inline void throwIfCancelled(CancelFlag cancel) {
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
        throw Cancelled();
    }
}

} // namespace tsoreach
