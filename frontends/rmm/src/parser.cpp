#include "parser.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <set>

namespace tsoreach::rmm {

namespace {

const std::set<std::string>& reservedWords() {
    static const std::set<std::string> words = {
        "if",     "then",  "else",    "while",   "do",        "read",    "write",      "syncwr",
        "syncrd", "fence", "ssfence", "llfence", "locked",    "slocked", "cas",        "goto",
        "true",   "false", "my",      "me",      "other",     "process", "not",        "nop",
        "text",   "data",  "either",  "or",      "forbidden", "assume",  "predicates", "registers"};
    return words;
}

bool isReserved(const Tok& t) {
    return t.kind == Tk::Id && reservedWords().count(t.text) != 0;
}

// Recursive descent over statements and expressions: the nesting depth is
// capped, so the native stack stays small whatever the input.
class RmmParser {
  public:
    RmmParser(std::vector<Tok> toks, const std::string& file) : t_(std::move(toks)), file_(file) {}

    Test run() {
        Test test;
        expectWord("forbidden", "a .rmm test starts with 'forbidden'");
        do {
            std::vector<Tok> tuple;
            while ((cur().kind == Tk::Id && !isReserved(cur())) || isSym("*")) {
                tuple.push_back(take());
            }
            if (tuple.empty()) {
                fail(cur().pos, "expected a label or '*' in 'forbidden', found " + describe(cur()));
            }
            test.forbidden.push_back(std::move(tuple));
        } while (acceptSym(";"));
        if (isWord("predicates")) {
            // Starting predicates of Memorax's predicate abstraction: they do
            // not change the program's behaviour.
            while (cur().kind != Tk::End && !isWord("data") && !isWord("process")) {
                take();
            }
        }
        if (acceptWord("data")) {
            test.globals = decls(false);
        }
        if (!isWord("process")) {
            fail(cur().pos, "expected 'process', found " + describe(cur()));
        }
        while (isWord("process")) {
            const SourcePos pos = take().pos;
            std::int64_t copies = 1;
            if (acceptSym("(")) {
                const Tok n = take();
                if (n.kind != Tk::Nat) {
                    fail(n.pos, "expected the number of copies, found " + describe(n));
                }
                copies = number(n);
                if (copies < 1 || copies > 10'000) {
                    fail(n.pos, "process count must be between 1 and 10000");
                }
                expectSym(")");
            }
            Process p;
            p.pos = pos;
            bool seenData = false;
            bool seenRegs = false;
            for (;;) {
                if (!seenData && acceptWord("data")) {
                    seenData = true;
                    p.data = decls(false);
                } else if (!seenRegs && acceptWord("registers")) {
                    seenRegs = true;
                    p.regs = decls(true);
                } else {
                    break;
                }
            }
            expectWord("text", "expected 'text' to start the process's statements");
            p.text = stmtList(0);
            if (cur().kind != Tk::End && !isWord("process")) {
                fail(cur().pos,
                     "expected ';', 'process' or the end of the file, found " + describe(cur()));
            }
            for (std::int64_t c = 0; c < copies; ++c) {
                test.processes.push_back(p);
            }
            if (test.processes.size() > 10'000) {
                fail(pos, "more than 10000 processes");
            }
        }
        return test;
    }

  private:
    static constexpr int maxDepth = 200;

