#include "tsoreach/frontends/condition_goal.hpp"

#include "tsoreach/lang/builder.hpp"
#include "tsoreach/lang/printer.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace tsoreach {

namespace {

// `base`, or base with a number appended, not in `taken`; added to it.
std::string fresh(std::set<std::string>& taken, const std::string& base) {
    std::string name = base;
    for (int i = 2; taken.count(name) != 0; ++i) {
        name = base + "." + std::to_string(i);
    }
    taken.insert(name);
    return name;
}

// The conjunction of `atoms` over registers of the thread being built, or
// over the observer's registers for the cells (`cellReg` by address).
Expr conjunction(ProgramBuilder& b, const std::vector<ConditionAtom>& atoms,
                 const std::function<std::string(const ConditionAtom&)>& regName) {
    std::optional<Expr> all;
    for (const ConditionAtom& a : atoms) {
        Expr one = Expr::apply(a.equal ? ExprOp::Eq : ExprOp::Ne, Expr::reg(b.reg(regName(a))),
                               Expr::constant(a.value));
        all = all ? Expr::apply(ExprOp::And, *all, one) : one;
    }
    return all ? *all : Expr::constant(1);
}

// The atoms of `term` that `pick` selects.
std::vector<ConditionAtom> atomsOf(const ConditionTerm& term,
                                   const std::function<bool(const ConditionAtom&)>& pick) {
    std::vector<ConditionAtom> out;
    std::copy_if(term.begin(), term.end(), std::back_inserter(out), pick);
    return out;
}

struct Plan {
    const Program& p;
    const std::vector<ConditionTerm>& terms;
    SourcePos pos;      // of the condition, for its checks
    bool cells = false; // some atom reads a cell
    // The formula searched for is unsatisfiable: one term, whose branch of
    // the first thread is `check 0`, so that the goal never holds and every
    // command (and `print`) still sees a goal state.
    bool never = false;
    std::vector<VarId> done;      // by thread, when cells
    std::vector<Value> doneAddr;  // by thread
    std::vector<Value> cellAddrs; // the cells the atoms read
    // accepted[k][t]: names of the states term k accepts for thread t
    // (threads of p, then the observer).
    std::vector<std::vector<std::vector<std::string>>> accepted;
};

// Thread t of p with its branches (see the header).
void buildThread(ProgramBuilder& b, Plan& plan, std::size_t t) {
    const Program& p = plan.p;
    const Thread& th = p.threads[t];
    std::set<std::string> taken(th.stateNames.begin(), th.stateNames.end());
    b.addThread(th.name, th.stateNames[th.initial.index()], th.pos);
    const ThreadId tid(static_cast<std::uint32_t>(t));
    const auto mine = [&](const ConditionAtom& a) { return a.thread == tid; };
    // The branches of each end state, named before any transition so that
    // a one-term goal can be the finals (ids in the builder's order).
    struct End {
        std::string at, ready, fenced;
        std::vector<std::string> branch; // by term; empty: no atoms of t
    };
    std::vector<End> ends;
    for (std::size_t s = 0; s < th.stateCount(); ++s) {
        if (!th.outgoingOf(StateId(static_cast<std::uint32_t>(s))).empty()) {
            continue;
        }
        End e{th.stateNames[s], th.stateNames[s], "", {}};
        if (plan.cells) {
            e.fenced = fresh(taken, e.at + ".fenced");
            e.ready = fresh(taken, e.at + ".done");
        }
        for (std::size_t k = 0; k < plan.terms.size(); ++k) {
            const bool has = std::any_of(plan.terms[k].begin(), plan.terms[k].end(), mine) ||
                             (plan.never && t == 0);
            e.branch.push_back(has ? fresh(taken, e.at + "." + std::to_string(k + 1)) : "");
            plan.accepted[k][t].push_back(has ? e.branch.back() : e.ready);
        }
        ends.push_back(std::move(e));
    }
    if (plan.terms.size() == 1) {
        for (const std::string& s : plan.accepted[0][t]) {
            b.addFinal(b.state(s));
        }
    }
    for (TransitionId id : th.transitions) {
        const Transition& tr = p.transitions[id.index()];
        const StateId from = b.state(th.stateNames[tr.from.index()]);
        const StateId to = b.state(th.stateNames[tr.to.index()]);
        b.addTransition(from, to, b.copy(p, tr), tr.pos);
    }
    const auto regName = [&](const ConditionAtom& a) { return th.regNames[a.reg.index()]; };
    for (const End& e : ends) {
        if (plan.cells) {
            b.addTransition(b.state(e.at), b.state(e.fenced), Instr::plain(InstrKind::Mfence),
                            plan.pos);
            b.addTransition(
                b.state(e.fenced), b.state(e.ready),
                Instr::write(Expr::constant(1), Expr::cell(plan.done[t], plan.doneAddr[t])),
                plan.pos);
        }
        for (std::size_t k = 0; k < plan.terms.size(); ++k) {
            if (!e.branch[k].empty()) {
                b.addTransition(
                    b.state(e.ready), b.state(e.branch[k]),
                    Instr::check(plan.never
                                     ? Expr::constant(0)
                                     : conjunction(b, atomsOf(plan.terms[k], mine), regName)),
                    plan.pos);
            }
        }
    }
}

// The observer: waits for every done flag, reads the cells, branches.
void buildObserver(ProgramBuilder& b, Plan& plan) {
    const Program& p = plan.p;
    std::set<std::string> names;
    for (const Thread& th : p.threads) {
        names.insert(th.name);
    }
    const std::size_t o = p.threads.size();
    b.addThread(fresh(names, "observer"), "start", plan.pos);
    std::set<std::string> taken{"start", "read"};
    const auto isCell = [](const ConditionAtom& a) { return a.isCell(); };
    std::vector<std::string> branch;
    for (std::size_t k = 0; k < plan.terms.size(); ++k) {
        const bool has = std::any_of(plan.terms[k].begin(), plan.terms[k].end(), isCell);
        branch.push_back(has ? fresh(taken, "read." + std::to_string(k + 1)) : "");
        plan.accepted[k][o].push_back(has ? branch.back() : "read");
    }
    if (plan.terms.size() == 1) {
        b.addFinal(b.state(plan.accepted[0][o].front()));
    }
    // Registers: d for the flags, final.NAME for a cell; fresh() keeps them
    // clear of the variables' names (a register may not have one).
    std::set<std::string> regs;
    for (const MemoryVar& v : p.memory.vars) {
        regs.insert(v.name);
    }
    const std::string d = fresh(regs, "d");
    std::map<Value, std::string> cellReg;
    for (Value a : plan.cellAddrs) {
        std::string n = p.memory.label(a);
        std::replace_if(
            n.begin(), n.end(), [](char c) { return c == '[' || c == ']'; }, '.');
        cellReg[a] = fresh(regs, "final." + n);
    }
    std::string at = "start";
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        const std::string got = fresh(taken, "got." + p.threads[t].name);
        const std::string seen = t + 1 == p.threads.size() && plan.cellAddrs.empty()
                                     ? "read"
                                     : fresh(taken, "seen." + p.threads[t].name);
        b.addTransition(b.state(at), b.state(got),
                        Instr::read(b.reg(d), Expr::cell(plan.done[t], plan.doneAddr[t])),
                        plan.pos);
        b.addTransition(
            b.state(got), b.state(seen),
            Instr::check(Expr::apply(ExprOp::Eq, Expr::reg(b.reg(d)), Expr::constant(1))),
            plan.pos);
        at = seen;
    }
    for (std::size_t i = 0; i < plan.cellAddrs.size(); ++i) {
        const Value a = plan.cellAddrs[i];
        const std::string next = i + 1 == plan.cellAddrs.size() ? "read" : fresh(taken, "r");
        const VarId v = p.memory.varAt(a);
        b.addTransition(
            b.state(at), b.state(next),
            Instr::read(b.reg(cellReg[a]), v.valid() ? Expr::cell(v, a) : Expr::constant(a)),
            plan.pos);
        at = next;
    }
    for (std::size_t k = 0; k < plan.terms.size(); ++k) {
        if (!branch[k].empty()) {
            b.addTransition(
                b.state("read"), b.state(branch[k]),
                Instr::check(conjunction(b, atomsOf(plan.terms[k], isCell),
                                         [&](const ConditionAtom& a) { return cellReg[a.addr]; })),
                plan.pos);
        }
    }
}

