#pragma once
// A CProgram (c_program.hpp) as C source, one statement a line, and the
// line of its refused construct (the poison) if it has one.

#include "c_program.hpp"

#include <string>
#include <vector>

namespace tsoreach::fuzz::cgen {

inline const char* moName(Mo m) {
    static constexpr std::array<const char*, 6> kNames = {
        "memory_order_relaxed", "memory_order_consume", "memory_order_acquire",
        "memory_order_release", "memory_order_acq_rel", "memory_order_seq_cst"};
    return kNames[static_cast<std::size_t>(m)];
}

inline std::string cConst(long v) {
    return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v);
}

struct CSource {
    std::string text;
    int poisonLine = 0; // 0: none
};

class CRenderer {
  public:
    explicit CRenderer(const CProgram& p) : p_(p) {}

    CSource render() {
        line(0, "#include <assert.h>");
        line(0, "#include <pthread.h>");
        line(0, "#include <stdatomic.h>");
        line(0, "void __VERIFIER_assume(int);");
        globals();
        for (std::size_t i = 0; i < p_.helpers.size(); ++i) {
            helper(i);
        }
        for (std::size_t i = 0; i < p_.fns.size(); ++i) {
            threadFn(i);
        }
        mainFn();
        CSource out;
        for (const std::string& l : lines_) {
            out.text += l + "\n";
        }
        out.poisonLine = poisonLine_;
        return out;
    }

    std::string cell(const Access& a) const {
        const Global& g = p_.globals[a.var];
        if (!g.array) {
            return g.name;
        }
        return g.name + "[" +
               (a.local.empty() ? std::to_string(a.index) : "(" + a.local + " & 1)") + "]";
    }

    std::string expr(const Expr& e) const {
        switch (e.k) {
        case Expr::K::Const:
            return cConst(e.value);
        case Expr::K::Local:
            return e.name;
        case Expr::K::Load:
            return load(e);
        case Expr::K::Neg:
            return "(-" + expr(e.kids[0]) + ")";
        case Expr::K::Not:
            return "(!" + expr(e.kids[0]) + ")";
        case Expr::K::BitNot:
            return "(~" + expr(e.kids[0]) + ")";
        case Expr::K::Cond:
            return "(" + expr(e.kids[0]) + " ? " + expr(e.kids[1]) + " : " + expr(e.kids[2]) + ")";
        case Expr::K::Bin:
            break;
        }
        static constexpr std::array<const char*, 18> kOps = {
            "+",  "-", "*",  "&",  "|",  "^", "==", "!=", "<",
            "<=", ">", ">=", "&&", "||", "/", "%",  "<<", ">>"};
        const std::string right = e.op < Op::Div ? expr(e.kids[1]) : cConst(e.value);
        return "(" + expr(e.kids[0]) + " " + kOps[static_cast<std::size_t>(e.op)] + " " + right +
               ")";
    }

  private:
    std::string load(const Expr& e) const {
        switch (e.form) {
        case LoadForm::Plain:
            return cell(e.acc);
        case LoadForm::Load:
            return "atomic_load(&" + cell(e.acc) + ")";
        case LoadForm::LoadExplicit:
            break;
        }
        return "atomic_load_explicit(&" + cell(e.acc) + ", " + moName(e.mo) + ")";
    }

    void line(int indent, const std::string& s) {
        lines_.push_back(std::string(static_cast<std::size_t>(indent) * 4, ' ') + s);
    }

    // Signed integer types of every spelling (docs/c.md, "Memory").
    static std::string typeName(const Global& g) {
        static constexpr std::array<const char*, 4> kAtomic = {"atomic_int", "_Atomic(long)",
                                                               "_Atomic int", "atomic_long"};
        static constexpr std::array<const char*, 4> kPlain = {"int", "long", "long long", "int"};
        return (g.atomic ? kAtomic : kPlain)[g.type % 4];
    }

    void globals() {
        for (const Global& g : p_.globals) {
            std::string init =
                g.array ? "{" + std::to_string(g.init[0]) + ", " + std::to_string(g.init[1]) + "}"
                        : std::to_string(g.init[0]);
            line(0, typeName(g) + " " + g.name + (g.array ? "[2]" : "") + " = " + init + ";");
        }
        for (std::size_t m = 0; m < p_.mutexes; ++m) {
            line(0, "pthread_mutex_t m" + std::to_string(m) + ";");
        }
    }

