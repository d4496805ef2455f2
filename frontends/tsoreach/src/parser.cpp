#include "tsoreach/frontends/tsoreach/parser.hpp"

#include "tsoreach/frontends/front_end.hpp"

#include "tsoreach/lang/tokens.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <unordered_map>

namespace tsoreach {

namespace {

bool isSpace(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

struct Token {
    std::string_view text; // empty at end of file
    SourcePos pos;
    // Set when the token holds a byte that no token may hold. Reported only
    // when the parser looks at the token, so an earlier error wins.
    std::string badByte;
    SourcePos badPos;
    [[nodiscard]] bool eof() const { return text.empty(); }
};

// Splits the input into white-space separated tokens; '#' starts a comment
// that runs to the end of the line, also in the middle of a token.
class Lexer {
  public:
    Lexer(std::string_view text) : text_(text) {
        // A UTF-8 byte order mark, as some editors write, is not content.
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") {
            i_ = 3;
        }
    }

    Token next() {
        skipBlanks();
        Token tok;
        tok.pos = {line_, col_};
        std::size_t start = i_;
        while (i_ < text_.size()) {
            auto c = static_cast<unsigned char>(text_[i_]);
            if (isSpace(c) || c == '#') {
                break;
            }
            if ((c < 0x21 || c > 0x7e) && tok.badByte.empty()) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "0x%02x", c);
                tok.badByte = std::string("unexpected byte ") + buf +
                              " (tokens are printable ASCII; is this a binary file?)";
                tok.badPos = {line_, col_};
            }
            ++i_;
            ++col_;
        }
        tok.text = text_.substr(start, i_ - start);
        return tok;
    }

  private:
    void skipBlanks() {
        while (i_ < text_.size()) {
            char c = text_[i_];
            if (c == '\n') {
                ++line_;
                col_ = 1;
                ++i_;
            } else if (c == '#') {
                while (i_ < text_.size() && text_[i_] != '\n') {
                    ++i_;
                    ++col_;
                }
            } else if (isSpace(static_cast<unsigned char>(c))) {
                ++i_;
                ++col_;
            } else {
                return;
            }
        }
    }

    std::string_view text_;
    std::size_t i_ = 0;
    std::uint32_t line_ = 1;
    std::uint32_t col_ = 1;
};

using detail::isItemKeyword;
using detail::isRegisterToken;
using detail::looksNumeric;

// Quotes a token for a message, shortened so that a huge token stays readable.
std::string quote(std::string_view t) {
    constexpr std::size_t maxShown = 40;
    if (t.size() > maxShown) {
        return "'" + std::string(t.substr(0, maxShown)) + "...' (" + std::to_string(t.size()) +
               " characters)";
    }
    return "'" + std::string(t) + "'";
}

std::string describe(const Token& t) {
    return t.eof() ? "end of file" : quote(t.text);
}

std::string at(SourcePos p) {
    return std::to_string(p.line) + ":" + std::to_string(p.col);
}

// Splits `t` at each of `seps` (each a piece of its own), for the memory
// declaration (`flag[3]={0,1}`) and for indices (`flag[+`, `i`, `1]`).
std::vector<Token> splitAt(const Token& t, std::string_view seps) {
    std::vector<Token> out;
    std::size_t start = 0;
    auto piece = [&](std::size_t from, std::size_t to) {
        if (to > from) {
            Token p;
            p.text = t.text.substr(from, to - from);
            p.pos = {t.pos.line, t.pos.col + static_cast<std::uint32_t>(from)};
            out.push_back(p);
        }
    };
    for (std::size_t i = 0; i < t.text.size(); ++i) {
        if (seps.find(t.text[i]) != std::string_view::npos) {
            piece(start, i);
            piece(i, i + 1);
            start = i + 1;
        }
    }
    piece(start, t.text.size());
    return out;
}

// How an expression may use memory names (a program with a declaration).
enum class ExprContext {
    Value,   // a stored value, a local's value, a condition: no names
    Address, // a whole address operand that names no cell: no names inside
    Index,   // the index of `flag[...]`: no names
};

struct RawTransition {
    Token from;
    Token to;
    Instruction instr;
    SourcePos pos;
};

class Parser {
  public:
    Parser(std::string_view text, std::string file, const StopCondition& stop)
        : file_(std::move(file)), lex_(text), poll_(stop) {
        prog_.sourceName = file_;
        advance();
    }

