#include "forget.hpp"

#include <algorithm>
#include <optional>

namespace tsoreach::backward {
namespace {

// Events later steps can order against: unsatisfied reads (and the writes
// bounding them) close cycles with new writes; a write or fenced event
// before one of them carries the new writer's FIFO and fence edges to it.
std::vector<bool> kept(const Node& n, Forgetting how) {
    std::vector<bool> keep(n.events.size(), false);
    for (std::size_t e = 0; e < n.events.size(); ++e) {
        for (const Access& r : n.events[e].reads) {
            const bool bare =
                !n.events[e].fenced && !r.notInit && !r.ownExcluded && r.after.empty();
            if (r.source == kUnsatisfied && !(how == Forgetting::Coarse && bare)) {
                keep[e] = true;
                for (std::uint32_t b : r.after) {
                    keep[b] = true;
                }
            }
        }
    }
    const std::vector<bool> anchors = keep;
    for (std::size_t x = 0; x < n.events.size(); ++x) {
        const Event& ev = n.events[x];
        if (keep[x] || (ev.writes.empty() && !ev.fenced)) {
            continue;
        }
        for (std::size_t y = 0; y < n.events.size() && !keep[x]; ++y) {
            keep[x] = anchors[y] && n.before[x][y];
        }
    }
    return keep;
}

// Eliminates variable v: by an equality v = t when there is one, else by
// dropping the literals on v (a weaker conjunction).
void eliminate(std::vector<Lit>& lits, std::int64_t v) {
    auto on = [v](const Term& t) { return t.kind == Term::Kind::Var && t.n == v; };
    std::optional<Term> by;
    for (const Lit& l : lits) {
        if (l.op == cub::Cmp::Eq && on(l.a) != on(l.b)) {
            const Term& v1 = on(l.a) ? l.a : l.b;
            Term t = on(l.a) ? l.b : l.a;
            if (t.kind == Term::Kind::Const) { // v + off = c  ->  v = c - off
                t.n -= v1.off;
            } else if (t.kind == Term::Kind::Var) {
                t.off -= v1.off;
            } else if (v1.off != 0) {
                continue;
            }
            by = t;
            break;
        }
    }
    std::vector<Lit> out;
    for (const Lit& l : lits) {
        if (!on(l.a) && !on(l.b)) {
            out.push_back(l);
        } else if (by) {
            Lit s{substitute(l.a, v, *by), l.op, substitute(l.b, v, *by)};
            if (!(s.a == s.b && s.op == cub::Cmp::Eq)) {
                out.push_back(s);
            }
        }
    }
    lits = std::move(out);
}

// A bound before another bound of the same read is implied by it (the
// source reached memory after the later one), so only the latest are kept.
void pruneBounds(Node& n) {
    for (Event& ev : n.events) {
        for (Access& r : ev.reads) {
            if (r.source != kUnsatisfied) {
                r.after.clear(); // used only to place the source, which is found
                continue;
            }
            std::vector<std::uint32_t> latest;
            for (std::uint32_t b : r.after) {
                const bool implied = std::any_of(r.after.begin(), r.after.end(),
                                                 [&](std::uint32_t c) { return n.before[b][c]; });
                if (!implied) {
                    latest.push_back(b);
                }
            }
            r.after = std::move(latest);
        }
    }
}

} // namespace

void forget(Node& n, Forgetting how) {
    pruneBounds(n);
    const std::vector<bool> keep = kept(n, how);
    if (std::all_of(keep.begin(), keep.end(), [](bool k) { return k; })) {
        return;
    }
    std::vector<std::int64_t> index(n.events.size(), -1);
    std::vector<Event> events;
    for (std::size_t e = 0; e < n.events.size(); ++e) {
        if (keep[e]) {
            index[e] = static_cast<std::int64_t>(events.size());
            events.push_back(n.events[e]);
            continue;
        }
        for (const auto* list : {&n.events[e].reads, &n.events[e].writes}) {
            for (const Access& a : *list) {
                eliminate(n.lits, a.var);
            }
        }
    }
    for (Event& ev : events) {
        for (Access& r : ev.reads) {
            if (r.source >= 0) {
                const std::int64_t to = index[static_cast<std::size_t>(r.source)];
                r.source = to >= 0 ? static_cast<std::int32_t>(to) : kResolved;
            }
            for (std::uint32_t& b : r.after) {
                b = static_cast<std::uint32_t>(index[b]);
            }
        }
    }
    std::vector<std::vector<bool>> before(events.size(), std::vector<bool>(events.size(), false));
    for (std::size_t x = 0; x < n.events.size(); ++x) {
        for (std::size_t y = 0; y < n.events.size(); ++y) {
            if (keep[x] && keep[y] && n.before[x][y]) {
                before[static_cast<std::size_t>(index[x])][static_cast<std::size_t>(index[y])] =
                    true;
            }
        }
    }
    n.events = std::move(events);
    n.before = std::move(before);
}

} // namespace tsoreach::backward
