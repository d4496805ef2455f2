#pragma once
// The memory models a program can be checked under.

#include <optional>
#include <string_view>

namespace tsoreach::reach {

enum class MemoryModel { SC, TSO, PSO };

std::string_view name(MemoryModel m); // "sc", "tso", "pso"
std::optional<MemoryModel> memoryModelFromName(std::string_view name);

} // namespace tsoreach::reach
