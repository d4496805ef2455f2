#pragma once
// Decodes fuzz bytes into a CProgram (c_program.hpp). Every choice reads
// one byte; each function has a budget of statements, nesting stops at
// kMaxDepth, so that programs stay small whatever the bytes.

#include "c_program.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tsoreach::fuzz::cgen {

inline constexpr int kPoisonKinds = 16; // c_render.hpp's table

class Generator {
  public:
    explicit Generator(std::span<const std::uint8_t> bytes) : in_(bytes) {}

    CProgram run() {
        globals();
        p_.mutexes = in_.pick(3);
        p_.initMutex = p_.mutexes > 0 && in_.chance(2);
        const std::size_t prefix = in_.pick(3);
        for (std::size_t i = 0; i < prefix; ++i) {
            p_.prefix.push_back(initStore());
        }
        p_.helpers.resize(in_.pick(3));
        for (Helper& h : p_.helpers) {
            helper(h);
        }
        threads();
        mainBody();
        poison();
        return std::move(p_);
    }

  private:
    // What a statement may do where it stands.
    struct Scope {
        std::vector<std::string> locals; // int locals, read and assigned
        bool thread = false;             // return NULL may end it
        bool helper = false;             // no calls (no recursion)
        bool inLoop = false, inFor = false, locked = false;
        int depth = 0;
        int budget = 0;          // statements left
        int* counters = nullptr; // the function's next loop counter
    };

    long constant() {
        static constexpr std::array<long, 8> kValues = {0, 1, 1, 2, 2, 3, -1, 1};
        return kValues[in_.pick(kValues.size())];
    }

    void globals() {
        static constexpr std::array<const char*, 3> kNames = {"x", "y", "z"};
        const std::size_t n = 2 + in_.pick(2);
        for (std::size_t i = 0; i < n; ++i) {
            Global g;
            g.name = kNames[i];
            g.atomic = i == 0 || in_.chance(2); // the first is atomic: RMWs need one
            g.array = in_.chance(3);
            g.type = in_.pick(4);
            if (g.array) {
                g.name = i == 0 ? "a" : i == 1 ? "b" : "c";
            }
            for (long& v : g.init) {
                v = in_.chance(3) ? 0 : 1 + static_cast<long>(in_.pick(2));
            }
            p_.globals.push_back(g);
        }
    }

    // A cell; atomicOnly: of an atomic global (the first one is).
    Access access(const Scope& s, bool atomicOnly) {
        Access a;
        a.var = in_.pick(static_cast<unsigned>(p_.globals.size()));
        if (atomicOnly && !p_.globals[a.var].atomic) {
            a.var = 0;
        }
        if (p_.globals[a.var].array) {
            a.index = static_cast<int>(in_.pick(kArraySize));
            if (!s.locals.empty() && in_.chance(3)) {
                a.local = s.locals[in_.pick(static_cast<unsigned>(s.locals.size()))];
            }
        }
        return a;
    }

    Expr leaf(const Scope& s, bool loads) {
        Expr e;
        const unsigned c = in_.pick(loads ? 4 : 2);
        if (c == 1 && !s.locals.empty()) {
            e.k = Expr::K::Local;
            e.name = s.locals[in_.pick(static_cast<unsigned>(s.locals.size()))];
        } else if (c >= 2) {
            e.k = Expr::K::Load;
            e.acc = access(s, false);
            const bool atomic = p_.globals[e.acc.var].atomic;
            e.form = atomic ? static_cast<LoadForm>(in_.pick(3)) : LoadForm::Plain;
            static constexpr std::array<Mo, 4> kLoadMos = {Mo::Relaxed, Mo::Consume, Mo::Acquire,
                                                           Mo::SeqCst};
            e.mo = kLoadMos[in_.pick(4)];
        } else {
            e.value = constant();
        }
        return e;
    }

    Expr expr(const Scope& s, int depth, bool loads) {
        if (depth >= kMaxDepth || in_.chance(2)) {
            return leaf(s, loads);
        }
        Expr e;
        const unsigned c = in_.pick(8);
        if (c == 0) {
            e.k = static_cast<Expr::K>(static_cast<unsigned>(Expr::K::Neg) + in_.pick(3));
            e.kids.push_back(expr(s, depth + 1, loads));
        } else if (c == 1) {
            e.k = Expr::K::Cond;
            for (int i = 0; i < 3; ++i) {
                e.kids.push_back(expr(s, depth + 1, loads));
            }
        } else {
            e.k = Expr::K::Bin;
            e.op = static_cast<Op>(in_.pick(static_cast<unsigned>(Op::Shr) + 1));
            e.kids.push_back(expr(s, depth + 1, loads));
            if (e.op < Op::Div) {
                e.kids.push_back(expr(s, depth + 1, loads));
            } else if (e.op == Op::Div || e.op == Op::Rem) {
                static constexpr std::array<long, 3> kDivisors = {2, 3, -2};
                e.value = kDivisors[in_.pick(3)];
            } else {
                e.value = 1 + static_cast<long>(in_.pick(2));
            }
        }
        return e;
    }

