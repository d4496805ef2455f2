#pragma once
// Search options shared by the engines. 0 means "no limit" for every limit.

#include "tsoreach/lang/stop.hpp"

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
    // Time, memory, interrupt and cancel flags (lang/stop.hpp): set once
    // for a whole command, copied by every nested search, which may add a
    // cancel flag of its own (stop.orWhen) but never lifts a limit. The
    // deadline is absolute, so --timeout bounds the command, however many
    // searches and static passes it runs.
    StopCondition stop;
    // dpor: explore cyclic programs with each thread taking at most this
    // many back edges (a negative answer is then `unknown`); 0: refuse them.
    std::size_t unroll = 0;
    // TSO/PSO: most stores the buffer of a thread with a control-flow cycle
    // may hold. A store it blocks makes a negative answer `unknown`.
    std::size_t bufferBound = 4;
    // Reductions of the explicit engine (--por, --live, --merge-stores). They preserve
    // reachability of the goal; traces stay valid but BFS traces are then
    // shortest only within the reduced state graph.
    bool partialOrder = true;  // SC only: ample sets from static independence
    bool liveRegisters = true; // dead registers are stored as 0
    // TSO/PSO (--merge-stores): a store equal to the newest buffered store
    // to an address only its thread writes is not buffered again
    // (reach/explicit/src/merged_stores.hpp); traces are restored.
    bool mergeStores = true;
    // TSO/PSO, explicit engine: stop at the first store the buffer bound
    // blocks (the answer could then only be `reachable`): for a probe that
    // wants a complete search or nothing.
    bool stopAtBound = false;
    // Engines that run independent searches (lazy TSO's oracle) use up to
    // this many threads; answers never depend on it.
    unsigned jobs = 1;
    // Threads of one explicit-state search (reach/explicit's parallel
    // search); 1: the sequential search. Verdict, trace and, for a complete
    // search, the state count never depend on it. Callers that already run
    // searches side by side pass 1 to each.
    unsigned searchJobs = 1;
    // Lazy TSO: small explicit searches before and beside the loop (--probe).
    bool explicitProbes = true;
    // Lazy TSO: rounds before giving up with `unknown` (0: the default).
    std::size_t maxIterations = 0;
    // --progress: called with a line about once a second by the search
    // (ResourceMonitor::progress) or its task (ProgressTicker); empty: none.
    std::function<void(const std::string&)> progress;
    // Lazy TSO: called with each extended program R, in the input language,
    // and the round whose goal check it gets (--save-programs).
    std::function<void(std::size_t round, const std::string& text)> onProgram;
};

} // namespace tsoreach::reach
