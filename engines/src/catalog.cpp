#include "tsoreach/engines/catalog.hpp"

#include <algorithm>

namespace tsoreach::engines {

std::string_view name(Task t) {
    switch (t) {
    case Task::Reach:
        return "reach";
    case Task::Explore:
        return "explore";
    case Task::Outcomes:
        return "outcomes";
    case Task::Robustness:
        return "robustness";
    }
    return "?";
}

std::span<const MemoryModel> EngineEntry::models(Task t) const {
    switch (t) {
    case Task::Reach:
        return reachModels;
    case Task::Explore:
        return exploreModels;
    case Task::Outcomes:
        return outcomeModels;
    case Task::Robustness:
        return robustnessModels;
    }
    return {};
}

bool EngineEntry::does(Task t, MemoryModel m) const {
    const std::span<const MemoryModel> ms = models(t);
    return std::find(ms.begin(), ms.end(), m) != ms.end();
}

Catalog::Catalog(std::vector<EngineEntry> entries) : entries_(std::move(entries)) {}

std::vector<const EngineEntry*> Catalog::enginesFor(Task t, MemoryModel m) const {
    std::vector<const EngineEntry*> out;
    for (const EngineEntry& e : entries_) {
        if (e.does(t, m)) {
            out.push_back(&e);
        }
    }
    return out;
}

const EngineEntry& Catalog::find(Task t, std::string_view engineName, MemoryModel m) const {
    for (const EngineEntry& e : entries_) {
        if (!engineName.empty() && e.name != engineName) {
            continue;
        }
        if (e.does(t, m)) {
            return e;
        }
        if (!engineName.empty()) {
            const bool doesTask = !e.models(t).empty();
            throw reach::EngineUnavailable("engine '" + std::string(engineName) + "' does not " +
                                           (doesTask
                                                ? "support --model " + std::string(reach::name(m))
                                                : "do " + std::string(name(t))));
        }
    }
    if (!engineName.empty()) {
        throw reach::EngineUnavailable("no engine named '" + std::string(engineName) + "'");
    }
    throw reach::EngineUnavailable("--model " + std::string(reach::name(m)) +
                                   " is not implemented yet");
}

std::vector<MemoryModel> Catalog::models(Task t) const {
    std::vector<MemoryModel> out;
    for (const reach::ModelInfo& info : reach::memoryModels()) {
        if (!enginesFor(t, info.model).empty()) {
            out.push_back(info.model);
        }
    }
    return out;
}

std::string Catalog::engineHelp(Task t) const {
    std::string out;
    for (MemoryModel m : models(t)) {
        out += std::string(out.empty() ? "" : "; ") + std::string(reach::name(m)) + ":";
        for (const EngineEntry* e : enginesFor(t, m)) {
            out += " " + std::string(e->name);
        }
    }
    return out;
}

std::vector<Catalog::OfferedOption> Catalog::optionsFor(Task t) const {
    std::vector<OfferedOption> out;
    for (const EngineEntry& e : entries_) {
        for (const EngineOption& o : e.options) {
            if (std::find(o.tasks.begin(), o.tasks.end(), t) == o.tasks.end()) {
                continue;
            }
            auto same = std::find_if(out.begin(), out.end(), [&](const OfferedOption& x) {
                return x.option->flag == o.flag;
            });
            if (same == out.end()) {
                out.push_back({&o, {e.name}});
            } else {
                same->engines.push_back(e.name);
            }
        }
    }
    return out;
}

std::unique_ptr<reach::Engine> Catalog::makeReach(std::string_view engineName,
                                                  MemoryModel m) const {
    return find(Task::Reach, engineName, m).makeReach(m);
}

} // namespace tsoreach::engines
