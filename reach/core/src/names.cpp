#include "tsoreach/reach/model.hpp"
#include "tsoreach/reach/options.hpp"
#include "tsoreach/reach/result.hpp"

namespace tsoreach::reach {

namespace {

constexpr ModelInfo kModels[] = {
    {MemoryModel::SC, "sc", "sequential consistency: every step at once in memory",
     BufferKind::None, false, false},
    {MemoryModel::TSO, "tso", "total store order (x86): one store buffer per thread",
     BufferKind::Fifo, true, false},
    {MemoryModel::PSO, "pso", "partial store order (SPARC PSO): one buffer per thread and address",
     BufferKind::FifoPerAddress, true, true},
};

} // namespace

std::span<const ModelInfo> memoryModels() {
    return kModels;
}

const ModelInfo& modelInfo(MemoryModel m) {
    for (const ModelInfo& info : kModels) {
        if (info.model == m) {
            return info;
        }
    }
    return kModels[0]; // unreachable: every enumerator has a row
}

std::string_view name(MemoryModel m) {
    return modelInfo(m).name;
}

std::optional<MemoryModel> memoryModelFromName(std::string_view n) {
    for (const ModelInfo& info : kModels) {
        if (info.name == n) {
            return info.model;
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
