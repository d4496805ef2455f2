#pragma once
// What a CProgram (c_program.hpp) translates to according to docs/c.md,
// written in tsoreach's language (docs/language.md) without the C front
// end: the table "Shared accesses and memory orders" for the accesses,
// `check` branches for control flow (a `noop` where the front end jumps),
// inlined calls, `read t done.T; check == t 1` for a join after the
// thread's `mfence; write 1 done.T`, main's constant stores before the
// creates as initial values, and one failure state `fail` per thread with
// assertions, the goal being a "# goal T=fail" line (goal_lines.hpp) for
// each such thread.

#include "c_program.hpp"
#include "c_render.hpp"

#include <string>
#include <vector>

namespace tsoreach::fuzz::cgen {

class ExpectedRenderer {
  public:
    explicit ExpectedRenderer(const CProgram& p) : p_(p) {}

    std::string render() {
        std::vector<Thread> threads;
        for (std::size_t t = 0; t < p_.creates.size(); ++t) {
            threads.push_back(threadOf(t));
        }
        threads.push_back(mainThread());
        std::string out = memory();
        for (const Thread& t : threads) {
            if (t.failed) {
                out += "# goal " + t.name + "=fail\n";
            }
        }
        for (const Thread& t : threads) {
            out += "thread " + t.name + "\ninitial s0\n" + t.body + "end\n";
        }
        return out;
    }

  private:
    struct Thread {
        std::string name;
        std::string body;
        int states = 1;
        int cur = 0;
        bool failed = false; // an assertion: the state `fail` exists
        int temps = 0;

        int fresh() { return states++; }
        void edge(int from, int to, const std::string& instr) {
            body += "transition " + state(from) + " " + state(to) + " " + instr + "\n";
            cur = to;
        }
        void step(const std::string& instr) { edge(cur, fresh(), instr); }
        static std::string state(int s) { return s < 0 ? "fail" : "s" + std::to_string(s); }
    };

    // Where a statement stands: its registers' prefix (an inlined helper's)
    // and the targets of break, continue and return (-2: none).
    struct Ctx {
        std::string prefix;
        int breakTo = -2, continueTo = -2, endTo = -2;
    };

    static std::string num(long v) { return std::to_string(v); }
    static std::string reg(const Ctx& c, const std::string& local) { return c.prefix + local; }
    static std::string temp(Thread& t) { return "t." + std::to_string(t.temps++); }

    std::string threadName(std::size_t create) const {
        const std::size_t fn = p_.creates[create].fn;
        std::size_t nth = 1;
        for (std::size_t i = 0; i < create; ++i) {
            nth += p_.creates[i].fn == fn ? 1 : 0;
        }
        return "f" + std::to_string(fn) + (nth == 1 ? "" : "." + std::to_string(nth));
    }

    // The globals with main's constant stores applied, the mutexes and the
    // threads' done flags.
    std::string memory() const {
        std::vector<Global> g = p_.globals;
        for (const Stmt& s : p_.prefix) {
            g[s.acc.var].init[static_cast<std::size_t>(s.acc.index)] = s.e.value;
        }
        std::string out = "memory";
        for (const Global& v : g) {
            out += " " + v.name +
                   (v.array ? "[2] = {" + num(v.init[0]) + ", " + num(v.init[1]) + "}"
                            : " = " + num(v.init[0]));
        }
        for (std::size_t m = 0; m < p_.mutexes; ++m) {
            out += " m" + std::to_string(m);
        }
        for (std::size_t t = 0; t < p_.creates.size(); ++t) {
            out += " done." + threadName(t);
        }
        return out + "\n";
    }

    Thread threadOf(std::size_t create) {
        Thread t;
        t.name = threadName(create);
        const ThreadFn& f = p_.fns[p_.creates[create].fn];
        t.step("local me " + num(p_.creates[create].arg));
        t.step("local r0 " + num(f.locals[0]));
        t.step("local r1 " + num(f.locals[1]));
        Ctx c;
        c.endTo = t.fresh();
        block(t, c, f.body);
        t.edge(t.cur, c.endTo, "noop");
        t.step("mfence");
        t.step("write 1 done." + t.name);
        return t;
    }

    Thread mainThread() {
        Thread t;
        t.name = "main";
        t.step("local r0 " + num(p_.mainLocals[0]));
        t.step("local r1 " + num(p_.mainLocals[1]));
        block(t, Ctx{}, p_.mainBody);
        return t;
    }

