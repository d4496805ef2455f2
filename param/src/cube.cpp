#include "cube.hpp"

#include "order.hpp"

#include <algorithm>
#include <map>

namespace tsoreach::backward {
namespace {

bool hasForall(const cub::Formula& f) {
    if (f.kind == cub::Formula::Kind::ForallOther) {
        return true;
    }
    return std::any_of(f.args.begin(), f.args.end(), hasForall);
}

std::uint32_t addVar(Node& n, VarType t) {
    n.types.push_back(t);
    return static_cast<std::uint32_t>(n.types.size() - 1);
}

// Injective maps of k items into n, as an odometer; false when done.
bool nextInjection(std::vector<std::uint32_t>& d, std::uint32_t n) {
    for (;;) {
        std::size_t i = 0;
        while (i < d.size() && ++d[i] == n) {
            d[i++] = 0;
        }
        if (i == d.size()) {
            return false;
        }
        std::vector<bool> used(n, false);
        bool ok = true;
        for (std::uint32_t x : d) {
            ok = ok && !used[x];
            used[x] = true;
        }
        if (ok) {
            return true;
        }
    }
}

bool injective(const std::vector<std::uint32_t>& d) {
    for (std::size_t i = 0; i < d.size(); ++i) {
        for (std::size_t j = i + 1; j < d.size(); ++j) {
            if (d[i] == d[j]) {
                return false;
            }
        }
    }
    return true;
}

} // namespace

std::vector<Node> unsafeNodes(const Model& m) {
    std::vector<Node> out;
    for (const cub::Cube& c : m.sys.unsafes) {
        if (hasForall(c.formula)) {
            m.refuse(c.pos, "forall_other in an unsafe cube");
        }
        Node n;
        n.procs = static_cast<std::uint32_t>(c.vars.size());
        for (std::uint32_t p = 0; p < n.procs; ++p) {
            for (const Local& l : m.locals) {
                n.locals.push_back(addVar(n, l.type));
            }
        }
        Scope s;
        for (std::uint32_t p = 0; p < n.procs; ++p) {
            s.procs[c.vars[p]] = p;
        }
        std::map<std::int32_t, std::size_t> viewEvent; // viewer -> its event
        CellSource cells;
        cells.types = &n.types;
        cells.local = [&](std::uint32_t l, std::uint32_t p, SourcePos) {
            return n.locals[p * m.locals.size() + l];
        };
        cells.weak = [&](std::uint32_t w, std::int32_t index, std::int32_t viewer, SourcePos pos) {
            if (viewer < 0) {
                m.refuse(pos, "a weak cell without a view (p @ X) in an unsafe cube");
            }
            auto [it, fresh] = viewEvent.try_emplace(viewer, n.events.size());
            if (fresh) { // one read at the bad instant per process; not fenced
                (void)addEvent(n, Event{static_cast<std::uint32_t>(viewer), true, false, {}, {}});
            }
            for (const Access& a : n.events[it->second].reads) {
                if (a.weak == w && a.index == index) {
                    return a.var;
                }
            }
            const std::uint32_t v = addVar(n, m.weaks[w].type);
            n.events[it->second].reads.push_back(makeAccess(w, index, v));
            return v;
        };
        for (const Conj& conj : dnf(m, c.formula, false, s, cells)) {
            if (conj.fence) {
                m.refuse(c.pos, "fence() in an unsafe cube");
            }
            Node d = n;
            d.lits = conj.lits;
            if (satisfiable(d.types, d.lits, d.procs)) {
                out.push_back(std::move(d));
            }
        }
    }
    return out;
}

bool excludedByInvariant(const Model& m, const Node& n) {
    for (const cub::Cube& c : m.sys.invariants) {
        const auto k = static_cast<std::uint32_t>(c.vars.size());
        if (k > n.procs || hasForall(c.formula)) {
            continue; // a forall_other invariant is not used (only weakens)
        }
        std::vector<std::uint32_t> d(k, 0);
        for (bool more = injective(d) || nextInjection(d, n.procs); more;
             more = nextInjection(d, n.procs)) {
            Scope s;
            for (std::uint32_t i = 0; i < k; ++i) {
                s.procs[c.vars[i]] = d[i];
            }
            CellSource cells;
            cells.types = &n.types;
            cells.local = [&](std::uint32_t l, std::uint32_t p, SourcePos pos) {
                if (!m.locals[l].isConst) {
                    m.refuse(pos, "an invariant over a mutable cell");
                }
                return n.locals[p * m.locals.size() + l];
            };
            cells.weak = [&](std::uint32_t, std::int32_t, std::int32_t, SourcePos pos) {
                m.refuse(pos, "an invariant over a weak cell");
                return std::uint32_t{0};
            };
            for (const Conj& conj : dnf(m, c.formula, false, s, cells)) {
                bool all = true;
                for (const Lit& l : conj.lits) {
                    std::vector<Lit> lits = n.lits;
                    lits.push_back(negate(l));
                    all = all && !satisfiable(n.types, lits, n.procs);
                }
                if (all) {
                    return true;
                }
            }
        }
    }
    return false;
}

} // namespace tsoreach::backward