    Program run() {
        while (!cur().eof()) {
            if (cur().text == "memory") {
                parseMemory();
            } else if (cur().text == "thread") {
                parseThread();
            } else if (isItemKeyword(cur().text)) {
                fail(cur().pos,
                     "'" + std::string(cur().text) + "' outside a thread (expected 'thread')");
            } else {
                fail(cur().pos, "expected 'thread', found " + describe(cur()));
            }
        }
        if (prog_.threads.empty()) {
            fail(cur().pos, "empty program: expected at least one 'thread'");
        }
        return std::move(prog_);
    }

  private:
    [[noreturn]] void fail(SourcePos pos, std::string msg) const {
        throw InputError(file_, pos, std::move(msg));
    }

    void advance() {
        if (pending_.empty()) {
            next_ = lex_.next();
        } else {
            next_ = pending_.front();
            pending_.pop_front();
        }
    }

    // The current token split at `seps`: its first piece, the others next.
    const Token& piece(std::string_view seps) {
        const Token& t = cur();
        if (t.text.size() > 1 && t.text.find_first_of(seps) != std::string_view::npos) {
            std::vector<Token> pieces = splitAt(t, seps);
            pending_.insert(pending_.begin(), pieces.begin() + 1, pieces.end());
            next_ = pieces.front();
        }
        return next_;
    }

    // A token that is an integer, checked whole.
    Value integer(const Token& t) const {
        Value v = 0;
        const char* first = t.text.data();
        const char* last = first + t.text.size();
        auto [ptr, ec] = std::from_chars(first, last, v);
        if (ptr != last) {
            fail(t.pos, "invalid integer " + quote(t.text));
        }
        if (ec == std::errc::result_out_of_range) {
            fail(t.pos,
                 "integer " + quote(t.text) + " out of range (values are signed 64-bit integers)");
        }
        if (ec != std::errc()) {
            fail(t.pos, "invalid integer " + quote(t.text));
        }
        return v;
    }

    // ---- the memory declaration: `memory x y = 1 flag[3] = {0, 1, 0}`

    static constexpr std::string_view kDeclSeps = "[]{}=,";

    void parseMemory() {
        Token kw = take();
        if (!prog_.threads.empty()) {
            fail(kw.pos, "'memory' after a thread: declare memory before the first thread");
        }
        if (cur().eof() || cur().text == "thread" || cur().text == "memory") {
            fail(cur().pos, "expected a memory variable after 'memory', found " + describe(cur()));
        }
        while (!cur().eof() && cur().text != "thread" && cur().text != "memory") {
            parseVar();
        }
    }

    // The next piece, which must be `what` (a separator).
    Token expectPiece(std::string_view what, const std::string& context) {
        const Token& t = piece(kDeclSeps);
        if (t.text != what) {
            fail(t.pos,
                 "expected '" + std::string(what) + "' " + context + ", found " + describe(t));
        }
        return take();
    }

    // An integer piece of the declaration.
    Value declInteger(const std::string& what) {
        const Token& t = piece(kDeclSeps);
        if (t.eof() || !looksNumeric(t.text)) {
            fail(t.pos, "expected " + what + ", found " + describe(t));
        }
        return integer(take());
    }

    void parseVar() {
        Token name = piece(kDeclSeps);
        if (!detail::isMemoryNameToken(name.text)) {
            fail(name.pos, "expected a memory variable name, found " + describe(name) +
                               " (a name is a register-like token without [ ] { } = ,)");
        }
        take();
        const MemoryLayout& m = prog_.memory;
        if (VarId v = m.find(name.text); v.valid()) {
            fail(name.pos, "memory variable " + quote(name.text) + " declared twice (first at " +
                               at(m.var(v).pos) + ")");
        }
        bool array = false;
        Value size = 1;
        if (piece(kDeclSeps).text == "[") {
            take();
            const Token sizeTok = piece(kDeclSeps);
            size = declInteger("the size of array " + quote(name.text));
            if (size < 1) {
                fail(sizeTok.pos, "the size of array " + quote(name.text) + " must be at least 1");
            }
            expectPiece("]", "after the size of " + quote(name.text));
            array = true;
        }
        std::vector<Value> init;
        if (piece(kDeclSeps).text == "=") {
            take();
            init =
                array ? arrayInit(name.text, size)
                      : std::vector<Value>{declInteger("the initial value of " + quote(name.text))};
        }
        try {
            appendVar(prog_.memory, std::string(name.text), size, array, std::move(init), name.pos);
        } catch (const std::length_error&) {
            fail(name.pos, "memory needs more than 2^62 cells with " + quote(name.text));
        }
    }

