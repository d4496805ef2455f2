// The translation of docs/parameterized.md, "Instances". Each transition
// instance is a path main -> ... -> main:
//   [check G_reg] [mfence] [lock|atomic] [read ...] [check G_weak]
//   [write ...] [local ...] [unlock|endatomic]
// G_reg are the guard's conjuncts over the process's registers (checked
// before the block, so that a failing guard blocks nobody), G_weak the
// others. The block is `lock`/`unlock` for a transition that reads weak
// memory and writes it or has fence() (a locked read-modify-write: the
// buffer drains before and after, nobody moves in between), `atomic` for
// several reads (one snapshot of the view, no drain) or several writes
// (joined into one buffer entry, joinwrite), nothing for a single access.

#include "tsoreach/frontends/cub/instantiate.hpp"

#include "defined.hpp"
#include "paths.hpp"
#include "scope.hpp"
#include "transitions.hpp"

#include <algorithm>
#include <array>
#include <set>

namespace tsoreach::cub {

std::string stateOrigin(const std::string& stateName) {
    return stateName.substr(0, std::min(stateName.find('/'), stateName.find('~')));
}

namespace {

// The thread's first state when its regular cells need first values: no
// transition's path can have that name (transition names are identifiers).
constexpr const char* kInitState = "(init)";

// The most setups (choices of const and open weak cells) per N.
constexpr std::size_t kMaxSetups = 20000;

struct OpenCell {
    CellRef cell;
    std::vector<Value> values;
};

// One term of the goal: an unsafe cube under one injective choice of
// processes, before the threads are built.
struct GoalTerm {
    std::map<Value, std::vector<std::pair<const Formula*, Binding>>> roles; // by process
    std::map<Value, std::string> states; // by process: its accepting state
    SourcePos pos;                       // of the unsafe cube
    std::vector<Value> cubeProcesses;    // what forall_other leaves out
    std::vector<ViewAtom> views;         // thread index = process - 1
};

// The processes a binding names: what `forall_other` leaves out.
std::vector<Value> boundProcesses(const Binding& b) {
    std::vector<Value> out;
    for (const auto& [var, k] : b) {
        out.push_back(k);
    }
    return out;
}

class Instantiator {
  public:
    Instantiator(const System& sys, std::size_t n) : sys_(sys), n_(n) {}

    Instances run() {
        if (sys_.unsafes.empty()) {
            fail(SourcePos{1, 1}, "the system has no 'unsafe' cube: nothing to check");
        }
        readInits();
        std::vector<OpenCell> open = openCells();
        Instances out;
        std::vector<std::size_t> choice(open.size(), 0);
        while (true) {
            Scope scope(sys_, n_);
            for (const auto& [key, init] : initValues_) {
                if (init.first.var->kind == VarKind::Weak) {
                    scope.setInitial(init.first, init.second);
                }
            }
            std::string text;
            for (std::size_t i = 0; i < open.size(); ++i) {
                const Value v = open[i].values[choice[i]];
                applySetup(scope, open[i].cell, v);
                text += (text.empty() ? "" : ", ") + open[i].cell.key() + "=" +
                        scope.showValue(open[i].cell.var->type, v);
            }
            if (admissible(scope)) {
                std::vector<GoalTerm> goal = planGoal(scope);
                if (goal.empty()) {
                    ++out.unreachableSetups; // no unsafe cube can hold: safe as it stands
                } else {
                    out.instances.push_back(build(scope, std::move(goal), text));
                }
            }
            std::size_t i = 0;
            while (i < open.size() && ++choice[i] == open[i].values.size()) {
                choice[i++] = 0;
            }
            if (i == open.size()) {
                return out;
            }
        }
    }

  private:
    [[noreturn]] void fail(SourcePos pos, const std::string& msg) const {
        throw InputError(sys_.sourceName, pos, msg);
    }

