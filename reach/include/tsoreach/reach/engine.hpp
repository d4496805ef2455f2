#pragma once
// The engine interface: program + goal + options in, result out.
//
// Engines are found through a registry so that the CLI and the tests see a
// new engine as soon as it is registered, for every model it supports.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/model.hpp"
#include "tsoreach/reach/options.hpp"
#include "tsoreach/reach/result.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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
};

struct EngineInfo {
    std::string_view name;
    std::string_view description;
    std::vector<MemoryModel> models;
    std::function<std::unique_ptr<Engine>(MemoryModel)> make;
    // Why the engine cannot decide a program under a model (it answers
    // `unknown` with that reason), or nothing; null: it decides every one.
    std::function<std::optional<std::string>(const Program&, MemoryModel)> unsupported;
    [[nodiscard]] std::optional<std::string> unsupportedFor(const Program& p, MemoryModel m) const {
        return unsupported ? unsupported(p, m) : std::nullopt;
    }
    [[nodiscard]] bool supports(MemoryModel m) const;
};

std::span<const EngineInfo> engineRegistry();
// Engines that support `m`, the preferred one first.
std::vector<const EngineInfo*> enginesFor(MemoryModel m);

class EngineUnavailable : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The engine called `name` for `m` (empty name: the preferred one).
// Throws EngineUnavailable when there is none.
std::unique_ptr<Engine> makeEngine(std::string_view name, MemoryModel m);

// The same over any list of engines (higher layers keep larger catalogs).
std::vector<const EngineInfo*> enginesFor(std::span<const EngineInfo> list, MemoryModel m);
std::unique_ptr<Engine> makeEngine(std::span<const EngineInfo> list, std::string_view name,
                                   MemoryModel m);

// A trace that does not replay: a bug in an engine, never a user error.
class TraceReplayError : public std::logic_error {
  public:
    using std::logic_error::logic_error;
};

// Runs `engine` and replays its trace, if any, with the independent checker.
// Throws TraceReplayError if the trace does not replay.
Result runChecked(Engine& engine, const Program& program, const Goal& goal, const Options& options);

} // namespace tsoreach::reach
