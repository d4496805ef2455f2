#pragma once
// Search options shared by the engines. 0 means "no limit" for every limit.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace tsoreach::reach {

enum class SearchOrder {
    Dfs, // explicit stack; usually finds a goal with less memory
    Bfs, // returns a shortest trace
};

std::string_view name(SearchOrder o);
std::optional<SearchOrder> searchOrderFromName(std::string_view name);

struct Options {
    SearchOrder search = SearchOrder::Dfs;
    std::uint64_t maxStates = 0; // stored states
    double timeoutSeconds = 0;   // wall clock
    // The limit a timeout's reason names, when a caller passes on what is
    // left of its own limit (0: timeoutSeconds itself).
    double reportedTimeoutSeconds = 0;
    // Commands made of many searches (robust, fences) stop them all at this
    // wall-clock time, so --timeout bounds the command, not each search;
    // the default (the clock's epoch) means none.
    std::chrono::steady_clock::time_point deadline{};
    // dpor: explore cyclic programs with each thread taking at most this
    // many back edges (a negative answer is then `unknown`); 0: refuse them.
    std::size_t unroll = 0;
    std::uint64_t maxMemoryMb = 0; // resident set size of the process
    // TSO/PSO: most stores the buffer of a thread with a control-flow cycle
    // may hold. A store it blocks makes a negative answer `unknown`.
    std::size_t bufferBound = 4;
    // Reductions of the explicit engine (--por, --live). Both preserve
    // reachability of the goal; traces stay valid but BFS traces are then
    // shortest only within the reduced state graph.
    bool partialOrder = true;  // SC only: ample sets from static independence
    bool liveRegisters = true; // dead registers are stored as 0
    // When set and it becomes true, the search stops with `unknown:
    // cancelled` (used when another thread's answer makes this one moot).
    const std::atomic<bool>* cancel = nullptr;
    // A second such flag, for searches nested in a cancellable run (an
    // attack of the robustness oracle inside a lazy round).
    const std::atomic<bool>* cancelAlso = nullptr;
    // Engines that run independent searches (lazy TSO's oracle) use up to
    // this many threads; answers never depend on it.
    unsigned jobs = 1;
    // Lazy TSO: rounds before giving up with `unknown` (0: the default).
    std::size_t maxIterations = 0;
    // Lazy TSO: called with one line per round (--progress).
    std::function<void(const std::string&)> progress;
    // Lazy TSO: called with each extended program R, in the input language,
    // and the round whose goal check it gets (--save-programs).
    std::function<void(std::size_t round, const std::string& text)> onProgram;
};

} // namespace tsoreach::reach
