#pragma once
// What a token of the program text may be, for the parser (frontends/
// tsoreach) and for the checks of built programs (checkWellFormed).

#include "tsoreach/lang/expr.hpp"

#include <algorithm>
#include <string_view>

namespace tsoreach::detail {

// Item keywords cannot name a register: they end an expression, so that an
// expression cut short is reported where it happens.
inline bool isItemKeyword(std::string_view t) {
    return t == "thread" || t == "end" || t == "initial" || t == "final" || t == "transition";
}

// A token that an expression reads as an integer: a digit, or a sign and a
// digit, first. Trencher reads such a token as a number too (its stream
// extraction stops at the first non-digit); here the whole token must be a
// decimal integer, with an optional '-', or it is an error.
inline bool looksNumeric(std::string_view t) {
    std::size_t i = (t.size() > 1 && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
    return i < t.size() && t[i] >= '0' && t[i] <= '9';
}

// A thread or state name: one token, i.e. printable ASCII without '#'.
inline bool isNameToken(std::string_view t) {
    return !t.empty() && std::all_of(t.begin(), t.end(),
                                     [](char c) { return c >= 0x21 && c <= 0x7e && c != '#'; });
}

// A register name: any name token that an expression cannot read as something
// else (an integer, an operator, an item keyword), as in Trencher, whose own
// examples name registers `reg-1`. Tokens are separated by white space, so
// `a-1` is one register and subtraction is always the prefix `- a 1`.
inline bool isRegisterToken(std::string_view t) {
    return isNameToken(t) && !isItemKeyword(t) && !looksNumeric(t) && !operatorFromSpelling(t);
}

// A memory variable's name (memory.hpp): a register token without the
// characters that the declaration and the index syntax use, and not the
// keyword `memory`, which starts the next declaration.
inline bool isMemoryNameToken(std::string_view t) {
    return isRegisterToken(t) && t != "memory" &&
           t.find_first_of("[]{}=,") == std::string_view::npos;
}

} // namespace tsoreach::detail