    // `{v0, v1, ...}`: at most `size` values, the others 0.
    std::vector<Value> arrayInit(std::string_view name, Value size) {
        const std::string what = "the initial values of array " + quote(name);
        if (piece(kDeclSeps).text != "{") {
            fail(cur().pos, "expected '{' with " + what + " (e.g. " + std::string(name) +
                                "[2] = {1, 0}), found " + describe(cur()));
        }
        take();
        std::vector<Value> init;
        while (true) {
            const Token valueTok = piece(kDeclSeps);
            if (valueTok.text == "}" && init.empty()) {
                fail(valueTok.pos, "empty initial values of array " + quote(name));
            }
            init.push_back(declInteger("a value in " + what));
            if (static_cast<Value>(init.size()) > size) {
                fail(valueTok.pos, "more initial values than the " + std::to_string(size) +
                                       " cells of array " + quote(name));
            }
            if (piece(kDeclSeps).text == "}") {
                take();
                return init;
            }
            expectPiece(",", "or '}' between the initial values of array " + quote(name));
        }
    }

    // The current token; a bad byte in it is an error only once it is looked at.
    const Token& cur() const {
        if (!next_.badByte.empty()) {
            fail(next_.badPos, next_.badByte);
        }
        return next_;
    }

    Token take() {
        Token t = cur();
        advance();
        return t;
    }

    // A thread or state name: any token (language.md), keywords included,
    // since its position alone says what it is.
    Token takeName(const char* what, const char* after) {
        if (cur().eof()) {
            fail(cur().pos,
                 std::string("expected ") + what + " after '" + after + "', found end of file");
        }
        return take();
    }

    void parseThread() {
        Token kw = take();
        Token name = takeName("a thread name", "thread");
        for (const Thread& t : prog_.threads) {
            if (t.name == name.text) {
                fail(name.pos, "duplicate thread name " + quote(name.text) +
                                   " (first declared at " + at(t.pos) + ")");
            }
        }
        ThreadId tid(static_cast<std::uint32_t>(prog_.threads.size()));
        regIds_.clear();
        regNames_.clear();
        regAddressUse_.clear();
        regAssigned_.clear();
        std::optional<Token> initial;
        std::vector<Token> finals;
        std::vector<RawTransition> raw;

        while (true) {
            if (cur().eof()) {
                fail(cur().pos, "missing 'end' of thread " + quote(name.text) + " (opened at " +
                                    at(kw.pos) + ")");
            }
            Token item = take();
            if (item.text == "end") {
                if (!initial) {
                    fail(item.pos, "thread " + quote(name.text) + " has no 'initial' state");
                }
                break;
            }
            if (item.text == "initial") {
                Token s = takeName("a state name", "initial");
                if (initial) {
                    fail(item.pos, "thread " + quote(name.text) + " has a second 'initial' state " +
                                       quote(s.text) + " (the first is " + quote(initial->text) +
                                       " at " + at(initial->pos) + ")");
                }
                initial = s;
            } else if (item.text == "final") {
                finals.push_back(takeName("a state name", "final"));
            } else if (item.text == "transition") {
                if (++items_ % 256 == 0) {
                    poll_.throwIfStopped();
                }
                RawTransition r;
                r.pos = item.pos;
                r.from = takeName("a source state", "transition");
                r.to = takeName("a destination state", "transition");
                r.instr = parseInstruction(r);
                raw.push_back(r);
            } else if (item.text == "thread") {
                fail(item.pos, "missing 'end' of thread " + quote(name.text) + " (opened at " +
                                   at(kw.pos) + ") before the next 'thread'");
            } else {
                std::string hint;
                bool operandLike = operatorFromSpelling(item.text) || looksNumeric(item.text);
                if (!raw.empty() && operandLike) {
                    hint = " (the previous instruction ended before it: too many operands?)";
                }
                fail(item.pos, "expected 'initial', 'final', 'transition' or 'end' in thread " +
                                   quote(name.text) + ", found " + quote(item.text) + hint);
            }
        }
        buildThread(tid, kw.pos, name, *initial, finals, raw);
    }

