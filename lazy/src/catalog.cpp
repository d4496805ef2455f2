#include "tsoreach/lazy/catalog.hpp"

#include "tsoreach/lazy/lazy_engine.hpp"

namespace tsoreach::lazy {

std::span<const reach::EngineInfo> engineCatalog() {
    static const std::vector<reach::EngineInfo> catalog = [] {
        std::vector<reach::EngineInfo> all;
        // Lazy TSO first: the preferred engine for TSO.
        all.push_back({"lazy",
                       "TSO by SC checks: robustness oracle + buffering extension (paper 004)",
                       {reach::MemoryModel::TSO},
                       [](reach::MemoryModel) {
                           return std::make_unique<LazyEngine>(
                               instrument::ExtensionVariant::Terminating);
                       },
                       nullptr});
        const std::span<const reach::EngineInfo> base = reach::engineRegistry();
        all.insert(all.end(), base.begin(), base.end());
        return all;
    }();
    return catalog;
}

std::vector<const reach::EngineInfo*> catalogFor(reach::MemoryModel m) {
    return reach::enginesFor(engineCatalog(), m);
}

std::unique_ptr<reach::Engine> makeAnyEngine(std::string_view engineName, reach::MemoryModel m) {
    return reach::makeEngine(engineCatalog(), engineName, m);
}

} // namespace tsoreach::lazy
