#pragma once
// The reachability task of an engine: program + goal + options in, result
// out. Which engines exist, and which tasks and models each does, is the
// catalog's business (engines/catalog.hpp), above every engine.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/model.hpp"
#include "tsoreach/reach/options.hpp"
#include "tsoreach/reach/result.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace tsoreach::reach {

class Engine {
  public:
    Engine() = default;
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;
    virtual ~Engine() = default;

    [[nodiscard]] virtual std::string_view name() const = 0;
    [[nodiscard]] virtual MemoryModel model() const = 0;
    // Decides whether `goal` is reachable in `program`. Never throws for a
    // limit: limits give Verdict::Unknown with a reason.
    virtual Result run(const Program& program, const Goal& goal, const Options& options) = 0;
    // Whether run() evaluates the views of a goal (Goal::hasViews).
    [[nodiscard]] virtual bool takesGoalViews() const { return false; }
};

// The engine asked for cannot do the task (engines/catalog.hpp).
class EngineUnavailable : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A trace that does not replay: a bug in an engine, never a user error.
class TraceReplayError : public std::logic_error {
  public:
    using std::logic_error::logic_error;
};

// Runs `engine` and replays its trace, if any, with the independent checker.
// Throws TraceReplayError if the trace does not replay.
Result runChecked(Engine& engine, const Program& program, const Goal& goal, const Options& options);

} // namespace tsoreach::reach
