#include "tsoreach/frontends/rmm/rmm.hpp"

#include "tsoreach/frontends/tsoreach/parser.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace tsoreach {

namespace {

// ---------------------------------------------------------------- tokens

enum class Tk { Id, Reg, Nat, Sym, End };

struct Tok {
    Tk kind = Tk::End;
    std::string text;
    SourcePos pos;
};

std::string quote(const std::string& s) {
    return "'" + s + "'";
}

std::string describe(const Tok& t) {
    switch (t.kind) {
    case Tk::End:
        return "end of file";
    case Tk::Nat:
        return "number " + quote(t.text);
    case Tk::Reg:
        return "register " + quote(t.text);
    default:
        return quote(t.text);
    }
}

bool isIdStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isIdChar(char c) {
    return isIdStart(c) || isDigit(c);
}

// Splits .rmm text into tokens; `/* ... */` are comments (not nested).
std::vector<Tok> lexRmm(std::string_view text, const std::string& file) {
    std::vector<Tok> out;
    std::uint32_t line = 1;
    std::uint32_t col = 1;
    std::size_t i = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") {
        i = 3;
    }
    const auto advance = [&](std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) {
            if (text[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
            ++i;
        }
    };
    static constexpr std::string_view twoChar[] = {":=", "||", "&&", "!=", "<=", ">="};
    static constexpr std::string_view oneChar = "=()-,*;:{}<>+[]@";
    while (i < text.size()) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
            advance(1);
            continue;
        }
        const SourcePos pos{line, col};
        if (text.substr(i, 2) == "/*") {
            const std::size_t end = text.find("*/", i + 2);
            if (end == std::string_view::npos) {
                throw InputError(file, pos, "comment '/*' is never closed");
            }
            advance(end + 2 - i);
            continue;
        }
        Tok t;
        t.pos = pos;
        std::size_t len = 0;
        if (isIdStart(c)) {
            t.kind = Tk::Id;
            while (i + len < text.size() && isIdChar(text[i + len])) {
                ++len;
            }
        } else if (c == '$') {
            t.kind = Tk::Reg;
            len = 1;
            while (i + len < text.size() && isIdChar(text[i + len])) {
                ++len;
            }
            if (len == 1) {
                throw InputError(file, pos, "'$' must be followed by a register name");
            }
        } else if (isDigit(c)) {
            t.kind = Tk::Nat;
            while (i + len < text.size() && isDigit(text[i + len])) {
                ++len;
            }
        } else {
            t.kind = Tk::Sym;
            for (std::string_view s : twoChar) {
                if (text.substr(i, 2) == s) {
                    len = 2;
                }
            }
            if (len == 0 && oneChar.find(c) != std::string_view::npos) {
                len = 1;
            }
            if (len == 0) {
                const auto u = static_cast<unsigned char>(c);
                char buf[8];
                std::snprintf(buf, sizeof buf, "0x%02x", u);
                throw InputError(file, pos,
                                 u >= 0x21 && u <= 0x7e
                                     ? "unexpected character " + quote(std::string(1, c))
                                     : std::string("unexpected byte ") + buf);
            }
        }
        t.text = std::string(text.substr(i, len));
        advance(len);
        out.push_back(std::move(t));
    }
    Tok end;
    end.pos = {line, col};
    out.push_back(end);
    return out;
}

// ---------------------------------------------------------------- macros

// Memorax's textual macros: `macro NAME(P, ...) TOKENS endmacro` defines,
// `NAME(ARG, ...)` expands. Parameters are replaced by the argument tokens;
// macro calls inside arguments expand when they are emitted. Runs with an
// explicit stack of token frames, so nesting depth costs no native stack.
class Preprocessor {
  public:
    explicit Preprocessor(const std::string& file) : file_(file) {}

    std::vector<Tok> run(std::vector<Tok> input) {
        Tok end = input.back();
        input.pop_back();
        frames_.push_back(Frame{std::move(input), 0, nullptr, {}});
        std::vector<Tok> out;
        for (;;) {
            std::optional<Tok> t = pull();
            if (!t) {
                break;
            }
            if (t->kind == Tk::Id && t->text == "macro") {
                define(*t);
                continue;
            }
            if (t->kind == Tk::Id && t->text == "endmacro") {
                throw InputError(file_, t->pos, "'endmacro' without a 'macro'");
            }
            if (t->kind == Tk::Id) {
                auto m = macros_.find(t->text);
                if (m != macros_.end()) {
                    call(m->second, *t);
                    continue;
                }
            }
            if (out.size() >= maxTokens) {
                throw InputError(file_, t->pos,
                                 "macro expansion exceeds " + std::to_string(maxTokens) +
                                     " tokens; is a macro expanding itself?");
            }
            out.push_back(std::move(*t));
        }
        out.push_back(end);
        return out;
    }