    std::string address(const Ctx& c, const Access& a) const {
        const Global& g = p_.globals[a.var];
        if (!g.array) {
            return g.name;
        }
        return g.name + "[" + (a.local.empty() ? num(a.index) : "& " + reg(c, a.local) + " 1") +
               "]";
    }

    static bool hasLoad(const Expr& e) {
        if (e.k == Expr::K::Load) {
            return true;
        }
        for (const Expr& k : e.kids) {
            if (hasLoad(k)) {
                return true;
            }
        }
        return false;
    }

    std::string emit(Thread& t, const Ctx& c, const Expr& e);
    std::string binary(Thread& t, const Ctx& c, const Expr& e);
    std::string shortCircuit(Thread& t, const Ctx& c, const Expr& e);
    void block(Thread& t, const Ctx& c, const std::vector<Stmt>& b) {
        for (const Stmt& s : b) {
            t.temps = 0; // a statement's temporaries are dead after it
            stmt(t, c, s);
        }
    }
    void stmt(Thread& t, const Ctx& c, const Stmt& s);
    void access(Thread& t, const Ctx& c, const Stmt& s);
    void control(Thread& t, const Ctx& c, const Stmt& s);
    void loop(Thread& t, const Ctx& c, const Stmt& s);
    void call(Thread& t, const Ctx& c, const Stmt& s);

