#include "tsoreach/reach/model.hpp"
#include "tsoreach/reach/options.hpp"
#include "tsoreach/reach/result.hpp"

namespace tsoreach::reach {

std::string_view name(MemoryModel m) {
    switch (m) {
    case MemoryModel::SC:
        return "sc";
    case MemoryModel::TSO:
        return "tso";
    case MemoryModel::PSO:
        return "pso";
    }
    return "?";
}

std::optional<MemoryModel> memoryModelFromName(std::string_view n) {
    for (MemoryModel m : {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO}) {
        if (name(m) == n) {
            return m;
        }
    }
    return std::nullopt;
}

std::string_view name(SearchOrder o) {
    return o == SearchOrder::Dfs ? "dfs" : "bfs";
}

std::optional<SearchOrder> searchOrderFromName(std::string_view n) {
    if (n == "dfs") {
        return SearchOrder::Dfs;
    }
    if (n == "bfs") {
        return SearchOrder::Bfs;
    }
    return std::nullopt;
}

std::string_view name(Verdict v) {
    switch (v) {
    case Verdict::Reachable:
        return "reachable";
    case Verdict::Unreachable:
        return "unreachable";
    case Verdict::Unknown:
        return "unknown";
    }
    return "?";
}

} // namespace tsoreach::reach