    // States are numbered canonically: initial, finals, then by first use in
    // the transitions. Printing in that order reproduces the same ids.
    void buildThread(ThreadId tid, SourcePos pos, const Token& name, const Token& initial,
                     const std::vector<Token>& finals, const std::vector<RawTransition>& raw) {
        Thread th;
        th.name = std::string(name.text);
        th.pos = pos;
        std::unordered_map<std::string_view, std::uint32_t> states;
        auto intern = [&](std::string_view s) {
            auto [it, fresh] = states.try_emplace(s, static_cast<std::uint32_t>(states.size()));
            if (fresh) {
                th.stateNames.emplace_back(s);
            }
            return StateId(it->second);
        };
        th.initial = intern(initial.text);
        for (const Token& f : finals) {
            StateId s = intern(f.text);
            if (!th.isFinal(s)) {
                th.finals.push_back(s);
                th.finalPos.push_back(f.pos);
            }
        }
        for (const RawTransition& r : raw) {
            Transition tr;
            tr.thread = tid;
            tr.from = intern(r.from.text);
            tr.to = intern(r.to.text);
            tr.instr = r.instr;
            tr.pos = r.pos;
            th.transitions.push_back(
                TransitionId(static_cast<std::uint32_t>(prog_.transitions.size())));
            prog_.transitions.push_back(tr);
        }
        checkRegistersAssigned(th.name);
        th.regNames = std::move(regNames_);
        regNames_ = {};
        indexOutgoing(th, prog_.transitions);
        prog_.threads.push_back(std::move(th));
    }

    RegId takeRegister(const char* instr) {
        if (cur().eof()) {
            fail(cur().pos,
                 std::string("expected a register after '") + instr + "', found end of file");
        }
        if (isItemKeyword(cur().text)) {
            fail(cur().pos, "expected a register after '" + std::string(instr) +
                                "', found keyword " + quote(cur().text));
        }
        if (!isRegisterToken(cur().text)) {
            fail(cur().pos, "expected a register after '" + std::string(instr) + "', found " +
                                quote(cur().text) +
                                " (a register is any token but an integer or an operator)");
        }
        if (named()) {
            checkRegisterName(cur());
        }
        const Token t = take();
        const RegId r = internReg(t);
        regAssigned_[r.index()] = true;
        return r;
    }

    // With a memory declaration, registers and memory names must not meet.
    void checkRegisterName(const Token& t) const {
        if (VarId v = prog_.memory.find(t.text); v.valid()) {
            fail(t.pos, quote(t.text) + " is a memory variable (declared at " +
                            at(prog_.memory.var(v).pos) + "), not a register");
        }
        if (t.text.find_first_of("[]") != std::string_view::npos) {
            fail(t.pos, "register " + quote(t.text) +
                            ": with a memory declaration, a register name has no '[' or ']'");
        }
    }

    RegId internReg(const Token& t) {
        auto [it, fresh] =
            regIds_.try_emplace(t.text, static_cast<std::uint32_t>(regNames_.size()));
        if (fresh) {
            regNames_.emplace_back(t.text);
            regAddressUse_.emplace_back();
            regAssigned_.push_back(false);
        }
        return RegId(it->second);
    }

    [[nodiscard]] bool named() const { return !prog_.memory.empty(); }

    // With a memory declaration, a name that stands as a whole address is a
    // memory variable or a register that the thread assigns (a pointer):
    // anything else is a typo, not a register that stays 0.
    void checkRegistersAssigned(const std::string& thread) const {
        if (!named()) {
            return;
        }
        for (std::size_t r = 0; r < regNames_.size(); ++r) {
            if (!regAssigned_[r] && regAddressUse_[r].line != 0) {
                fail(regAddressUse_[r], quote(regNames_[r]) +
                                            " is not a declared memory variable, and no read or "
                                            "local of thread " +
                                            quote(thread) + " assigns it as a register");
            }
        }
    }

