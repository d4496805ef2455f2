#include "values.hpp"

#include <limits>
#include <optional>

namespace tsoreach::backward {

cub::Cmp negate(cub::Cmp op) {
    using cub::Cmp;
    switch (op) {
    case Cmp::Eq:
        return Cmp::Ne;
    case Cmp::Ne:
        return Cmp::Eq;
    case Cmp::Lt:
        return Cmp::Ge;
    case Cmp::Le:
        return Cmp::Gt;
    case Cmp::Gt:
        return Cmp::Le;
    case Cmp::Ge:
        return Cmp::Lt;
    }
    return Cmp::Eq;
}

Lit negate(const Lit& l) {
    return Lit{l.a, negate(l.op), l.b};
}

Term substitute(const Term& t, std::int64_t var, const Term& by) {
    if (t.kind != Term::Kind::Var || t.n != var) {
        return t;
    }
    Term r = by;
    if (r.kind == Term::Kind::Const) {
        r.n += t.off;
    } else {
        r.off += t.off;
    }
    return r;
}

namespace {

using cub::Cmp;

bool holds(std::int64_t x, Cmp op, std::int64_t y) {
    switch (op) {
    case Cmp::Eq:
        return x == y;
    case Cmp::Ne:
        return x != y;
    case Cmp::Lt:
        return x < y;
    case Cmp::Le:
        return x <= y;
    case Cmp::Gt:
        return x > y;
    case Cmp::Ge:
        return x >= y;
    }
    return false;
}

// A ground value: a number, or a process (kind Proc, index n).
struct Ground {
    bool proc = false;
    std::int64_t n = 0;
};

bool holds(const Ground& x, Cmp op, const Ground& y) {
    if (x.proc != y.proc) {
        return op == Cmp::Ne; // ill-typed comparisons never hold as equal
    }
    return holds(x.n, op, y.n);
}

// One side of a literal after union-find: a ground value or root + off.
struct Side {
    bool ground = false;
    Ground g;
    std::size_t root = 0;
    std::int64_t off = 0;
};

class Store {
  public:
    Store(const std::vector<VarType>& types, std::size_t procs)
        : types_(types), procs_(procs), parent_(types.size()), off_(types.size(), 0),
          bound_(types.size()) {
        for (std::size_t i = 0; i < parent_.size(); ++i) {
            parent_[i] = i;
        }
    }

    // Adds an equality or keeps the literal as residual; false on conflict.
    bool add(const Lit& l) {
        const Side a = side(l.a);
        const Side b = side(l.b);
        if (a.ground && b.ground) {
            return holds(a.g, l.op, b.g);
        }
        if (l.op == Cmp::Eq) {
            return unify(a, b);
        }
        residual_.push_back(l);
        return true;
    }

    bool solve();

    Term forced(std::size_t v) {
        const Side s = side(Term{Term::Kind::Var, static_cast<std::int64_t>(v), 0});
        if (!s.ground) {
            return Term{Term::Kind::Var, static_cast<std::int64_t>(v), 0};
        }
        return Term{s.g.proc ? Term::Kind::Proc : Term::Kind::Const, s.g.n, 0};
    }

  private:
    Side side(const Term& t) {
        Side s;
        if (t.kind == Term::Kind::Const) {
            s.ground = true;
            s.g = Ground{false, t.n + t.off};
            return s;
        }
        if (t.kind == Term::Kind::Proc) {
            s.ground = true;
            s.g = Ground{true, t.n};
            return s;
        }
        auto [r, o] = find(static_cast<std::size_t>(t.n));
        s.root = r;
        s.off = o + t.off;
        if (bound_[r]) {
            s.ground = true;
            s.g = *bound_[r];
            if (!s.g.proc) {
                s.g.n += s.off;
            }
        }
        return s;
    }

    std::pair<std::size_t, std::int64_t> find(std::size_t v) {
        std::int64_t o = 0;
        std::size_t r = v;
        while (parent_[r] != r) {
            o += off_[r];
            r = parent_[r];
        }
        return {r, o};
    }