    void helper(std::size_t i) {
        const Helper& h = p_.helpers[i];
        line(0, "int h" + std::to_string(i) + "(int v) {");
        line(1, "int w = " + cConst(h.init) + ";");
        block(h.body, 1);
        line(1, "return " + expr(h.ret) + ";");
        line(0, "}");
    }

    void threadFn(std::size_t i) {
        const ThreadFn& f = p_.fns[i];
        line(0, "void *f" + std::to_string(i) + "(void *arg) {");
        line(1, "int me = (int)(long)arg;");
        line(1, "int r0 = " + cConst(f.locals[0]) + ", r1 = " + cConst(f.locals[1]) + ";");
        maybePoison(3 + i, 1);
        block(f.body, 1);
        line(1, "return NULL;");
        line(0, "}");
    }

    void mainFn() {
        line(0, "int main(void) {");
        std::string handles;
        for (std::size_t t = 0; t < p_.creates.size(); ++t) {
            handles += (t == 0 ? "t" : ", t") + std::to_string(t);
        }
        line(1, "pthread_t " + handles + ";");
        line(1,
             "int r0 = " + cConst(p_.mainLocals[0]) + ", r1 = " + cConst(p_.mainLocals[1]) + ";");
        block(p_.prefix, 1);
        if (p_.initMutex) {
            line(1, "pthread_mutex_init(&m0, NULL);");
        }
        maybePoison(0, 1);
        for (std::size_t t = 0; t < p_.creates.size(); ++t) {
            const Create& c = p_.creates[t];
            line(1, "pthread_create(&t" + std::to_string(t) + ", NULL, f" + std::to_string(c.fn) +
                        ", (void *)" + std::to_string(c.arg) + ");");
            if (t == 0) {
                maybePoison(1, 1);
            }
        }
        maybePoison(2, 1);
        block(p_.mainBody, 1);
        line(1, "return 0;");
        line(0, "}");
    }

    // The refused constructs, one line each (docs/c.md, "What is refused").
    void maybePoison(std::size_t where, int indent) {
        if (p_.poison.kind < 0 || p_.poison.where != where) {
            return;
        }
        const std::string x = "&" + cell(Access{});
        const std::array<std::string, 16> kText = {
            "__int128 w = 0;", "atomic_compare_exchange_weak(" + x + ", &r0, 1);",
            "switch (r0) { default: break; }", "unsigned long q = 9; q = q / 2;",
            "unsigned long q = 9; q %= 2;", "float f = 1;", "r0 = r0 << r1;", "int *p = 0;",
            "__atomic_store_n(" + x + ", 1, __ATOMIC_SEQ_CST);", "r0 = r0 >> r1;",
            "r0 = (__int128)r1;", "double d = 1;",
            "pthread_t tp; pthread_create(&tp, NULL, f0, NULL);",
            // a load with such an order is taken (fuzz_c finding, docs/testing.md)
            "atomic_store_explicit(" + x + ", 1, r1);",
            "atomic_fetch_add(" + x + ", 1);", // before the creates
            "atomic_store(" + x + ", 1);",     // between two creates
        };
        line(indent, kText[static_cast<std::size_t>(p_.poison.kind)]);
        poisonLine_ = static_cast<int>(lines_.size());
    }

    void block(const std::vector<Stmt>& b, int indent) {
        for (const Stmt& s : b) {
            stmt(s, indent);
        }
    }

    void stmt(const Stmt& s, int indent);
    std::string access(const Stmt& s) const;

    const CProgram& p_;
    std::vector<std::string> lines_;
    int poisonLine_ = 0;
};

