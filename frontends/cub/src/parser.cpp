// Recursive descent over the grammar of docs/parameterized.md. Recursion
// follows parentheses and `forall_other` only, bounded by kMaxNesting;
// chains of `&&`, `||` and actions are loops.

#include "tsoreach/frontends/cub/parser.hpp"

#include "lexer.hpp"
#include "names.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace tsoreach::cub {

const VarDecl* System::findVar(const std::string& name) const {
    for (const VarDecl& v : vars) {
        if (v.name == name) {
            return &v;
        }
    }
    return nullptr;
}

const TypeDecl* System::findType(const std::string& name) const {
    for (const TypeDecl& t : types) {
        if (t.name == name) {
            return &t;
        }
    }
    return nullptr;
}

namespace {

// Cubicle keywords outside the subset: a positioned error names them.
constexpr std::array<std::string_view, 12> kUnsupported = {
    "not", "exists_other", "forall", "exists", "predicate", "let",
    "if",  "then",         "else",   "real",   "=>",        "<=>"};

bool isUpperIdent(const Token& t) {
    return t.kind == Token::Kind::Ident && std::isupper(static_cast<unsigned char>(t.text[0])) != 0;
}
bool isLowerIdent(const Token& t) {
    return t.kind == Token::Kind::Ident && std::islower(static_cast<unsigned char>(t.text[0])) != 0;
}

class Parser {
  public:
    Parser(std::vector<Token> toks, const std::string& file) : toks_(std::move(toks)), file_(file) {
        sys_.sourceName = file;
    }

    System run() {
        if (peek().is("number_procs")) {
            next();
            sys_.numberProcs = static_cast<std::size_t>(number(expectInt()));
            if (*sys_.numberProcs < 1) {
                fail(toks_[pos_ - 1], "number_procs must be at least 1");
            }
        }
        while (peek().kind != Token::Kind::End) {
            item();
        }
        return std::move(sys_);
    }

  private:
    const Token& peek(std::size_t ahead = 0) const {
        return toks_[std::min(pos_ + ahead, toks_.size() - 1)];
    }
    const Token& next() {
        const Token& t = peek();
        if (pos_ < toks_.size() - 1) {
            ++pos_;
        }
        return t;
    }
    [[noreturn]] void fail(const Token& t, const std::string& msg) const {
        throw InputError(file_, t.pos, msg);
    }
    [[noreturn]] void unexpected(const std::string& wanted) const {
        const Token& t = peek();
        for (std::string_view k : kUnsupported) {
            if (t.is(k)) {
                fail(t, "'" + t.text +
                            "' is not in the supported subset of Cubicle (docs/parameterized.md)");
            }
        }
        fail(t, "expected " + wanted + ", found " + t.describe());
    }
    const Token& expect(std::string_view s) {
        if (!peek().is(s)) {
            unexpected("'" + std::string(s) + "'");
        }
        return next();
    }
    bool accept(std::string_view s) {
        if (peek().is(s)) {
            next();
            return true;
        }
        return false;
    }
    const Token& expectInt() {
        if (peek().kind != Token::Kind::Int) {
            unexpected("a number");
        }
        return next();
    }
    const Token& expectIdent(bool upper, const std::string& what) {
        if (upper ? !isUpperIdent(peek()) : !isLowerIdent(peek())) {
            unexpected(what);
        }
        return next();
    }
    Value number(const Token& t) const {
        Value v = 0;
        auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
        if (ec != std::errc() || p != t.text.data() + t.text.size() || v > (Value{1} << 40)) {
            fail(t, "number " + t.text + " is too large");
        }
        return v;
    }

    void item() {
        const Token& t = peek();
        if (t.is("type")) {
            typeDecl();
        } else if (t.is("const") || t.is("weak") || t.is("var") || t.is("array")) {
            varDecl();
        } else if (t.is("init") || t.is("invariant") || t.is("unsafe")) {
            cube();
        } else if (t.is("transition")) {
            transition();
        } else {
            unexpected("a declaration ('type', 'var', 'array', 'const', 'weak', 'init', "
                       "'invariant', 'unsafe' or 'transition')");
        }
    }