namespace tsoreach::backward {
namespace {

// `init` as cell = value facts: per local array, per weak cell (an array's
// fact holds at every index).
struct InitFacts {
    std::map<std::uint32_t, Term> local;
    std::map<std::uint32_t, Term> weak;
};

void collectInit(const Model& m, const cub::Formula& f, InitFacts& out) {
    using K = cub::Formula::Kind;
    if (f.kind == K::And) {
        for (const cub::Formula& g : f.args) {
            collectInit(m, g, out);
        }
        return;
    }
    if (f.kind == K::True) {
        return;
    }
    auto isCell = [&](const cub::Term& t) {
        return t.kind == cub::Term::Kind::Cell ||
               (t.kind == cub::Term::Kind::Name && m.weakIndex(t.name) >= 0);
    };
    const bool cellLeft = f.kind == K::Compare && isCell(f.lhs);
    const cub::Term& cell = cellLeft ? f.lhs : f.rhs;
    const cub::Term& value = cellLeft ? f.rhs : f.lhs;
    if (f.kind != K::Compare || f.cmp != cub::Cmp::Eq || !isCell(cell) || isCell(value) ||
        value.kind == cub::Term::Kind::View) {
        m.refuse(f.pos, "an init that is not a conjunction of CELL = VALUE");
    }
    Term v{Term::Kind::Const, value.number + value.offset, 0};
    if (value.kind == cub::Term::Kind::Name) {
        const auto c = m.constructor(value.name);
        if (!c) {
            m.refuse(value.pos, "an init value that is not a constant");
        }
        v.n = *c;
    }
    if (const int w = m.weakIndex(cell.name); w >= 0) {
        out.weak[static_cast<std::uint32_t>(w)] = v;
    } else if (const int l = m.localIndex(cell.name); l >= 0) {
        out.local[static_cast<std::uint32_t>(l)] = v;
    }
}

} // namespace

bool meetsInit(const Model& m, const Node& n) {
    InitFacts facts;
    for (const cub::Cube& c : m.sys.inits) {
        collectInit(m, c.formula, facts);
    }
    Node c = n;
    for (std::uint32_t p = 0; p < n.procs; ++p) {
        for (const auto& [l, v] : facts.local) {
            const Term cell{Term::Kind::Var, n.locals[p * m.locals.size() + l], 0};
            c.lits.push_back(Lit{cell, cub::Cmp::Eq, v});
        }
    }
    std::map<std::pair<std::uint32_t, std::int32_t>, std::uint32_t> open; // unfixed initial values
    for (std::size_t e = 0; e < n.events.size(); ++e) {
        for (const Access& r : n.events[e].reads) {
            if (r.source != kUnsatisfied) {
                continue;
            }
            if (r.notInit) {
                return false;
            }
            Term v;
            if (const auto it = facts.weak.find(r.weak); it != facts.weak.end()) {
                v = it->second;
            } else {
                auto [at, fresh] = open.try_emplace({r.weak, r.index}, 0);
                if (fresh) {
                    at->second = addVar(c, m.weaks[r.weak].type);
                }
                v = Term{Term::Kind::Var, at->second, 0};
            }
            c.lits.push_back(Lit{Term{Term::Kind::Var, r.var, 0}, cub::Cmp::Eq, v});
            for (std::size_t w = 0; w < n.events.size(); ++w) {
                const auto& ws = n.events[w].writes;
                const bool writes = std::any_of(ws.begin(), ws.end(),
                                                [&](const Access& a) { return a.sameCell(r); });
                if (w != e && writes && !addBefore(c, e, w)) {
                    return false; // the initial value is gone once a write reaches memory
                }
            }
        }
    }
    return satisfiable(c.types, c.lits, c.procs);
}

} // namespace tsoreach::backward

namespace tsoreach::backward {
namespace {

class Cover {
  public:
    Cover(const Model& m, const Node& psi, const Node& phi, const std::vector<std::uint32_t>& sigma,
          std::uint64_t& calls, std::uint64_t& left)
        : m_(m), psi_(psi), phi_(phi), sigma_(sigma), calls_(calls), left_(left) {}