    [[noreturn]] void fail(SourcePos pos, const std::string& msg) const {
        throw InputError(file_, pos, msg);
    }
    const Tok& cur() const { return t_[i_]; }
    const Tok& peek(std::size_t k = 1) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
    Tok take() {
        Tok t = t_[i_];
        if (i_ + 1 < t_.size()) {
            ++i_;
        }
        return t;
    }
    bool isSym(const char* s) const { return cur().kind == Tk::Sym && cur().text == s; }
    bool isWord(const char* s) const { return cur().kind == Tk::Id && cur().text == s; }
    bool acceptSym(const char* s) {
        if (isSym(s)) {
            take();
            return true;
        }
        return false;
    }
    bool acceptWord(const char* s) {
        if (isWord(s)) {
            take();
            return true;
        }
        return false;
    }
    void expectSym(const char* s) {
        if (!acceptSym(s)) {
            fail(cur().pos, std::string("expected '") + s + "', found " + describe(cur()));
        }
    }
    void expectWord(const char* s, const std::string& why) {
        if (!acceptWord(s)) {
            fail(cur().pos, why + ", found " + describe(cur()));
        }
    }
    std::int64_t number(const Tok& t, bool negative = false) const {
        std::uint64_t v = 0;
        auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
        const std::uint64_t limit =
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) +
            (negative ? 1 : 0);
        if (ec != std::errc() || p != t.text.data() + t.text.size() || v > limit) {
            fail(t.pos,
                 "number " + quote(t.text) + " out of range (values are signed 64-bit integers)");
        }
        if (negative) {
            return v == limit ? std::numeric_limits<std::int64_t>::min()
                              : -static_cast<std::int64_t>(v);
        }
        return static_cast<std::int64_t>(v);
    }
    std::int64_t integer() {
        const bool neg = acceptSym("-");
        const Tok n = take();
        if (n.kind != Tk::Nat) {
            fail(n.pos, "expected a number, found " + describe(n));
        }
        return number(n, neg);
    }

    std::vector<Decl> decls(bool registers) {
        std::vector<Decl> out;
        while ((registers ? cur().kind == Tk::Reg : cur().kind == Tk::Id && !isReserved(cur())) &&
               peek().kind == Tk::Sym && peek().text == "=") {
            Decl d;
            d.pos = cur().pos;
            d.name = take().text;
            take(); // '='
            if (acceptSym("*")) {
                d.any = true;
            } else {
                d.init = integer();
            }
            if (acceptSym(":")) {
                if (acceptSym("[")) {
                    d.domain.finite = true;
                    d.domain.lo = integer();
                    expectSym(":");
                    d.domain.hi = integer();
                    expectSym("]");
                    if (d.domain.lo > d.domain.hi) {
                        fail(d.pos, "empty domain [" + std::to_string(d.domain.lo) + ":" +
                                        std::to_string(d.domain.hi) + "] of " + quote(d.name));
                    }
                } else if (cur().kind == Tk::Id && cur().text == "Z") {
                    take();
                } else {
                    fail(cur().pos,
                         "expected a domain '[LOW:HIGH]' or 'Z', found " + describe(cur()));
                }
            }
            if (!d.any && !d.domain.contains(d.init)) {
                fail(d.pos, "initial value " + std::to_string(d.init) + " of " + quote(d.name) +
                                " is outside its domain");
            }
            for (const Decl& e : out) {
                if (e.name == d.name) {
                    fail(d.pos, quote(d.name) + " is declared twice");
                }
            }
            out.push_back(std::move(d));
            acceptSym(","); // GRAMMAR.txt allows commas; Memorax's files use none
        }
        if (registers ? cur().kind == Tk::Reg : (cur().kind == Tk::Id && !isReserved(cur()))) {
            fail(peek().pos,
                 "expected '=' after " + quote(cur().text) + ", found " + describe(peek()));
        }
        return out;
    }

    // STMT-LIST: statements separated by ';' (a ';' before '}', 'or',
    // 'process' or the end is accepted).
    std::vector<Stmt> stmtList(int depth) {
        std::vector<Stmt> out;
        out.push_back(labelledStmt(depth));
        while (acceptSym(";")) {
            if (isSym("}") || isWord("or") || isWord("process") || cur().kind == Tk::End) {
                break;
            }
            out.push_back(labelledStmt(depth));
        }
        return out;
    }

    Stmt labelledStmt(int depth) {
        if (depth > maxDepth) {
            fail(cur().pos, "statements nest more than " + std::to_string(maxDepth) + " deep");
        }
        if (cur().kind == Tk::Id && !isReserved(cur()) && peek().kind == Tk::Sym &&
            peek().text == ":") {
            const Tok label = take();
            take();
            Stmt s = labelledStmt(depth + 1);
            if (!s.label.empty()) {
                // Two labels on one statement: keep both by nesting.
                Stmt outer;
                outer.kind = Stmt::Kind::Block;
                outer.pos = label.pos;
                outer.parts.push_back({std::move(s)});
                s = std::move(outer);
            }
            s.label = label.text;
            s.labelPos = label.pos;
            return s;
        }
        return stmt(depth);
    }