    // Every tuple of processes for `vars`; injective or not.
    std::vector<Binding> bindings(const std::vector<std::string>& vars, bool injective) const {
        std::vector<Binding> out{{}};
        for (const std::string& v : vars) {
            std::vector<Binding> longer;
            for (const Binding& b : out) {
                for (Value k = 1; k <= static_cast<Value>(n_); ++k) {
                    const bool used = std::any_of(b.begin(), b.end(),
                                                  [&](const auto& e) { return e.second == k; });
                    if (!(injective && used)) {
                        longer.push_back(b);
                        longer.back()[v] = k;
                    }
                }
            }
            out = std::move(longer);
        }
        return out;
    }

    void readInits();
    // Regular arrays that init sets to one constant for every process.
    std::map<std::string, Value> uniformInits() const {
        std::map<std::string, Value> out;
        for (const VarDecl& v : sys_.vars) {
            std::optional<Value> same;
            bool all = v.kind == VarKind::Regular && v.dims == 1;
            for (Value k = 1; all && k <= static_cast<Value>(n_); ++k) {
                auto it = initValues_.find(CellRef{&v, {k}}.key());
                all = it != initValues_.end() && (!same || *same == it->second.second);
                same = all ? std::optional<Value>(it->second.second) : same;
            }
            if (all && same) {
                out[v.name] = *same;
            }
        }
        return out;
    }
    void readInitLiteral(const Scope& scope, const Formula& f, const Binding& b);
    std::vector<OpenCell> openCells() const;
    void applySetup(Scope& scope, const CellRef& c, Value v) const;
    bool admissible(const Scope& scope) const;
    std::vector<GoalTerm> planGoal(const Scope& scope) const;
    ViewAtom viewAtom(const Scope& scope, const Formula& f, const Binding& bind,
                      const std::vector<Value>& params) const;
    Instance build(Scope& scope, std::vector<GoalTerm> goal, const std::string& setup);
    void buildThread(ProgramBuilder& b, const Scope& scope, Value k, std::vector<GoalTerm>& goal);
    void initPath(ProgramBuilder& b, const Scope& scope, Value k, bool fromInit);
    void goalStates(ProgramBuilder& b, const Scope& scope, Value k, std::vector<GoalTerm>& goal);

