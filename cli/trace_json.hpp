#pragma once
// Reads a trace written as JSON (the `trace` of a `reach --json` report, the
// whole report, or a bare array of steps; docs/json.md) back into a Trace of
// a program.

#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/trace.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace tsoreach::cli {

struct LoadedTrace {
    reach::Trace trace;                      // goalStep: "goal_step", else all steps
    std::optional<reach::MemoryModel> model; // the report's "model", if any
};

// Throws InputError (file `path`, no position) naming the bad step or field.
LoadedTrace loadTraceJson(const Program& p, const std::string& path);

// The same for JSON already in memory; `sourceName` names it in errors.
LoadedTrace parseTraceJson(const Program& p, std::string_view text, const std::string& sourceName);

} // namespace tsoreach::cli