    Instruction parseInstruction(const RawTransition& r) {
        if (cur().eof() || isItemKeyword(cur().text)) {
            fail(cur().pos, "expected an instruction after 'transition " +
                                std::string(r.from.text) + " " + std::string(r.to.text) +
                                "', found " +
                                (cur().eof() ? "end of file" : "keyword " + quote(cur().text)));
        }
        Token kw = take();
        const bool joined = kw.text == kJoinWriteKeyword;
        std::optional<InstrKind> kind =
            joined ? std::optional(InstrKind::Write) : instructionFromKeyword(kw.text);
        if (!kind) {
            fail(kw.pos, "unknown instruction " + quote(kw.text) +
                             " (expected read, write, joinwrite, local, check, mfence, noop, lock, "
                             "unlock, atomic, endatomic, lockfor or unlockfor)");
        }
        Instruction in;
        in.kind = *kind;
        switch (*kind) {
        case InstrKind::Read:
            in.reg = takeRegister("read");
            in.addr = parseAddress("read");
            break;
        case InstrKind::Write:
            in.value = parseExpr(joined ? "joinwrite" : "write", ExprContext::Value);
            in.addr = parseAddress(joined ? "joinwrite" : "write");
            in.joined = joined;
            break;
        case InstrKind::Local:
            in.reg = takeRegister("local");
            in.value = parseExpr("local", ExprContext::Value);
            break;
        case InstrKind::Check:
            in.value = parseExpr("check", ExprContext::Value);
            break;
        case InstrKind::LockFor:
            in.addr = parseAddress("lockfor");
            break;
        case InstrKind::UnlockFor:
            in.addr = parseAddress("unlockfor");
            break;
        case InstrKind::Mfence:
        case InstrKind::Noop:
        case InstrKind::Lock:
        case InstrKind::Unlock:
        case InstrKind::Atomic:
        case InstrKind::EndAtomic:
            break;
        }
        return in;
    }

    // The current token, split at brackets when the program has a memory
    // declaration (registers then have none).
    const Token& exprToken() { return named() ? piece("[]") : cur(); }

    // An address operand: `x`, `flag[2]` or `flag[e]` with a memory
    // declaration, else (or for a register or an integer) an expression.
    ExprRef parseAddress(const char* instr) {
        if (!named()) {
            return parseExpr(instr, ExprContext::Address);
        }
        const VarId v = exprToken().eof() ? VarId::invalid() : prog_.memory.find(cur().text);
        if (!v.valid()) {
            const SourcePos pos = cur().pos;
            const ExprRef e = parseExpr(instr, ExprContext::Address);
            const ExprNode& n = prog_.exprPool[e.begin];
            if (e.size == 1 && n.op == ExprOp::Reg && !regAddressUse_[n.reg.index()].line) {
                regAddressUse_[n.reg.index()] = pos;
            }
            return e;
        }
        const auto begin = static_cast<std::uint32_t>(prog_.exprPool.size());
        const Token name = take();
        const MemoryVar& mv = prog_.memory.var(v);
        const bool indexed = exprToken().text == "[";
        if (!mv.array) {
            if (indexed) {
                fail(cur().pos, quote(name.text) + " is not an array: write it without an index");
            }
            prog_.exprPool.push_back({ExprOp::Const, RegId(), mv.base, v});
        } else {
            if (!indexed) {
                fail(name.pos, quote(name.text) + " is an array of " + std::to_string(mv.size) +
                                   " cells: give an index, e.g. " + mv.name + "[0]");
            }
            take();
            parseIndex(instr, v);
        }
        return finish(begin);
    }

    // `[INDEX]` after an array's name (the '[' taken): the cell's address
    // base + INDEX, a constant index checked against the size here.
    void parseIndex(const char* instr, VarId v) {
        const MemoryVar& mv = prog_.memory.var(v);
        const auto begin = static_cast<std::uint32_t>(prog_.exprPool.size());
        prog_.exprPool.push_back({ExprOp::Add, RegId(), 0, v});
        prog_.exprPool.push_back({ExprOp::Const, RegId(), mv.base, VarId()});
        const SourcePos indexPos = exprToken().pos;
        const ExprRef index = parseExpr(instr, ExprContext::Index);
        if (exprToken().text != "]") {
            fail(cur().pos, "expected ']' after the index of " + quote(mv.name) + ", found " +
                                describe(cur()));
        }
        take();
        if (const std::optional<Value> k = constantValue(prog_.expr(index))) {
            if (*k < 0 || *k >= mv.size) {
                fail(indexPos, "index " + std::to_string(*k) + " out of range for " +
                                   quote(mv.name) + " (an array of " + std::to_string(mv.size) +
                                   " cells: 0 to " + std::to_string(mv.size - 1) + ")");
            }
            if (index.size == 1) { // `flag[2]`: the cell itself
                prog_.exprPool.resize(begin);
                prog_.exprPool.push_back({ExprOp::Const, RegId(), mv.base + *k, v});
            }
        }
    }