Goal goalOf(const Program& built, const Plan& plan) {
    Goal g(built);
    for (std::size_t k = 0; k < plan.terms.size(); ++k) {
        if (k > 0) {
            g.addTerm();
        }
        for (std::size_t t = 0; t < plan.accepted[k].size(); ++t) {
            const Thread& th = built.threads[t];
            const ThreadId tid(static_cast<std::uint32_t>(t));
            g.constrain(tid);
            for (const std::string& s : plan.accepted[k][t]) {
                const auto it = std::find(th.stateNames.begin(), th.stateNames.end(), s);
                g.accept(tid, StateId(static_cast<std::uint32_t>(it - th.stateNames.begin())));
            }
        }
    }
    return g;
}

} // namespace

LoadedProgram withConditionGoal(const LoadedProgram& in) {
    if (!in.condition) {
        return in;
    }
    const Program& p = in.program;
    const std::optional<std::vector<ConditionTerm>> terms =
        searchedTerms(*in.condition, kMaxConditionTerms);
    if (!terms) {
        throw InputError(p.sourceName, in.condition->pos,
                         "the condition has more than " + std::to_string(kMaxConditionTerms) +
                             " terms in disjunctive normal form; write it more simply");
    }
    const bool never = terms->empty();
    const std::vector<ConditionTerm> searched = never ? std::vector<ConditionTerm>(1) : *terms;
    Plan plan{p, searched, in.condition->pos, false, never, {}, {}, {}, {}};
    std::set<Value> cellSet;
    for (const ConditionTerm& term : searched) {
        for (const ConditionAtom& a : term) {
            if (a.isCell()) {
                cellSet.insert(a.addr);
            }
        }
    }
    plan.cells = !cellSet.empty();
    plan.cellAddrs.assign(cellSet.begin(), cellSet.end());
    MemoryLayout memory = p.memory;
    if (plan.cells) {
        std::set<std::string> vars;
        for (const MemoryVar& v : memory.vars) {
            vars.insert(v.name);
        }
        for (const Thread& th : p.threads) {
            const Value addr = memory.end();
            plan.done.push_back(appendVar(memory, fresh(vars, "done." + th.name), 1, false, {}));
            plan.doneAddr.push_back(addr);
        }
    }
    plan.accepted.assign(searched.size(), std::vector<std::vector<std::string>>(
                                              p.threads.size() + (plan.cells ? 1 : 0)));
    ProgramBuilder b(p.sourceName);
    b.setMemory(memory);
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        buildThread(b, plan, t);
    }
    if (plan.cells) {
        buildObserver(b, plan);
    }
    LoadedProgram out = in;
    out.program = b.build();
    out.goal = goalOf(out.program, plan);
    return out;
}

std::string goalOptions(const Program& p, const Goal& g) {
    std::string out;
    for (std::size_t k = 0; k < g.termCount(); ++k) {
        out += (k == 0 ? "--goal " : " --goal ") + g.describeTerm(p, k);
    }
    return out;
}

} // namespace tsoreach