    // Tries every injective map of psi's events into phi's, depth first.
    bool run() {
        const std::size_t count = psi_.events.size();
        tau_.assign(count, 0);
        std::vector<std::size_t> next(count + 1, 0);
        std::vector<bool> used(phi_.events.size(), false);
        std::size_t level = 0;
        for (;;) {
            if (left_ == 0) {
                return false; // out of budget: "not covered" only costs nodes
            }
            --left_;
            if (level == count) {
                if (valuesImplied()) {
                    return true;
                }
            } else {
                for (; next[level] < phi_.events.size(); ++next[level]) {
                    const std::size_t c = next[level];
                    if (!used[c] && fits(level, c)) {
                        break;
                    }
                }
                if (next[level] < phi_.events.size()) {
                    tau_[level] = next[level];
                    used[tau_[level]] = true;
                    ++level;
                    next[level] = 0;
                    continue;
                }
            }
            if (level == 0) {
                return false;
            }
            --level; // backtrack: try the next candidate at this level
            used[tau_[level]] = false;
            ++next[level];
        }
    }

  private:
    [[nodiscard]] std::int32_t mapIndex(std::int32_t i) const {
        return i < 0 ? i : static_cast<std::int32_t>(sigma_[static_cast<std::size_t>(i)]);
    }

    const Access* find(const std::vector<Access>& in, const Access& a) const {
        for (const Access& b : in) {
            if (b.weak == a.weak && b.index == mapIndex(a.index)) {
                return &b;
            }
        }
        return nullptr;
    }

    // psi's variable has a forced value that phi's does not force.
    bool clash(std::int64_t psiVar, std::int64_t phiVar) const {
        const Term& a = psi_.forced[static_cast<std::size_t>(psiVar)];
        if (a.kind == Term::Kind::Var) {
            return false;
        }
        Term b = phi_.forced[static_cast<std::size_t>(phiVar)];
        if (a.kind == Term::Kind::Proc && b.kind == Term::Kind::Proc) {
            return sigma_[static_cast<std::size_t>(a.n)] != static_cast<std::uint32_t>(b.n);
        }
        return !(a == b);
    }

  public:
    bool localsFit() const {
        const std::size_t locals = m_.locals.size();
        for (std::size_t p = 0; p < psi_.procs; ++p) {
            for (std::size_t l = 0; l < locals; ++l) {
                if (clash(psi_.locals[p * locals + l], phi_.locals[sigma_[p] * locals + l])) {
                    return false;
                }
            }
        }
        return true;
    }

  private:
    bool fits(std::size_t i, std::size_t c) const {
        const Event& a = psi_.events[i];
        const Event& b = phi_.events[c];
        if (sigma_[a.proc] != b.proc || (a.instant && !b.instant) || (a.fenced && !b.fenced)) {
            return false;
        }
        for (const Access& r : a.reads) {
            const Access* s = find(b.reads, r);
            if (s == nullptr || clash(r.var, s->var) || (r.notInit && !s->notInit) ||
                (r.ownExcluded && !s->ownExcluded) ||
                (r.source == kUnsatisfied) != (s->source == kUnsatisfied)) {
                return false;
            }
            if ((r.source >= 0 && s->source < 0) || (r.memory && !s->memory)) {
                return false;
            }
            if (r.source >= 0 && static_cast<std::size_t>(r.source) < i &&
                tau_[static_cast<std::size_t>(r.source)] != static_cast<std::size_t>(s->source)) {
                return false;
            }
        }
        for (const Access& w : a.writes) {
            if (find(b.writes, w) == nullptr) {
                return false;
            }
        }
        for (std::size_t j = 0; j < i; ++j) {
            if ((psi_.before[j][i] && !phi_.before[tau_[j]][c]) ||
                (psi_.before[i][j] && !phi_.before[c][tau_[j]])) {
                return false;
            }
        }
        return true;
    }

