#include "names.hpp"

#include <algorithm>
#include <set>

namespace tsoreach::cub {
namespace {

class NameChecker {
  public:
    explicit NameChecker(const System& sys) : sys_(sys) {
        for (const TypeDecl& t : sys.types) {
            ctors_.insert(t.constructors.begin(), t.constructors.end());
        }
        ctors_.insert({"True", "False"});
    }

    void run() {
        for (const std::vector<Cube>* list : {&sys_.inits, &sys_.invariants, &sys_.unsafes}) {
            for (const Cube& c : *list) {
                formula(c.formula, c.vars);
            }
        }
        for (const TransitionDecl& t : sys_.transitions) {
            formula(t.guard, t.params);
            for (const Action& a : t.actions) {
                action(a, t.params);
            }
        }
    }

  private:
    [[noreturn]] void fail(SourcePos pos, const std::string& msg) const {
        throw InputError(sys_.sourceName, pos, msg);
    }

    static bool bound(const std::vector<std::string>& scope, const std::string& v) {
        return std::find(scope.begin(), scope.end(), v) != scope.end();
    }

    void cell(const Term& t, const std::vector<std::string>& scope) const {
        const VarDecl* v = sys_.findVar(t.name);
        if (v == nullptr) {
            fail(t.pos, "unknown variable '" + t.name + "'");
        }
        if (t.indices.size() != v->dims) {
            fail(t.pos, "'" + t.name + "' takes " + std::to_string(v->dims) + " index(es), not " +
                            std::to_string(t.indices.size()));
        }
        for (const std::string& i : t.indices) {
            if (!bound(scope, i)) {
                fail(t.pos, "process variable '" + i + "' is not bound here");
            }
        }
    }

    void term(const Term& t, const std::vector<std::string>& scope) const {
        switch (t.kind) {
        case Term::Kind::Int:
            return;
        case Term::Kind::Name:
            if (!bound(scope, t.name) && ctors_.count(t.name) == 0 &&
                sys_.findVar(t.name) == nullptr) {
                fail(t.pos, "unknown name '" + t.name +
                                "': not a variable, a constructor or a bound process variable");
            }
            if (sys_.findVar(t.name) != nullptr) {
                cell(t, scope);
            }
            return;
        case Term::Kind::View:
            if (!bound(scope, t.viewer)) {
                fail(t.pos, "process variable '" + t.viewer + "' is not bound here");
            }
            cell(t, scope);
            if (sys_.findVar(t.name)->kind != VarKind::Weak) {
                fail(t.pos, "'@' reads a weak variable; '" + t.name + "' is not weak");
            }
            return;
        case Term::Kind::Cell:
            cell(t, scope);
            return;
        }
    }

    // Explicit stack: each entry carries its scope (forall_other binds).
    void formula(const Formula& f, const std::vector<std::string>& scope) const {
        std::vector<std::pair<const Formula*, std::vector<std::string>>> todo{{&f, scope}};
        while (!todo.empty()) {
            auto [g, sc] = std::move(todo.back());
            todo.pop_back();
            if (g->kind == Formula::Kind::Compare) {
                term(g->lhs, sc);
                term(g->rhs, sc);
            }
            if (g->kind == Formula::Kind::ForallOther) {
                if (bound(sc, g->var)) {
                    fail(g->pos, "process variable '" + g->var + "' is already bound");
                }
                sc.push_back(g->var);
            }
            for (const Formula& a : g->args) {
                todo.emplace_back(&a, sc);
            }
        }
    }

    // Index variables of an assignment that are not bound range over all
    // processes (`A[j] := case ...`).
    void action(const Action& a, std::vector<std::string> scope) const {
        for (const std::string& i : a.indices) {
            if (!bound(scope, i)) {
                scope.push_back(i);
            }
        }
        Term target;
        target.kind = Term::Kind::Cell;
        target.name = a.cell;
        target.indices = a.indices;
        target.pos = a.pos;
        cell(target, scope);
        for (const Branch& b : a.branches) {
            if (b.cond) {
                formula(*b.cond, scope);
            }
            term(b.value, scope);
        }
    }

    const System& sys_;
    std::set<std::string> ctors_;
};

} // namespace

void checkNames(const System& sys) {
    NameChecker(sys).run();
}

} // namespace tsoreach::cub
