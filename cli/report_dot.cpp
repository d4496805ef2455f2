// The DOT format: a robustness witness's happens-before graph with its cycle
// in red (robust --dot). The other reports have no graph.

#include "report.hpp"

#include "tsoreach/robustness/happens_before.hpp"

#include <variant>

namespace tsoreach::cli {
namespace {

class DotFormat final : public ReportFormat {
  public:
    [[nodiscard]] std::string_view name() const override { return "dot"; }
    [[nodiscard]] std::optional<std::string> reach(const ReachReport&) const override {
        return std::nullopt;
    }
    // The first witness's graph; nothing when the program is robust or the
    // answer unknown.
    [[nodiscard]] std::optional<std::string> robust(const RobustReport& r) const override {
        if (const auto* a = std::get_if<robustness::RobustnessResult>(&r.outcome)) {
            if (a->witnesses.empty()) {
                return std::nullopt;
            }
            return robustness::toDot(r.program, a->witnesses.front().graph,
                                     a->witnesses.front().cycle);
        }
        const auto& e = std::get<robustness::ExploredRobustness>(r.outcome);
        if (e.verdict != robustness::RobustVerdict::NotRobust) {
            return std::nullopt;
        }
        return robustness::toDot(r.program, e.graph, e.cycle);
    }
    [[nodiscard]] std::optional<std::string> fences(const FencesReport&) const override {
        return std::nullopt;
    }
    [[nodiscard]] std::optional<std::string> explore(const ExploreReport&) const override {
        return std::nullopt;
    }
    [[nodiscard]] std::optional<std::string> outcomes(const OutcomesReport&) const override {
        return std::nullopt;
    }
    [[nodiscard]] std::optional<std::string> replay(const ReplayReport&) const override {
        return std::nullopt;
    }
};

} // namespace

std::unique_ptr<ReportFormat> dotFormat() {
    return std::make_unique<DotFormat>();
}

} // namespace tsoreach::cli
