#pragma once
// What a token of the program text may be, for the parser (frontends/
// tsoreach) and for the checks of built programs (checkWellFormed).

#include <algorithm>
#include <string_view>

namespace tsoreach::detail {

// Item keywords cannot name a register: they end an expression, so that an
// expression cut short is reported where it happens.
inline bool isItemKeyword(std::string_view t) {
    return t == "thread" || t == "end" || t == "initial" || t == "final" || t == "transition";
}

inline bool isIdentifier(std::string_view t) {
    if (t.empty() || (t[0] >= '0' && t[0] <= '9')) {
        return false;
    }
    return std::all_of(t.begin(), t.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '$';
    });
}

// A thread or state name: one token, i.e. printable ASCII without '#'.
inline bool isNameToken(std::string_view t) {
    return !t.empty() && std::all_of(t.begin(), t.end(),
                                     [](char c) { return c >= 0x21 && c <= 0x7e && c != '#'; });
}

} // namespace tsoreach::detail
