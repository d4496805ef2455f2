#pragma once
// Values of the language: signed 64-bit integers with wrap-around arithmetic
// and C-style truncating division, where division by zero yields 0.

#include <cstdint>
#include <limits>

namespace tsoreach {

using Value = std::int64_t;

namespace arith {

// Signed overflow is undefined in C++, so wrap through unsigned arithmetic.
constexpr Value add(Value a, Value b) {
    return static_cast<Value>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
constexpr Value sub(Value a, Value b) {
    return static_cast<Value>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}
constexpr Value mul(Value a, Value b) {
    return static_cast<Value>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}
// INT64_MIN / -1 overflows in C; two's complement wrap gives INT64_MIN, rem 0.
constexpr Value div(Value a, Value b) {
    if (b == 0) {
        return 0;
    }
    if (b == -1) {
        return sub(0, a);
    }
    return a / b;
}
constexpr Value rem(Value a, Value b) {
    if (b == 0 || b == -1) {
        return 0;
    }
    return a % b;
}

} // namespace arith
} // namespace tsoreach
