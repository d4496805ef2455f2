#pragma once
// Every engine of every layer. reach/ keeps the engines that need nothing
// above it (explicit-state search); engines built from higher layers (lazy
// TSO uses the robustness oracle) join here, and the CLI and the tests pick
// from this catalog.

#include "tsoreach/reach/engine.hpp"

#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace tsoreach::lazy {

// In order of preference per model.
std::span<const reach::EngineInfo> engineCatalog();

// Engines that support `m`, the preferred one first.
std::vector<const reach::EngineInfo*> catalogFor(reach::MemoryModel m);

// The engine called `name` for `m` (empty: the preferred one). Throws
// reach::EngineUnavailable.
std::unique_ptr<reach::Engine> makeAnyEngine(std::string_view name, reach::MemoryModel m);

} // namespace tsoreach::lazy
