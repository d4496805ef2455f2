#pragma once
// The user's interrupt (SIGINT). A signal handler can only set a flag that
// lives for the whole process, so this is the one process-wide flag of the
// library: every search polls it with its other limits (ResourceMonitor)
// and stops with `unknown: interrupted`, keeping its statistics.

namespace tsoreach::reach {

// Async-signal-safe: only stores to a lock-free atomic.
void requestInterrupt() noexcept;
[[nodiscard]] bool interruptRequested() noexcept;

} // namespace tsoreach::reach
