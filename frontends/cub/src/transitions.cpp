#include "transitions.hpp"

#include <algorithm>
#include <set>

namespace tsoreach::cub {
namespace {

// One cell's update: the branches left after those known statically to be
// false, and the value when none holds (nullopt: the cell keeps its value).
struct Update {
    CellRef cell;
    std::vector<std::pair<Expr, Expr>> branches; // condition, value
    std::optional<Expr> otherwise;
    SourcePos pos;
};

std::optional<Value> known(const Expr& e) {
    return constantValue(e.nodes());
}

// c ? v : e, for a condition c that is 0 or 1.
Expr select(const Expr& c, const Expr& v, const Expr& e) {
    return Expr::apply(ExprOp::Add, Expr::apply(ExprOp::Mul, c, v),
                       Expr::apply(ExprOp::Mul, Expr::apply(ExprOp::Not, c), e));
}

Expr conjunction(const std::vector<Expr>& es) {
    return chain(ExprOp::And, es);
}

bool mentions(const Expr& e, RegId r) {
    return std::any_of(e.nodes().begin(), e.nodes().end(),
                       [&](const ExprNode& n) { return n.op == ExprOp::Reg && n.reg == r; });
}

class InstanceMaker {
  public:
    InstanceMaker(ProgramBuilder& b, const Scope& scope, const TransitionDecl& t, Value k,
                  const Binding& bind, std::vector<Value> params)
        : b_(b), scope_(scope), t_(t), k_(k), bind_(bind), params_(std::move(params)),
          mk_(scope, &b, k, ExprMaker::Mode::Transition) {
        mk_.setParams(params_);
    }

    // The path's steps; nullopt when the guard is statically false.
    // The paths of the instance: none when its guard is statically false;
    // two when whether it writes weak memory depends on the state (cases
    // without `_`), since only a writing one is a locked read-modify-write.
    std::vector<std::vector<Step>> paths() {
        if (!guard()) {
            return {};
        }
        mk_.forbidFence();
        for (const Action& a : t_.actions) {
            action(a);
        }
        const bool mayWriteNothing =
            !weakUpdates_.empty() &&
            std::none_of(weakUpdates_.begin(), weakUpdates_.end(),
                         [](const Update& u) { return u.otherwise.has_value(); });
        if (mayWriteNothing && !mk_.fenced() && !mk_.reads().empty()) {
            return {assemble(Writes::Some), assemble(Writes::None)};
        }
        return {assemble(Writes::All)};
    }

  private:
    bool guard() {
        for (const auto& [f, bind] : conjuncts(t_.guard, bind_, params_, scope_.procs())) {
            const std::size_t before = mk_.weakUses();
            Expr e = mk_.formula(*f, bind);
            if (auto v = known(e)) {
                if (*v == 0) {
                    return false;
                }
                continue;
            }
            (mk_.weakUses() == before ? regGuard_ : weakGuard_).push_back(e);
        }
        return true;
    }

    void action(const Action& a) {
        std::vector<std::string> free;
        for (const std::string& i : a.indices) {
            if (bind_.count(i) == 0 && std::find(free.begin(), free.end(), i) == free.end()) {
                free.push_back(i);
            }
        }
        std::vector<Binding> binds{bind_};
        for (const std::string& v : free) {
            std::vector<Binding> longer;
            for (const Binding& b : binds) {
                for (Value k = 1; k <= static_cast<Value>(scope_.procs()); ++k) {
                    longer.push_back(b);
                    longer.back()[v] = k;
                }
            }
            binds = std::move(longer);
        }
        for (const Binding& b : binds) {
            cellUpdate(a, b);
        }
    }

