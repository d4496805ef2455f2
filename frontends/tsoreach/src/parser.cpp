#include "tsoreach/frontends/tsoreach/parser.hpp"

#include "tsoreach/frontends/front_end.hpp"

#include "tsoreach/lang/tokens.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
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
            if (cur().text == "thread") {
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

    void advance() { next_ = lex_.next(); }

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
        return internReg(take().text);
    }

    RegId internReg(std::string_view name) {
        auto [it, fresh] = regIds_.try_emplace(name, static_cast<std::uint32_t>(regNames_.size()));
        if (fresh) {
            regNames_.emplace_back(name);
        }
        return RegId(it->second);
    }

    Instruction parseInstruction(const RawTransition& r) {
        if (cur().eof() || isItemKeyword(cur().text)) {
            fail(cur().pos, "expected an instruction after 'transition " +
                                std::string(r.from.text) + " " + std::string(r.to.text) +
                                "', found " +
                                (cur().eof() ? "end of file" : "keyword " + quote(cur().text)));
        }
        Token kw = take();
        std::optional<InstrKind> kind = instructionFromKeyword(kw.text);
        if (!kind) {
            fail(kw.pos,
                 "unknown instruction " + quote(kw.text) +
                     " (expected read, write, local, check, mfence, noop, lock, unlock, atomic, "
                     "endatomic, lockfor or unlockfor)");
        }
        Instruction in;
        in.kind = *kind;
        switch (*kind) {
        case InstrKind::Read:
            in.reg = takeRegister("read");
            in.addr = parseExpr("read");
            break;
        case InstrKind::Write:
            in.value = parseExpr("write");
            in.addr = parseExpr("write");
            break;
        case InstrKind::Local:
            in.reg = takeRegister("local");
            in.value = parseExpr("local");
            break;
        case InstrKind::Check:
            in.value = parseExpr("check");
            break;
        case InstrKind::LockFor:
            in.addr = parseExpr("lockfor");
            break;
        case InstrKind::UnlockFor:
            in.addr = parseExpr("unlockfor");
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

    // Prefix expression: counts the operands still owed, so that nesting
    // depth never turns into recursion depth.
    ExprRef parseExpr(const char* instr) {
        auto begin = static_cast<std::uint32_t>(prog_.exprPool.size());
        std::size_t owed = 1;
        while (owed > 0) {
            if (cur().eof() || isItemKeyword(cur().text)) {
                fail(cur().pos, std::string("expression cut short in '") + instr +
                                    "': expected an operand, found " +
                                    (cur().eof() ? "end of file" : "keyword " + quote(cur().text)));
            }
            Token t = take();
            ExprNode node;
            if (std::optional<ExprOp> op = operatorFromSpelling(t.text)) {
                node.op = *op;
                owed += static_cast<std::size_t>(arity(*op));
            } else if (looksNumeric(t.text)) {
                node.op = ExprOp::Const;
                const char* first = t.text.data();
                const char* last = first + t.text.size();
                auto [ptr, ec] = std::from_chars(first, last, node.value);
                if (ptr != last) {
                    fail(t.pos, "invalid integer " + quote(t.text));
                }
                if (ec == std::errc::result_out_of_range) {
                    fail(t.pos, "integer " + quote(t.text) +
                                    " out of range (values are signed 64-bit integers)");
                }
                if (ec != std::errc()) {
                    fail(t.pos, "invalid integer " + quote(t.text));
                }
            } else if (isRegisterToken(t.text)) {
                node.op = ExprOp::Reg;
                node.reg = internReg(t.text);
            } else {
                fail(t.pos, "invalid token " + quote(t.text) + " in expression of '" + instr +
                                "' (expected an integer, a register or an operator)");
            }
            --owed;
            prog_.exprPool.push_back(node);
        }
        ExprRef ref{begin, static_cast<std::uint32_t>(prog_.exprPool.size() - begin)};
        prog_.maxExprStack = std::max(prog_.maxExprStack, stackDepth(prog_.expr(ref)));
        return ref;
    }

    std::string file_;
    Lexer lex_;
    Token next_;
    StopPoll poll_;
    std::size_t items_ = 0; // transitions read, for polling
    Program prog_;
    std::unordered_map<std::string_view, std::uint32_t> regIds_;
    std::vector<std::string> regNames_;
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
