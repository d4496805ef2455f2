#include "tsoreach/robustness/hitting_set.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tsoreach::robustness {

namespace {

// Sets as sorted, duplicate-free vectors; drop duplicates and supersets of
// other sets (hitting the subset hits them).
std::vector<std::vector<std::size_t>> normalise(std::span<const std::vector<std::size_t>> sets) {
    std::vector<std::vector<std::size_t>> out;
    for (const std::vector<std::size_t>& s : sets) {
        std::vector<std::size_t> v = s;
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
        out.push_back(std::move(v));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    std::vector<std::vector<std::size_t>> kept;
    for (std::vector<std::size_t>& s : out) {
        const bool covered = std::any_of(kept.begin(), kept.end(), [&](const auto& k) {
            return std::includes(s.begin(), s.end(), k.begin(), k.end());
        });
        if (!covered) {
            kept.push_back(std::move(s));
        }
    }
    return kept;
}

struct Node {
    std::vector<char> chosen;
    std::vector<char> forbidden; // excluded by earlier sibling branches
    std::uint64_t cost = 0;
};

} // namespace

HittingSet minimumHittingSet(std::span<const std::vector<std::size_t>> input,
                             std::span<const std::uint64_t> cost, std::uint64_t nodeBudget,
                             const StopCondition& stop) {
    StopPoll poll(stop);
    const std::size_t n = cost.size();
    const std::vector<std::vector<std::size_t>> sets = normalise(input);
    for (const std::vector<std::size_t>& s : sets) {
        if (s.empty() || s.back() >= n) {
            throw std::invalid_argument("minimumHittingSet: an empty set or an unknown element");
        }
    }
    auto hit = [](const std::vector<std::size_t>& s, const std::vector<char>& chosen) {
        return std::any_of(s.begin(), s.end(), [&](std::size_t e) { return chosen[e] != 0; });
    };

    // Upper bound: greedy, by unhit sets covered per unit of cost.
    HittingSet best;
    {
        std::vector<char> chosen(n, 0);
        std::uint64_t total = 0;
        for (;;) {
            poll.throwIfStopped();
            std::vector<std::size_t> count(n, 0);
            bool open = false;
            for (const auto& s : sets) {
                if (!hit(s, chosen)) {
                    open = true;
                    for (std::size_t e : s) {
                        ++count[e];
                    }
                }
            }
            if (!open) {
                break;
            }
            std::size_t pick = n;
            for (std::size_t e = 0; e < n; ++e) {
                if (count[e] == 0) {
                    continue;
                }
                // count[e]/cost[e] > count[pick]/cost[pick], without division
                if (pick == n || count[e] * std::max<std::uint64_t>(cost[pick], 1) >
                                     count[pick] * std::max<std::uint64_t>(cost[e], 1)) {
                    pick = e;
                }
            }
            chosen[pick] = 1;
            total += cost[pick];
        }
        best.cost = total;
        for (std::size_t e = 0; e < n; ++e) {
            if (chosen[e] != 0) {
                best.chosen.push_back(e);
            }
        }
    }

    // Lower bound of the sets a node leaves open: sets that share no
    // allowed element need distinct elements, each at least its cheapest.
    auto lowerBound = [&](const Node& node) {
        std::vector<char> used(n, 0);
        std::uint64_t bound = 0;
        for (const auto& s : sets) {
            if (hit(s, node.chosen)) {
                continue;
            }
            bool disjoint = true;
            std::uint64_t cheapest = std::numeric_limits<std::uint64_t>::max();
            for (std::size_t e : s) {
                if (node.forbidden[e] != 0) {
                    continue;
                }
                disjoint = disjoint && used[e] == 0;
                cheapest = std::min(cheapest, cost[e]);
            }
            if (cheapest == std::numeric_limits<std::uint64_t>::max()) {
                return cheapest; // every element forbidden: no solution below
            }
            if (disjoint) {
                for (std::size_t e : s) {
                    used[e] = 1;
                }
                bound += cheapest;
            }
        }
        return bound;
    };

    // Depth-first, on an explicit stack.
    std::vector<Node> stack;
    stack.push_back(Node{std::vector<char>(n, 0), std::vector<char>(n, 0), 0});
    best.optimal = true;
    while (!stack.empty()) {
        if (++best.nodes > nodeBudget) {
            best.optimal = false;
            break;
        }
        if (best.nodes % 16 == 0) {
            poll.throwIfStopped();
        }
        Node node = std::move(stack.back());
        stack.pop_back();
        const std::uint64_t lb = lowerBound(node);
        if (lb == std::numeric_limits<std::uint64_t>::max() || node.cost + lb >= best.cost) {
            continue;
        }
        // Branch on the open set with the fewest allowed elements.
        const std::vector<std::size_t>* branch = nullptr;
        std::size_t allowed = 0;
        for (const auto& s : sets) {
            if (hit(s, node.chosen)) {
                continue;
            }
            const auto a = static_cast<std::size_t>(std::count_if(
                s.begin(), s.end(), [&](std::size_t e) { return node.forbidden[e] == 0; }));
            if (branch == nullptr || a < allowed) {
                branch = &s;
                allowed = a;
            }
        }
        if (branch == nullptr) { // every set hit: better than the best (lb = 0)
            best.cost = node.cost;
            best.chosen.clear();
            for (std::size_t e = 0; e < n; ++e) {
                if (node.chosen[e] != 0) {
                    best.chosen.push_back(e);
                }
            }
            continue;
        }
        // Child k takes the k-th allowed element and forbids the earlier
        // ones, so no set of elements is reached twice. Cheapest first.
        std::vector<std::size_t> options;
        for (std::size_t e : *branch) {
            if (node.forbidden[e] == 0) {
                options.push_back(e);
            }
        }
        std::stable_sort(options.begin(), options.end(),
                         [&](std::size_t a, std::size_t b) { return cost[a] < cost[b]; });
        std::vector<Node> children;
        std::vector<char> forbidden = node.forbidden;
        for (std::size_t e : options) {
            Node child{node.chosen, forbidden, node.cost + cost[e]};
            child.chosen[e] = 1;
            children.push_back(std::move(child));
            forbidden[e] = 1;
        }
        for (auto it = children.rbegin(); it != children.rend(); ++it) {
            stack.push_back(std::move(*it));
        }
    }
    return best;
}

} // namespace tsoreach::robustness
