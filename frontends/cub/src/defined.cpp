#include "defined.hpp"

#include <algorithm>
#include <optional>
#include <set>

namespace tsoreach::cub {
namespace {

bool termMentions(const Term& t, const std::string& var) {
    return (t.kind == Term::Kind::Cell || t.kind == Term::Kind::View ||
            t.kind == Term::Kind::Name) &&
           t.name == var;
}

// Explicit stack: formulas may nest (bounded, but no recursion is needed).
bool formulaMentions(const Formula& f, const std::string& var) {
    std::vector<const Formula*> todo{&f};
    while (!todo.empty()) {
        const Formula* g = todo.back();
        todo.pop_back();
        if (g->kind == Formula::Kind::Compare &&
            (termMentions(g->lhs, var) || termMentions(g->rhs, var))) {
            return true;
        }
        for (const Formula& a : g->args) {
            todo.push_back(&a);
        }
    }
    return false;
}

bool reads(const TransitionDecl& t, const std::string& var) {
    if (formulaMentions(t.guard, var)) {
        return true;
    }
    for (const Action& a : t.actions) {
        for (const Branch& b : a.branches) {
            if ((b.cond && formulaMentions(*b.cond, var)) || termMentions(b.value, var)) {
                return true;
            }
        }
    }
    return false;
}

bool isConstructor(const TypeDecl& type, const Term& v) {
    return v.kind == Term::Kind::Name && v.offset == 0 &&
           std::find(type.constructors.begin(), type.constructors.end(), v.name) !=
               type.constructors.end();
}

// The constructor c of a top-level guard conjunct `P[p] = c` (p the mover).
std::optional<std::string> guardValue(const TransitionDecl& t, const std::string& p,
                                      const TypeDecl& type) {
    std::vector<const Formula*> todo{&t.guard};
    while (!todo.empty()) {
        const Formula* g = todo.back();
        todo.pop_back();
        if (g->kind == Formula::Kind::And) {
            for (const Formula& a : g->args) {
                todo.push_back(&a);
            }
        } else if (g->kind == Formula::Kind::Compare && g->cmp == Cmp::Eq) {
            for (const auto& [cell, value] : {std::pair{&g->lhs, &g->rhs}, {&g->rhs, &g->lhs}}) {
                if (cell->kind == Term::Kind::Cell && cell->name == p &&
                    cell->indices == std::vector<std::string>{t.params[0]} &&
                    isConstructor(type, *value)) {
                    return value->name;
                }
            }
        }
    }
    return std::nullopt;
}

// The action assigning var[p] for the mover p, if any.
const Action* assignment(const TransitionDecl& t, const std::string& var) {
    for (const Action& a : t.actions) {
        if (a.cell == var && a.indices == std::vector<std::string>{t.params[0]}) {
            return &a;
        }
    }
    return nullptr;
}

bool worksWith(const System& sys, const VarDecl& x, const VarDecl& pc, Value pcInit) {
    const TypeDecl* type = sys.findType(pc.type);
    if (type == nullptr) {
        return false;
    }
    std::set<std::string> s;
    for (const TransitionDecl& t : sys.transitions) {
        if (reads(t, x.name)) {
            auto c = guardValue(t, pc.name, *type);
            if (!c) {
                return false;
            }
            s.insert(*c);
        }
    }
    if (s.count(type->constructors[static_cast<std::size_t>(pcInit)]) != 0) {
        return false;
    }
    for (const TransitionDecl& t : sys.transitions) {
        const Action* a = assignment(t, pc.name);
        if (a == nullptr) {
            continue;
        }
        const Term& v = a->branches.front().value;
        if (a->isCase || !isConstructor(*type, v)) {
            return false; // not a constant
        }
        // X must be assigned whatever the state: not by a case (a case
        // without `_` keeps the old value). One transition assigns a cell
        // once (the translation refuses two assignments).
        const Action* ax = assignment(t, x.name);
        if (s.count(v.name) != 0 && (ax == nullptr || ax->isCase)) {
            return false;
        }
    }
    // Assignments of P through another index (a case over all processes)
    // would escape the argument.
    for (const TransitionDecl& t : sys.transitions) {
        for (const Action& a : t.actions) {
            if (a.cell == pc.name && a.indices != std::vector<std::string>{t.params[0]}) {
                return false;
            }
        }
    }
    return true;
}

} // namespace

bool assignedBeforeRead(const System& sys, const VarDecl& x,
                        const std::map<std::string, Value>& initValue) {
    if (x.dims != 1) {
        return false;
    }
    for (const Cube& c : sys.unsafes) {
        if (formulaMentions(c.formula, x.name)) {
            return false;
        }
    }
    for (const VarDecl& pc : sys.vars) {
        auto it = initValue.find(pc.name);
        if (pc.kind == VarKind::Regular && pc.dims == 1 && it != initValue.end() &&
            worksWith(sys, x, pc, it->second)) {
            return true;
        }
    }
    return false;
}

} // namespace tsoreach::cub