    void typeDecl() {
        TypeDecl d;
        d.pos = next().pos;
        d.name = expectIdent(false, "a type name (lower case)").text;
        if (accept("=")) {
            accept("|");
            do {
                const Token& c = expectIdent(true, "a constructor (upper case)");
                for (const TypeDecl& other : sys_.types) {
                    if (std::find(other.constructors.begin(), other.constructors.end(), c.text) !=
                        other.constructors.end()) {
                        fail(c, "constructor '" + c.text + "' already belongs to type '" +
                                    other.name + "'");
                    }
                }
                if (c.text == "True" || c.text == "False" ||
                    std::find(d.constructors.begin(), d.constructors.end(), c.text) !=
                        d.constructors.end()) {
                    fail(c, "constructor '" + c.text + "' is declared twice");
                }
                d.constructors.push_back(c.text);
            } while (accept("|"));
        }
        sys_.types.push_back(std::move(d));
    }

    void varDecl() {
        VarDecl d;
        d.pos = peek().pos;
        bool array = false;
        if (accept("const")) {
            d.kind = VarKind::Const;
        } else {
            d.kind = accept("weak") ? VarKind::Weak : VarKind::Regular;
            array = peek().is("array");
            if (!accept("var") && !accept("array")) {
                unexpected("'var' or 'array'");
            }
        }
        d.name = expectIdent(true, "a variable name (upper case)").text;
        if (d.kind == VarKind::Const) {
            array = peek().is("[");
        } else if (!array && peek().is("[")) {
            fail(peek(), "'var " + d.name + "' has no index; declare it with 'array'");
        }
        if (array) {
            expect("[");
            do {
                expect("proc");
                ++d.dims;
            } while (accept(","));
            expect("]");
            if (d.dims > 2) {
                fail(toks_[pos_ - 1], "arrays of more than two dimensions are not supported");
            }
        }
        expect(":");
        d.type = expectIdent(false, "a type name").text;
        sys_.vars.push_back(std::move(d));
    }

    // Adds a process variable to `vars`, which must not hold it already
    // (parameters and cube variables stand for distinct processes).
    void addDistinct(std::vector<std::string>& vars, const Token& t) {
        if (std::find(vars.begin(), vars.end(), t.text) != vars.end()) {
            fail(t, "process variable '" + t.text + "' is named twice");
        }
        vars.push_back(t.text);
    }

    std::vector<std::string> procVars() {
        std::vector<std::string> vars;
        if (accept("(")) {
            while (!accept(")")) {
                addDistinct(vars, expectIdent(false, "a process variable (lower case) or ')'"));
            }
        }
        return vars;
    }

    void cube() {
        const Token& kw = next();
        Cube c;
        c.pos = kw.pos;
        c.vars = procVars();
        expect("{");
        c.formula = formula(0);
        expect("}");
        auto& list = kw.is("init") ? sys_.inits : kw.is("unsafe") ? sys_.unsafes : sys_.invariants;
        list.push_back(std::move(c));
    }

    void transition() {
        TransitionDecl t;
        t.pos = next().pos;
        if (peek().kind != Token::Kind::Ident) {
            unexpected("a transition name");
        }
        const Token& name = next();
        t.name = name.text;
        for (const TransitionDecl& other : sys_.transitions) {
            if (other.name == t.name) {
                fail(name, "transition '" + t.name + "' is declared twice (first at line " +
                               std::to_string(other.pos.line) + ")");
            }
        }
        expect("(");
        expect("[");
        t.params.push_back(expectIdent(false, "the moving process variable (lower case)").text);
        expect("]");
        while (!accept(")")) {
            addDistinct(t.params, expectIdent(false, "a process variable (lower case) or ')'"));
        }
        t.guard.kind = Formula::Kind::True;
        t.guard.pos = t.pos;
        if (accept("requires")) {
            expect("{");
            t.guard = formula(0);
            expect("}");
        }
        expect("{");
        while (!accept("}")) {
            t.actions.push_back(action());
            if (!accept(";") && !peek().is("}")) {
                unexpected("';' or '}'");
            }
        }
        sys_.transitions.push_back(std::move(t));
    }

    std::vector<std::string> indices() {
        std::vector<std::string> idx;
        if (accept("[")) {
            do {
                idx.push_back(expectIdent(false, "a process variable (lower case)").text);
            } while (accept(","));
            expect("]");
        }
        return idx;
    }

    Action action() {
        Action a;
        a.pos = peek().pos;
        a.cell = expectIdent(true, "an assignment 'X[p] := ...'").text;
        a.indices = indices();
        expect(":=");
        if (!accept("case")) {
            a.branches.push_back(Branch{std::nullopt, term()});
            return a;
        }
        a.isCase = true;
        while (accept("|")) {
            Branch b;
            if (!accept("_")) {
                b.cond = formula(0);
            }
            expect(":");
            b.value = term();
            a.branches.push_back(std::move(b));
        }
        if (a.branches.empty()) {
            unexpected("'|' starting a case branch");
        }
        return a;
    }