    MemLoc memloc(int depth) {
        MemLoc m;
        m.pos = cur().pos;
        if (acceptSym("[")) {
            m.kind = MemLoc::Kind::Pointer;
            m.ptr = expr(depth + 1);
            expectSym("]");
            return m;
        }
        if (cur().kind != Tk::Id || isReserved(cur())) {
            fail(cur().pos, "expected a memory location, found " + describe(cur()));
        }
        m.name = take().text;
        if (acceptSym("[")) {
            if (acceptWord("my")) {
                m.kind = MemLoc::Kind::Own;
            } else if (cur().kind == Tk::Nat) {
                m.kind = MemLoc::Kind::Other;
                m.other = number(take());
            } else {
                fail(cur().pos, "expected 'my' or a process number in " + quote(m.name) +
                                    "[...], found " + describe(cur()));
            }
            expectSym("]");
        }
        return m;
    }

    Stmt stmt(int depth) {
        Stmt s;
        s.pos = cur().pos;
        const Tok t = cur();
        using K = Stmt::Kind;
        if (t.kind == Tk::Reg) {
            s.kind = K::Assign;
            s.reg = take().text;
            s.regPos = t.pos;
            expectSym(":=");
            s.e1 = expr(depth + 1);
            return s;
        }
        if (t.kind == Tk::Sym && t.text == "{") {
            take();
            s.kind = K::Block;
            s.parts.push_back(stmtList(depth + 1));
            expectSym("}");
            return s;
        }
        if (t.kind != Tk::Id) {
            fail(t.pos, "expected a statement, found " + describe(t));
        }
        const std::string w = t.text;
        if (w == "nop") {
            take();
            s.kind = K::Nop;
        } else if (w == "fence") {
            take();
            s.kind = K::Fence;
        } else if (w == "read" || w == "syncrd") {
            take();
            expectSym(":");
            if (cur().kind == Tk::Reg) {
                s.kind = K::ReadAssign;
                s.regPos = cur().pos;
                s.reg = take().text;
                expectSym(":=");
                s.loc = memloc(depth);
            } else {
                s.kind = K::ReadAssert;
                s.loc = memloc(depth);
                expectSym("=");
                s.e1 = expr(depth + 1);
            }
        } else if (w == "write" || w == "syncwr") {
            take();
            expectSym(":");
            s.kind = w == "write" ? K::Write : K::SyncWrite;
            s.loc = memloc(depth);
            expectSym(":=");
            s.e1 = expr(depth + 1);
        } else if (w == "locked") {
            take();
            if (acceptWord("write")) {
                expectSym(":");
                s.kind = K::LockedWrite;
                s.loc = memloc(depth);
                expectSym(":=");
                s.e1 = expr(depth + 1);
            } else if (acceptSym("{")) {
                s.kind = K::Locked;
                s.parts.push_back(stmtList(depth + 1));
                while (acceptWord("or")) {
                    s.parts.push_back(stmtList(depth + 1));
                }
                expectSym("}");
            } else {
                fail(cur().pos,
                     "expected 'write:' or '{' after 'locked', found " + describe(cur()));
            }
        } else if (w == "cas") {
            take();
            s.kind = K::Cas;
            expectSym("(");
            s.loc = memloc(depth);
            expectSym(",");
            s.e1 = expr(depth + 1);
            expectSym(",");
            s.e2 = expr(depth + 1);
            expectSym(")");
        } else if (w == "assume") {
            take();
            expectSym(":");
            s.kind = K::Assume;
            s.e1 = bexpr(depth + 1);
        } else if (w == "if") {
            take();
            s.kind = K::If;
            s.e1 = bexpr(depth + 1);
            expectWord("then", "expected 'then' after the condition of 'if'");
            s.parts.push_back({labelledStmt(depth + 1)});
            if (acceptWord("else")) {
                s.parts.push_back({labelledStmt(depth + 1)});
            }
        } else if (w == "while") {
            take();
            s.kind = K::While;
            s.e1 = bexpr(depth + 1);
            expectWord("do", "expected 'do' after the condition of 'while'");
            s.parts.push_back({labelledStmt(depth + 1)});
        } else if (w == "goto") {
            take();
            s.kind = K::Goto;
            if (cur().kind != Tk::Id || isReserved(cur())) {
                fail(cur().pos, "expected a label after 'goto', found " + describe(cur()));
            }
            s.target = take().text;
        } else if (w == "either") {
            take();
            s.kind = K::Either;
            expectSym("{");
            s.parts.push_back(stmtList(depth + 1));
            while (acceptWord("or")) {
                s.parts.push_back(stmtList(depth + 1));
            }
            expectSym("}");
        } else if (w == "llfence") {
            // Neither TSO nor PSO reorders loads with loads.
            take();
            s.kind = K::Nop;
        } else if (w == "ssfence") {
            fail(t.pos, "'ssfence' is not supported: this VIPS-M store-store fence does nothing "
                        "under TSO, but under PSO it orders stores without blocking loads, and "
                        "tsoreach's only fence is the full 'mfence'");
        } else if (w == "slocked") {
            fail(t.pos, "'slocked' (Memorax's store-store locked write for PSO) is not supported");
        } else {
            fail(t.pos, "expected a statement, found " + describe(t));
        }
        return s;
    }