    const System& sys_;
    std::size_t n_;
    std::map<std::string, std::pair<CellRef, Value>> initValues_; // by cell key
};

void Instantiator::readInits() {
    const Scope scope(sys_, n_);
    for (const Cube& c : sys_.inits) {
        for (const Binding& b : bindings(c.vars, false)) {
            for (const auto& [f, bind] : conjuncts(c.formula, b, boundProcesses(b), n_)) {
                readInitLiteral(scope, *f, bind);
            }
        }
    }
}

void Instantiator::readInitLiteral(const Scope& scope, const Formula& f, const Binding& b) {
    if (f.kind == Formula::Kind::True) {
        return;
    }
    if (f.kind != Formula::Kind::Compare || f.cmp != Cmp::Eq) {
        fail(f.pos, "'init' takes a conjunction of 'CELL = VALUE' only");
    }
    const bool lhsCell = scope.cellOf(f.lhs, b).has_value();
    const Term& cellTerm = lhsCell ? f.lhs : f.rhs;
    const Term& valueTerm = lhsCell ? f.rhs : f.lhs;
    const std::optional<CellRef> cell = scope.cellOf(cellTerm, b);
    const std::optional<Value> value = scope.constantOf(valueTerm, b);
    if (!cell || !value || cellTerm.kind == Term::Kind::View || cellTerm.offset != 0) {
        fail(f.pos, "'init' takes a conjunction of 'CELL = VALUE' only");
    }
    if (cell->var->kind == VarKind::Const) {
        fail(f.pos, "const '" + cell->var->name +
                        "' takes every value the invariants allow; 'init' cannot fix it");
    }
    auto [it, fresh] = initValues_.emplace(cell->key(), std::make_pair(*cell, *value));
    if (!fresh && it->second.second != *value) {
        fail(f.pos, "'init' gives " + cell->key() + " two values: no initial state");
    }
}

std::vector<OpenCell> Instantiator::openCells() const {
    const Scope scope(sys_, n_);
    std::vector<OpenCell> open;
    std::size_t setups = 1;
    for (const VarDecl& v : sys_.vars) {
        if (v.kind == VarKind::Regular) {
            continue; // chosen by the process's own thread (initPath)
        }
        for (const auto& idx : scope.indexTuples(v)) {
            CellRef c{&v, idx};
            if (v.kind == VarKind::Weak && initValues_.count(c.key()) != 0) {
                continue;
            }
            auto values = scope.typeValues(v.type, v.pos);
            if (!values && v.kind == VarKind::Const) {
                fail(v.pos, "const '" + v.name +
                                "' of type int: a const takes every value of "
                                "its type, and int has infinitely many");
            }
            if (!values) {
                fail(v.pos, "'" + c.key() +
                                "' is an int cell with no value in 'init': give it "
                                "one (an int cell cannot take every value)");
            }
            setups *= values->size();
            if (setups > kMaxSetups) {
                fail(v.pos, "more than " + std::to_string(kMaxSetups) +
                                " initial setups (choices of const cells and of weak cells "
                                "'init' leaves open) at " +
                                std::to_string(n_) + " processes");
            }
            open.push_back(OpenCell{c, std::move(*values)});
        }
    }
    return open;
}

void Instantiator::applySetup(Scope& scope, const CellRef& c, Value v) const {
    if (c.var->kind == VarKind::Const) {
        scope.setValue(c.key(), v);
    } else {
        scope.setInitial(c, v);
    }
}

// False when some invariant cube holds for distinct processes: Cubicle
// assumes invariants, and the ones it takes constrain const cells only.
bool Instantiator::admissible(const Scope& scope) const {
    for (const Cube& c : sys_.invariants) {
        for (const Binding& b : bindings(c.vars, true)) {
            ExprMaker mk(scope, nullptr, 0, ExprMaker::Mode::Static);
            mk.setParams(boundProcesses(b));
            const Expr e = mk.formula(c.formula, b);
            const auto v = constantValue(e.nodes());
            if (!v) {
                fail(c.pos, "an invariant may constrain const cells only");
            }
            if (*v != 0) {
                return false;
            }
        }
    }
    return true;
}

// `p @ X cmp e` (either side) as a condition on thread p's view of X in the
// goal state; e must be known statically (constants, processes, consts).
ViewAtom Instantiator::viewAtom(const Scope& scope, const Formula& f, const Binding& bind,
                                const std::vector<Value>& params) const {
    const bool left = f.lhs.kind == Term::Kind::View;
    const Term& view = left ? f.lhs : f.rhs;
    const Term& other = left ? f.rhs : f.lhs;
    ExprMaker mk(scope, nullptr, 0, ExprMaker::Mode::Static);
    mk.setParams(params);
    const std::optional<Value> value =
        other.kind == Term::Kind::View ? std::nullopt : constantValue(mk.term(other, bind).nodes());
    const std::optional<CellRef> cell = scope.cellOf(view, bind);
    if (!value || view.offset != 0 || !cell || cell->var->kind != VarKind::Weak) {
        fail(f.pos, "a view in 'unsafe' is compared with a constant: 'p @ X = c' for a weak "
                    "cell X");
    }
    static constexpr std::array<std::pair<ExprOp, ExprOp>, 6> kFlipped{{{ExprOp::Eq, ExprOp::Eq},
                                                                        {ExprOp::Ne, ExprOp::Ne},
                                                                        {ExprOp::Lt, ExprOp::Gt},
                                                                        {ExprOp::Le, ExprOp::Ge},
                                                                        {ExprOp::Gt, ExprOp::Lt},
                                                                        {ExprOp::Ge, ExprOp::Le}}};
    ExprOp op = opOf(f.cmp);
    if (!left) {
        op = std::find_if(kFlipped.begin(), kFlipped.end(), [&](const auto& e) {
                 return e.first == op;
             })->second;
    }
    const Value viewer = scope.processOf(view.viewer, bind, view.pos);
    return ViewAtom{ThreadId(static_cast<std::uint32_t>(viewer - 1)), scope.address(*cell).first,
                    op, *value};
}

std::vector<GoalTerm> Instantiator::planGoal(const Scope& scope) const {
    std::vector<GoalTerm> terms;
    for (const Cube& c : sys_.unsafes) {
        for (const Binding& b : bindings(c.vars, true)) {
            GoalTerm t;
            t.pos = c.pos;
            t.cubeProcesses = boundProcesses(b);
            bool holds = true;
            for (const auto& [f, bind] : conjuncts(c.formula, b, boundProcesses(b), n_)) {
                if (f->kind != Formula::Kind::Compare) {
                    if (f->kind == Formula::Kind::False) {
                        holds = false;
                    } else if (f->kind != Formula::Kind::True) {
                        fail(f->pos, "'unsafe' takes a conjunction of comparisons only");
                    }
                    continue;
                }
                if (f->lhs.kind == Term::Kind::View || f->rhs.kind == Term::Kind::View) {
                    t.views.push_back(viewAtom(scope, *f, bind, boundProcesses(b)));
                    continue;
                }
                std::set<Value> owners;
                for (const Term* side : {&f->lhs, &f->rhs}) {
                    if (auto cell = scope.cellOf(*side, bind);
                        cell && cell->var->kind == VarKind::Regular && !cell->idx.empty()) {
                        owners.insert(cell->idx[0]);
                    }
                }
                if (owners.size() > 1) {
                    fail(f->pos, "a literal of 'unsafe' may read the regular cells of one "
                                 "process only");
                }
                if (owners.empty()) {
                    ExprMaker mk(scope, nullptr, 0, ExprMaker::Mode::Goal);
                    mk.setParams(boundProcesses(b));
                    const auto v = constantValue(mk.formula(*f, bind).nodes());
                    holds = holds && v && *v != 0;
                    continue;
                }
                t.roles[*owners.begin()].emplace_back(f, bind);
            }
            if (holds) { // a term without roles or views holds in every state
                terms.push_back(std::move(t));
            }
        }
    }
    return terms;
}

void Instantiator::initPath(ProgramBuilder& b, const Scope& scope, Value k, bool fromInit) {
    std::vector<Step> steps;
    for (const VarDecl& v : sys_.vars) {
        if (v.kind != VarKind::Regular) {
            continue;
        }
        if (v.dims == 0) {
            fail(v.pos, "non-weak variable '" + v.name +
                            "' is shared by all processes: not supported (declare it 'weak var', "
                            "or an array indexed by its owner)");
        }
        for (const auto& idx : scope.indexTuples(v)) {
            if (idx[0] != k) {
                continue;
            }
            const CellRef c{&v, idx};
            const RegId r = b.reg(Scope::registerOf(c));
            Step step;
            if (auto it = initValues_.find(c.key()); it != initValues_.end()) {
                if (it->second.second != 0) {
                    step.push_back({Instr::local(r, Expr::constant(it->second.second))});
                }
            } else if (auto values = scope.typeValues(v.type, v.pos)) {
                for (Value x : *values) {
                    step.push_back({Instr::local(r, Expr::constant(x))});
                }
            } else if (!assignedBeforeRead(sys_, v, uniformInits())) {
                fail(v.pos, "'" + c.key() +
                                "' is an int cell with no value in 'init', and it may be read "
                                "before it is assigned: give it an initial value (an int cell "
                                "cannot take every value)");
            }
            if (!step.empty()) {
                steps.push_back(std::move(step));
            }
        }
    }
    if (fromInit) {
        PathEmitter(b).emit(kInitState, "main", kInitState, steps,
                            sys_.inits.empty() ? SourcePos{} : sys_.inits.front().pos);
    }
}

void Instantiator::goalStates(ProgramBuilder& b, const Scope& scope, Value k,
                              std::vector<GoalTerm>& goal) {
    std::vector<std::pair<std::vector<ExprNode>, std::string>> made;
    for (GoalTerm& t : goal) {
        auto it = t.roles.find(k);
        if (it == t.roles.end()) {
            continue;
        }
        ExprMaker mk(scope, &b, k, ExprMaker::Mode::Goal);
        mk.setParams(t.cubeProcesses);
        std::optional<Expr> cond;
        for (const auto& [f, bind] : it->second) {
            Expr e = mk.formula(*f, bind);
            cond = cond ? Expr::apply(ExprOp::And, *cond, e) : e;
        }
        const std::vector<ExprNode> key(cond->nodes().begin(), cond->nodes().end());
        auto found =
            std::find_if(made.begin(), made.end(), [&](const auto& m) { return m.first == key; });
        if (found == made.end()) {
            const std::string name =
                made.empty() ? "unsafe" : "unsafe." + std::to_string(made.size() + 1);
            PathEmitter(b).emit("main", name, name, {{{Instr::check(*cond)}}}, t.pos);
            found = made.insert(made.end(), {key, name});
        }
        t.states[k] = found->second;
    }
}

void Instantiator::buildThread(ProgramBuilder& b, const Scope& scope, Value k,
                               std::vector<GoalTerm>& goal) {
    bool needsInit = false;
    for (const VarDecl& v : sys_.vars) {
        for (const auto& idx : v.kind == VarKind::Regular ? scope.indexTuples(v)
                                                          : std::vector<std::vector<Value>>{}) {
            auto it = initValues_.find(CellRef{&v, idx}.key());
            needsInit = needsInit || (!idx.empty() && idx[0] == k &&
                                      (it == initValues_.end() || it->second.second != 0));
        }
    }
    b.addThread("p" + std::to_string(k), needsInit ? kInitState : "main");
    initPath(b, scope, k, needsInit);
    PathEmitter paths(b);
    for (const TransitionDecl& t : sys_.transitions) {
        emitTransition(b, paths, scope, t, k);
    }
    goalStates(b, scope, k, goal);
}

Instance Instantiator::build(Scope& scope, std::vector<GoalTerm> goal, const std::string& setup) {
    ProgramBuilder b(sys_.sourceName);
    b.setMemory(scope.memory());
    for (Value k = 1; k <= static_cast<Value>(n_); ++k) {
        buildThread(b, scope, k, goal);
    }
    Program p = b.build();
    Goal g(p);
    // Terms already in g: their states and views.
    std::vector<std::pair<std::map<Value, std::string>, std::vector<ViewAtom>>> seen;
    for (std::size_t i = 0; i < goal.size(); ++i) {
        const auto key = std::make_pair(goal[i].states, goal[i].views);
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
            continue;
        }
        if (!seen.empty()) {
            g.addTerm();
        }
        seen.push_back(key);
        for (const ViewAtom& v : goal[i].views) {
            g.requireView(v);
        }
        for (const auto& [k, name] : goal[i].states) {
            const ThreadId t(static_cast<std::uint32_t>(k - 1));
            const auto& names = p.thread(t).stateNames;
            const auto at = std::find(names.begin(), names.end(), name) - names.begin();
            g.accept(t, StateId(static_cast<std::uint32_t>(at)));
        }
    }
    return Instance{std::move(p), std::move(g), setup};
}

} // namespace

Instances instantiate(const System& sys, std::size_t procs) {
    return Instantiator(sys, procs).run();
}

} // namespace tsoreach::cub
