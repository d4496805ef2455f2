#pragma once
// Search options shared by the engines. 0 means "no limit" for every limit.

#include <cstdint>
#include <optional>
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
    std::uint64_t maxStates = 0;   // stored states
    double timeoutSeconds = 0;     // wall clock
    std::uint64_t maxMemoryMb = 0; // resident set size of the process
};

} // namespace tsoreach::reach