    // A left-associative chain `u0 op1 u1 op2 u2 ...` in prefix form is
    // `... op2 op1 u0 u1 u2 ...`; built once at the end, since joining the
    // prefixes pairwise copies them at every operator (quadratic).
    struct Chain {
        Expr e;
        std::vector<ExprOp> ops;
        std::vector<Node> operands;
        explicit Chain(Expr first) : e(std::move(first)), operands(std::move(e.nodes)) {}
        void add(ExprOp op, Expr r) {
            ops.push_back(op);
            operands.insert(operands.end(), std::make_move_iterator(r.nodes.begin()),
                            std::make_move_iterator(r.nodes.end()));
            e = binary(op, std::move(e), std::move(r), false);
        }
        Expr done() && {
            e.nodes.clear();
            for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
                e.nodes.push_back(Node{*it, 0, {}});
            }
            e.nodes.insert(e.nodes.end(), std::make_move_iterator(operands.begin()),
                           std::make_move_iterator(operands.end()));
            return std::move(e);
        }
    };

    // EXPR: UNIT (('+' | '-') UNIT)*, left associative.
    Expr expr(int depth) {
        Chain c(unit(depth));
        while (isSym("+") || isSym("-")) {
            const ExprOp op = take().text == "+" ? ExprOp::Add : ExprOp::Sub;
            c.add(op, unit(depth));
        }
        return std::move(c).done();
    }

    // `withNodes` false: the caller (Chain) sets the nodes.
    static Expr binary(ExprOp op, Expr a, Expr b, bool withNodes = true) {
        Expr e;
        e.pos = a.pos;
        if (withNodes) {
            e.nodes.reserve(1 + a.nodes.size() + b.nodes.size());
            e.nodes.push_back(Node{op, 0, {}});
            e.nodes.insert(e.nodes.end(), std::make_move_iterator(a.nodes.begin()),
                           std::make_move_iterator(a.nodes.end()));
            e.nodes.insert(e.nodes.end(), std::make_move_iterator(b.nodes.begin()),
                           std::make_move_iterator(b.nodes.end()));
        }
        e.regs = std::move(a.regs);
        e.regs.insert(e.regs.end(), b.regs.begin(), b.regs.end());
        if (a.value && b.value && (op == ExprOp::Add || op == ExprOp::Sub)) {
            std::int64_t v = 0;
            const bool overflow = op == ExprOp::Add
                                      ? __builtin_add_overflow(*a.value, *b.value, &v)
                                      : __builtin_sub_overflow(*a.value, *b.value, &v);
            if (!overflow) {
                e.value = v;
            }
        }
        return e;
    }