  private:
    static constexpr std::size_t maxTokens = 10'000'000;
    static constexpr std::size_t maxFrames = 100'000;
    static constexpr std::size_t maxCalls = 1'000'000;

    struct Macro {
        std::string name;
        std::vector<std::string> params;
        std::vector<Tok> body;
        SourcePos pos;
    };
    struct Frame {
        std::vector<Tok> toks;
        std::size_t next = 0;
        const Macro* macro = nullptr; // set for a macro body: its parameters are replaced
        std::unordered_map<std::string, std::vector<Tok>> args;
    };

    void dropFinished() {
        while (!frames_.empty() && frames_.back().next == frames_.back().toks.size()) {
            frames_.pop_back();
        }
    }

    // The next token with parameters replaced; nullopt at the end of input.
    std::optional<Tok> pull() {
        for (;;) {
            dropFinished();
            if (frames_.empty()) {
                return std::nullopt;
            }
            Frame& f = frames_.back();
            Tok t = f.toks[f.next++];
            if (f.macro != nullptr && t.kind == Tk::Id) {
                auto a = f.args.find(t.text);
                if (a != f.args.end()) {
                    push(Frame{a->second, 0, nullptr, {}}, t.pos);
                    continue;
                }
            }
            return t;
        }
    }

    void push(Frame f, SourcePos pos) {
        if (frames_.size() >= maxFrames) {
            throw InputError(file_, pos, "macros nest too deeply");
        }
        frames_.push_back(std::move(f));
    }

    Tok expect(const char* what, SourcePos near) {
        std::optional<Tok> t = pull();
        if (!t) {
            throw InputError(file_, near, std::string("expected ") + what + ", found end of file");
        }
        return *t;
    }

    void define(const Tok& kw) {
        if (frames_.size() > 1) {
            throw InputError(file_, kw.pos, "a macro definition inside a macro expansion");
        }
        const Tok name = expect("a macro name after 'macro'", kw.pos);
        if (name.kind != Tk::Id) {
            throw InputError(file_, name.pos,
                             "expected a macro name after 'macro', found " + describe(name));
        }
        if (macros_.count(name.text) != 0) {
            throw InputError(file_, name.pos, "macro " + quote(name.text) + " is defined twice");
        }
        Macro m;
        m.name = name.text;
        m.pos = name.pos;
        Tok t = expect("'(' after the macro name", name.pos);
        if (t.text != "(" || t.kind != Tk::Sym) {
            throw InputError(file_, t.pos,
                             "expected '(' after macro name " + quote(name.text) + ", found " +
                                 describe(t));
        }
        t = expect("a parameter or ')'", t.pos);
        if (!(t.kind == Tk::Sym && t.text == ")")) {
            for (;;) {
                if (t.kind != Tk::Id) {
                    throw InputError(file_, t.pos,
                                     "expected a parameter name, found " + describe(t));
                }
                if (std::find(m.params.begin(), m.params.end(), t.text) != m.params.end()) {
                    throw InputError(file_, t.pos, "parameter " + quote(t.text) + " appears twice");
                }
                m.params.push_back(t.text);
                t = expect("',' or ')'", t.pos);
                if (t.kind == Tk::Sym && t.text == ")") {
                    break;
                }
                if (!(t.kind == Tk::Sym && t.text == ",")) {
                    throw InputError(file_, t.pos, "expected ',' or ')', found " + describe(t));
                }
                t = expect("a parameter name", t.pos);
            }
        }
        for (;;) {
            std::optional<Tok> b = pull();
            if (!b) {
                throw InputError(file_, name.pos,
                                 "macro " + quote(name.text) + " has no 'endmacro'");
            }
            if (b->kind == Tk::Id && b->text == "endmacro") {
                break;
            }
            if (b->kind == Tk::Id && b->text == "macro") {
                throw InputError(file_, b->pos,
                                 "a macro definition inside macro " + quote(name.text));
            }
            m.body.push_back(std::move(*b));
        }
        const std::string key = m.name;
        macros_.emplace(key, std::move(m));
    }