    std::string local(const Scope& s) {
        return s.locals[in_.pick(static_cast<unsigned>(s.locals.size()))];
    }
    std::string maybeDst(const Scope& s) { return in_.chance(3) ? "" : local(s); }

    // Stores main may make before the creates: constants, constant cells.
    Stmt initStore() {
        Stmt st;
        st.k = Stmt::K::Store;
        st.acc = access(Scope{}, false);
        st.e.value = constant();
        // 0: x = k, 1: atomic_store, 3: atomic_init (atomics only)
        st.variant = p_.globals[st.acc.var].atomic ? static_cast<int>(in_.pick(2)) * 2 + 1 : 0;
        st.variant = st.variant == 1 && in_.chance(2) ? 0 : st.variant;
        return st;
    }

    void helper(Helper& h) {
        int counters = 0;
        Scope s;
        s.locals = {"v", "w"};
        s.helper = true;
        s.budget = 2;
        s.counters = &counters;
        h.init = constant();
        h.body = block(s);
        h.ret = expr(s, 0, true);
    }

    void threads() {
        const std::size_t creates = 2 + in_.pick(2);
        const std::size_t fns = 1 + in_.pick(static_cast<unsigned>(creates));
        p_.fns.resize(fns);
        for (std::size_t i = 0; i < creates; ++i) {
            const std::size_t fn = i < fns ? i : in_.pick(static_cast<unsigned>(fns));
            p_.creates.push_back({fn, static_cast<long>(in_.pick(3))});
        }
        for (ThreadFn& f : p_.fns) {
            int counters = 0;
            Scope s;
            s.locals = {"me", "r0", "r1"};
            s.thread = true;
            s.budget = 3;
            s.counters = &counters;
            f.locals = {constant(), constant()};
            f.body = block(s);
        }
    }

    void mainBody() {
        int counters = 0;
        Scope s;
        s.locals = {"r0", "r1"};
        s.budget = 1;
        s.counters = &counters;
        p_.mainLocals = {constant(), constant()};
        p_.mainBody = block(s);
        const bool sb = p_.globals.size() == 3 && in_.chance(2);
        if (sb) {
            storeBuffering();
        }
        for (std::size_t t = 0; t < p_.creates.size(); ++t) {
            if (!in_.chance(6)) {
                Stmt j;
                j.k = Stmt::K::Join;
                j.target = t;
                p_.mainBody.push_back(j);
            }
        }
        s.budget = 1;
        for (Stmt& st : block(s)) {
            p_.mainBody.push_back(std::move(st));
        }
        Stmt a;
        a.k = Stmt::K::Assert;
        a.e = sb ? sbOutcome() : in_.chance(2) ? outcome(s) : expr(s, 0, true);
        p_.mainBody.push_back(std::move(a));
    }

    // Store buffering between main and f0, so that more programs answer
    // differently under SC and TSO: main stores A and reads B into r0, f0
    // stores B and publishes its read of A in C; the final assertion
    // forbids both reads seeing the values before the stores. The
    // statements are prepended (f0) or appended (main) to random ones.
    static Access cellOf(std::size_t var) {
        Access a;
        a.var = var;
        return a;
    }
    Stmt sbStore(std::size_t var) {
        static constexpr std::array<Mo, 3> kMos = {Mo::Relaxed, Mo::Release, Mo::SeqCst};
        Stmt st;
        st.k = Stmt::K::Store;
        st.acc = cellOf(var);
        st.variant = p_.globals[var].atomic ? 2 : 0;
        st.mo = kMos[in_.pick(3)];
        st.e.value = 3; // no initial value is 3
        return st;
    }
    static Expr sbLoad(std::size_t var) {
        Expr e;
        e.k = Expr::K::Load;
        e.acc = cellOf(var);
        return e;
    }
    void storeBuffering() {
        Stmt publish = sbStore(2);
        publish.e = sbLoad(0);
        std::vector<Stmt>& f0 = p_.fns[0].body;
        f0.insert(f0.begin(), {sbStore(1), publish});
        p_.mainBody.push_back(sbStore(0));
        Stmt read;
        read.k = Stmt::K::Assign;
        read.dst = "r0";
        read.e = sbLoad(1);
        p_.mainBody.push_back(read);
    }
    // !(r0 == B's initial value && C == A's): B and A as main's constant
    // stores left them.
    Expr sbOutcome() const {
        std::array<long, 2> init = {p_.globals[1].init[0], p_.globals[0].init[0]};
        for (const Stmt& st : p_.prefix) {
            if (st.acc.var < 2 && st.acc.index == 0) {
                init[1 - st.acc.var] = st.e.value;
            }
        }
        Expr r0;
        r0.k = Expr::K::Local;
        r0.name = "r0";
        Expr eq0, eq1, k0, k1, conj, out;
        k0.value = init[0];
        k1.value = init[1];
        eq0.k = eq1.k = conj.k = Expr::K::Bin;
        eq0.op = eq1.op = Op::Eq;
        eq0.kids = {r0, k0};
        eq1.kids = {sbLoad(2), k1};
        conj.op = Op::And;
        conj.kids = {eq0, eq1};
        out.k = Expr::K::Not;
        out.kids.push_back(conj);
        return out;
    }

