#include "lexer.hpp"

#include <array>
#include <cctype>

namespace tsoreach::cub {

std::string Token::describe() const {
    return kind == Kind::End ? "the end of the file" : "'" + text + "'";
}

namespace {

// Two-character symbols first, so that `:=` is not `:` then `=`.
// `=>` and `<=>` are Cubicle's, outside the subset: one token, so that the
// parser's error names them.
constexpr std::array<std::string_view, 8> kPairs = {"<=>", "=>", ":=", "<>",
                                                    "<=",  ">=", "&&", "||"};
constexpr std::string_view kSingles = "@[](){}|:;,.=<>+-_";

class Lexer {
  public:
    Lexer(std::string_view text, const std::string& file) : text_(text), file_(file) {}

    std::vector<Token> run() {
        std::vector<Token> out;
        while (skipBlank(), i_ < text_.size()) {
            out.push_back(next());
        }
        out.push_back(Token{Token::Kind::End, "", pos()});
        return out;
    }

  private:
    SourcePos pos() const { return {line_, static_cast<std::uint32_t>(i_ - lineStart_ + 1)}; }

    void advance() {
        if (text_[i_] == '\n') {
            ++line_;
            lineStart_ = i_ + 1;
        }
        ++i_;
    }

    bool startsWith(std::string_view s) const { return text_.substr(i_, s.size()) == s; }

    // White space and comments; comments nest, as in OCaml.
    void skipBlank() {
        while (i_ < text_.size()) {
            if (std::isspace(static_cast<unsigned char>(text_[i_])) != 0) {
                advance();
            } else if (startsWith("(*")) {
                skipComment();
            } else {
                return;
            }
        }
    }

    void skipComment() {
        const SourcePos open = pos();
        std::size_t depth = 0;
        while (i_ < text_.size()) {
            if (startsWith("(*")) {
                ++depth;
                advance();
                advance();
            } else if (startsWith("*)")) {
                advance();
                advance();
                if (--depth == 0) {
                    return;
                }
            } else {
                advance();
            }
        }
        throw InputError(file_, open, "comment '(*' is never closed with '*)'");
    }

    static bool identChar(char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '\'';
    }

    Token next() {
        const SourcePos at = pos();
        const std::size_t start = i_;
        const char c = text_[i_];
        if (std::isalpha(static_cast<unsigned char>(c)) != 0) {
            while (i_ < text_.size() && identChar(text_[i_])) {
                advance();
            }
            return {Token::Kind::Ident, std::string(text_.substr(start, i_ - start)), at};
        }
        if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
            while (i_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[i_])) != 0) {
                advance();
            }
            return {Token::Kind::Int, std::string(text_.substr(start, i_ - start)), at};
        }
        for (std::string_view p : kPairs) {
            if (startsWith(p)) {
                for (std::size_t k = 0; k < p.size(); ++k) {
                    advance();
                }
                return {Token::Kind::Symbol, std::string(p), at};
            }
        }
        if (kSingles.find(c) != std::string_view::npos) {
            advance();
            return {Token::Kind::Symbol, std::string(1, c), at};
        }
        const auto byte = static_cast<unsigned char>(c);
        static constexpr char kHex[] = "0123456789abcdef";
        const std::string shown = byte >= 0x20 && byte < 0x7f
                                      ? "'" + std::string(1, c) + "'"
                                      : std::string("byte 0x") + kHex[byte >> 4] + kHex[byte & 15];
        throw InputError(file_, at, "unexpected character " + shown);
    }

    std::string_view text_;
    const std::string& file_;
    std::size_t i_ = 0;
    std::size_t lineStart_ = 0;
    std::uint32_t line_ = 1;
};

} // namespace

std::vector<Token> lexCub(std::string_view text, const std::string& file) {
    return Lexer(text, file).run();
}

} // namespace tsoreach::cub