    void call(const Macro& m, const Tok& name) {
        // Every frame still on the stack contains the call (finished frames
        // are dropped before a token is read), so m among them is recursion.
        for (const Frame& g : frames_) {
            if (g.macro == &m) {
                throw InputError(file_, name.pos, "macro " + quote(m.name) + " calls itself");
            }
        }
        if (++calls_ > maxCalls) {
            throw InputError(file_, name.pos,
                             "more than " + std::to_string(maxCalls) +
                                 " macro calls; is a macro expanding itself?");
        }
        const Tok open = expect("'('", name.pos);
        if (!(open.kind == Tk::Sym && open.text == "(")) {
            throw InputError(file_, open.pos,
                             "expected '(' after macro " + quote(m.name) + ", found " +
                                 describe(open));
        }
        std::vector<std::vector<Tok>> args(1);
        int depth = 1;
        for (;;) {
            std::optional<Tok> t = pull();
            if (!t) {
                throw InputError(file_, name.pos,
                                 "the call of macro " + quote(m.name) + " is never closed");
            }
            if (t->kind == Tk::Sym && t->text == "(") {
                ++depth;
            } else if (t->kind == Tk::Sym && t->text == ")" && --depth == 0) {
                break;
            } else if (t->kind == Tk::Sym && t->text == "," && depth == 1) {
                args.emplace_back();
                continue;
            }
            args.back().push_back(std::move(*t));
        }
        if (m.params.empty() && args.size() == 1 && args[0].empty()) {
            args.clear();
        }
        if (args.size() != m.params.size()) {
            throw InputError(file_, name.pos,
                             "macro " + quote(m.name) + " takes " +
                                 std::to_string(m.params.size()) + " argument(s), given " +
                                 std::to_string(args.size()));
        }
        Frame f{m.body, 0, &m, {}};
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (args[i].empty()) {
                throw InputError(file_, name.pos,
                                 "argument " + std::to_string(i + 1) + " of macro " +
                                     quote(m.name) + " is empty");
            }
            f.args.emplace(m.params[i], std::move(args[i]));
        }
        push(std::move(f), name.pos);
    }

    const std::string& file_;
    std::map<std::string, Macro> macros_;
    std::vector<Frame> frames_;
    std::size_t calls_ = 0;
};

// ---------------------------------------------------------------- syntax tree

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

// An arithmetic or boolean expression, already in tsoreach's prefix form.
struct Expr {
    std::string prefix;
    std::vector<std::pair<std::string, SourcePos>> regs; // registers read
    std::optional<std::int64_t> value;                   // when constant
    SourcePos pos;
};

struct Domain {
    bool finite = false;
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    [[nodiscard]] bool contains(std::int64_t v) const { return !finite || (lo <= v && v <= hi); }
    // Number of values, saturated (a finite domain only); no overflow at the
    // ends of the 64-bit range.
    [[nodiscard]] std::uint64_t size() const {
        const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
        return span == ~std::uint64_t{0} ? span : span + 1;
    }
    [[nodiscard]] std::int64_t value(std::uint64_t k) const {
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + k);
    }
    [[nodiscard]] bool includes(const Domain& d) const {
        return !finite || (d.finite && lo <= d.lo && d.hi <= hi);
    }
};

struct Decl {
    std::string name;
    SourcePos pos;
    bool any = false; // initial value '*'
    std::int64_t init = 0;
    Domain domain;
};

struct MemLoc {
    enum class Kind { Global, Own, Other, Pointer } kind = Kind::Global;
    std::string name;
    std::int64_t other = 0;
    Expr ptr;
    SourcePos pos;
};

struct Stmt {
    enum class Kind {
        Nop,
        ReadAssert,
        ReadAssign,
        Write,
        LockedWrite,
        SyncWrite,
        Cas,
        Fence,
        Assign,
        Assume,
        If,
        While,
        Goto,
        Either,
        Locked,
        Block
    } kind = Kind::Nop;
    SourcePos pos;
    std::string label;
    SourcePos labelPos;
    MemLoc loc;
    std::string reg;
    SourcePos regPos;
    Expr e1;                              // value, compared value, condition
    Expr e2;                              // cas: new value
    std::vector<std::vector<Stmt>> parts; // branches, bodies, alternatives
    std::string target;                   // goto
};