    // !(c1 == k1 && c2 == k2): one outcome of two cells is forbidden, the
    // shape of a litmus test's final condition, which tells the models apart
    // more often than a random expression.
    Expr outcome(const Scope& s) {
        Expr conj;
        conj.k = Expr::K::Bin;
        conj.op = Op::And;
        for (int i = 0; i < 2; ++i) {
            Expr eq;
            eq.k = Expr::K::Bin;
            eq.op = Op::Eq;
            Expr cell;
            cell.k = Expr::K::Load;
            cell.acc = access(s, false);
            Expr k;
            k.value = static_cast<long>(in_.pick(3));
            eq.kids = {cell, k};
            conj.kids.push_back(eq);
        }
        Expr out;
        out.k = Expr::K::Not;
        out.kids.push_back(conj);
        return out;
    }

    void poison() {
        if (!in_.chance(12)) {
            return;
        }
        p_.poison.kind = static_cast<int>(in_.pick(kPoisonKinds));
        // Kinds 14 and 15 stand before and between the creates (render);
        // 12, a create, in a thread (right after main's creates it would
        // be one more of them, which is fine).
        const unsigned where = 2 + in_.pick(1 + static_cast<unsigned>(p_.fns.size()));
        p_.poison.where = p_.poison.kind == 14   ? 0
                          : p_.poison.kind == 15 ? 1
                          : p_.poison.kind == 12 ? std::max(where, 3u)
                                                 : where;
    }

    std::vector<Stmt> block(Scope& s) {
        std::vector<Stmt> out;
        const unsigned n = 1 + in_.pick(3);
        for (unsigned i = 0; i < n && s.budget > 0; ++i) {
            --s.budget;
            out.push_back(stmt(s));
        }
        return out;
    }

    // A nested block: one level deeper, sharing the budget.
    std::vector<Stmt> nested(Scope& s, bool loop, bool isFor) {
        Scope inner = s;
        inner.depth = s.depth + 1;
        inner.inLoop = s.inLoop || loop;
        inner.inFor = loop ? isFor : s.inFor;
        std::vector<Stmt> out = block(inner);
        s.budget = inner.budget;
        return out;
    }

    Stmt stmt(Scope& s);
    Stmt simple(Scope& s, unsigned c);
    Stmt compound(Scope& s, unsigned c);

    Bytes in_;
    CProgram p_;
};

