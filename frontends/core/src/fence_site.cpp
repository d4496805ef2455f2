#include "tsoreach/frontends/fence_site.hpp"

#include <algorithm>
#include <vector>

namespace tsoreach {

std::string sourceWithFences(std::string_view source, std::span<const FenceSite> sites,
                             std::string_view statement) {
    // Insertions from the end of the text backwards keep earlier offsets valid.
    struct Insertion {
        std::size_t at;
        std::string text;
    };
    std::vector<Insertion> edits;
    std::vector<std::size_t> done; // a statement of a function that two threads run counts once
    for (const FenceSite& s : sites) {
        if (std::find(done.begin(), done.end(), s.begin) != done.end()) {
            continue;
        }
        done.push_back(s.begin);
        const std::string fence(statement);
        if (s.condition) {
            const std::string call(statement.substr(0, statement.find_last_not_of("; ") + 1));
            edits.push_back({s.end, ")"});
            edits.push_back({s.begin, "(" + call + ", "});
        } else if (s.braces) {
            edits.push_back({s.end, " }"});
            edits.push_back({s.begin, "{ " + fence + " "});
        } else if (s.indent) {
            edits.push_back({s.begin, fence + "\n" + *s.indent});
        } else {
            edits.push_back({s.begin, fence + " "});
        }
    }
    // Equal offsets (a `}` closing one site where another begins) keep their order.
    std::stable_sort(edits.begin(), edits.end(),
                     [](const Insertion& a, const Insertion& b) { return a.at > b.at; });
    std::string out(source);
    for (const Insertion& e : edits) {
        out.insert(std::min(e.at, out.size()), e.text);
    }
    return out;
}

} // namespace tsoreach