    bool sourcesMatch() const {
        for (std::size_t i = 0; i < psi_.events.size(); ++i) {
            for (const Access& r : psi_.events[i].reads) {
                const Access* s = find(phi_.events[tau_[i]].reads, r);
                if (r.source >= 0 && tau_[static_cast<std::size_t>(r.source)] !=
                                         static_cast<std::size_t>(s->source)) {
                    return false;
                }
                for (std::uint32_t b : r.after) {
                    const auto mapped = static_cast<std::uint32_t>(tau_[b]);
                    // Implied when it is one of phi's bounds or before one.
                    if (std::none_of(s->after.begin(), s->after.end(), [&](std::uint32_t a) {
                            return a == mapped || phi_.before[mapped][a];
                        })) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    bool valuesImplied() {
        if (!sourcesMatch()) {
            return false;
        }
        std::map<std::int64_t, std::int64_t> var;
        const std::size_t locals = m_.locals.size();
        for (std::size_t p = 0; p < psi_.procs; ++p) {
            for (std::size_t l = 0; l < locals; ++l) {
                var[psi_.locals[p * locals + l]] = phi_.locals[sigma_[p] * locals + l];
            }
        }
        for (std::size_t i = 0; i < psi_.events.size(); ++i) {
            const Event& b = phi_.events[tau_[i]];
            for (const Access& r : psi_.events[i].reads) {
                var[r.var] = find(b.reads, r)->var;
            }
            for (const Access& w : psi_.events[i].writes) {
                var[w.var] = find(b.writes, w)->var;
            }
        }
        for (const Lit& l : psi_.lits) {
            Lit r = l;
            for (Term* t : {&r.a, &r.b}) {
                if (t->kind == Term::Kind::Var) {
                    const auto it = var.find(t->n);
                    if (it == var.end()) {
                        return false;
                    }
                    t->n = it->second;
                } else if (t->kind == Term::Kind::Proc) {
                    t->n = sigma_[static_cast<std::size_t>(t->n)];
                }
            }
            if (std::find(phi_.lits.begin(), phi_.lits.end(), r) != phi_.lits.end()) {
                continue;
            }
            Lit g{ground(r.a), r.op, ground(r.b)};
            if (g.a.kind != Term::Kind::Var && g.b.kind != Term::Kind::Var) {
                if (satisfiable(phi_.types, {g}, phi_.procs)) {
                    continue; // holds in every state of phi
                }
                return false;
            }
            std::vector<Lit> lits = phi_.lits;
            lits.push_back(negate(r));
            ++calls_;
            if (satisfiable(phi_.types, lits, phi_.procs)) {
                return false;
            }
        }
        return true;
    }

    Term ground(const Term& t) const {
        if (t.kind != Term::Kind::Var) {
            return t;
        }
        Term f = phi_.forced[static_cast<std::size_t>(t.n)];
        if (f.kind == Term::Kind::Const) {
            f.n += t.off;
        } else {
            f.off += t.off;
        }
        return f;
    }

    const Model& m_;
    const Node& psi_;
    const Node& phi_;
    const std::vector<std::uint32_t>& sigma_;
    std::uint64_t& calls_;
    std::uint64_t& left_; // steps of the search for a renaming still allowed
    std::vector<std::size_t> tau_;
};

} // namespace

namespace {

// Whether psi's process i may be phi's process j: constants forced on their
// cells agree, and j has at least as many events.
bool procFits(const Model& m, const Node& psi, const Node& phi, std::size_t i, std::size_t j) {
    if (psi.eventsOf[i] > phi.eventsOf[j]) {
        return false;
    }
    const std::size_t locals = m.locals.size();
    for (std::size_t l = 0; l < locals; ++l) {
        const std::int64_t a = psi.keys[i * locals + l];
        if (a != kFree && phi.keys[j * locals + l] != a) {
            return false;
        }
    }
    return true;
}

} // namespace

void summarize(const Model& m, Node& n) {
    n.forced = forcedValues(n.types, n.lits);
    n.eventsOf.assign(n.procs, 0);
    for (const Event& e : n.events) {
        ++n.eventsOf[e.proc];
    }
    const std::size_t locals = m.locals.size();
    n.keys.assign(n.procs * locals, kFree);
    n.keyBag.clear();
    for (std::size_t at = 0; at < n.keys.size(); ++at) {
        const Term& t = n.forced[n.locals[at]];
        if (t.kind == Term::Kind::Const) {
            n.keys[at] = t.n;
            n.keyBag.emplace_back(at % locals, t.n);
        }
    }
    std::sort(n.keyBag.begin(), n.keyBag.end());
}

bool covers(const Model& m, const Node& psi, const Node& phi, std::uint64_t& solverCalls) {
    std::uint64_t left = kCoverSteps;
    if (psi.procs > phi.procs || psi.events.size() > phi.events.size()) {
        return false;
    }
    // Each forced constant of psi's processes needs its own process in phi.
    if (!std::includes(phi.keyBag.begin(), phi.keyBag.end(), psi.keyBag.begin(),
                       psi.keyBag.end())) {
        return false;
    }
    const std::size_t k = psi.procs;
    std::vector<std::uint32_t> sigma(k, 0);
    std::vector<bool> used(phi.procs, false);
    std::vector<std::uint32_t> next(k + 1, 0);
    std::size_t level = 0;
    for (;;) { // depth first over injective maps, pruned per process
        if (level == k) {
            Cover cover(m, psi, phi, sigma, solverCalls, left);
            if (cover.localsFit() && cover.run()) {
                return true;
            }
        } else {
            while (next[level] < phi.procs &&
                   (used[next[level]] || !procFits(m, psi, phi, level, next[level]))) {
                ++next[level];
            }
            if (next[level] < phi.procs) {
                sigma[level] = next[level];
                used[sigma[level]] = true;
                next[++level] = 0;
                continue;
            }
        }
        if (level == 0) {
            return false;
        }
        --level;
        used[sigma[level]] = false;
        ++next[level];
    }
}

} // namespace tsoreach::backward
