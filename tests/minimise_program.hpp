#pragma once
// Greedy minimisation of a failing program text, for the differential
// campaign and the differential fuzzer's tool: delete whole threads, then
// single `transition`, `final` and `# goal` lines, then turn instructions
// into `noop`, as long as the predicate still holds; repeat until nothing
// changes. The predicate gets candidate texts that may not parse or may have
// no goal, and must say false for those. Each round is a loop over the
// candidates; no recursion.

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace tsoreach::test {

// The text as blocks: the lines before the first thread, then one per thread.
using ProgramBlocks = std::vector<std::vector<std::string>>;

inline ProgramBlocks splitThreads(const std::string& text) {
    ProgramBlocks out(1);
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("thread", 0) == 0) {
            out.emplace_back();
        }
        out.back().push_back(line);
    }
    return out;
}

inline std::string joinBlocks(const ProgramBlocks& blocks) {
    std::string out;
    for (const auto& b : blocks) {
        for (const std::string& line : b) {
            out += line + "\n";
        }
    }
    return out;
}

namespace detail {

inline bool deletable(const std::string& line) {
    return line.rfind("transition", 0) == 0 || line.rfind("final", 0) == 0 ||
           line.rfind("# goal ", 0) == 0;
}

// "transition A B INSTR" with the instruction replaced by noop, or "" when
// the line is no transition or already a noop.
inline std::string asNoop(const std::string& line) {
    std::istringstream in(line);
    std::string keyword;
    std::string from;
    std::string to;
    std::string instr;
    if (!(in >> keyword >> from >> to >> instr) || keyword != "transition" || instr == "noop") {
        return "";
    }
    return "transition " + from + " " + to + " noop";
}

} // namespace detail

template <class Pred> std::string minimiseProgram(const std::string& text, Pred stillFails) {
    ProgramBlocks blocks = splitThreads(text);
    const auto tryCandidate = [&](ProgramBlocks candidate) {
        if (!stillFails(joinBlocks(candidate))) {
            return false;
        }
        blocks = std::move(candidate);
        return true;
    };
    bool changed = true;
    while (changed) {
        changed = false;
        for (std::size_t t = 1; t < blocks.size() && blocks.size() > 2;) {
            ProgramBlocks candidate = blocks;
            candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(t));
            if (tryCandidate(std::move(candidate))) {
                changed = true;
            } else {
                ++t;
            }
        }
        for (std::size_t t = 0; t < blocks.size(); ++t) {
            for (std::size_t l = 0; l < blocks[t].size();) {
                if (!detail::deletable(blocks[t][l])) {
                    ++l;
                    continue;
                }
                ProgramBlocks candidate = blocks;
                candidate[t].erase(candidate[t].begin() + static_cast<std::ptrdiff_t>(l));
                if (tryCandidate(std::move(candidate))) {
                    changed = true;
                } else {
                    ++l;
                }
            }
        }
        for (std::size_t t = 0; t < blocks.size(); ++t) {
            for (std::size_t l = 0; l < blocks[t].size(); ++l) {
                std::string noop = detail::asNoop(blocks[t][l]);
                if (noop.empty()) {
                    continue;
                }
                ProgramBlocks candidate = blocks;
                candidate[t][l] = std::move(noop);
                changed = tryCandidate(std::move(candidate)) || changed;
            }
        }
    }
    return joinBlocks(blocks);
}

} // namespace tsoreach::test
