#include "tsoreach/reach/engine.hpp"

#include "explicit_engine.hpp"
#include "tsoreach/reach/dpor.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/reach/rf.hpp"

#include <algorithm>
#include <string>

namespace tsoreach::reach {

bool EngineInfo::supports(MemoryModel m) const {
    return std::find(models.begin(), models.end(), m) != models.end();
}

std::span<const EngineInfo> engineRegistry() {
    // In order of preference per model.
    static const std::vector<EngineInfo> registry = {
        {"explicit",
         "explicit-state search over the operational semantics (--search dfs|bfs)",
         {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO},
         [](MemoryModel m) { return std::make_unique<ExplicitEngine>(m); },
         nullptr},
        {"dpor",
         "stateless DPOR over chronological traces (acyclic programs without locks)",
         {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO},
         [](MemoryModel m) { return std::make_unique<DporEngine>(m); },
         [](const Program& p, MemoryModel m) { return dporUnsupported(p, m); }},
        {"rf",
         "exploration by reads-from classes with consistency checks (acyclic programs without "
         "locks)",
         {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO},
         [](MemoryModel m) { return std::make_unique<RfEngine>(m); },
         [](const Program& p, MemoryModel) { return rfUnsupported(p); }},
    };
    return registry;
}

std::vector<const EngineInfo*> enginesFor(std::span<const EngineInfo> list, MemoryModel m) {
    std::vector<const EngineInfo*> out;
    for (const EngineInfo& e : list) {
        if (e.supports(m)) {
            out.push_back(&e);
        }
    }
    return out;
}

std::vector<const EngineInfo*> enginesFor(MemoryModel m) {
    return enginesFor(engineRegistry(), m);
}

std::unique_ptr<Engine> makeEngine(std::span<const EngineInfo> list, std::string_view engineName,
                                   MemoryModel m) {
    for (const EngineInfo& e : list) {
        if (!engineName.empty() && e.name != engineName) {
            continue;
        }
        if (e.supports(m)) {
            return e.make(m);
        }
        if (!engineName.empty()) {
            throw EngineUnavailable("engine '" + std::string(engineName) +
                                    "' does not support --model " + std::string(name(m)));
        }
    }
    if (!engineName.empty()) {
        throw EngineUnavailable("no engine named '" + std::string(engineName) + "'");
    }
    throw EngineUnavailable("--model " + std::string(name(m)) + " is not implemented yet");
}

std::unique_ptr<Engine> makeEngine(std::string_view engineName, MemoryModel m) {
    return makeEngine(engineRegistry(), engineName, m);
}

Result runChecked(Engine& engine, const Program& program, const Goal& goal,
                  const Options& options) {
    Result r = engine.run(program, goal, options);
    if (r.verdict == Verdict::Reachable) {
        if (!r.trace) {
            throw TraceReplayError("engine '" + std::string(engine.name()) +
                                   "' reported 'reachable' without a trace");
        }
        ReplayOutcome check = replayTrace(program, goal, *r.trace);
        if (!check.ok) {
            throw TraceReplayError("the trace of engine '" + std::string(engine.name()) +
                                   "' does not replay: " + check.error);
        }
        r.trace->goalTerm = check.goalTerm;
    }
    return r;
}

} // namespace tsoreach::reach
