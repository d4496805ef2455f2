#include "order.hpp"

namespace tsoreach::backward {

bool addBefore(Node& n, std::size_t a, std::size_t b) {
    if (a == b || n.before[b][a]) {
        return false;
    }
    if (n.before[a][b]) {
        return true;
    }
    const std::size_t size = n.events.size();
    std::vector<std::size_t> from{a};
    std::vector<std::size_t> to{b};
    for (std::size_t x = 0; x < size; ++x) {
        if (n.before[x][a]) {
            from.push_back(x);
        }
        if (n.before[b][x]) {
            to.push_back(x);
        }
    }
    for (std::size_t x : from) {
        for (std::size_t y : to) {
            n.before[x][y] = true;
        }
    }
    return true;
}

std::size_t addEvent(Node& n, Event e) {
    n.events.push_back(std::move(e));
    const std::size_t size = n.events.size();
    for (auto& row : n.before) {
        row.resize(size, false);
    }
    n.before.emplace_back(size, false);
    return size - 1;
}

} // namespace tsoreach::backward
