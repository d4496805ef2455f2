#pragma once
// Reports behind one interface: each subcommand fills in its report (the
// common result types below) and asks a ReportFormat for the text to print.
// One implementation per format: text for people (report_text.cpp), JSON
// for scripts (report_json.cpp, docs/json.md), DOT for traces and
// happens-before graphs (report_dot.cpp), HTML pages (report_html.cpp). A
// report is built as one string, so that nothing is printed unless the whole
// report could be made. Adding a format is one more implementation and one
// more factory.

#include "diagnostics.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/fence_site.hpp"
#include "tsoreach/lang/condition.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/explore.hpp"
#include "tsoreach/reach/outcomes.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/robustness/fence_synthesis.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tsoreach::cli {

// How a reach run was asked for.
struct RunInfo {
    std::string command; // "reach"
    std::string file;
    reach::MemoryModel model = reach::kDefaultModel;
    std::string engine;
    reach::Options options;
    // A litmus test's condition, which the goal searches for: the reports
    // answer as herd does (Allowed / Forbidden, Ok / No).
    const FinalCondition* condition = nullptr;
};

struct ReachReport {
    const Program& program;
    const Goal& goal;
    const RunInfo& info;
    const reach::Result& result;
    bool withStats = false; // --stats
};

struct RobustReport {
    const Program& program;
    std::string file;
    std::string model;
    std::string engine;
    const engines::RobustnessOutcome& outcome;
    double seconds = 0;
};

struct FenceInfo {
    std::string file;
    std::string target; // "robustness" or "safety"
    std::string model;
    std::string engine;
    double seconds = 0;
    // A source language with fence statements (C): where each can go, the
    // statement, and what --apply wrote and how its check of that file ended.
    std::vector<FenceSite> sites;
    std::string fenceStatement;
    std::string applied;
};

struct FencesReport {
    const Program& program;
    const FenceInfo& info;
    const robustness::FenceResult& result;
};

struct ExploreInfo {
    std::string file;
    reach::MemoryModel model = reach::kDefaultModel;
    std::string engine;
};

struct ExploreReport {
    const ExploreInfo& info;
    const reach::ExploreResult& result;
    const std::string& traces; // the tables of --print-traces; empty otherwise
};

struct OutcomesInfo {
    std::string file;
    reach::MemoryModel model = reach::kDefaultModel;
    std::string engine;
    std::optional<reach::MemoryModel> diff;    // --diff
    const FinalCondition* condition = nullptr; // a litmus test's: evaluated on each outcome
};

struct OutcomesReport {
    const Program& program;
    const OutcomesInfo& info;
    const reach::OutcomeList& list;
    const reach::OutcomeList* baseline; // with --diff
};

struct ReplayReport {
    std::string file;
    std::string traceFile;
    reach::MemoryModel model = reach::kDefaultModel;
    const Goal& goal;
    const Program& program;
    const reach::Trace& trace;
    const reach::ReplayOutcome& outcome;
};

// A report format. Each method returns the whole report, or nothing where
// the format does not apply (DOT has only robustness witnesses).
class ReportFormat {
  public:
    ReportFormat() = default;
    ReportFormat(const ReportFormat&) = delete;
    ReportFormat& operator=(const ReportFormat&) = delete;
    virtual ~ReportFormat() = default;
    [[nodiscard]] virtual std::string_view name() const = 0;
    [[nodiscard]] virtual std::optional<std::string> reach(const ReachReport& r) const = 0;
    [[nodiscard]] virtual std::optional<std::string> robust(const RobustReport& r) const = 0;
    [[nodiscard]] virtual std::optional<std::string> fences(const FencesReport& r) const = 0;
    [[nodiscard]] virtual std::optional<std::string> explore(const ExploreReport& r) const = 0;
    [[nodiscard]] virtual std::optional<std::string> outcomes(const OutcomesReport& r) const = 0;
    [[nodiscard]] virtual std::optional<std::string> replay(const ReplayReport& r) const = 0;
};

std::unique_ptr<ReportFormat> textFormat();
// Every JSON report ends with `warnings` (the text reports leave them on
// stderr, where they were printed when found).
std::unique_ptr<ReportFormat> jsonFormat(std::vector<FileWarning> warnings = {});
std::unique_ptr<ReportFormat> dotFormat();
// What the HTML page needs besides a report: the program file's text (the
// page shows it, with the trace's lines shaded and fences placed), the
// command's stop condition (which bounds Graphviz too) and the warnings.
struct HtmlContext {
    std::string source;
    StopCondition stop;
    std::vector<FileWarning> warnings;
};
// One self-contained page (report_html.cpp) for reach, robust, fences and
// outcomes; nothing for explore and replay.
std::unique_ptr<ReportFormat> htmlFormat(HtmlContext context);
// --json picks JSON, else text.
std::unique_ptr<ReportFormat> outputFormat(bool json, const Warnings& warnings);

// A trace as the table of the text reports (also explore --print-traces).
std::string traceTable(const Program& p, const reach::Trace& trace);

// A trace as the `trace` array of the JSON reports (docs/json.md, "Trace
// steps"; also param's instance traces): one object per step, with the
// buffers after it under TSO and PSO.
nlohmann::ordered_json traceJson(const Program& p, const reach::Trace& trace);

} // namespace tsoreach::cli
