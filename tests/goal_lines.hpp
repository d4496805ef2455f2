#pragma once
// Goals written into a program's text as comment lines, for generated and
// saved test programs: each line "# goal THREAD=STATE[,THREAD=STATE...]" is
// one term of the goal (the syntax of --goal, language.md), so the lines
// together are a disjunction. A text without such lines has the default
// goal. The lines are comments, so the text stays a program for the CLI:
// `tsoreach reach FILE --goal SPEC...` with the same specs asks the same.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"

#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace tsoreach::test {

inline constexpr std::string_view kGoalLine = "# goal ";

// The specs of the goal lines of `text`, in order.
inline std::vector<std::string> goalSpecs(std::string_view text) {
    std::vector<std::string> out;
    std::istringstream in{std::string(text)};
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(kGoalLine, 0) == 0) {
            out.push_back(line.substr(kGoalLine.size()));
        }
    }
    return out;
}

// The goal of `text` (parsed as `p`): its goal lines, else the default goal;
// nullopt when there are no goal lines and no final states. Throws
// GoalSpecError for a line that names no thread or state of `p`.
inline std::optional<Goal> goalOfText(const Program& p, std::string_view text) {
    const std::vector<std::string> specs = goalSpecs(text);
    if (specs.empty()) {
        return defaultGoal(p);
    }
    return parseGoalSpecs(p, specs);
}

// The --goal options that ask the CLI for the goal of `text` ("" for none).
inline std::string goalOptions(std::string_view text) {
    std::string out;
    for (const std::string& s : goalSpecs(text)) {
        out += " --goal " + s;
    }
    return out;
}

} // namespace tsoreach::test