    void cellUpdate(const Action& a, const Binding& b) {
        Term target;
        target.kind = a.indices.empty() ? Term::Kind::Name : Term::Kind::Cell;
        target.name = a.cell;
        target.indices = a.indices;
        target.pos = a.pos;
        const std::optional<CellRef> cell = scope_.cellOf(target, b);
        if (!cell) {
            scope_.fail(a.pos, "unknown variable '" + a.cell + "'");
        }
        if (cell->var->kind == VarKind::Const) {
            scope_.fail(a.pos, "const '" + a.cell + "' cannot be assigned");
        }
        if (cell->var->kind == VarKind::Regular && (cell->idx.empty() || cell->idx[0] != k_)) {
            scope_.fail(a.pos, "'" + cell->key() +
                                   "' is a regular cell of another process: a transition may "
                                   "assign only its own process's regular cells");
        }
        Update u{*cell, {}, std::nullopt, a.pos};
        for (const Branch& br : a.branches) {
            Expr cond = br.cond ? mk_.formula(*br.cond, b) : Expr::constant(1);
            const std::optional<Value> fixed = known(cond);
            if (fixed && *fixed == 0) {
                continue; // its value is never read
            }
            Expr value = mk_.term(br.value, b);
            if (fixed) {
                u.otherwise = value;
                break;
            }
            u.branches.emplace_back(cond, value);
        }
        if (!assigned_.insert(cell->key()).second) {
            scope_.fail(a.pos, "'" + cell->key() + "' is assigned twice by one transition");
        }
        if (cell->var->kind == VarKind::Regular) {
            regUpdates_.push_back(std::move(u));
        } else if (u.otherwise || !u.branches.empty()) {
            weakUpdates_.push_back(std::move(u));
        }
    }

    Expr valueOf(const Update& u, const Expr& keep) const {
        Expr e = u.otherwise ? *u.otherwise : keep;
        for (auto it = u.branches.rbegin(); it != u.branches.rend(); ++it) {
            e = select(it->first, it->second, e);
        }
        return e;
    }

    // All: every update as it comes; Some: at least one weak cell is
    // written; None: none is (a path that only reads).
    enum class Writes : std::uint8_t { All, Some, None };
    std::vector<Step> assemble(Writes w);
    // Whether some branch of a weak update holds (Updates without `_`).
    Expr someWrite() const {
        std::vector<Expr> conds;
        for (const Update& u : weakUpdates_) {
            for (const auto& [cond, value] : u.branches) {
                conds.push_back(cond);
            }
        }
        return chain(ExprOp::Or, conds);
    }
    void writes(std::vector<Step>& steps, bool locked, bool group);
    void locals(std::vector<Step>& steps);