    // val(a.root) + a.off == ground or val(b.root) + b.off.
    bool unify(const Side& a, const Side& b) {
        if (a.ground) {
            return unify(b, a);
        }
        if (b.ground) {
            Ground g = b.g;
            if (!g.proc) {
                g.n -= a.off;
            }
            bound_[a.root] = g;
            return true;
        }
        if (a.root == b.root) {
            return a.off == b.off;
        }
        // val(a.root) = val(b.root) + b.off - a.off
        parent_[a.root] = b.root;
        off_[a.root] = b.off - a.off;
        return true;
    }

    bool search();
    bool integersFit(const std::vector<Ground>& value, const std::vector<bool>& set);

    const std::vector<VarType>& types_;
    std::size_t procs_;
    std::vector<std::size_t> parent_;
    std::vector<std::int64_t> off_;
    std::vector<std::optional<Ground>> bound_;
    std::vector<Lit> residual_;
};

// x - y <= c over integer roots; index 0 is the constant zero.
struct Diff {
    std::size_t x, y;
    std::int64_t c;
};

bool consistent(std::size_t count, const std::vector<Diff>& diffs) {
    constexpr std::int64_t kInf = std::numeric_limits<std::int64_t>::max() / 4;
    std::vector<std::int64_t> d(count * count, kInf);
    for (std::size_t i = 0; i < count; ++i) {
        d[i * count + i] = 0;
    }
    for (const Diff& e : diffs) {
        // x - y <= c: an edge y -> x of weight c
        std::int64_t& w = d[e.y * count + e.x];
        w = std::min(w, e.c);
    }
    for (std::size_t k = 0; k < count; ++k) {
        for (std::size_t i = 0; i < count; ++i) {
            for (std::size_t j = 0; j < count; ++j) {
                const std::int64_t a = d[i * count + k];
                const std::int64_t b = d[k * count + j];
                if (a < kInf && b < kInf && a + b < d[i * count + j]) {
                    d[i * count + j] = a + b;
                }
            }
        }
        if (d[k * count + k] < 0) {
            return false;
        }
    }
    for (std::size_t i = 0; i < count; ++i) {
        if (d[i * count + i] < 0) {
            return false;
        }
    }
    return true;
}

// Adds `x - y op c` as differences; a disequality picks `<` or `>` by bit.
void addDiff(std::vector<Diff>& out, std::size_t x, std::size_t y, Cmp op, std::int64_t c,
             bool above) {
    switch (op) {
    case Cmp::Le:
        out.push_back({x, y, c});
        break;
    case Cmp::Lt:
        out.push_back({x, y, c - 1});
        break;
    case Cmp::Ge:
        out.push_back({y, x, -c});
        break;
    case Cmp::Gt:
        out.push_back({y, x, -c - 1});
        break;
    case Cmp::Eq:
        out.push_back({x, y, c});
        out.push_back({y, x, -c});
        break;
    case Cmp::Ne:
        addDiff(out, x, y, above ? Cmp::Gt : Cmp::Lt, c, false);
        break;
    }
}

bool Store::integersFit(const std::vector<Ground>& value, const std::vector<bool>& set) {
    std::vector<std::size_t> index(types_.size(), 0);
    std::size_t count = 1;
    struct Pending {
        std::size_t x, y;
        Cmp op;
        std::int64_t c;
    };
    std::vector<Pending> pending;
    for (const Lit& l : residual_) {
        Side a = side(l.a);
        Side b = side(l.b);
        for (Side* s : {&a, &b}) {
            if (!s->ground && set[s->root]) {
                s->ground = true;
                s->g = value[s->root];
                if (!s->g.proc) {
                    s->g.n += s->off;
                }
            }
        }
        if (a.ground && b.ground) {
            if (!holds(a.g, l.op, b.g)) {
                return false;
            }
            continue;
        }
        for (const Side* s : {&a, &b}) {
            if (!s->ground && index[s->root] == 0) {
                index[s->root] = count++;
            }
        }
        // (xa + a.off) op (xb + b.off)  ->  xa - xb op b.off - a.off
        const std::size_t x = a.ground ? 0 : index[a.root];
        const std::size_t y = b.ground ? 0 : index[b.root];
        const std::int64_t lo = a.ground ? a.g.n : a.off;
        const std::int64_t hi = b.ground ? b.g.n : b.off;
        pending.push_back({x, y, l.op, hi - lo});
    }
    std::vector<std::size_t> ne;
    for (std::size_t i = 0; i < pending.size(); ++i) {
        if (pending[i].op == Cmp::Ne) {
            ne.push_back(i);
        }
    }
    if (ne.size() > 20) {
        return true; // too many splits: "satisfiable" keeps every caller sound
    }
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << ne.size()); ++bits) {
        std::vector<Diff> diffs;
        std::size_t k = 0;
        for (std::size_t i = 0; i < pending.size(); ++i) {
            const Pending& p = pending[i];
            const bool above = k < ne.size() && ne[k] == i && ((bits >> k++) & 1U) != 0;
            addDiff(diffs, p.x, p.y, p.op, p.c, above);
        }
        if (consistent(count, diffs)) {
            return true;
        }
    }
    return false;
}

