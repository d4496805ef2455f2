#pragma once
// Helpers shared by the test suites.

#include "tsoreach/frontends/tsoreach/parser.hpp"
#include "tsoreach/reach/model.hpp"
#include "tsoreach/reach/result.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace tsoreach::test {

inline Program parse(const std::string& text) {
    return parseProgram(text, "test.txt");
}

// Every file with extension `ext` below `dir`, sorted; empty if `dir` is absent.
inline std::vector<std::filesystem::path> filesUnder(const std::filesystem::path& dir,
                                                     const std::string& ext) {
    std::vector<std::filesystem::path> out;
    if (!std::filesystem::is_directory(dir)) {
        return out;
    }
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (e.is_regular_file() && e.path().extension() == ext) {
            out.push_back(e.path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The expected verdict per model from an example's first line,
// "# expect sc=<v> tso=<v> pso=<v> [robust=yes|no]"; empty when the line is
// not of that form.
inline std::map<reach::MemoryModel, reach::Verdict>
expectedVerdicts(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string first;
    std::getline(in, first);
    static const std::regex header(
        R"(^# expect sc=(reachable|unreachable) )"
        R"(tso=(reachable|unreachable) pso=(reachable|unreachable)( robust=(yes|no))?\s*$)");
    std::smatch m;
    std::map<reach::MemoryModel, reach::Verdict> out;
    if (!std::regex_match(first, m, header)) {
        return out;
    }
    const reach::MemoryModel models[] = {reach::MemoryModel::SC, reach::MemoryModel::TSO,
                                         reach::MemoryModel::PSO};
    for (std::size_t i = 0; i < 3; ++i) {
        out[models[i]] =
            m[i + 1] == "reachable" ? reach::Verdict::Reachable : reach::Verdict::Unreachable;
    }
    return out;
}

// The expected robustness against TSO from an example's first line
// ("robust=yes|no"), if it has one.
inline std::optional<bool> expectedRobust(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string first;
    std::getline(in, first);
    static const std::regex field(R"( robust=(yes|no)\s*$)");
    std::smatch m;
    if (!std::regex_search(first, m, field)) {
        return std::nullopt;
    }
    return m[1] == "yes";
}

// Message passing: w stores data (0) then flag (1); r reads flag then data.
// The goal (both read 1) is reachable under every model.
constexpr const char* kMessagePassing = R"(
thread w initial a
transition a b write 1 0
transition b c write 1 1
end
thread r initial a final d
transition a b read y 1
transition b c read x 0
transition c d check && == y 1 == x 1
end)";

} // namespace tsoreach::test
