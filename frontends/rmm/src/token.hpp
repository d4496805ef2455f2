#pragma once
// The tokens of a .rmm text, shared by the lexer, the macro preprocessor and
// the parser.

#include "tsoreach/lang/source.hpp"

#include <string>

namespace tsoreach::rmm {

enum class Tk { Id, Reg, Nat, Sym, End };

struct Tok {
    Tk kind = Tk::End;
    std::string text;
    SourcePos pos;
};

// 's' in quotes, for messages.
std::string quote(const std::string& s);
// A token as messages name it: "end of file", "number '3'", "'x'".
std::string describe(const Tok& t);

} // namespace tsoreach::rmm
