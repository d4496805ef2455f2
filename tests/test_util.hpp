#pragma once
// Helpers shared by the test suites.

#include "tsoreach/lang/parser.hpp"

#include <algorithm>
#include <filesystem>
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

} // namespace tsoreach::test