    ProgramBuilder& b_;
    const Scope& scope_;
    const TransitionDecl& t_;
    Value k_;
    Binding bind_;
    std::vector<Value> params_;
    ExprMaker mk_;
    std::vector<Expr> regGuard_, weakGuard_;
    std::vector<Update> regUpdates_, weakUpdates_;
    std::set<std::string> assigned_; // cell keys
};

std::vector<Step> InstanceMaker::assemble(Writes w) {
    const auto& reads = mk_.reads();
    const bool fence = mk_.fenced();
    const bool writing = w != Writes::None && !weakUpdates_.empty();
    const bool locked = !reads.empty() && (writing || fence);
    const bool group = reads.empty() && weakUpdates_.size() > 1;
    const bool snapshot = !locked && reads.size() > 1;
    std::vector<Step> steps;
    if (!regGuard_.empty()) {
        steps.push_back({{Instr::check(conjunction(regGuard_))}});
    }
    if (fence && reads.empty()) {
        steps.push_back({{Instr::plain(InstrKind::Mfence)}});
    }
    const bool block = locked || group || snapshot;
    if (block) {
        steps.push_back({{Instr::plain(locked ? InstrKind::Lock : InstrKind::Atomic)}});
    }
    for (const WeakRead& r : reads) {
        steps.push_back({{Instr::read(b_.reg(r.reg), Expr::cell(r.var, r.addr))}});
    }
    if (!weakGuard_.empty()) {
        steps.push_back({{Instr::check(conjunction(weakGuard_))}});
    }
    if (w == Writes::Some) {
        steps.push_back({{Instr::check(someWrite())}});
    } else if (w == Writes::None) {
        steps.push_back({{Instr::check(Expr::apply(ExprOp::Not, someWrite()))}});
    }
    if (writing) {
        writes(steps, locked, group);
    }
    locals(steps);
    if (block) {
        steps.push_back({{Instr::plain(locked ? InstrKind::Unlock : InstrKind::EndAtomic)}});
    }
    return steps;
}

void InstanceMaker::writes(std::vector<Step>& steps, bool locked, bool group) {
    for (std::size_t i = 0; i < weakUpdates_.size(); ++i) {
        const Update& u = weakUpdates_[i];
        const auto [addr, var] = scope_.address(u.cell);
        const Expr where = Expr::cell(var, addr);
        if (u.otherwise) {
            // Several writes without a read are one buffer entry (rule 2):
            // each is joined to the next, the last closes the group.
            const bool joined = group && i + 1 < weakUpdates_.size();
            Expr value = valueOf(u, Expr::constant(0));
            Instr w = joined ? Instr::joinWrite(value, where) : Instr::write(value, where);
            steps.push_back(Step{Alternative{w}});
            continue;
        }
        // A case without `_` whose branches depend on the state: the cell
        // is written only when some branch holds.
        if (!locked) {
            scope_.fail(u.pos, "a 'case' without '_' whose conditions depend on the state, in "
                               "a transition that reads no weak memory: not supported");
        }
        Step step;
        std::vector<Expr> earlier;
        for (const auto& [cond, value] : u.branches) {
            Expr holds = cond;
            for (const Expr& e : earlier) {
                holds = Expr::apply(ExprOp::And, holds, Expr::apply(ExprOp::Not, e));
            }
            step.push_back({Instr::check(holds), Instr::write(value, where)});
            earlier.push_back(cond);
        }
        Expr none = Expr::constant(1);
        for (const Expr& e : earlier) {
            none = Expr::apply(ExprOp::And, none, Expr::apply(ExprOp::Not, e));
        }
        step.push_back({Instr::check(none)});
        steps.push_back(std::move(step));
    }
}

// Simultaneous assignment: through temporaries when one right-hand side
// reads a register that another assignment changes.
void InstanceMaker::locals(std::vector<Step>& steps) {
    std::vector<std::pair<RegId, Expr>> assigns;
    for (const Update& u : regUpdates_) {
        const RegId r = b_.reg(Scope::registerOf(u.cell));
        Expr e = valueOf(u, Expr::reg(r));
        const bool identity =
            e.nodes().size() == 1 && e.nodes()[0].op == ExprOp::Reg && e.nodes()[0].reg == r;
        if (!identity) {
            assigns.emplace_back(r, e);
        }
    }
    bool clash = false;
    for (std::size_t i = 0; i < assigns.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            clash = clash || mentions(assigns[i].second, assigns[j].first);
        }
    }
    if (!clash) {
        for (const auto& [r, e] : assigns) {
            steps.push_back({{Instr::local(r, e)}});
        }
        return;
    }
    std::vector<RegId> temps;
    for (std::size_t i = 0; i < assigns.size(); ++i) {
        temps.push_back(b_.reg("tmp." + std::to_string(i + 1)));
        steps.push_back({{Instr::local(temps.back(), assigns[i].second)}});
    }
    for (std::size_t i = 0; i < assigns.size(); ++i) {
        steps.push_back({{Instr::local(assigns[i].first, Expr::reg(temps[i]))}});
    }
}

std::string instanceName(const TransitionDecl& t, const Binding& b) {
    std::string s = t.name;
    for (std::size_t i = 1; i < t.params.size(); ++i) {
        s += (i == 1 ? "(" : ",") + t.params[i] + "=" + std::to_string(b.at(t.params[i]));
    }
    return t.params.size() > 1 ? s + ")" : s;
}

} // namespace

void emitTransition(ProgramBuilder& b, PathEmitter& paths, const Scope& scope,
                    const TransitionDecl& t, Value k) {
    std::vector<Binding> binds{{{t.params[0], k}}};
    for (std::size_t i = 1; i < t.params.size(); ++i) {
        std::vector<Binding> longer;
        for (const Binding& bind : binds) {
            for (Value q = 1; q <= static_cast<Value>(scope.procs()); ++q) {
                const bool used = std::any_of(bind.begin(), bind.end(),
                                              [&](const auto& e) { return e.second == q; });
                if (bind.count(t.params[i]) != 0) {
                    scope.fail(t.pos, "parameter '" + t.params[i] + "' is named twice");
                }
                if (!used) {
                    longer.push_back(bind);
                    longer.back()[t.params[i]] = q;
                }
            }
        }
        binds = std::move(longer);
    }
    for (const Binding& bind : binds) {
        std::vector<Value> params;
        for (const std::string& p : t.params) {
            params.push_back(bind.at(p));
        }
        InstanceMaker maker(b, scope, t, k, bind, params);
        const std::vector<std::vector<Step>> made = maker.paths();
        for (std::size_t i = 0; i < made.size(); ++i) {
            // The second path (no weak write) is `t~2`.
            const std::string suffix = i == 0 ? "" : "~" + std::to_string(i + 1);
            paths.emit("main", "main", instanceName(t, bind) + suffix, made[i], t.pos);
        }
    }
}

} // namespace tsoreach::cub
