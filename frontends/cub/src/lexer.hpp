#pragma once
// The .cub lexer: identifiers, natural numbers, symbols; `(* ... *)`
// comments, which nest.

#include "tsoreach/lang/source.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tsoreach::cub {

struct Token {
    enum class Kind : std::uint8_t { Ident, Int, Symbol, End };
    Kind kind = Kind::End;
    std::string text;
    SourcePos pos;

    [[nodiscard]] bool is(std::string_view s) const {
        return kind != Kind::End && kind != Kind::Int && text == s;
    }
    // "'foo'", or "the end of the file".
    [[nodiscard]] std::string describe() const;
};

// The tokens of `text`, ending with one End token. Throws InputError at a
// character no token may hold or at an unclosed comment.
std::vector<Token> lexCub(std::string_view text, const std::string& file);

} // namespace tsoreach::cub