struct Process {
    SourcePos pos;
    std::vector<Decl> data;
    std::vector<Decl> regs;
    std::vector<Stmt> text;
};

struct Test {
    std::vector<std::vector<Tok>> forbidden; // tuples of labels or '*'
    std::vector<Decl> globals;
    std::vector<Process> processes; // replicated copies listed one by one
};

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
        std::vector<std::string> ops;
        std::string operands;
        explicit Chain(Expr first) : e(std::move(first)), operands(e.prefix) {}
        void add(const std::string& op, Expr r) {
            ops.push_back(op);
            operands += " ";
            operands += r.prefix;
            e = binary(op, std::move(e), std::move(r), false);
        }
        Expr done() && {
            if (!ops.empty()) {
                std::string prefix;
                for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
                    prefix += *it;
                    prefix += " ";
                }
                e.prefix = std::move(prefix) + operands;
            }
            return std::move(e);
        }
    };

    // EXPR: UNIT (('+' | '-') UNIT)*, left associative.
    Expr expr(int depth) {
        Chain c(unit(depth));
        while (isSym("+") || isSym("-")) {
            const std::string op = take().text;
            c.add(op, unit(depth));
        }
        return std::move(c).done();
    }

    // `withPrefix` false: the caller (Chain) sets the prefix.
    static Expr binary(const std::string& op, Expr a, Expr b, bool withPrefix = true) {
        Expr e;
        e.pos = a.pos;
        if (withPrefix) {
            e.prefix = op + " " + a.prefix + " " + b.prefix;
        }
        e.regs = std::move(a.regs);
        e.regs.insert(e.regs.end(), b.regs.begin(), b.regs.end());
        if (a.value && b.value && (op == "+" || op == "-")) {
            std::int64_t v = 0;
            const bool overflow = op == "+" ? __builtin_add_overflow(*a.value, *b.value, &v)
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
            e.prefix = t.text;
            e.regs.emplace_back(t.text, t.pos);
        } else if (t.kind == Tk::Nat) {
            e.value = number(t);
            e.prefix = t.text;
        } else if (t.kind == Tk::Sym && t.text == "-") {
            if (cur().kind == Tk::Nat) {
                e.value = number(take(), true);
                e.prefix = std::to_string(*e.value);
            } else {
                Expr zero;
                zero.prefix = "0";
                zero.value = 0;
                zero.pos = t.pos;
                e = binary("-", std::move(zero), unit(depth + 1));
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
            c.add("||", band(depth));
        }
        return std::move(c).done();
    }
    Expr band(int depth) {
        Chain c(notAtom(depth));
        while (acceptSym("&&")) {
            c.add("&&", notAtom(depth));
        }
        return std::move(c).done();
    }
    Expr notAtom(int depth) {
        if (isWord("not")) {
            const SourcePos pos = take().pos;
            Expr a = atom(depth);
            a.prefix = "! " + a.prefix;
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
            e.prefix = "1";
            return e;
        }
        if (acceptWord("false")) {
            e.prefix = "0";
            return e;
        }
        if (acceptSym("[")) {
            e = bexpr(depth + 1);
            expectSym("]");
            return e;
        }
        Expr a = expr(depth + 1);
        static const std::map<std::string, std::string> rel = {
            {"=", "=="}, {"!=", "!="}, {"<", "<"}, {">", ">"}, {"<=", "<="}, {">=", ">="}};
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

// ---------------------------------------------------------------- translation

std::string inDomain(const Domain& d, const std::string& e) {
    return "&& <= " + std::to_string(d.lo) + " " + e + " <= " + e + " " + std::to_string(d.hi);
}

// One thread's automaton under construction. States are merged with a
// union-find where a statement may start at a label's state directly.
struct ThreadBuilder {
    struct Edge {
        std::uint32_t from;
        std::uint32_t to;
        std::string instr;
        SourcePos pos;
        std::vector<std::string> uses;
        std::string def;
    };
    std::vector<std::uint32_t> parent;
    std::vector<std::string> label; // label naming the state's class (at the root)
    std::vector<std::uint8_t> exclusive;
    std::vector<Edge> edges;

    std::uint32_t fresh() {
        // The translation is parsed again, under kMaxSourceBytes, so a
        // thread never gets near 2^32 states; this keeps ids from wrapping
        // on the way there.
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
    void edge(std::uint32_t from, std::uint32_t to, std::string instr, SourcePos pos,
              std::vector<std::string> uses = {}, std::string def = {}) {
        edges.push_back({from, to, std::move(instr), pos, std::move(uses), std::move(def)});
    }
};

class Translator {
  public:
    Translator(const Test& test, const std::string& file) : test_(test), file_(file) {}

    std::string run(std::vector<SourcePos>& transitionPos, std::vector<SourcePos>& threadPos) {
        layout();
        const std::size_t n = test_.processes.size();
        checkForbidden();
        std::string out = header();
        if (needInit_) {
            out += initThread(transitionPos);
            threadPos.push_back(test_.globals.empty() ? test_.processes.front().pos
                                                      : test_.globals.front().pos);
        }
        for (std::size_t p = 0; p < n; ++p) {
            std::map<std::string, bool> finals;
            out += process(p, transitionPos, finals);
            threadPos.push_back(test_.processes[p].pos);
        }
        return out;
    }

    [[nodiscard]] bool hasInitThread() const { return needInit_; }

  private:
    [[noreturn]] void fail(SourcePos pos, const std::string& msg) const {
        throw InputError(file_, pos, msg);
    }

    struct Var {
        const Decl* decl;
        std::int64_t addr;
        std::string shown; // name in the layout comment
    };

    void layout() {
        for (const Decl& d : test_.globals) {
            globals_.push_back({&d, next_++, d.name});
        }
        locals_.resize(test_.processes.size());
        for (std::size_t p = 0; p < test_.processes.size(); ++p) {
            for (const Decl& d : test_.processes[p].data) {
                locals_[p].push_back({&d, next_++, d.name + "[" + std::to_string(p) + "]"});
            }
        }
        for (const Var& v : allVars()) {
            needInit_ = needInit_ || v.decl->any || v.decl->init != 0;
        }
        flag_ = next_;
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

    std::string header() const {
        std::string h = "# translated from the Memorax test " + file_ + " (see docs/rmm.md)\n";
        h += "# memory layout:";
        for (const Var& v : allVars()) {
            h += " " + std::to_string(v.addr) + "=" + v.shown;
        }
        if (needInit_) {
            h += " " + std::to_string(flag_) + "=(initialised)";
        }
        return h + "\n\n";
    }

    static std::string emitThread(const std::string& name, ThreadBuilder& b, std::uint32_t initial,
                                  const std::map<std::string, bool>* finals,
                                  std::vector<SourcePos>& transitionPos) {
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
        std::string out = "thread " + name + "\ninitial " + nameOf(initial) + "\n";
        if (finals != nullptr) {
            for (const auto& [l, isFinal] : *finals) {
                if (isFinal) {
                    out += "final " + l + "\n";
                }
            }
        }
        for (const ThreadBuilder::Edge& e : b.edges) {
            const std::string& from = nameOf(e.from);
            out += "transition " + from + " " + nameOf(e.to) + " " + e.instr + "\n";
            transitionPos.push_back(e.pos);
        }
        return out + "end\n\n";
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

    std::string initThread(std::vector<SourcePos>& transitionPos) const {
        ThreadBuilder b;
        const std::uint32_t start = b.fresh();
        std::uint32_t at = start;
        for (const Var& v : allVars()) {
            const Decl& d = *v.decl;
            if (!d.any && d.init == 0) {
                continue;
            }
            const std::uint32_t next = b.fresh();
            for (std::int64_t x : initialValues(d, quote(d.name), "")) {
                b.edge(at, next, "write " + std::to_string(x) + " " + std::to_string(v.addr),
                       d.pos);
            }
            at = next;
        }
        // The fence makes every initial value visible before the flag, also under PSO.
        const std::uint32_t fenced = b.fresh();
        const SourcePos pos =
            test_.globals.empty() ? test_.processes.front().pos : test_.globals.front().pos;
        b.edge(at, fenced, "mfence", pos);
        const std::uint32_t done = b.fresh();
        b.edge(fenced, done, "write 1 " + std::to_string(flag_), pos);
        return emitThread("init", b, start, nullptr, transitionPos);
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
        std::optional<std::uint32_t> escape;
        // The current alternative of the locked block has written: a check
        // failing now could not undo the write, while Memorax's block then
        // does nothing at all.
        bool wroteInLock = false;
    };

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
        std::string addr;              // address expression (prefix)
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
                r.addr = std::to_string(r.var->addr);
                return r;
            }
            if (globals_.empty()) {
                fail(m.pos, "pointer access, but the test has no global variables");
            }
            r.pointer = true;
            r.addr = m.ptr.prefix;
            r.uses = names(m.ptr);
            return r;
        }
        if (m.kind == K::Global) {
            for (const Var& v : globals_) {
                if (v.decl->name == m.name) {
                    r.var = &v;
                    r.addr = std::to_string(v.addr);
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
                r.addr = std::to_string(v.addr);
                return r;
            }
        }
        fail(m.pos, "process " + std::to_string(owner) + " has no local variable " + quote(m.name));
    }

    // The condition that `value` fits the domain of the written location.
    std::optional<std::string> writeDomainCheck(const Resolved& r, const Expr& value) const {
        if (r.var != nullptr) {
            const Domain& d = r.var->decl->domain;
            if (!d.finite || (value.value && d.contains(*value.value))) {
                return std::nullopt;
            }
            if (value.value) {
                return std::string("0");
            }
            return inDomain(d, value.prefix);
        }
        // Through a pointer: the domain of whichever global it names.
        std::string cond;
        for (const Var& v : globals_) {
            const Domain& d = v.decl->domain;
            if (!d.finite || (value.value && d.contains(*value.value))) {
                continue;
            }
            const std::string one = "|| != " + r.addr + " " + std::to_string(v.addr) + " " +
                                    (value.value ? std::string("0") : inDomain(d, value.prefix));
            cond = cond.empty() ? one : "&& " + cond + " " + one;
        }
        if (cond.empty()) {
            return std::nullopt;
        }
        return cond;
    }

    std::string pointerBounds(const Resolved& r) const {
        return "&& <= 0 " + r.addr + " < " + r.addr + " " + std::to_string(globals_.size());
    }

    // check cond from -> to; inside a locked block the failing side unlocks.
    void check(Ctx& c, std::uint32_t from, std::uint32_t to, const std::string& cond, SourcePos pos,
               const std::vector<std::string>& uses) const {
        c.b->edge(from, to, "check " + cond, pos, uses);
        if (c.inLock) {
            if (c.wroteInLock) {
                fail(pos, "a statement that can block after a write inside a 'locked' block is "
                          "not supported: Memorax's block then does nothing, and its write "
                          "could not be undone (move the checks before the first write)");
            }
            if (!c.escape) {
                c.escape = c.b->fresh();
                c.b->edge(*c.escape, c.b->fresh(), "unlock", c.lockPos);
            }
            c.b->edge(from, *c.escape, "check ! " + cond, pos, uses);
        }
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
        std::string cond;
        std::vector<std::string> uses = r.uses;
        if (r.pointer) {
            cond = pointerBounds(r);
        }
        if (written != nullptr) {
            if (std::optional<std::string> d = writeDomainCheck(r, *written)) {
                cond = cond.empty() ? *d : "&& " + cond + " " + *d;
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
            c.b->edge(at, next, "read " + s.reg + " " + r.addr, s.pos, r.uses, s.reg);
            if (!fits) {
                check(c, next, to, inDomain(d->domain, s.reg), s.pos, {s.reg});
            }
            return;
        }
        checkRegs(c, s.e1);
        const std::uint32_t next = c.b->fresh();
        c.b->edge(at, next, "read _t " + r.addr, s.pos, r.uses, "_t");
        check(c, next, to, "== _t " + s.e1.prefix, s.pos, join({"_t"}, names(s.e1)));
    }

    // A write inside a held lock (or a plain one): `write VALUE ADDR`.
    void write(Ctx& c, std::uint32_t from, std::uint32_t to, const Resolved& r, const Expr& value,
               SourcePos pos) const {
        c.b->edge(from, to, "write " + value.prefix + " " + r.addr, pos,
                  join(r.uses, names(value)));
        c.wroteInLock = c.inLock;
    }

    // Takes the lock unless already inside a locked block; `body` runs with
    // the lock held from its first argument to its second.
    template <class Body>
    void locked(Ctx& c, std::uint32_t from, std::uint32_t to, SourcePos pos, Body body) const {
        if (c.inLock) {
            body(from, to);
            return;
        }
        const std::uint32_t held = c.b->fresh();
        const std::uint32_t release = c.b->fresh();
        c.b->edge(from, held, "lock", pos);
        c.inLock = true;
        c.lockPos = pos;
        c.wroteInLock = false;
        body(held, release);
        c.inLock = false;
        c.escape.reset();
        c.wroteInLock = false;
        c.b->edge(release, to, "unlock", pos);
    }

    static bool writesMemory(const std::vector<Stmt>& list) {
        using K = Stmt::Kind;
        for (const Stmt& s : list) {
            if (s.kind == K::Write || s.kind == K::LockedWrite || s.kind == K::SyncWrite ||
                s.kind == K::Cas) {
                return true;
            }
            for (const auto& part : s.parts) {
                if (writesMemory(part)) {
                    return true;
                }
            }
        }
        return false;
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
                b.edge(from, l, "noop", s.labelPos);
            }
            from = l;
            exclusive = true;
        }
        using K = Stmt::Kind;
        switch (s.kind) {
        case K::Nop:
            b.edge(from, to, "noop", s.pos);
            break;
        case K::Fence:
            b.edge(from, to, "mfence", s.pos);
            break;
        case K::Assign: {
            checkRegs(c, s.e1);
            const Decl* d = reg(c, s.reg, s.regPos);
            std::uint32_t at = from;
            if (d->domain.finite && !(s.e1.value && d->domain.contains(*s.e1.value))) {
                at = b.fresh();
                check(c, from, at, s.e1.value ? std::string("0") : inDomain(d->domain, s.e1.prefix),
                      s.pos, names(s.e1));
            }
            b.edge(at, to, "local " + s.reg + " " + s.e1.prefix, s.pos, names(s.e1), s.reg);
            break;
        }
        case K::Assume:
            checkRegs(c, s.e1);
            check(c, from, to, s.e1.prefix, s.pos, names(s.e1));
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
            locked(c, at, to, s.pos,
                   [&](std::uint32_t f, std::uint32_t t) { write(c, f, t, r, s.e1, s.pos); });
            break;
        }
        case K::Cas: {
            checkRegs(c, s.e1);
            checkRegs(c, s.e2);
            const Resolved r = resolve(c, s.loc);
            const std::uint32_t at = preChecks(c, from, r, &s.e2, s.pos);
            locked(c, at, to, s.pos, [&](std::uint32_t f, std::uint32_t t) {
                const std::uint32_t got = b.fresh();
                const std::uint32_t same = b.fresh();
                b.edge(f, got, "read _t " + r.addr, s.pos, r.uses, "_t");
                check(c, got, same, "== _t " + s.e1.prefix, s.pos, join({"_t"}, names(s.e1)));
                write(c, same, t, r, s.e2, s.pos);
            });
            break;
        }
        case K::Locked: {
            for (const auto& alt : s.parts) {
                checkLockedBody(alt);
            }
            bool writes = false;
            for (const auto& alt : s.parts) {
                writes = writes || writesMemory(alt);
            }
            if (!writes && !c.inLock) {
                fail(s.pos, "a 'locked' block without a write is not supported: Memorax runs it "
                            "atomically without draining the store buffer, and tsoreach's lock "
                            "drains it");
            }
            locked(c, from, to, s.pos, [&](std::uint32_t f, std::uint32_t t) {
                const bool wrote = c.wroteInLock;
                bool anyWrote = wrote;
                for (const auto& alt : s.parts) {
                    c.wroteInLock = wrote;
                    seq(c, alt, f, t, false);
                    anyWrote = anyWrote || c.wroteInLock;
                }
                c.wroteInLock = anyWrote;
            });
            break;
        }
        case K::If: {
            checkRegs(c, s.e1);
            const std::uint32_t thenAt = b.fresh();
            check(c, from, thenAt, s.e1.prefix, s.pos, names(s.e1));
            seq(c, s.parts[0], thenAt, to, true);
            if (s.parts.size() > 1) {
                const std::uint32_t elseAt = b.fresh();
                check(c, from, elseAt, "! " + s.e1.prefix, s.pos, names(s.e1));
                seq(c, s.parts[1], elseAt, to, true);
            } else {
                check(c, from, to, "! " + s.e1.prefix, s.pos, names(s.e1));
            }
            break;
        }
        case K::While: {
            checkRegs(c, s.e1);
            std::uint32_t head = from;
            if (!exclusive) {
                head = b.fresh();
                b.edge(from, head, "noop", s.pos);
            }
            const std::uint32_t body = b.fresh();
            check(c, head, body, s.e1.prefix, s.pos, names(s.e1));
            seq(c, s.parts[0], body, head, true);
            check(c, head, to, "! " + s.e1.prefix, s.pos, names(s.e1));
            break;
        }
        case K::Goto: {
            c.gotos.emplace_back(s.target, s.pos);
            const std::uint32_t target = labelState(c, s.target);
            const std::uint32_t root = b.find(from);
            if (exclusive && b.label[root].empty() && root != b.find(target)) {
                b.parent[root] = b.find(target);
            } else {
                b.edge(from, target, "noop", s.pos);
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

    std::string process(std::size_t pid, std::vector<SourcePos>& transitionPos,
                        std::map<std::string, bool>& finals) {
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
        const auto add = [&](std::uint32_t to, std::string instr, SourcePos pos) {
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
                add(next, "local " + d.name + " " + std::to_string(x), d.pos);
            }
            at = next;
        }
        if (needInit_) {
            const std::uint32_t got = b.fresh();
            add(got, "read _t " + std::to_string(flag_), proc.pos);
            at = got;
            add(body, "check == _t 1", proc.pos);
        } else {
            // The last prelude state is where the body starts.
            b.parent[b.find(at)] = b.find(body);
        }
        b.edges.insert(b.edges.begin(), prelude.begin(), prelude.end());
        if (test_.forbidden.size() == 1) {
            const Tok& l = test_.forbidden[0][pid];
            if (l.text != "*") {
                finals[l.text] = true;
            }
        }
        for (const auto& tuple : test_.forbidden) {
            const Tok& l = tuple[pid];
            if (l.text != "*" && c.labelDefined.count(l.text) == 0) {
                fail(l.pos, "process " + std::to_string(pid) + " has no label " + quote(l.text));
            }
        }
        return emitThread("p" + std::to_string(pid), b, start, &finals, transitionPos);
    }

    const Test& test_;
    const std::string& file_;
    std::vector<Var> globals_;
    std::vector<std::vector<Var>> locals_;
    std::int64_t next_ = 0;
    std::int64_t flag_ = 0;
    bool needInit_ = false;
};

} // namespace

RmmTranslation translateRmm(std::string_view text, const std::string& sourceName) {
    checkSourceSize(text.size(), sourceName); // keeps positions in 32 bits
    std::vector<Tok> toks = Preprocessor(sourceName).run(lexRmm(text, sourceName));
    const Test test = RmmParser(std::move(toks), sourceName).run();
    Translator tr(test, sourceName);
    std::vector<SourcePos> transitionPos;
    std::vector<SourcePos> threadPos;
    std::string out = tr.run(transitionPos, threadPos);
    if (test.forbidden.size() > 1) {
        // tsoreach's final states state one conjunction; the disjunction is
        // the goal of the .rmm file itself, or of repeated --goal options.
        std::string goal = "# goal (from 'forbidden'), one of the tuples:";
        for (std::size_t i = 0; i < test.forbidden.size(); ++i) {
            goal += " --goal ";
            std::string term;
            for (std::size_t p = 0; p < test.forbidden[i].size(); ++p) {
                if (test.forbidden[i][p].text != "*") {
                    term += (term.empty() ? "" : ",") + ("p" + std::to_string(p)) + "=" +
                            test.forbidden[i][p].text;
                }
            }
            goal += term.empty() ? "true" : term;
        }
        out = goal + "\n" + out;
    }
    Program program = parseProgram(out, sourceName);
    if (program.transitions.size() != transitionPos.size() ||
        program.threads.size() != threadPos.size()) {
        throw std::logic_error("the .rmm translation lost track of its source positions");
    }
    for (std::size_t i = 0; i < transitionPos.size(); ++i) {
        program.transitions[i].pos = transitionPos[i];
    }
    for (std::size_t i = 0; i < threadPos.size(); ++i) {
        program.threads[i].pos = threadPos[i];
    }
    Goal goal(program);
    const std::size_t first = tr.hasInitThread() ? 1 : 0;
    for (std::size_t i = 0; i < test.forbidden.size(); ++i) {
        if (i > 0) {
            goal.addTerm();
        }
        for (std::size_t p = 0; p < test.forbidden[i].size(); ++p) {
            const std::string& l = test.forbidden[i][p].text;
            if (l == "*") {
                continue;
            }
            const ThreadId t(static_cast<std::uint32_t>(first + p));
            goal.accept(t, findState(program.thread(t), l));
        }
    }
    return RmmTranslation{std::move(program), std::move(goal), std::move(out)};
}

} // namespace tsoreach
