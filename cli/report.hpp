#pragma once
// Reports of a reachability run: the text form for people and the JSON form
// (docs/json.md) for scripts. Both are built as one string, so that nothing
// is printed unless the whole report could be made.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/dpor.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/robustness/dpor_robustness.hpp"
#include "tsoreach/robustness/fence_synthesis.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <string>

namespace tsoreach::cli {

struct RunInfo {
    std::string command; // "reach"
    std::string file;
    reach::MemoryModel model = reach::MemoryModel::SC;
    std::string engine;
    reach::Options options;
};

std::string textReport(const Program& p, const Goal& g, const RunInfo& info, const reach::Result& r,
                       bool withStats);
std::string jsonReport(const Program& p, const Goal& g, const RunInfo& info,
                       const reach::Result& r);

// The result of `tsoreach replay --json`.
std::string replayJson(const std::string& file, const std::string& traceFile,
                       reach::MemoryModel model, const Goal& g, const Program& p,
                       const reach::Trace& trace, const reach::ReplayOutcome& outcome);

// Reports of `tsoreach robust`.
std::string robustText(const Program& p, const robustness::RobustnessResult& r, double seconds);
std::string robustJson(const Program& p, const std::string& file,
                       const robustness::RobustnessResult& r, double seconds);

// Reports of `tsoreach robust` by exploration.
std::string exploredRobustText(const Program& p, const std::string& model,
                               const std::string& engine, const robustness::ExploredRobustness& r);
std::string exploredRobustJson(const Program& p, const std::string& file, const std::string& model,
                               const std::string& engine, const robustness::ExploredRobustness& r);

// Reports of `tsoreach fences`.
struct FenceInfo {
    std::string file;
    std::string target; // "robustness" or "safety"
    std::string model;
    std::string engine;
    double seconds = 0;
};
std::string fencesText(const Program& p, const FenceInfo& info, const robustness::FenceResult& r);
std::string fencesJson(const Program& p, const FenceInfo& info, const robustness::FenceResult& r);

// Reports of `tsoreach explore`; `traces` holds the tables of
// --print-traces (empty otherwise).
struct ExploreInfo {
    std::string file;
    reach::MemoryModel model = reach::MemoryModel::SC;
    std::string engine;
};
std::string exploreText(const ExploreInfo& info, const reach::ExploreResult& r,
                        const std::string& traces);
std::string exploreJson(const ExploreInfo& info, const reach::ExploreResult& r);

// A trace as the table of the text reports.
std::string traceTable(const Program& p, const reach::Trace& trace);

} // namespace tsoreach::cli
