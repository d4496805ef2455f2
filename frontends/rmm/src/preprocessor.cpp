#include "preprocessor.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

namespace tsoreach::rmm {

namespace {

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

} // namespace

std::vector<Tok> expandMacros(std::vector<Tok> tokens, const std::string& file) {
    return Preprocessor(file).run(std::move(tokens));
}

} // namespace tsoreach::rmm
