#include "scope.hpp"

#include <algorithm>

namespace tsoreach::cub {

std::string CellRef::key() const {
    std::string s = var->name;
    for (std::size_t i = 0; i < idx.size(); ++i) {
        s += (i == 0 ? "[" : ",") + std::to_string(idx[i]);
    }
    return idx.empty() ? s : s + "]";
}

Scope::Scope(const System& sys, std::size_t procs) : sys_(sys), procs_(procs) {
    const Value n = static_cast<Value>(procs);
    for (const VarDecl& v : sys.vars) {
        if (v.kind != VarKind::Weak) {
            continue;
        }
        if (v.dims == 0) {
            addrs_[v.name] = {memory_.end(), appendVar(memory_, v.name, 1, false, {}, v.pos)};
        } else if (v.dims == 1) {
            // Index k is process #k; cell 0 is never used.
            const Value base = memory_.end();
            const VarId id = appendVar(memory_, v.name, n + 1, true, {}, v.pos);
            for (Value k = 1; k <= n; ++k) {
                addrs_[CellRef{&v, {k}}.key()] = {base + k, id};
            }
        } else {
            for (Value i = 1; i <= n; ++i) { // one row per first index: `A.2[3]` is A[2,3]
                const Value base = memory_.end();
                const VarId id =
                    appendVar(memory_, v.name + "." + std::to_string(i), n + 1, true, {}, v.pos);
                for (Value j = 1; j <= n; ++j) {
                    addrs_[CellRef{&v, {i, j}}.key()] = {base + j, id};
                }
            }
        }
    }
}

void Scope::fail(SourcePos pos, const std::string& msg) const {
    throw InputError(sys_.sourceName, pos, msg);
}

std::optional<std::vector<Value>> Scope::typeValues(const std::string& type, SourcePos pos) const {
    std::vector<Value> out;
    if (type == "bool") {
        out = {0, 1};
    } else if (type == "proc") {
        for (Value k = 1; k <= static_cast<Value>(procs_); ++k) {
            out.push_back(k);
        }
    } else if (type == "int") {
        return std::nullopt;
    } else if (const TypeDecl* t = sys_.findType(type)) {
        if (t->constructors.empty()) {
            fail(t->pos,
                 "type '" + type + "' has no constructors: abstract types are not supported");
        }
        for (std::size_t i = 0; i < t->constructors.size(); ++i) {
            out.push_back(static_cast<Value>(i));
        }
    } else {
        fail(pos, "unknown type '" + type + "'");
    }
    return out;
}

std::string Scope::showValue(const std::string& type, Value v) const {
    if (type == "bool" && (v == 0 || v == 1)) {
        return v == 1 ? "True" : "False";
    }
    if (type == "proc") {
        return "#" + std::to_string(v);
    }
    if (const TypeDecl* t = sys_.findType(type);
        t != nullptr && v >= 0 && static_cast<std::size_t>(v) < t->constructors.size()) {
        return t->constructors[static_cast<std::size_t>(v)];
    }
    return std::to_string(v);
}

std::vector<std::vector<Value>> Scope::indexTuples(const VarDecl& v) const {
    std::vector<std::vector<Value>> out{{}};
    for (std::size_t d = 0; d < v.dims; ++d) {
        std::vector<std::vector<Value>> longer;
        for (const auto& prefix : out) {
            for (Value k = 1; k <= static_cast<Value>(procs_); ++k) {
                longer.push_back(prefix);
                longer.back().push_back(k);
            }
        }
        out = std::move(longer);
    }
    return out;
}

Value Scope::processOf(const std::string& var, const Binding& b, SourcePos pos) const {
    auto it = b.find(var);
    if (it == b.end()) {
        fail(pos, "process variable '" + var + "' is not bound here");
    }
    return it->second;
}

std::optional<CellRef> Scope::cellOf(const Term& t, const Binding& b) const {
    if (t.kind != Term::Kind::Cell && t.kind != Term::Kind::View && t.kind != Term::Kind::Name) {
        return std::nullopt;
    }
    const VarDecl* v = sys_.findVar(t.name);
    if (v == nullptr) {
        if (t.kind == Term::Kind::Name) {
            return std::nullopt; // a constructor or a process variable
        }
        fail(t.pos, "unknown variable '" + t.name + "'");
    }
    if (t.indices.size() != v->dims) {
        fail(t.pos, "'" + t.name + "' takes " + std::to_string(v->dims) + " index(es), not " +
                        std::to_string(t.indices.size()));
    }
    CellRef c{v, {}};
    for (const std::string& i : t.indices) {
        c.idx.push_back(processOf(i, b, t.pos));
    }
    return c;
}

std::optional<Value> Scope::constantOf(const Term& t, const Binding& b) const {
    std::optional<Value> v;
    if (t.kind == Term::Kind::Int) {
        v = t.number;
    } else if (t.kind == Term::Kind::Name && b.count(t.name) != 0) {
        v = b.at(t.name);
    } else if (auto c = cellOf(t, b)) {
        if (c->var->kind != VarKind::Const || t.kind == Term::Kind::View) {
            return std::nullopt;
        }
        v = setupValue(c->key());
    } else if (t.kind == Term::Kind::Name) {
        if (t.name == "True" || t.name == "False") {
            v = t.name == "True" ? 1 : 0;
        }
        for (const TypeDecl& ty : sys_.types) {
            auto it = std::find(ty.constructors.begin(), ty.constructors.end(), t.name);
            if (!v && it != ty.constructors.end()) {
                v = static_cast<Value>(it - ty.constructors.begin());
            }
        }
        if (!v) {
            fail(t.pos, "unknown name '" + t.name +
                            "': not a variable, a constructor or a bound process variable");
        }
    }
    return v ? std::optional<Value>(*v + t.offset) : std::nullopt;
}

std::pair<Value, VarId> Scope::address(const CellRef& c) const {
    return addrs_.at(c.key());
}

void Scope::setInitial(const CellRef& c, Value v) {
    const auto [addr, id] = address(c);
    MemoryVar& mv = memory_.vars[id.index()];
    const auto at = static_cast<std::size_t>(addr - mv.base);
    if (mv.init.size() <= at) {
        mv.init.resize(at + 1, 0);
    }
    mv.init[at] = v;
    while (!mv.init.empty() && mv.init.back() == 0) {
        mv.init.pop_back();
    }
}

std::optional<Value> Scope::setupValue(const std::string& key) const {
    auto it = setup_.find(key);
    return it == setup_.end() ? std::nullopt : std::optional<Value>(it->second);
}

std::string Scope::registerOf(const CellRef& c) {
    std::string s = c.var->name;
    for (std::size_t i = 1; i < c.idx.size(); ++i) {
        s += "." + std::to_string(c.idx[i]);
    }
    return s;
}

std::string Scope::readRegister(const CellRef& c) {
    std::string s = "v." + c.var->name;
    for (Value i : c.idx) {
        s += "." + std::to_string(i);
    }
    return s;
}

// ---------------------------------------------------------------------------

ExprOp opOf(Cmp c) {
    switch (c) {
    case Cmp::Eq:
        return ExprOp::Eq;
    case Cmp::Ne:
        return ExprOp::Ne;
    case Cmp::Lt:
        return ExprOp::Lt;
    case Cmp::Le:
        return ExprOp::Le;
    case Cmp::Gt:
        return ExprOp::Gt;
    case Cmp::Ge:
        return ExprOp::Ge;
    }
    return ExprOp::Eq;
}

Expr ExprMaker::term(const Term& t, const Binding& b) {
    if (auto v = scope_.constantOf(t, b)) {
        return Expr::constant(*v);
    }
    if (t.kind == Term::Kind::View &&
        (mode_ != Mode::Transition || scope_.processOf(t.viewer, b, t.pos) != mover_)) {
        scope_.fail(t.pos, mode_ == Mode::Transition
                               ? "a transition reads only its own process's view: '" + t.viewer +
                                     " @ ...' names another process"
                               : "a view 'p @ X' may only be compared (= or <>) with a constant");
    }
    const std::optional<CellRef> c = scope_.cellOf(t, b);
    Expr e = cell(*c, t, t.kind == Term::Kind::View);
    if (t.offset != 0) {
        e = Expr::apply(ExprOp::Add, e, Expr::constant(t.offset));
    }
    return e;
}

Expr ExprMaker::cell(const CellRef& c, const Term& t, bool view) {
    const VarDecl& v = *c.var;
    if (view && v.kind != VarKind::Weak) {
        scope_.fail(t.pos, "'@' reads a weak variable; '" + v.name + "' is not weak");
    }
    if (v.kind == VarKind::Const) {
        scope_.fail(t.pos, "const '" + c.key() + "' has no value here"); // setups give them all
    }
    if (v.kind == VarKind::Regular && mode_ == Mode::Static) {
        scope_.fail(t.pos, "'" + v.name +
                               "' is not const: an invariant may constrain const "
                               "cells only");
    }
    if (v.kind == VarKind::Regular) {
        if (v.dims == 0) {
            scope_.fail(v.pos, "non-weak variable '" + v.name +
                                   "' is shared by all processes: not supported (declare it "
                                   "'weak var', or an array indexed by its owner)");
        }
        if (mode_ == Mode::Static || c.idx[0] != mover_) {
            scope_.fail(t.pos, "'" + c.key() +
                                   "' is a regular cell of another process: only a "
                                   "process's own regular cells (first index) may be "
                                   "read here");
        }
        return Expr::reg(b_->reg(Scope::registerOf(c)));
    }
    if (mode_ != Mode::Transition) {
        scope_.fail(t.pos, mode_ == Mode::Goal
                               ? "weak variable '" + v.name +
                                     "' must be read through a process's view here ('p @ " +
                                     v.name + "')"
                               : "'" + v.name +
                                     "' is not const: an invariant may constrain "
                                     "const cells only");
    }
    ++weakUses_;
    const auto [addr, id] = scope_.address(c);
    const std::string reg = Scope::readRegister(c);
    const auto cell = addr; // clang 14 cannot capture a structured binding
    if (std::none_of(reads_.begin(), reads_.end(),
                     [&](const WeakRead& r) { return r.addr == cell; })) {
        reads_.push_back(WeakRead{addr, id, reg});
    }
    return Expr::reg(b_->reg(reg));
}

Expr ExprMaker::formula(const Formula& f, const Binding& b, bool positive) {
    switch (f.kind) {
    case Formula::Kind::True:
        return Expr::constant(1);
    case Formula::Kind::False:
        return Expr::constant(0);
    case Formula::Kind::Fence:
        if (mode_ != Mode::Transition || !positive || !fenceAllowed_) {
            scope_.fail(f.pos, mode_ != Mode::Transition || !fenceAllowed_
                                   ? "fence() is allowed only in a transition's guard"
                                   : "fence() under '||' is not supported: it must hold "
                                     "whenever the guard does");
        }
        fence_ = true;
        return Expr::constant(1);
    case Formula::Kind::Compare:
        return Expr::apply(opOf(f.cmp), term(f.lhs, b), term(f.rhs, b));
    case Formula::Kind::And:
    case Formula::Kind::Or: {
        const bool isAnd = f.kind == Formula::Kind::And;
        std::vector<Expr> parts;
        for (const Formula& a : f.args) {
            parts.push_back(formula(a, b, positive && isAnd));
        }
        return chain(isAnd ? ExprOp::And : ExprOp::Or, parts);
    }
    case Formula::Kind::ForallOther:
        return forall(f, b, positive);
    }
    return Expr::constant(0);
}

Expr ExprMaker::forall(const Formula& f, const Binding& b, bool positive) {
    if (b.count(f.var) != 0) {
        scope_.fail(f.pos, "process variable '" + f.var + "' is already bound");
    }
    std::vector<Expr> parts;
    for (Value k = 1; k <= static_cast<Value>(scope_.procs()); ++k) {
        if (std::find(params_.begin(), params_.end(), k) == params_.end()) {
            Binding inner = b;
            inner[f.var] = k;
            parts.push_back(formula(f.args[0], inner, positive));
        }
    }
    return chain(ExprOp::And, parts);
}

Expr chain(ExprOp op, const std::vector<Expr>& es) {
    if (es.empty()) {
        return Expr::constant(op == ExprOp::And ? 1 : 0);
    }
    std::vector<ExprNode> nodes(es.size() - 1, ExprNode{op, {}, 0, {}});
    for (const Expr& e : es) {
        nodes.insert(nodes.end(), e.nodes().begin(), e.nodes().end());
    }
    return Expr::prefix(std::move(nodes));
}

std::vector<std::pair<const Formula*, Binding>>
conjuncts(const Formula& f, const Binding& b, const std::vector<Value>& params, std::size_t procs) {
    std::vector<std::pair<const Formula*, Binding>> out;
    std::vector<std::pair<const Formula*, Binding>> todo{{&f, b}};
    while (!todo.empty()) {
        auto [g, bind] = todo.back();
        todo.pop_back();
        if (g->kind == Formula::Kind::And) {
            for (auto it = g->args.rbegin(); it != g->args.rend(); ++it) {
                todo.emplace_back(&*it, bind);
            }
        } else if (g->kind == Formula::Kind::ForallOther && bind.count(g->var) == 0) {
            for (Value k = static_cast<Value>(procs); k >= 1; --k) {
                if (std::find(params.begin(), params.end(), k) == params.end()) {
                    Binding inner = bind;
                    inner[g->var] = k;
                    todo.emplace_back(&g->args[0], inner);
                }
            }
        } else {
            out.emplace_back(g, bind);
        }
    }
    return out;
}

} // namespace tsoreach::cub
