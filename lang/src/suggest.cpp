#include "tsoreach/lang/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace tsoreach {

namespace {

constexpr std::size_t kMaxEdits = 2;

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// Edit distance with swaps of neighbours (optimal string alignment), case
// ignored; anything above kMaxEdits counts as kMaxEdits + 1, so that long
// names cost no more than their length times five cells of one row.
std::size_t distance(std::string_view a, std::string_view b) {
    const std::size_t far = kMaxEdits + 1;
    if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > kMaxEdits) {
        return far;
    }
    std::vector<std::size_t> prev2(b.size() + 1, far);
    std::vector<std::size_t> prev(b.size() + 1);
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) {
        prev[j] = std::min(j, far);
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        row[0] = std::min(i, far);
        std::size_t best = row[0];
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const bool same = lower(a[i - 1]) == lower(b[j - 1]);
            std::size_t d = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
                lower(a[i - 2]) == lower(b[j - 1])) {
                d = std::min(d, prev2[j - 2] + 1);
            }
            row[j] = std::min(d, far);
            best = std::min(best, row[j]);
        }
        if (best >= far) {
            return far;
        }
        std::swap(prev2, prev);
        std::swap(prev, row);
    }
    return prev[b.size()];
}

} // namespace

std::optional<std::string> closestName(std::string_view name,
                                       std::span<const std::string> candidates) {
    std::optional<std::string> best;
    std::size_t bestDistance = kMaxEdits + 1;
    for (const std::string& c : candidates) {
        const std::size_t d = distance(name, c);
        if (d < bestDistance && d < std::min(name.size(), c.size())) {
            best = c;
            bestDistance = d;
        }
    }
    return best;
}

std::string nameList(std::span<const std::string> names, std::size_t shown) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < shown; ++i) {
        out += (i == 0 ? "" : ", ") + names[i];
    }
    if (names.size() > shown) {
        out += ", ... (" + std::to_string(names.size()) + " in all)";
    }
    return out;
}

} // namespace tsoreach