// Accesses and local updates: kinds 0..7 of stmt's choice.
inline Stmt Generator::simple(Scope& s, unsigned c) {
    static constexpr std::array<Mo, 3> kStoreMos = {Mo::Relaxed, Mo::Release, Mo::SeqCst};
    Stmt st;
    switch (c) {
    case 0:
    case 1:
        st.k = Stmt::K::Store;
        st.acc = access(s, false);
        st.variant = p_.globals[st.acc.var].atomic ? static_cast<int>(in_.pick(3)) : 0;
        st.mo = kStoreMos[in_.pick(3)];
        // Often a load published as is, as in litmus tests (r = y; then z = r).
        st.e = in_.chance(3) ? leaf(s, true) : expr(s, 0, true);
        break;
    case 2:
    case 3:
        st.k = Stmt::K::Assign;
        st.dst = local(s);
        st.variant = in_.chance(2) ? 1 + static_cast<int>(in_.pick(4)) : 0;
        st.e = expr(s, 0, true);
        break;
    case 4:
        st.k = Stmt::K::Rmw;
        st.acc = access(s, true);
        st.rmw = static_cast<Rmw>(in_.pick(6));
        st.isExplicit = in_.chance(2);
        st.mo = static_cast<Mo>(in_.pick(6));
        st.dst = maybeDst(s);
        st.e = expr(s, 1, false);
        break;
    case 5:
        st.k = Stmt::K::Update;
        st.acc = access(s, false);
        st.variant = static_cast<int>(in_.pick(6));
        st.dst = in_.chance(2) ? local(s) : "";
        if (p_.globals[st.acc.var].atomic && (st.variant == 2 || st.variant == 3)) {
            st.dst.clear(); // clang 14: `r = (x += e)` on an atomic x is a type error
        }
        st.e = expr(s, 1, false);
        break;
    case 6: {
        static constexpr std::array<std::pair<Mo, Mo>, 5> kCasMos = {{{Mo::SeqCst, Mo::SeqCst},
                                                                      {Mo::AcqRel, Mo::Acquire},
                                                                      {Mo::Relaxed, Mo::Relaxed},
                                                                      {Mo::Release, Mo::Relaxed},
                                                                      {Mo::Acquire, Mo::Acquire}}};
        st.k = Stmt::K::Cas;
        st.acc = access(s, true);
        st.expected = local(s);
        st.dst = maybeDst(s);
        st.dst = st.dst == st.expected ? "" : st.dst;
        st.isExplicit = in_.chance(2);
        const auto mos = kCasMos[in_.pick(kCasMos.size())];
        st.mo = mos.first;
        st.mo2 = mos.second;
        st.e = expr(s, 1, false);
        break;
    }
    default:
        st.k = Stmt::K::Fence;
        st.variant = in_.chance(4) ? 1 + static_cast<int>(in_.pick(2)) : 0;
        st.mo = static_cast<Mo>(in_.pick(6));
        break;
    }
    return st;
}

// Control flow, calls, locks, assertions: kinds 8..
inline Stmt Generator::compound(Scope& s, unsigned c) {
    Stmt st;
    st.e = expr(s, 0, true);
    switch (c) {
    case 8:
    case 9:
        st.k = Stmt::K::If;
        st.body = nested(s, false, false);
        if (in_.chance(2)) {
            st.other = nested(s, false, false);
        }
        break;
    case 10:
    case 11:
    case 12:
        st.k = c == 10 ? Stmt::K::For : c == 11 ? Stmt::K::While : Stmt::K::DoWhile;
        st.bound = 1 + static_cast<int>(in_.pick(2));
        st.counter = (c == 10 ? "i" : "n") + std::to_string((*s.counters)++);
        st.body = nested(s, true, c == 10);
        break;
    case 13:
        st.k = Stmt::K::Call;
        st.target = in_.pick(static_cast<unsigned>(p_.helpers.size()));
        st.dst = maybeDst(s);
        break;
    case 14: {
        st.k = Stmt::K::Locked;
        st.target = in_.pick(static_cast<unsigned>(p_.mutexes));
        Scope inner = s;
        inner.locked = true;
        inner.depth = kMaxDepth; // only simple statements inside
        st.body = block(inner);
        s.budget = inner.budget;
        break;
    }
    case 15:
        st.k = Stmt::K::Assume;
        break;
    default: { // if (e) break / continue / return NULL; else an assertion
        Stmt jump;
        jump.k = s.inFor && in_.chance(2) ? Stmt::K::Continue : Stmt::K::Break;
        if (!s.inLoop || in_.chance(3)) {
            jump.k = s.thread && !s.locked && in_.chance(2) ? Stmt::K::Return : Stmt::K::Assert;
        }
        if (jump.k == Stmt::K::Assert) {
            st.k = Stmt::K::Assert;
            break;
        }
        st.k = Stmt::K::If;
        st.body.push_back(jump);
        break;
    }
    }
    return st;
}

inline Stmt Generator::stmt(Scope& s) {
    unsigned c = in_.pick(18);
    if ((c == 13 && (s.helper || p_.helpers.empty())) || (c == 14 && p_.mutexes == 0)) {
        c = 8;
    }
    const bool canNest = s.depth < kMaxDepth && !s.locked;
    if (c >= 8 && !canNest && c < 16) {
        c = c % 8; // nesting exhausted: a simple statement instead
    }
    if (c >= 16 && s.locked) {
        c = c % 8; // no jump out of a locked block
    }
    return c < 8 ? simple(s, c) : compound(s, c);
}

inline CProgram decodeCProgram(std::span<const std::uint8_t> bytes) {
    return Generator(bytes).run();
}

} // namespace tsoreach::fuzz::cgen
