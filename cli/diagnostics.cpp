#include "diagnostics.hpp"

#include <iostream>

namespace tsoreach::cli {

void Warnings::add(const std::string& file, const std::vector<Warning>& ws, std::size_t shown,
                   const std::string& more) {
    for (std::size_t i = 0; i < ws.size(); ++i) {
        const Warning& w = ws[i];
        if (i < shown) {
            std::cerr << file;
            if (w.pos.line != 0) {
                std::cerr << ':' << w.pos.line << ':' << w.pos.col;
            }
            std::cerr << ": warning: " << w.message << '\n';
        }
        all_.push_back({file, w.pos, w.message});
    }
    if (ws.size() > shown) {
        std::cerr << file << ": warning: ... and " << ws.size() - shown << " more " << more << '\n';
    }
}

nlohmann::ordered_json warningsJson(const std::vector<FileWarning>& ws) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const FileWarning& w : ws) {
        out.push_back(
            {{"file", w.file}, {"line", w.pos.line}, {"col", w.pos.col}, {"message", w.message}});
    }
    return out;
}

void lintProgram(const LoadedProgram& input, const std::string& file, bool finals,
                 Warnings& warnings, const StopCondition& stop) {
    if (!input.registersDeclared) {
        warnings.add(file, unassignedRegisterReads(input.program, stop), 10,
                     "registers like these");
    }
    if (!finals) {
        return;
    }
    if (input.goal) {
        warnings.add(file, unmentionedGoalStates(input.program, *input.goal, GoalOrigin::Declared));
    } else if (const std::optional<Goal> goal = defaultGoal(input.program)) {
        warnings.add(file, unmentionedGoalStates(input.program, *goal, GoalOrigin::Finals));
    }
}

nlohmann::ordered_json jsonHeader(const std::string& command) {
    nlohmann::ordered_json j;
    j["tool"] = "tsoreach";
    j["version"] = TSOREACH_VERSION;
    j["schema_version"] = kJsonSchemaVersion;
    j["command"] = command;
    return j;
}

std::string errorJson(const std::string& command, const std::string& kind, const std::string& file,
                      SourcePos pos, const std::string& message,
                      const std::vector<FileWarning>& warnings) {
    nlohmann::ordered_json j = jsonHeader(command);
    j["verdict"] = "error";
    j["error"] = kind;
    j["file"] = file;
    j["line"] = pos.line;
    j["col"] = pos.col;
    j["message"] = message;
    j["warnings"] = warningsJson(warnings);
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string stoppedJson(const std::string& command, const std::string& file,
                        const std::string& reason, const std::vector<FileWarning>& warnings) {
    nlohmann::ordered_json j = jsonHeader(command);
    j["file"] = file;
    j["verdict"] = "unknown";
    j["reason"] = reason;
    j["warnings"] = warningsJson(warnings);
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace tsoreach::cli