    ExprRef finish(std::uint32_t begin) {
        ExprRef ref{begin, static_cast<std::uint32_t>(prog_.exprPool.size() - begin)};
        prog_.maxExprStack = std::max(prog_.maxExprStack, stackDepth(prog_.expr(ref)));
        return ref;
    }

    // Why a memory name cannot stand where it does.
    [[noreturn]] void misplacedName(const Token& t, ExprContext ctx, const char* instr) const {
        const std::string name = quote(t.text);
        switch (ctx) {
        case ExprContext::Value:
            fail(t.pos, "memory variable " + name + " used as a value in '" + instr +
                            "': read it into a register first (read REG " + std::string(t.text) +
                            ")");
        case ExprContext::Index:
            fail(t.pos, "memory variable " + name +
                            " inside an index: an index is an expression over registers and "
                            "integers");
        case ExprContext::Address:
            break;
        }
        fail(t.pos, "memory variable " + name + " inside an address expression of '" + instr +
                        "': a name is a whole address (x, flag[2], flag[+ i 1])");
    }

    // Prefix expression: counts the operands still owed, so that nesting
    // depth never turns into recursion depth.
    ExprRef parseExpr(const char* instr, ExprContext ctx) {
        auto begin = static_cast<std::uint32_t>(prog_.exprPool.size());
        std::size_t owed = 1;
        while (owed > 0) {
            if (exprToken().eof() || isItemKeyword(cur().text) ||
                (named() && (cur().text == "]" || cur().text == "["))) {
                fail(cur().pos, std::string("expression cut short in '") + instr +
                                    "': expected an operand, found " +
                                    (cur().eof()                 ? "end of file"
                                     : isItemKeyword(cur().text) ? "keyword " + quote(cur().text)
                                                                 : quote(cur().text)));
            }
            Token t = take();
            ExprNode node;
            if (std::optional<ExprOp> op = operatorFromSpelling(t.text)) {
                node.op = *op;
                owed += static_cast<std::size_t>(arity(*op));
            } else if (looksNumeric(t.text)) {
                node.op = ExprOp::Const;
                node.value = integer(t);
            } else if (named() && prog_.memory.find(t.text).valid()) {
                misplacedName(t, ctx, instr);
            } else if (isRegisterToken(t.text)) {
                node.op = ExprOp::Reg;
                node.reg = internReg(t);
                if (named() && cur().text.starts_with('[')) {
                    fail(t.pos, quote(t.text) + " is not a declared memory array");
                }
            } else {
                fail(t.pos, "invalid token " + quote(t.text) + " in expression of '" + instr +
                                "' (expected an integer, a register or an operator)");
            }
            --owed;
            prog_.exprPool.push_back(node);
        }
        return finish(begin);
    }

    std::string file_;
    Lexer lex_;
    Token next_;
    StopPoll poll_;
    std::size_t items_ = 0; // transitions read, for polling
    Program prog_;
    std::deque<Token> pending_; // pieces of a split token, before the lexer's next
    std::unordered_map<std::string_view, std::uint32_t> regIds_;
    std::vector<std::string> regNames_;
    // By register of the thread being read: where it first stands as a whole
    // address (line 0: nowhere), and whether a read or local assigns it.
    std::vector<SourcePos> regAddressUse_;
    std::vector<bool> regAssigned_;
};

} // namespace

Program parseProgram(std::string_view text, std::string sourceName) {
    return parseProgram(text, std::move(sourceName), StopCondition());
}

Program parseProgram(std::string_view text, std::string sourceName, const StopCondition& stop) {
    checkSourceSize(text.size(), sourceName); // keeps ids and positions in 32 bits
    return Parser(text, std::move(sourceName), stop).run();
}

Program parseProgramFile(const std::string& path) {
    return parseProgram(readProgramText(path), path);
}

} // namespace tsoreach
