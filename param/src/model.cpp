#include "model.hpp"

#include "tsoreach/lang/source.hpp"

#include <algorithm>
#include <optional>

namespace tsoreach::backward {

Model::Model(const cub::System& s) : sys(s) {
    if (sys.numberProcs) {
        refuse({}, "number_procs (a system for a bounded number of processes)");
    }
    for (const cub::VarDecl& v : sys.vars) {
        const VarType t = typeNamed(v.type, v.pos);
        if (v.kind == cub::VarKind::Weak) {
            if (v.dims > 1) {
                refuse(v.pos, "weak array of two dimensions");
            }
            weaks.push_back({v.name, t, v.dims == 1, false});
        } else if (v.dims != 1) {
            refuse(v.pos, v.dims == 0 ? "shared non-weak variable" : "array of two dimensions");
        } else {
            locals.push_back({v.name, t, v.kind == cub::VarKind::Const});
        }
    }
    checkWritesOwned();
    findWrittenTogether();
}

void Model::findWrittenTogether() {
    const std::size_t count = weaks.size();
    together.assign(count, std::vector<bool>(count, true));
    for (std::size_t a = 0; a < count; ++a) {
        together[a][a] = false;
    }
    for (const cub::TransitionDecl& t : sys.transitions) {
        // Per weak cell, its index list when written unconditionally here.
        std::vector<std::optional<std::vector<std::string>>> at(count);
        std::vector<bool> conditional(count, false);
        for (const cub::Action& a : t.actions) {
            if (const int w = weakIndex(a.cell); w >= 0) {
                const auto u = static_cast<std::size_t>(w);
                conditional[u] =
                    conditional[u] || at[u] || a.branches.size() != 1 || a.branches[0].cond;
                at[u] = a.indices;
            }
        }
        for (std::size_t a = 0; a < count; ++a) {
            for (std::size_t b = 0; b < count; ++b) {
                together[a][b] =
                    together[a][b] && !conditional[a] && !conditional[b] && at[a] == at[b];
            }
        }
    }
}

void Model::checkWritesOwned() {
    for (Weak& w : weaks) {
        w.ownerWritten = w.array;
        w.holdsWriter = w.type.kind == VarType::Kind::Proc;
    }
    for (const cub::TransitionDecl& t : sys.transitions) {
        for (const cub::Action& a : t.actions) {
            if (const int w = weakIndex(a.cell); w >= 0) {
                Weak& cell = weaks[static_cast<std::size_t>(w)];
                if (cell.array && std::find(t.params.begin(), t.params.end(), a.indices.at(0)) ==
                                      t.params.end()) {
                    refuse(a.pos, "an assignment to every cell of weak array " + a.cell + " (" +
                                      a.cell + "[" + a.indices.at(0) +
                                      "] with an index that is not a parameter)");
                }
                cell.ownerWritten = cell.ownerWritten && a.indices.at(0) == t.params.at(0);
                for (const cub::Branch& b : a.branches) {
                    cell.holdsWriter = cell.holdsWriter && b.value.kind == cub::Term::Kind::Name &&
                                       b.value.name == t.params.at(0) && b.value.offset == 0;
                }
                continue;
            }
            const int l = localIndex(a.cell);
            if (l < 0 || locals[static_cast<std::size_t>(l)].isConst) {
                refuse(a.pos, "assignment to " + a.cell + ", not a regular array");
            }
            if (a.indices.at(0) != t.params.at(0)) {
                refuse(a.pos, "assignment to a regular cell of another process");
            }
        }
    }
}

int Model::localIndex(const std::string& name) const {
    for (std::size_t i = 0; i < locals.size(); ++i) {
        if (locals[i].name == name) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

int Model::weakIndex(const std::string& name) const {
    for (std::size_t i = 0; i < weaks.size(); ++i) {
        if (weaks[i].name == name) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

VarType Model::typeNamed(const std::string& name, SourcePos pos) const {
    if (name == "bool") {
        return {VarType::Kind::Finite, 2};
    }
    if (name == "int") {
        return {VarType::Kind::Int, 0};
    }
    if (name == "proc") {
        return {VarType::Kind::Proc, 0};
    }
    if (const cub::TypeDecl* t = sys.findType(name)) {
        return {VarType::Kind::Finite, static_cast<std::uint32_t>(t->constructors.size())};
    }
    refuse(pos, "unknown type " + name);
}

std::optional<Value> Model::constructor(const std::string& name) const {
    if (name == "False" || name == "True") {
        return name == "True" ? 1 : 0;
    }
    for (const cub::TypeDecl& t : sys.types) {
        for (std::size_t i = 0; i < t.constructors.size(); ++i) {
            if (t.constructors[i] == name) {
                return static_cast<Value>(i);
            }
        }
    }
    return std::nullopt;
}

void Model::refuse(SourcePos pos, const std::string& what) const {
    throw InputError(sys.sourceName, pos, "the all-N mode does not take " + what);
}

namespace {

std::uint32_t procOf(const Model& m, const Scope& s, const std::string& name, SourcePos pos) {
    const auto it = s.procs.find(name);
    if (it == s.procs.end()) {
        m.refuse(pos, "the unbound process variable " + name);
    }
    return it->second;
}

Term cellTerm(const Model& m, const cub::Term& t, const Scope& s, const CellSource& cells) {
    const std::int32_t viewer = t.kind == cub::Term::Kind::View
                                    ? static_cast<std::int32_t>(procOf(m, s, t.viewer, t.pos))
                                    : -1;
    if (const int w = m.weakIndex(t.name); w >= 0) {
        const std::int32_t index =
            t.indices.empty() ? -1 : static_cast<std::int32_t>(procOf(m, s, t.indices[0], t.pos));
        const auto v = cells.weak(static_cast<std::uint32_t>(w), index, viewer, t.pos);
        return Term{Term::Kind::Var, v, t.offset};
    }
    const int l = m.localIndex(t.name);
    if (l < 0 || t.indices.size() != 1 || viewer >= 0) {
        m.refuse(t.pos, "the cell " + t.name + " here");
    }
    const auto v =
        cells.local(static_cast<std::uint32_t>(l), procOf(m, s, t.indices[0], t.pos), t.pos);
    return Term{Term::Kind::Var, v, t.offset};
}

bool isProc(const Term& t, const CellSource& cells) {
    return t.kind == Term::Kind::Proc ||
           (t.kind == Term::Kind::Var &&
            (*cells.types)[static_cast<std::size_t>(t.n)].kind == VarType::Kind::Proc);
}

std::vector<Conj> product(const std::vector<Conj>& a, const std::vector<Conj>& b) {
    std::vector<Conj> out;
    for (const Conj& x : a) {
        for (const Conj& y : b) {
            Conj c = x;
            c.lits.insert(c.lits.end(), y.lits.begin(), y.lits.end());
            c.fence = c.fence || y.fence;
            out.push_back(std::move(c));
        }
    }
    return out;
}

} // namespace

Term translate(const Model& m, const cub::Term& t, const Scope& s, const CellSource& cells) {
    switch (t.kind) {
    case cub::Term::Kind::Int:
        return Term{Term::Kind::Const, t.number + t.offset, 0};
    case cub::Term::Kind::Name:
        if (s.procs.count(t.name) != 0) {
            if (t.offset != 0) {
                m.refuse(t.pos, "arithmetic on a process");
            }
            return Term{Term::Kind::Proc, s.procs.at(t.name), 0};
        }
        if (const auto c = m.constructor(t.name)) {
            return Term{Term::Kind::Const, *c + t.offset, 0};
        }
        if (m.weakIndex(t.name) >= 0) { // a weak variable: a cell without index
            return cellTerm(m, t, s, cells);
        }
        m.refuse(t.pos, "the name " + t.name);
    case cub::Term::Kind::Cell:
    case cub::Term::Kind::View:
        return cellTerm(m, t, s, cells);
    }
    m.refuse(t.pos, "this term");
}

std::vector<Conj> dnf(const Model& m, const cub::Formula& f, bool neg, const Scope& s,
                      const CellSource& cells) {
    using K = cub::Formula::Kind;
    switch (f.kind) {
    case K::True:
    case K::False:
        return (f.kind == K::True) != neg ? std::vector<Conj>{Conj{}} : std::vector<Conj>{};
    case K::Fence:
        if (neg) {
            m.refuse(f.pos, "fence() under a negation (a case condition)");
        }
        return {Conj{{}, true}};
    case K::Compare: {
        Lit l{translate(m, f.lhs, s, cells), neg ? negate(f.cmp) : f.cmp,
              translate(m, f.rhs, s, cells)};
        if ((isProc(l.a, cells) || isProc(l.b, cells)) && l.op != cub::Cmp::Eq &&
            l.op != cub::Cmp::Ne) {
            m.refuse(f.pos, "an order comparison between processes");
        }
        return {Conj{{l}, false}};
    }
    case K::And:
    case K::Or: {
        const bool conj = (f.kind == K::And) != neg;
        std::vector<Conj> acc = conj ? std::vector<Conj>{Conj{}} : std::vector<Conj>{};
        for (const cub::Formula& g : f.args) {
            std::vector<Conj> part = dnf(m, g, neg, s, cells);
            if (conj) {
                acc = product(acc, part);
            } else {
                acc.insert(acc.end(), part.begin(), part.end());
            }
        }
        return acc;
    }
    case K::ForallOther: {
        if (neg) { // fewer disjuncts would shrink the pre-image: unsound
            m.refuse(f.pos, "forall_other under a negation (a case condition)");
        }
        // Over the node's other processes only: fewer conjuncts than at any N
        // with more processes, so the pre-image grows (docs/backward.md).
        std::vector<Conj> acc{Conj{}};
        for (std::uint32_t p : s.others) {
            Scope inner = s;
            inner.procs[f.var] = p;
            acc = product(acc, dnf(m, f.args.at(0), false, inner, cells));
        }
        return acc;
    }
    }
    m.refuse(f.pos, "this formula");
}

} // namespace tsoreach::backward
