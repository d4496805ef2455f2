#include "translator.hpp"

#include "tsoreach/lang/builder.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace tsoreach::rmm {

namespace {

using Nodes = std::vector<Node>;

// Expressions in prefix order, composed as the translation writes them.
Nodes num(std::int64_t v) {
    return {Node{ExprOp::Const, v, {}}};
}

Nodes regExpr(const std::string& name) {
    return {Node{ExprOp::Reg, 0, name}};
}

Nodes apply(ExprOp op, Nodes a) {
    a.insert(a.begin(), Node{op, 0, {}});
    return a;
}

Nodes apply(ExprOp op, Nodes a, const Nodes& b) {
    a.insert(a.begin(), Node{op, 0, {}});
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// lo <= e && e <= hi
Nodes inDomain(const Domain& d, const Nodes& e) {
    return apply(ExprOp::And, apply(ExprOp::Le, num(d.lo), e), apply(ExprOp::Le, e, num(d.hi)));
}

// An instruction whose registers are named: the translator numbers nothing,
// the program builder does, thread by thread.
struct NamedInstr {
    InstrKind kind = InstrKind::Noop;
    std::string reg; // read, local
    Nodes value;     // write, local, check
    Nodes addr;      // read, write

    static NamedInstr plain(InstrKind kind) { return {kind, {}, {}, {}}; }
    static NamedInstr read(std::string reg, Nodes addr) {
        return {InstrKind::Read, std::move(reg), {}, std::move(addr)};
    }
    static NamedInstr write(Nodes value, Nodes addr) {
        return {InstrKind::Write, {}, std::move(value), std::move(addr)};
    }
    static NamedInstr local(std::string reg, Nodes value) {
        return {InstrKind::Local, std::move(reg), std::move(value), {}};
    }
    static NamedInstr check(Nodes cond) { return {InstrKind::Check, {}, std::move(cond), {}}; }
    static NamedInstr lockFor(InstrKind kind, Nodes addr) {
        return {kind, {}, {}, std::move(addr)};
    }
};

// `e` for the builder's current thread, its registers by name.
tsoreach::Expr forBuilder(ProgramBuilder& pb, const Nodes& e) {
    std::vector<ExprNode> out;
    out.reserve(e.size());
    for (const Node& n : e) {
        out.push_back(n.op == ExprOp::Reg ? ExprNode{ExprOp::Reg, pb.reg(n.reg), 0, VarId()}
                                          : ExprNode{n.op, RegId(), n.value, VarId()});
    }
    return tsoreach::Expr::prefix(std::move(out));
}

// A constant address names its cell when a variable holds it (`x`, `y[1]`).
tsoreach::Expr address(ProgramBuilder& pb, const Nodes& e, const MemoryLayout& memory) {
    if (e.size() == 1 && e[0].op == ExprOp::Const) {
        if (const VarId v = memory.varAt(e[0].value); v.valid()) {
            return tsoreach::Expr::cell(v, e[0].value);
        }
    }
    return forBuilder(pb, e);
}

Instr forBuilder(ProgramBuilder& pb, const NamedInstr& in, const MemoryLayout& memory) {
    Instr out;
    out.kind = in.kind;
    if (!in.reg.empty()) {
        out.reg = pb.reg(in.reg);
    }
    if (!in.value.empty()) {
        out.value = forBuilder(pb, in.value);
    }
    if (!in.addr.empty()) {
        out.addr = address(pb, in.addr, memory);
    }
    return out;
}

// One thread's automaton under construction. States are merged with a
// union-find where a statement may start at a label's state directly.
struct ThreadBuilder {
    struct Edge {
        std::uint32_t from;
        std::uint32_t to;
        NamedInstr instr;
        SourcePos pos;
        std::vector<std::string> uses;
        std::string def;
    };
    std::vector<std::uint32_t> parent;
    std::vector<std::string> label; // label naming the state's class (at the root)
    std::vector<std::uint8_t> exclusive;
    std::vector<Edge> edges;

    std::uint32_t fresh() {
        // A translation whose text exceeds kMaxSourceBytes is refused
        // (rmm.cpp), as when that text was parsed; this keeps state ids
        // from wrapping before that check.
        if (parent.size() >= kMaxSourceBytes) {
            throw std::length_error("the translation of a process needs more than 2^31 states");
        }
        parent.push_back(static_cast<std::uint32_t>(parent.size()));
        label.emplace_back();
        return parent.back();
    }
    std::uint32_t find(std::uint32_t s) {
        while (parent[s] != s) {
            parent[s] = parent[parent[s]];
            s = parent[s];
        }
        return s;
    }
    void edge(std::uint32_t from, std::uint32_t to, NamedInstr instr, SourcePos pos,
              std::vector<std::string> uses = {}, std::string def = {}) {
        edges.push_back({from, to, std::move(instr), pos, std::move(uses), std::move(def)});
    }
};

class Translator {
  public:
    Translator(const Test& test, const std::string& file) : test_(test), file_(file) {}

    // The threads into `pb`: the initialising one if needed, then one per
    // process.
    void run(ProgramBuilder& pb) {
        layout();
        const std::size_t n = test_.processes.size();
        checkForbidden();
        if (needInit_) {
            initThread(pb);
        }
        for (std::size_t p = 0; p < n; ++p) {
            process(p, pb);
        }
    }

    [[nodiscard]] bool hasInitThread() const { return needInit_; }

    // The named memory (after run): the globals, the process-local arrays,
    // the flag of the initialising thread.
    [[nodiscard]] const MemoryLayout& memory() const { return memory_; }

    // The comment line `print` shows above the program.
    [[nodiscard]] std::string header() const {
        return "# translated from the Memorax test " + file_ + " (see docs/rmm.md)\n\n";
    }

  private:
    [[noreturn]] void fail(SourcePos pos, const std::string& msg) const {
        throw InputError(file_, pos, msg);
    }

    struct Var {
        const Decl* decl;
        std::int64_t addr;
    };

    // The initial value the declaration gives memory: a constant; '*' is
    // the initialising thread's (0 until it writes).
    static std::vector<Value> initOf(const Decl& d) {
        return d.any ? std::vector<Value>{} : std::vector<Value>{d.init};
    }

    // A memory name that no other variable and no hidden register of the
    // translation (_t, _uK, _aK) has: `name`, else with '.' appended (never
    // part of a Memorax name).
    std::string freeName(std::string name) const {
        auto hidden = [](const std::string& n) {
            return n == "_t" || (n.size() > 2 && n[0] == '_' && (n[1] == 'u' || n[1] == 'a') &&
                                 n.find_first_not_of("0123456789", 2) == std::string::npos);
        };
        while (hidden(name) || memory_.find(name).valid()) {
            name += ".";
        }
        return name;
    }

    // Globals first, as the test declares them; then one array per
    // process-local name (in order of first declaration) with a cell per
    // process, `y[p]` the copy of process p (a process without `y` leaves
    // its cell unused); then the flag of the initialising thread.
    void layout() {
        for (const Decl& d : test_.globals) {
            const VarId v = appendVar(memory_, freeName(d.name), 1, false, initOf(d), d.pos);
            globals_.push_back({&d, memory_.var(v).base});
        }
        const std::size_t n = test_.processes.size();
        locals_.resize(n);
        std::vector<std::string> order; // local names, by first declaration
        for (const Process& p : test_.processes) {
            for (const Decl& d : p.data) {
                if (std::find(order.begin(), order.end(), d.name) == order.end()) {
                    order.push_back(d.name);
                }
            }
        }
        for (const std::string& name : order) {
            std::vector<Value> init(n, 0);
            SourcePos pos;
            for (std::size_t p = 0; p < n; ++p) {
                for (const Decl& d : test_.processes[p].data) {
                    if (d.name == name) {
                        init[p] = d.any ? 0 : d.init;
                        pos = pos.line == 0 ? d.pos : pos;
                    }
                }
            }
            const VarId v = appendVar(memory_, freeName(name), static_cast<Value>(n), true,
                                      std::move(init), pos);
            for (std::size_t p = 0; p < n; ++p) {
                for (const Decl& d : test_.processes[p].data) {
                    if (d.name == name) {
                        locals_[p].push_back({&d, memory_.var(v).base + static_cast<Value>(p)});
                    }
                }
            }
        }
        for (const Var& v : allVars()) {
            needInit_ = needInit_ || v.decl->any;
        }
        if (needInit_) {
            const SourcePos pos =
                test_.globals.empty() ? test_.processes.front().pos : test_.globals.front().pos;
            flag_ = memory_.var(appendVar(memory_, freeName("init.done"), 1, false, {}, pos)).base;
        }
    }

    std::vector<Var> allVars() const {
        std::vector<Var> all = globals_;
        for (const auto& l : locals_) {
            all.insert(all.end(), l.begin(), l.end());
        }
        return all;
    }

    void checkForbidden() const {
        for (const auto& tuple : test_.forbidden) {
            if (tuple.size() != test_.processes.size()) {
                fail(tuple.front().pos,
                     "this forbidden tuple names " + std::to_string(tuple.size()) +
                         " label(s), but the test has " + std::to_string(test_.processes.size()) +
                         " process(es) (one label or '*' per process, replicated copies "
                         "included)");
            }
        }
    }

    // Adds the thread `name` built in `b` to `pb`, its states named and
    // mentioned in the order the builder numbers them: initial, finals, then
    // the edges' source and target.
    void emitThread(ProgramBuilder& pb, const std::string& name, SourcePos pos, ThreadBuilder& b,
                    std::uint32_t initial, const std::map<std::string, SourcePos>& finals) const {
        // Names: a label names its state; other states are q<N>, avoiding labels.
        std::set<std::string> taken;
        for (std::uint32_t s = 0; s < b.parent.size(); ++s) {
            if (b.find(s) == s && !b.label[s].empty()) {
                taken.insert(b.label[s]);
            }
        }
        std::vector<std::string> names(b.parent.size());
        std::uint32_t counter = 0;
        const auto nameOf = [&](std::uint32_t s) -> const std::string& {
            const std::uint32_t r = b.find(s);
            if (names[r].empty()) {
                if (!b.label[r].empty()) {
                    names[r] = b.label[r];
                } else {
                    std::string n;
                    do {
                        n = "q" + std::to_string(counter++);
                    } while (taken.count(n) != 0);
                    names[r] = n;
                }
            }
            return names[r];
        };
        pb.addThread(name, nameOf(initial), pos);
        for (const auto& [l, lpos] : finals) {
            pb.addFinal(pb.state(l), lpos);
        }
        for (const ThreadBuilder::Edge& e : b.edges) {
            const StateId from = pb.state(nameOf(e.from));
            const StateId to = pb.state(nameOf(e.to));
            pb.addTransition(from, to, forBuilder(pb, e.instr, memory_), e.pos);
        }
    }

    // The initial values `d` may take: its constant, or every value of its
    // finite domain for '*' (at most 256).
    std::vector<std::int64_t> initialValues(const Decl& d, const std::string& what,
                                            const char* why) const {
        if (!d.any) {
            return {d.init};
        }
        if (!d.domain.finite) {
            fail(d.pos, "initial value '*' of " + what + " ranges over all integers" + why +
                            "; give it a finite domain ': [LOW:HIGH]'");
        }
        if (d.domain.size() > 256) {
            fail(d.pos, "initial value '*' of " + what + " has more than 256 choices");
        }
        std::vector<std::int64_t> out;
        for (std::uint64_t k = 0; k < d.domain.size(); ++k) {
            out.push_back(d.domain.value(k));
        }
        return out;
    }

    void initThread(ProgramBuilder& pb) const {
        ThreadBuilder b;
        const std::uint32_t start = b.fresh();
        std::uint32_t at = start;
        for (const Var& v : allVars()) {
            const Decl& d = *v.decl;
            if (!d.any) {
                continue; // a constant is the cell's initial value
            }
            const std::uint32_t next = b.fresh();
            for (std::int64_t x : initialValues(d, quote(d.name), "")) {
                b.edge(at, next, NamedInstr::write(num(x), num(v.addr)), d.pos);
            }
            at = next;
        }
        // The fence makes every initial value visible before the flag, also under PSO.
        const std::uint32_t fenced = b.fresh();
        const SourcePos pos =
            test_.globals.empty() ? test_.processes.front().pos : test_.globals.front().pos;
        b.edge(at, fenced, NamedInstr::plain(InstrKind::Mfence), pos);
        const std::uint32_t done = b.fresh();
        b.edge(fenced, done, NamedInstr::write(num(1), num(flag_)), pos);
        emitThread(pb, "init", pos, b, start, {});
    }

    // ---- one process

    struct Ctx {
        std::size_t pid = 0;
        const Process* proc = nullptr;
        ThreadBuilder* b = nullptr;
        std::map<std::string, std::uint32_t> labelState;
        std::map<std::string, SourcePos> labelDefined;
        std::vector<std::pair<std::string, SourcePos>> gotos;
        // Inside a locked block: a failed check unlocks and stops at the
        // escape state (made when first needed).
        bool inLock = false;
        SourcePos lockPos;
        // How the held block ends: `unlock`, `endatomic` for a block that
        // only reads (taken with `atomic`, it keeps the buffer), or
        // `unlockfor A` for a block that writes A only.
        NamedInstr release = NamedInstr::plain(InstrKind::Unlock);
        std::optional<std::uint32_t> escape;
        // The current alternative of the locked block has written: a check
        // failing now must take the writes back, since Memorax's block then
        // does nothing at all.
        bool wroteInLock = false;
        // Set on the second translation of a locked block that has such a
        // check: every write saves the old value first (see undoWrites).
        bool saveOld = false;
        struct Saved {
            std::string oldReg;
            Nodes addr;
            SourcePos pos;
        };
        std::vector<Saved> saved;         // the current alternative's writes, in order
        std::set<std::string> hiddenRegs; // the save registers used in this block
        // A nested block with several alternatives wrote: which writes to
        // take back would depend on the alternative taken.
        bool savedAmbiguous = false;
    };

    // A check after a write in a locked block, met on the first translation:
    // the block is translated again with saveOld (see locked()).
    struct NeedsUndo {};

    const Decl* reg(Ctx& c, const std::string& name, SourcePos pos) const {
        for (const Decl& d : c.proc->regs) {
            if (d.name == name) {
                return &d;
            }
        }
        fail(pos, "register " + quote(name) + " is not declared in this process's 'registers'");
    }

    void checkRegs(Ctx& c, const Expr& e) const {
        for (const auto& [name, pos] : e.regs) {
            reg(c, name, pos);
        }
    }

    static std::vector<std::string> names(const Expr& e) {
        std::vector<std::string> out;
        for (const auto& r : e.regs) {
            out.push_back(r.first);
        }
        return out;
    }

    struct Resolved {
        Nodes addr;                    // address expression
        std::vector<std::string> uses; // registers the address reads
        const Var* var = nullptr;      // the variable, when fixed
        bool pointer = false;
    };

    Resolved resolve(Ctx& c, const MemLoc& m) const {
        Resolved r;
        using K = MemLoc::Kind;
        if (m.kind == K::Pointer) {
            checkRegs(c, m.ptr);
            if (m.ptr.value) {
                const std::int64_t i = *m.ptr.value;
                if (i < 0 || i >= static_cast<std::int64_t>(globals_.size())) {
                    fail(m.pos, "pointer [" + std::to_string(i) + "] is outside the " +
                                    std::to_string(globals_.size()) +
                                    " global variables (pointers reach globals only)");
                }
                r.var = &globals_[static_cast<std::size_t>(i)];
                r.addr = num(r.var->addr);
                return r;
            }
            if (globals_.empty()) {
                fail(m.pos, "pointer access, but the test has no global variables");
            }
            r.pointer = true;
            r.addr = m.ptr.nodes;
            r.uses = names(m.ptr);
            return r;
        }
        if (m.kind == K::Global) {
            for (const Var& v : globals_) {
                if (v.decl->name == m.name) {
                    r.var = &v;
                    r.addr = num(v.addr);
                    return r;
                }
            }
            for (const Decl& d : c.proc->data) {
                if (d.name == m.name) {
                    fail(m.pos, quote(m.name) + " is process-local: write " + m.name + "[my] or " +
                                    m.name + "[N]");
                }
            }
            fail(m.pos, "no global variable " + quote(m.name));
        }
        std::size_t owner = c.pid;
        if (m.kind == K::Other) {
            // x[N] is the copy of the N-th process other than this one.
            const auto n = static_cast<std::uint64_t>(m.other);
            if (n + 1 >= test_.processes.size()) {
                fail(m.pos, quote(m.name + "[" + std::to_string(m.other) + "]") +
                                " names no process: the test has " +
                                std::to_string(test_.processes.size()) +
                                " processes and [N] counts the others from 0");
            }
            owner = n < c.pid ? static_cast<std::size_t>(n) : static_cast<std::size_t>(n + 1);
        }
        for (const Var& v : locals_[owner]) {
            if (v.decl->name == m.name) {
                r.var = &v;
                r.addr = num(v.addr);
                return r;
            }
        }
        fail(m.pos, "process " + std::to_string(owner) + " has no local variable " + quote(m.name));
    }

    // The condition that `value` fits the domain of the written location.
    std::optional<Nodes> writeDomainCheck(const Resolved& r, const Expr& value) const {
        if (r.var != nullptr) {
            const Domain& d = r.var->decl->domain;
            if (!d.finite || (value.value && d.contains(*value.value))) {
                return std::nullopt;
            }
            if (value.value) {
                return num(0);
            }
            return inDomain(d, value.nodes);
        }
        // Through a pointer: the domain of whichever global it names.
        Nodes cond;
        for (const Var& v : globals_) {
            const Domain& d = v.decl->domain;
            if (!d.finite || (value.value && d.contains(*value.value))) {
                continue;
            }
            Nodes one = apply(ExprOp::Or, apply(ExprOp::Ne, r.addr, num(v.addr)),
                              value.value ? num(0) : inDomain(d, value.nodes));
            cond = cond.empty() ? std::move(one) : apply(ExprOp::And, std::move(cond), one);
        }
        if (cond.empty()) {
            return std::nullopt;
        }
        return cond;
    }

    // 0 <= addr && addr < (number of globals)
    Nodes pointerBounds(const Resolved& r) const {
        return apply(ExprOp::And, apply(ExprOp::Le, num(0), r.addr),
                     apply(ExprOp::Lt, r.addr, num(static_cast<std::int64_t>(globals_.size()))));
    }

    // check cond from -> to; inside a locked block the failing side unlocks.
    void check(Ctx& c, std::uint32_t from, std::uint32_t to, const Nodes& cond, SourcePos pos,
               const std::vector<std::string>& uses) const {
        c.b->edge(from, to, NamedInstr::check(cond), pos, uses);
        if (c.inLock) {
            if (c.wroteInLock) {
                if (!c.saveOld) {
                    throw NeedsUndo{};
                }
                const std::uint32_t undone = undoWrites(c, pos);
                c.b->edge(from, undone, NamedInstr::check(apply(ExprOp::Not, cond)), pos, uses);
                return;
            }
            if (!c.escape) {
                c.escape = c.b->fresh();
                c.b->edge(*c.escape, c.b->fresh(), c.release, c.lockPos, addrRegs(c.release.addr));
            }
            c.b->edge(from, *c.escape, NamedInstr::check(apply(ExprOp::Not, cond)), pos, uses);
        }
    }

    // The failing side of a check after writes in a locked block: the
    // writes are taken back newest first, the save registers cleared, then
    // the thread unlocks and stops. Nobody else moves while the lock is
    // held, so no thread can see the taken-back values: the block did
    // nothing, as Memorax's. Returns the state where the undo starts.
    std::uint32_t undoWrites(Ctx& c, SourcePos pos) const {
        if (c.savedAmbiguous) {
            fail(pos, "a statement that can block after a nested 'locked' block whose "
                      "alternatives write is not supported (the writes to take back when it "
                      "blocks depend on the alternative taken)");
        }
        const std::uint32_t start = c.b->fresh();
        std::uint32_t at = start;
        for (auto it = c.saved.rbegin(); it != c.saved.rend(); ++it) {
            const std::uint32_t next = c.b->fresh();
            c.b->edge(at, next, NamedInstr::write(regExpr(it->oldReg), it->addr), pos,
                      join({it->oldReg}, addrRegs(it->addr)));
            at = next;
        }
        at = clearHidden(c, at, pos);
        c.b->edge(at, c.b->fresh(), c.release, c.lockPos, addrRegs(c.release.addr));
        return start;
    }

    // Sets the block's save registers back to 0, so that they do not
    // multiply the states after the block. Returns the state after.
    std::uint32_t clearHidden(Ctx& c, std::uint32_t at, SourcePos pos) const {
        for (const std::string& r : c.hiddenRegs) {
            const std::uint32_t next = c.b->fresh();
            c.b->edge(at, next, NamedInstr::local(r, num(0)), pos, {}, r);
            at = next;
        }
        return at;
    }

    static std::vector<std::string> addrRegs(const Nodes& addr) {
        std::vector<std::string> out;
        for (const Node& n : addr) {
            if (n.op == ExprOp::Reg) {
                out.push_back(n.reg);
            }
        }
        return out;
    }

    std::vector<std::string> join(std::vector<std::string> a,
                                  const std::vector<std::string>& b) const {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }

    // Checks that must hold before an access: pointer bounds and, for a
    // write, the value's domain. Returns the state after them.
    std::uint32_t preChecks(Ctx& c, std::uint32_t from, const Resolved& r, const Expr* written,
                            SourcePos pos) const {
        Nodes cond;
        std::vector<std::string> uses = r.uses;
        if (r.pointer) {
            cond = pointerBounds(r);
        }
        if (written != nullptr) {
            if (std::optional<Nodes> d = writeDomainCheck(r, *written)) {
                cond = cond.empty() ? std::move(*d) : apply(ExprOp::And, std::move(cond), *d);
                uses = join(uses, names(*written));
            }
        }
        if (cond.empty()) {
            return from;
        }
        const std::uint32_t next = c.b->fresh();
        check(c, from, next, cond, pos, uses);
        return next;
    }

    // The domain a read value has: the location's, or the hull of all globals.
    Domain readDomain(const Resolved& r) const {
        if (r.var != nullptr) {
            return r.var->decl->domain;
        }
        Domain d;
        d.finite = true;
        d.lo = std::numeric_limits<std::int64_t>::max();
        d.hi = std::numeric_limits<std::int64_t>::min();
        for (const Var& v : globals_) {
            if (!v.decl->domain.finite) {
                return Domain{};
            }
            d.lo = std::min(d.lo, v.decl->domain.lo);
            d.hi = std::max(d.hi, v.decl->domain.hi);
        }
        return d;
    }

    void read(Ctx& c, std::uint32_t from, std::uint32_t to, const Stmt& s) const {
        const Resolved r = resolve(c, s.loc);
        std::uint32_t at = preChecks(c, from, r, nullptr, s.pos);
        if (s.kind == Stmt::Kind::ReadAssign) {
            const Decl* d = reg(c, s.reg, s.regPos);
            const bool fits = d->domain.includes(readDomain(r));
            const std::uint32_t next = fits ? to : c.b->fresh();
            c.b->edge(at, next, NamedInstr::read(s.reg, r.addr), s.pos, r.uses, s.reg);
            if (!fits) {
                check(c, next, to, inDomain(d->domain, regExpr(s.reg)), s.pos, {s.reg});
            }
            return;
        }
        checkRegs(c, s.e1);
        const std::uint32_t next = c.b->fresh();
        c.b->edge(at, next, NamedInstr::read("_t", r.addr), s.pos, r.uses, "_t");
        check(c, next, to, apply(ExprOp::Eq, regExpr("_t"), s.e1.nodes), s.pos,
              join({"_t"}, names(s.e1)));
    }

    // A write inside a held lock (or a plain one): `write VALUE ADDR`. With
    // saveOld, the old value is read first into `_uK` (and a computed
    // address kept in `_aK`, since the block may change its registers).
    void write(Ctx& c, std::uint32_t from, std::uint32_t to, const Resolved& r, const Expr& value,
               SourcePos pos) const {
        Nodes addr = r.addr;
        std::vector<std::string> uses = r.uses;
        if (c.inLock && c.saveOld) {
            const std::string k = std::to_string(c.saved.size());
            if (r.pointer) {
                const std::string a = "_a" + k;
                const std::uint32_t next = c.b->fresh();
                c.b->edge(from, next, NamedInstr::local(a, addr), pos, uses, a);
                c.hiddenRegs.insert(a);
                addr = regExpr(a);
                uses = {a};
                from = next;
            }
            const std::string old = "_u" + k;
            const std::uint32_t next = c.b->fresh();
            c.b->edge(from, next, NamedInstr::read(old, addr), pos, uses, old);
            c.hiddenRegs.insert(old);
            c.saved.push_back({old, addr, pos});
            from = next;
        }
        c.b->edge(from, to, NamedInstr::write(value.nodes, addr), pos, join(uses, names(value)));
        c.wroteInLock = c.inLock;
    }

    // How a locked block takes the lock (docs/rmm.md, "Locked blocks"):
    // `lock` drains every buffer, `atomic` none (a block without writes),
    // `lockfor A` the stores to A (a block that writes A only).
    struct Taking {
        InstrKind take = InstrKind::Lock;
        Nodes addr; // lockfor's
        static Taking plain() { return {}; }
        static Taking atomic() { return {InstrKind::Atomic, {}}; }
        static Taking lockFor(Nodes a) { return {InstrKind::LockFor, std::move(a)}; }
        [[nodiscard]] NamedInstr takeInstr() const {
            return take == InstrKind::LockFor ? NamedInstr::lockFor(take, addr)
                                              : NamedInstr::plain(take);
        }
        [[nodiscard]] NamedInstr releaseInstr() const {
            switch (take) {
            case InstrKind::Atomic:
                return NamedInstr::plain(InstrKind::EndAtomic);
            case InstrKind::LockFor:
                return NamedInstr::lockFor(InstrKind::UnlockFor, addr);
            default:
                return NamedInstr::plain(InstrKind::Unlock);
            }
        }
    };

    // Takes the lock unless already inside a locked block; `body` runs with
    // the lock held from its first argument to its second.
    template <class Body>
    void locked(Ctx& c, std::uint32_t from, std::uint32_t to, SourcePos pos, Body body,
                const Taking& taking) const {
        if (c.inLock) {
            body(from, to);
            return;
        }
        // First without saving old values; a check after a write (NeedsUndo)
        // makes the builder go back and translate the block again with them.
        const ThreadBuilder before = *c.b;
        for (bool save : {false, true}) {
            const std::uint32_t held = c.b->fresh();
            const std::uint32_t release = c.b->fresh();
            c.release = taking.releaseInstr();
            c.b->edge(from, held, taking.takeInstr(), pos, addrRegs(taking.addr));
            c.inLock = true;
            c.lockPos = pos;
            c.wroteInLock = false;
            c.saveOld = save;
            c.saved.clear();
            c.hiddenRegs.clear();
            c.savedAmbiguous = false;
            try {
                body(held, release);
            } catch (const NeedsUndo&) {
                *c.b = before;
                c.escape.reset();
                continue;
            }
            c.inLock = false;
            c.escape.reset();
            c.wroteInLock = false;
            c.saveOld = false;
            c.saved.clear();
            const std::uint32_t cleared = clearHidden(c, release, pos);
            c.hiddenRegs.clear();
            c.b->edge(cleared, to, c.release, pos, addrRegs(c.release.addr));
            return;
        }
    }

    // Memorax's locked write: under PSO (its hsb model converts locks to
    // fences) `write` then `fence`; under TSO drain, then write to memory.
    // `lockfor x; write; unlockfor x; mfence` is both (docs/rmm.md), and
    // keeps the write atomic, which keeps the state space as small as the
    // lock did under TSO. Inside a block, a plain write.
    void lockedWrite(Ctx& c, std::uint32_t from, std::uint32_t to, const Resolved& r,
                     const Expr& value, SourcePos pos) const {
        if (c.inLock) {
            write(c, from, to, r, value, pos);
            return;
        }
        const std::uint32_t written = c.b->fresh();
        locked(
            c, from, written, pos,
            [&](std::uint32_t f, std::uint32_t t) { write(c, f, t, r, value, pos); },
            Taking::lockFor(r.addr));
        c.b->edge(written, to, NamedInstr::plain(InstrKind::Mfence), pos);
    }

    // `locked { write: x := e or ... }`, every alternative one write: a
    // locked write each (Memorax's block of one write is its locked write).
    static bool eachAltOneWrite(const std::vector<std::vector<Stmt>>& parts) {
        using K = Stmt::Kind;
        return std::all_of(parts.begin(), parts.end(), [](const std::vector<Stmt>& alt) {
            return alt.size() == 1 && (alt[0].kind == K::Write || alt[0].kind == K::LockedWrite);
        });
    }

    // The addresses a locked block writes: constants into `fixed`, and
    // whether some write goes through a computed pointer.
    void blockWrites(Ctx& c, const std::vector<Stmt>& list, std::set<std::int64_t>& fixed,
                     bool& computed) const {
        using K = Stmt::Kind;
        for (const Stmt& s : list) {
            if (s.kind == K::Write || s.kind == K::LockedWrite || s.kind == K::SyncWrite ||
                s.kind == K::Cas) {
                const Resolved r = resolve(c, s.loc);
                if (r.pointer) {
                    computed = true;
                } else {
                    fixed.insert(r.var->addr);
                }
            }
            for (const auto& part : s.parts) {
                blockWrites(c, part, fixed, computed);
            }
        }
    }

    // Without a write, Memorax runs the block atomically without draining
    // the buffer: an atomic block. Writing one fixed address A: `lockfor A`
    // (drains the stores to A: everything under TSO, A's FIFO under PSO, as
    // Memorax's cas). Otherwise `lock`.
    Taking blockTaking(Ctx& c, const std::vector<std::vector<Stmt>>& parts) const {
        std::set<std::int64_t> fixed;
        bool computed = false;
        for (const auto& alt : parts) {
            blockWrites(c, alt, fixed, computed);
        }
        if (fixed.empty() && !computed) {
            return Taking::atomic();
        }
        if (fixed.size() == 1 && !computed) {
            return Taking::lockFor(num(*fixed.begin()));
        }
        return Taking::plain();
    }

    void checkLockedBody(const std::vector<Stmt>& list) const {
        using K = Stmt::Kind;
        for (const Stmt& s : list) {
            if (!s.label.empty()) {
                fail(s.labelPos, "a label inside a 'locked' block (Memorax forbids it too)");
            }
            switch (s.kind) {
            case K::If:
            case K::While:
            case K::Goto:
            case K::Either:
            case K::Fence:
                fail(s.pos, "this statement is not allowed inside a 'locked' block (only nop, "
                            "assignments, assume, reads, writes, cas and nested locked blocks)");
            default:
                break;
            }
            for (const auto& part : s.parts) {
                checkLockedBody(part);
            }
        }
    }

    void seq(Ctx& c, const std::vector<Stmt>& list, std::uint32_t from, std::uint32_t to,
             bool exclusive) {
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::uint32_t exit = i + 1 == list.size() ? to : c.b->fresh();
            stmt(c, list[i], from, exit, exclusive);
            from = exit;
            exclusive = true;
        }
    }

    std::uint32_t labelState(Ctx& c, const std::string& l) {
        auto it = c.labelState.find(l);
        if (it != c.labelState.end()) {
            return it->second;
        }
        const std::uint32_t s = c.b->fresh();
        c.b->label[s] = l;
        c.labelState.emplace(l, s);
        return s;
    }

    // `exclusive`: no other statement starts at `from`, so a label may name
    // it and a loop may return to it.
    void stmt(Ctx& c, const Stmt& s, std::uint32_t from, std::uint32_t to, bool exclusive) {
        ThreadBuilder& b = *c.b;
        if (!s.label.empty()) {
            if (c.labelDefined.count(s.label) != 0) {
                fail(s.labelPos, "label " + quote(s.label) + " is defined twice in this process");
            }
            c.labelDefined.emplace(s.label, s.labelPos);
            const std::uint32_t l = labelState(c, s.label);
            const std::uint32_t root = b.find(from);
            if (exclusive && b.label[root].empty()) {
                b.parent[root] = b.find(l);
            } else {
                b.edge(from, l, NamedInstr::plain(InstrKind::Noop), s.labelPos);
            }
            from = l;
            exclusive = true;
        }
        using K = Stmt::Kind;
        switch (s.kind) {
        case K::Nop:
            b.edge(from, to, NamedInstr::plain(InstrKind::Noop), s.pos);
            break;
        case K::Fence:
            b.edge(from, to, NamedInstr::plain(InstrKind::Mfence), s.pos);
            break;
        case K::Assign: {
            checkRegs(c, s.e1);
            const Decl* d = reg(c, s.reg, s.regPos);
            std::uint32_t at = from;
            if (d->domain.finite && !(s.e1.value && d->domain.contains(*s.e1.value))) {
                at = b.fresh();
                check(c, from, at, s.e1.value ? num(0) : inDomain(d->domain, s.e1.nodes), s.pos,
                      names(s.e1));
            }
            b.edge(at, to, NamedInstr::local(s.reg, s.e1.nodes), s.pos, names(s.e1), s.reg);
            break;
        }
        case K::Assume:
            checkRegs(c, s.e1);
            check(c, from, to, s.e1.nodes, s.pos, names(s.e1));
            break;
        case K::ReadAssign:
        case K::ReadAssert:
            read(c, from, to, s);
            break;
        case K::Write: {
            checkRegs(c, s.e1);
            const Resolved r = resolve(c, s.loc);
            write(c, preChecks(c, from, r, &s.e1, s.pos), to, r, s.e1, s.pos);
            break;
        }
        case K::LockedWrite:
        case K::SyncWrite: {
            checkRegs(c, s.e1);
            const Resolved r = resolve(c, s.loc);
            const std::uint32_t at = preChecks(c, from, r, &s.e1, s.pos);
            lockedWrite(c, at, to, r, s.e1, s.pos);
            break;
        }
        case K::Cas: {
            checkRegs(c, s.e1);
            checkRegs(c, s.e2);
            const Resolved r = resolve(c, s.loc);
            const std::uint32_t at = preChecks(c, from, r, &s.e2, s.pos);
            locked(
                c, at, to, s.pos,
                [&](std::uint32_t f, std::uint32_t t) {
                    const std::uint32_t got = b.fresh();
                    const std::uint32_t same = b.fresh();
                    b.edge(f, got, NamedInstr::read("_t", r.addr), s.pos, r.uses, "_t");
                    check(c, got, same, apply(ExprOp::Eq, regExpr("_t"), s.e1.nodes), s.pos,
                          join({"_t"}, names(s.e1)));
                    write(c, same, t, r, s.e2, s.pos);
                },
                Taking::lockFor(r.addr));
            break;
        }
        case K::Locked: {
            for (const auto& alt : s.parts) {
                checkLockedBody(alt);
            }
            if (!c.inLock && eachAltOneWrite(s.parts)) {
                for (const auto& alt : s.parts) { // a locked write each
                    const Stmt& w = alt[0];
                    checkRegs(c, w.e1);
                    const Resolved r = resolve(c, w.loc);
                    lockedWrite(c, preChecks(c, from, r, &w.e1, w.pos), to, r, w.e1, w.pos);
                }
                break;
            }
            locked(
                c, from, to, s.pos,
                [&](std::uint32_t f, std::uint32_t t) {
                    const bool wrote = c.wroteInLock;
                    const std::size_t saved = c.saved.size();
                    bool anyWrote = wrote;
                    for (const auto& alt : s.parts) {
                        c.wroteInLock = wrote;
                        c.saved.resize(saved);
                        seq(c, alt, f, t, false);
                        anyWrote = anyWrote || c.wroteInLock;
                        c.savedAmbiguous =
                            c.savedAmbiguous || (s.parts.size() > 1 && c.saved.size() != saved);
                    }
                    c.wroteInLock = anyWrote;
                },
                blockTaking(c, s.parts));
            break;
        }
        case K::If: {
            checkRegs(c, s.e1);
            const std::uint32_t thenAt = b.fresh();
            check(c, from, thenAt, s.e1.nodes, s.pos, names(s.e1));
            seq(c, s.parts[0], thenAt, to, true);
            if (s.parts.size() > 1) {
                const std::uint32_t elseAt = b.fresh();
                check(c, from, elseAt, apply(ExprOp::Not, s.e1.nodes), s.pos, names(s.e1));
                seq(c, s.parts[1], elseAt, to, true);
            } else {
                check(c, from, to, apply(ExprOp::Not, s.e1.nodes), s.pos, names(s.e1));
            }
            break;
        }
        case K::While: {
            checkRegs(c, s.e1);
            std::uint32_t head = from;
            if (!exclusive) {
                head = b.fresh();
                b.edge(from, head, NamedInstr::plain(InstrKind::Noop), s.pos);
            }
            const std::uint32_t body = b.fresh();
            check(c, head, body, s.e1.nodes, s.pos, names(s.e1));
            seq(c, s.parts[0], body, head, true);
            check(c, head, to, apply(ExprOp::Not, s.e1.nodes), s.pos, names(s.e1));
            break;
        }
        case K::Goto: {
            c.gotos.emplace_back(s.target, s.pos);
            const std::uint32_t target = labelState(c, s.target);
            const std::uint32_t root = b.find(from);
            if (exclusive && b.label[root].empty() && root != b.find(target)) {
                b.parent[root] = b.find(target);
            } else {
                b.edge(from, target, NamedInstr::plain(InstrKind::Noop), s.pos);
            }
            break;
        }
        case K::Either:
            for (const auto& alt : s.parts) {
                seq(c, alt, from, to, false);
            }
            break;
        case K::Block:
            seq(c, s.parts[0], from, to, exclusive);
            break;
        }
    }

    // Registers possibly read before written from each state.
    static std::vector<std::set<std::string>> liveness(ThreadBuilder& b) {
        std::vector<std::set<std::string>> live(b.parent.size());
        bool changed = true;
        while (changed) {
            changed = false;
            for (const ThreadBuilder::Edge& e : b.edges) {
                std::set<std::string>& in = live[b.find(e.from)];
                const std::size_t before = in.size();
                in.insert(e.uses.begin(), e.uses.end());
                for (const std::string& r : live[b.find(e.to)]) {
                    if (r != e.def) {
                        in.insert(r);
                    }
                }
                changed = changed || in.size() != before;
            }
        }
        return live;
    }

    void process(std::size_t pid, ProgramBuilder& pb) {
        const Process& proc = test_.processes[pid];
        ThreadBuilder b;
        Ctx c;
        c.pid = pid;
        c.proc = &proc;
        c.b = &b;
        const std::uint32_t body = b.fresh();
        const std::uint32_t halt = b.fresh();
        seq(c, proc.text, body, halt, true);
        for (const auto& [target, pos] : c.gotos) {
            if (c.labelDefined.count(target) == 0) {
                fail(pos, "no label " + quote(target) + " in this process");
            }
        }
        // The prelude: initial register values that matter, then waiting
        // for the initial memory values.
        const std::vector<std::set<std::string>> live = liveness(b);
        const std::set<std::string>& liveIn = live[b.find(body)];
        const std::uint32_t start = b.fresh();
        std::uint32_t at = start;
        std::vector<ThreadBuilder::Edge> prelude;
        const auto add = [&](std::uint32_t to, NamedInstr instr, SourcePos pos) {
            prelude.push_back({at, to, std::move(instr), pos, {}, {}});
        };
        for (const Decl& d : proc.regs) {
            if (liveIn.count(d.name) == 0 || (!d.any && d.init == 0)) {
                continue;
            }
            const std::uint32_t next = b.fresh();
            for (std::int64_t x : initialValues(d, "register " + quote(d.name),
                                                " and the register may be read before it is "
                                                "written")) {
                add(next, NamedInstr::local(d.name, num(x)), d.pos);
            }
            at = next;
        }
        if (needInit_) {
            const std::uint32_t got = b.fresh();
            add(got, NamedInstr::read("_t", num(flag_)), proc.pos);
            at = got;
            add(body, NamedInstr::check(apply(ExprOp::Eq, regExpr("_t"), num(1))), proc.pos);
        } else {
            // The last prelude state is where the body starts.
            b.parent[b.find(at)] = b.find(body);
        }
        b.edges.insert(b.edges.begin(), prelude.begin(), prelude.end());
        std::map<std::string, SourcePos> finals; // the label, where `forbidden` names it
        if (test_.forbidden.size() == 1) {
            const Tok& l = test_.forbidden[0][pid];
            if (l.text != "*") {
                finals.emplace(l.text, l.pos);
            }
        }
        for (const auto& tuple : test_.forbidden) {
            const Tok& l = tuple[pid];
            if (l.text != "*" && c.labelDefined.count(l.text) == 0) {
                fail(l.pos, "process " + std::to_string(pid) + " has no label " + quote(l.text));
            }
        }
        emitThread(pb, "p" + std::to_string(pid), proc.pos, b, start, finals);
    }

    const Test& test_;
    const std::string& file_;
    MemoryLayout memory_;
    std::vector<Var> globals_;
    std::vector<std::vector<Var>> locals_;
    std::int64_t flag_ = 0;
    bool needInit_ = false;
};

} // namespace

Translation translateTest(const Test& test, const std::string& file) {
    Translator tr(test, file);
    ProgramBuilder pb(file);
    tr.run(pb);
    pb.setMemory(tr.memory());
    Translation out;
    out.program = pb.build();
    out.header = tr.header();
    out.hasInitThread = tr.hasInitThread();
    return out;
}

} // namespace tsoreach::rmm