    Expr unit(int depth) {
        if (depth > maxDepth) {
            fail(cur().pos, "expression nests more than " + std::to_string(maxDepth) + " deep");
        }
        Expr e;
        e.pos = cur().pos;
        const Tok t = take();
        if (t.kind == Tk::Reg) {
            e.nodes.push_back(Node{ExprOp::Reg, 0, t.text});
            e.regs.emplace_back(t.text, t.pos);
        } else if (t.kind == Tk::Nat) {
            e.value = number(t);
            e.nodes.push_back(Node{ExprOp::Const, *e.value, {}});
        } else if (t.kind == Tk::Sym && t.text == "-") {
            if (cur().kind == Tk::Nat) {
                e.value = number(take(), true);
                e.nodes.push_back(Node{ExprOp::Const, *e.value, {}});
            } else {
                Expr zero;
                zero.nodes.push_back(Node{ExprOp::Const, 0, {}});
                zero.value = 0;
                zero.pos = t.pos;
                e = binary(ExprOp::Sub, std::move(zero), unit(depth + 1));
            }
        } else if (t.kind == Tk::Sym && t.text == "(") {
            e = expr(depth + 1);
            expectSym(")");
        } else if (t.kind == Tk::Id && (t.text == "me" || t.text == "other")) {
            fail(t.pos, quote(t.text) + " is not supported (Memorax rejects it too)");
        } else if (t.kind == Tk::Sym && t.text == "@") {
            fail(t.pos, "'@' is not supported (Memorax rejects it too)");
        } else if (t.kind == Tk::Id && !isReserved(t)) {
            fail(t.pos, "expected an expression, found " + quote(t.text) +
                            " (memory locations cannot appear in expressions; read them into "
                            "a register first)");
        } else {
            fail(t.pos, "expected an expression, found " + describe(t));
        }
        return e;
    }

    // BEXPR: AND ('||' AND)*; AND: NOTATOM ('&&' NOTATOM)*.
    Expr bexpr(int depth) {
        Chain c(band(depth));
        while (acceptSym("||")) {
            c.add(ExprOp::Or, band(depth));
        }
        return std::move(c).done();
    }
    Expr band(int depth) {
        Chain c(notAtom(depth));
        while (acceptSym("&&")) {
            c.add(ExprOp::And, notAtom(depth));
        }
        return std::move(c).done();
    }
    Expr notAtom(int depth) {
        if (isWord("not")) {
            const SourcePos pos = take().pos;
            Expr a = atom(depth);
            a.nodes.insert(a.nodes.begin(), Node{ExprOp::Not, 0, {}});
            a.pos = pos;
            a.value.reset();
            return a;
        }
        return atom(depth);
    }
    Expr atom(int depth) {
        if (depth > maxDepth) {
            fail(cur().pos, "condition nests more than " + std::to_string(maxDepth) + " deep");
        }
        Expr e;
        e.pos = cur().pos;
        if (acceptWord("true")) {
            e.nodes.push_back(Node{ExprOp::Const, 1, {}});
            return e;
        }
        if (acceptWord("false")) {
            e.nodes.push_back(Node{ExprOp::Const, 0, {}});
            return e;
        }
        if (acceptSym("[")) {
            e = bexpr(depth + 1);
            expectSym("]");
            return e;
        }
        Expr a = expr(depth + 1);
        static const std::map<std::string, ExprOp> rel = {{"=", ExprOp::Eq},  {"!=", ExprOp::Ne},
                                                          {"<", ExprOp::Lt},  {">", ExprOp::Gt},
                                                          {"<=", ExprOp::Le}, {">=", ExprOp::Ge}};
        auto r = cur().kind == Tk::Sym ? rel.find(cur().text) : rel.end();
        if (r == rel.end()) {
            fail(cur().pos, "expected a comparison ('=', '!=', '<', '>', '<=', '>='), found " +
                                describe(cur()));
        }
        take();
        Expr b = expr(depth + 1);
        Expr out = binary(r->second, std::move(a), std::move(b));
        out.value.reset();
        return out;
    }

    std::vector<Tok> t_;
    std::size_t i_ = 0;
    const std::string& file_;
};

} // namespace

Test parseTest(std::vector<Tok> tokens, const std::string& file) {
    return RmmParser(std::move(tokens), file).run();
}

} // namespace tsoreach::rmm