    // formula ::= forall_other v . formula | conj { || conj-or-forall }
    Formula formula(std::size_t depth) {
        if (depth > kMaxNesting) {
            fail(peek(), "formula nested more than " + std::to_string(kMaxNesting) + " deep");
        }
        Formula f;
        f.kind = Formula::Kind::Or;
        f.pos = peek().pos;
        while (true) {
            if (peek().is("forall_other")) {
                f.args.push_back(forall(depth));
                break; // its body reaches as far right as possible
            }
            f.args.push_back(conj(depth));
            if (!accept("||")) {
                break;
            }
        }
        return single(std::move(f));
    }

    Formula conj(std::size_t depth) {
        Formula f;
        f.kind = Formula::Kind::And;
        f.pos = peek().pos;
        f.args.push_back(literal(depth));
        while (accept("&&")) {
            if (peek().is("forall_other")) {
                f.args.push_back(forall(depth));
                break;
            }
            f.args.push_back(literal(depth));
        }
        return single(std::move(f));
    }

    static Formula single(Formula f) {
        if (f.args.size() == 1) {
            Formula only = std::move(f.args.front());
            return only;
        }
        return f;
    }

    Formula forall(std::size_t depth) {
        Formula f;
        f.kind = Formula::Kind::ForallOther;
        f.pos = next().pos;
        f.var = expectIdent(false, "a process variable (lower case)").text;
        expect(".");
        f.args.push_back(formula(depth + 1));
        return f;
    }

    Formula literal(std::size_t depth) {
        Formula f;
        f.pos = peek().pos;
        if (accept("(")) {
            f = formula(depth + 1);
            expect(")");
            return f;
        }
        if (accept("fence")) {
            expect("(");
            expect(")");
            f.kind = Formula::Kind::Fence;
            return f;
        }
        if (accept("true") || accept("false")) {
            f.kind = toks_[pos_ - 1].is("true") ? Formula::Kind::True : Formula::Kind::False;
            return f;
        }
        f.kind = Formula::Kind::Compare;
        f.lhs = term();
        f.cmp = comparison();
        f.rhs = term();
        return f;
    }

    Cmp comparison() {
        static constexpr std::array<std::pair<std::string_view, Cmp>, 6> ops = {{
            {"=", Cmp::Eq},
            {"<>", Cmp::Ne},
            {"<", Cmp::Lt},
            {"<=", Cmp::Le},
            {">", Cmp::Gt},
            {">=", Cmp::Ge},
        }};
        for (auto [text, cmp] : ops) {
            if (accept(text)) {
                return cmp;
            }
        }
        unexpected("a comparison (=, <>, <, <=, >, >=)");
    }

    Term term() {
        Term t = base();
        if (peek().is("+") || peek().is("-")) {
            const bool minus = next().is("-");
            const Value k = number(expectInt());
            t.offset = minus ? -k : k;
        }
        return t;
    }

    Term base() {
        Term t;
        t.pos = peek().pos;
        if (peek().kind == Token::Kind::Int || peek().is("-")) {
            const bool minus = accept("-");
            t.kind = Term::Kind::Int;
            t.number = number(expectInt()) * (minus ? -1 : 1);
            return t;
        }
        if (isLowerIdent(peek()) && peek(1).is("@")) {
            t.kind = Term::Kind::View;
            t.viewer = next().text;
            next();
            t.name = expectIdent(true, "a weak variable after '@'").text;
            t.indices = indices();
            return t;
        }
        if (isLowerIdent(peek())) {
            const bool keyword = std::any_of(kUnsupported.begin(), kUnsupported.end(),
                                             [&](std::string_view k) { return peek().is(k); });
            if (keyword || peek().is("fence") || peek().is("forall_other") || peek().is("case")) {
                unexpected("a term");
            }
            t.kind = Term::Kind::Name;
            t.name = next().text;
            return t;
        }
        if (!isUpperIdent(peek())) {
            unexpected("a term (a number, a process variable, a constructor or a variable)");
        }
        t.name = next().text;
        t.indices = indices();
        t.kind = t.indices.empty() ? Term::Kind::Name : Term::Kind::Cell;
        return t;
    }

    std::vector<Token> toks_;
    std::size_t pos_ = 0;
    const std::string& file_;
    System sys_;
};

} // namespace

System parseCub(std::string_view text, const std::string& sourceName) {
    checkSourceSize(text.size(), sourceName);
    System sys = Parser(lexCub(text, sourceName), sourceName).run();
    checkNames(sys);
    return sys;
}

} // namespace tsoreach::cub
