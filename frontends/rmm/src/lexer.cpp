#include "lexer.hpp"

#include <cstdint>
#include <cstdio>

namespace tsoreach::rmm {

namespace {

bool isIdStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
bool isIdChar(char c) {
    return isIdStart(c) || isDigit(c);
}

} // namespace

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

} // namespace tsoreach::rmm