// The statements that access memory and are one line.
inline std::string CRenderer::access(const Stmt& s) const {
    static constexpr std::array<const char*, 6> kRmw = {"exchange",  "fetch_add", "fetch_sub",
                                                        "fetch_and", "fetch_or",  "fetch_xor"};
    const std::string c = cell(s.acc);
    const std::string dst = s.dst.empty() ? "" : s.dst + " = ";
    switch (s.k) {
    case Stmt::K::Store:
        switch (s.variant) {
        case 0:
            return c + " = " + expr(s.e) + ";";
        case 1:
            return "atomic_store(&" + c + ", " + expr(s.e) + ");";
        case 2:
            return "atomic_store_explicit(&" + c + ", " + expr(s.e) + ", " + moName(s.mo) + ");";
        default:
            return "atomic_init(&" + c + ", " + expr(s.e) + ");";
        }
    case Stmt::K::Rmw:
        return dst + "atomic_" + kRmw[static_cast<std::size_t>(s.rmw)] +
               (s.isExplicit ? "_explicit" : "") + "(&" + c + ", " + expr(s.e) +
               (s.isExplicit ? std::string(", ") + moName(s.mo) : "") + ");";
    case Stmt::K::Update:
        switch (s.variant) {
        case 0:
        case 1:
            return dst + c + (s.variant == 0 ? "++;" : "--;");
        case 2:
        case 3: {
            const std::string u = c + (s.variant == 2 ? " += " : " -= ") + expr(s.e);
            return s.dst.empty() ? u + ";" : dst + "(" + u + ");";
        }
        default:
            return dst + (s.variant == 4 ? "++" : "--") + c + ";";
        }
    case Stmt::K::Cas:
        return dst + "atomic_compare_exchange_strong" + (s.isExplicit ? "_explicit" : "") + "(&" +
               c + ", &" + s.expected + ", " + expr(s.e) +
               (s.isExplicit ? std::string(", ") + moName(s.mo) + ", " + moName(s.mo2) : "") + ");";
    default:
        break;
    }
    return "";
}

inline void CRenderer::stmt(const Stmt& s, int indent) {
    const std::string dst = s.dst.empty() ? "" : s.dst + " = ";
    switch (s.k) {
    case Stmt::K::Store:
    case Stmt::K::Rmw:
    case Stmt::K::Update:
    case Stmt::K::Cas:
        line(indent, access(s));
        break;
    case Stmt::K::Assign: {
        static constexpr std::array<const char*, 5> kAssign = {" = ", " += ", " -= ", "++", "--"};
        line(indent, s.dst + kAssign[static_cast<std::size_t>(s.variant)] +
                         (s.variant < 3 ? expr(s.e) : "") + ";");
        break;
    }
    case Stmt::K::Fence:
        line(indent, s.variant == 0   ? std::string("atomic_thread_fence(") + moName(s.mo) + ");"
                     : s.variant == 1 ? std::string("atomic_signal_fence(") + moName(s.mo) + ");"
                                      : std::string("__sync_synchronize();"));
        break;
    case Stmt::K::If:
        line(indent, "if (" + expr(s.e) + ") {");
        block(s.body, indent + 1);
        if (!s.other.empty()) {
            line(indent, "} else {");
            block(s.other, indent + 1);
        }
        line(indent, "}");
        break;
    case Stmt::K::For:
        line(indent, "for (int " + s.counter + " = 0; " + s.counter + " < " +
                         std::to_string(s.bound) + "; " + s.counter + "++) {");
        block(s.body, indent + 1);
        line(indent, "}");
        break;
    case Stmt::K::While:
    case Stmt::K::DoWhile: {
        const std::string cond = expr(s.e) + " && " + s.counter + " < " + std::to_string(s.bound);
        line(indent, "int " + s.counter + " = 0;");
        line(indent, s.k == Stmt::K::While ? "while (" + cond + ") {" : "do {");
        block(s.body, indent + 1);
        line(indent + 1, s.counter + "++;");
        line(indent, s.k == Stmt::K::While ? "}" : "} while (" + cond + ");");
        break;
    }
    case Stmt::K::Call:
        line(indent, dst + "h" + std::to_string(s.target) + "(" + expr(s.e) + ");");
        break;
    case Stmt::K::Locked:
        line(indent, "pthread_mutex_lock(&m" + std::to_string(s.target) + ");");
        block(s.body, indent + 1);
        line(indent, "pthread_mutex_unlock(&m" + std::to_string(s.target) + ");");
        break;
    case Stmt::K::Assert:
        line(indent, "assert(" + expr(s.e) + ");");
        break;
    case Stmt::K::Assume:
        line(indent, "__VERIFIER_assume(" + expr(s.e) + ");");
        break;
    case Stmt::K::Break:
        line(indent, "break;");
        break;
    case Stmt::K::Continue:
        line(indent, "continue;");
        break;
    case Stmt::K::Return:
        line(indent, "return NULL;");
        break;
    case Stmt::K::Join:
        line(indent, "pthread_join(t" + std::to_string(s.target) + ", NULL);");
        break;
    }
}

inline CSource renderC(const CProgram& p) {
    return CRenderer(p).render();
}

} // namespace tsoreach::fuzz::cgen