bool Store::search() {
    std::vector<std::size_t> open;
    std::vector<bool> listed(types_.size(), false);
    for (const Lit& l : residual_) {
        for (const Term& t : {l.a, l.b}) {
            if (t.kind != Term::Kind::Var) {
                continue;
            }
            const std::size_t r = find(static_cast<std::size_t>(t.n)).first;
            if (!bound_[r] && !listed[r] && types_[r].kind != VarType::Kind::Int) {
                listed[r] = true;
                open.push_back(r);
            }
        }
    }
    auto domain = [&](std::size_t r) -> std::size_t {
        return types_[r].kind == VarType::Kind::Proc ? procs_ + 1 : types_[r].size;
    };
    auto valueOf = [&](std::size_t r, std::size_t i) {
        if (types_[r].kind == VarType::Kind::Proc) {
            return Ground{true, static_cast<std::int64_t>(i < procs_ ? i : procs_ + r)};
        }
        return Ground{false, static_cast<std::int64_t>(i)};
    };
    std::vector<std::size_t> digit(open.size(), 0);
    std::vector<Ground> value(types_.size());
    std::vector<bool> set(types_.size(), false);
    for (std::size_t r : open) {
        set[r] = true;
    }
    // An odometer over the open variables' values, within kMaxAssignments:
    // past it "satisfiable", which keeps every caller sound (a node kept, a
    // cover or an implication not claimed, an initial state not excluded)
    // and bounds the time between two polls of the limits.
    constexpr std::uint64_t kMaxAssignments = 1U << 16;
    for (std::uint64_t tried = 0;; ++tried) {
        if (tried == kMaxAssignments) {
            return true;
        }
        for (std::size_t i = 0; i < open.size(); ++i) {
            value[open[i]] = valueOf(open[i], digit[i]);
        }
        if (integersFit(value, set)) {
            return true;
        }
        std::size_t i = 0;
        while (i < open.size() && ++digit[i] == domain(open[i])) {
            digit[i++] = 0;
        }
        if (i == open.size()) {
            return false;
        }
    }
}

bool Store::solve() {
    return search();
}

} // namespace

bool satisfiable(const std::vector<VarType>& types, const std::vector<Lit>& lits,
                 std::size_t procs) {
    Store s(types, procs);
    for (const Lit& l : lits) {
        if (!s.add(l)) {
            return false;
        }
    }
    return s.solve();
}

std::vector<Term> forcedValues(const std::vector<VarType>& types, const std::vector<Lit>& lits) {
    Store s(types, 0);
    for (const Lit& l : lits) {
        (void)s.add(l);
    }
    std::vector<Term> out;
    for (std::size_t v = 0; v < types.size(); ++v) {
        out.push_back(s.forced(v));
    }
    return out;
}

} // namespace tsoreach::backward