    const CProgram& p_;
};

// The value of `e`, a pure expression over registers; its reads, and the
// branches of && || ?: around operands that read, are transitions of `t`.
inline std::string ExpectedRenderer::emit(Thread& t, const Ctx& c, const Expr& e) {
    switch (e.k) {
    case Expr::K::Const:
        return num(e.value);
    case Expr::K::Local:
        return reg(c, e.name);
    case Expr::K::Load: {
        const std::string r = temp(t);
        t.step("read " + r + " " + address(c, e.acc));
        return r;
    }
    case Expr::K::Neg:
        return "- 0 " + emit(t, c, e.kids[0]);
    case Expr::K::Not:
        return "! " + emit(t, c, e.kids[0]);
    case Expr::K::BitNot: // ~a == -a - 1
        return "- - 0 " + emit(t, c, e.kids[0]) + " 1";
    case Expr::K::Cond:
        if (hasLoad(e.kids[1]) || hasLoad(e.kids[2])) {
            return shortCircuit(t, c, e);
        } else {
            const std::string k = emit(t, c, e.kids[0]);
            return "+ * != " + k + " 0 " + emit(t, c, e.kids[1]) + " * == " + k + " 0 " +
                   emit(t, c, e.kids[2]);
        }
    case Expr::K::Bin:
        break;
    }
    if ((e.op == Op::And || e.op == Op::Or) && hasLoad(e.kids[1])) {
        return shortCircuit(t, c, e);
    }
    return binary(t, c, e);
}

inline std::string ExpectedRenderer::binary(Thread& t, const Ctx& c, const Expr& e) {
    const std::string a = emit(t, c, e.kids[0]);
    if (e.op >= Op::Div) {
        const std::string k = num(e.value);
        switch (e.op) {
        case Op::Div:
            return "/ " + a + " " + k;
        case Op::Rem:
            return "% " + a + " " + k;
        case Op::Shl:
            return "* " + a + " " + num(1L << e.value);
        default: { // floor(a / d) = (a - ((a % d + d) % d)) / d
            const std::string d = num(1L << e.value);
            return "/ - " + a + " % + % " + a + " " + d + " " + d + " " + d + " " + d;
        }
        }
    }
    const std::string b = emit(t, c, e.kids[1]);
    static constexpr std::array<const char*, 14> kOps = {
        "+", "-", "*", "&", "", "", "==", "!=", "<", "<=", ">", ">=", "&&", "||"};
    switch (e.op) {
    case Op::BitOr: // a | b == a + b - (a & b)
        return "- + " + a + " " + b + " & " + a + " " + b;
    case Op::BitXor: // a ^ b == a + b - 2 (a & b)
        return "- + " + a + " " + b + " * 2 & " + a + " " + b;
    default:
        return std::string(kOps[static_cast<std::size_t>(e.op)]) + " " + a + " " + b;
    }
}

// a && b, a || b and k ? a : b whose later operands read memory: those
// reads happen only on their branch.
inline std::string ExpectedRenderer::shortCircuit(Thread& t, const Ctx& c, const Expr& e) {
    const std::string k = emit(t, c, e.kids[0]);
    const std::string res = temp(t);
    const int from = t.cur, yes = t.fresh(), no = t.fresh(), join = t.fresh();
    t.edge(from, yes, "check " + k);
    t.edge(from, no, "check ! " + k);
    const bool isCond = e.k == Expr::K::Cond;
    t.cur = yes;
    if (isCond || e.op == Op::And) {
        const std::string v = emit(t, c, e.kids[1]);
        t.edge(t.cur, join, "local " + res + (isCond ? " " + v : " != " + v + " 0"));
    } else {
        t.edge(t.cur, join, "local " + res + " 1");
    }
    t.cur = no;
    if (isCond || e.op == Op::Or) {
        const std::string v = emit(t, c, e.kids[isCond ? 2 : 1]);
        t.edge(t.cur, join, "local " + res + (isCond ? " " + v : " != " + v + " 0"));
    } else {
        t.edge(t.cur, join, "local " + res + " 0");
    }
    return res;
}

inline void ExpectedRenderer::access(Thread& t, const Ctx& c, const Stmt& s) {
    const Global& g = p_.globals[s.acc.var];
    const std::string a = address(c, s.acc);
    if (s.k == Stmt::K::Store) {
        t.step("write " + emit(t, c, s.e) + " " + a);
        const bool seqCst = s.variant == 0 || s.variant == 1 || s.mo == Mo::SeqCst;
        if (g.atomic && seqCst) {
            t.step("mfence");
        }
        return;
    }
    const std::string v = emit(t, c, s.e);
    const std::string old = temp(t);
    if (s.k == Stmt::K::Cas) {
        const std::string ok = temp(t), exp = reg(c, s.expected);
        t.step("lock");
        t.step("read " + old + " " + a);
        t.step("local " + ok + " == " + old + " " + exp);
        const int from = t.cur, yes = t.fresh(), join = t.fresh();
        t.edge(from, yes, "check " + ok);
        t.edge(yes, join, "write " + v + " " + a);
        t.cur = from;
        t.step("check ! " + ok);
        t.edge(t.cur, join, "local " + exp + " " + old);
        t.step("unlock");
        if (!s.dst.empty()) {
            t.step("local " + reg(c, s.dst) + " " + ok);
        }
        return;
    }
    static constexpr std::array<const char*, 6> kRmw = {"", "+", "-", "&", "|", "^"};
    std::string f;
    if (s.k == Stmt::K::Update) { // ++ += ++x add, -- -= --x subtract
        f = std::string(s.variant % 2 == 0 ? "+ " : "- ") + old + " " +
            (s.variant == 2 || s.variant == 3 ? v : "1");
    } else if (s.rmw == Rmw::Exchange) {
        f = v;
    } else if (s.rmw == Rmw::Or) {
        f = "- + " + old + " " + v + " & " + old + " " + v;
    } else if (s.rmw == Rmw::Xor) {
        f = "- + " + old + " " + v + " * 2 & " + old + " " + v;
    } else {
        f = std::string(kRmw[static_cast<std::size_t>(s.rmw)]) + " " + old + " " + v;
    }
    const bool locked = g.atomic; // a plain x++ is two instructions
    if (locked) {
        t.step("lock");
    }
    t.step("read " + old + " " + a);
    t.step("write " + f + " " + a);
    if (locked) {
        t.step("unlock");
    }
    if (!s.dst.empty()) { // x++ and x-- give the old value, the others the new
        const bool post = s.k == Stmt::K::Rmw || s.variant < 2;
        t.step("local " + reg(c, s.dst) + " " + (post ? old : f));
    }
}

inline void ExpectedRenderer::stmt(Thread& t, const Ctx& c, const Stmt& s) {
    switch (s.k) {
    case Stmt::K::Store:
    case Stmt::K::Rmw:
    case Stmt::K::Update:
    case Stmt::K::Cas:
        access(t, c, s);
        return;
    case Stmt::K::Assign: {
        const std::string d = reg(c, s.dst);
        static constexpr std::array<const char*, 5> kOp = {"", "+ ", "- ", "+ ", "- "};
        const std::string v = s.variant < 3 ? emit(t, c, s.e) : "1";
        t.step("local " + d + " " +
               (s.variant == 0 ? v : kOp[static_cast<std::size_t>(s.variant)] + d + " " + v));
        return;
    }
    case Stmt::K::Fence:
        if ((s.variant == 0 && s.mo == Mo::SeqCst) || s.variant == 2) {
            t.step("mfence");
        }
        return;
    case Stmt::K::Assert: {
        const std::string v = emit(t, c, s.e);
        const int from = t.cur;
        t.failed = true;
        t.edge(from, -1, "check ! " + v);
        t.cur = from;
        t.step("check " + v);
        return;
    }
    default:
        control(t, c, s);
        return;
    }
}

inline void ExpectedRenderer::control(Thread& t, const Ctx& c, const Stmt& s) {
    switch (s.k) {
    case Stmt::K::If: {
        const std::string v = emit(t, c, s.e);
        const int from = t.cur, yes = t.fresh(), no = t.fresh(), join = t.fresh();
        t.edge(from, yes, "check " + v);
        t.edge(from, no, "check ! " + v);
        t.cur = yes;
        block(t, c, s.body);
        t.edge(t.cur, join, "noop");
        t.cur = no;
        block(t, c, s.other);
        t.edge(t.cur, join, "noop");
        return;
    }
    case Stmt::K::Assume:
        t.step("check " + emit(t, c, s.e));
        return;
    case Stmt::K::Break:
    case Stmt::K::Continue:
    case Stmt::K::Return: {
        const int to = s.k == Stmt::K::Break      ? c.breakTo
                       : s.k == Stmt::K::Continue ? c.continueTo
                                                  : c.endTo;
        t.edge(t.cur, to, "noop");
        t.cur = t.fresh(); // dead code would continue here
        return;
    }
    case Stmt::K::Join: {
        const std::string r = temp(t);
        t.step("read " + r + " done." + threadName(s.target));
        t.step("check == " + r + " 1");
        return;
    }
    case Stmt::K::Locked: {
        const std::string m = "m" + std::to_string(s.target), r = temp(t);
        t.step("lock");
        t.step("read " + r + " " + m);
        t.step("check == " + r + " 0");
        t.step("write 1 " + m);
        t.step("unlock");
        block(t, c, s.body);
        t.step("lock");
        t.step("write 0 " + m);
        t.step("unlock");
        return;
    }
    case Stmt::K::Call:
        call(t, c, s);
        return;
    default:
        loop(t, c, s);
        return;
    }
}

// for: counter = 0; head: check < counter bound, body, counter++.
// while / do-while: the condition is `e && counter < bound`.
inline void ExpectedRenderer::loop(Thread& t, const Ctx& c, const Stmt& s) {
    const std::string n = reg(c, s.counter), bound = num(s.bound);
    t.step("local " + n + " 0");
    const int head = t.cur, exit = t.fresh(), next = t.fresh();
    Ctx inner = c;
    inner.breakTo = exit;
    inner.continueTo = next;
    if (s.k == Stmt::K::For) {
        t.edge(head, exit, "check ! < " + n + " " + bound);
        t.cur = head;
        t.step("check < " + n + " " + bound);
    } else if (s.k == Stmt::K::While) {
        const std::string v = "&& " + emit(t, c, s.e) + " < " + n + " " + bound;
        const int here = t.cur;
        t.edge(here, exit, "check ! " + v);
        t.cur = here;
        t.step("check " + v);
    }
    block(t, inner, s.body);
    t.edge(t.cur, next, "noop");
    if (s.k != Stmt::K::DoWhile) {
        t.edge(next, head, "local " + n + " + " + n + " 1");
    } else {
        t.step("local " + n + " + " + n + " 1");
        t.temps = 0;
        const std::string v = "&& " + emit(t, c, s.e) + " < " + n + " " + bound;
        const int here = t.cur;
        t.edge(here, exit, "check ! " + v);
        t.edge(here, head, "check " + v);
    }
    t.cur = exit;
}

// An inlined helper: its registers are prefixed `h<i>.`.
inline void ExpectedRenderer::call(Thread& t, const Ctx& c, const Stmt& s) {
    const Helper& h = p_.helpers[s.target];
    Ctx inner;
    inner.prefix = "h" + std::to_string(s.target) + ".";
    t.step("local " + inner.prefix + "v " + emit(t, c, s.e));
    t.step("local " + inner.prefix + "w " + num(h.init));
    block(t, inner, h.body);
    t.temps = 0;
    const std::string r = emit(t, inner, h.ret);
    t.step("local " + (s.dst.empty() ? inner.prefix + "ret" : reg(c, s.dst)) + " " + r);
}

inline std::string renderExpected(const CProgram& p) {
    return ExpectedRenderer(p).render();
}

} // namespace tsoreach::fuzz::cgen
