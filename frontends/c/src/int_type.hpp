#pragma once
// C's integer types as the translation models them (docs/c.md, "Integer
// types"). The program model's values are 64-bit two's complement integers
// whose + - * wrap modulo 2^64. A C value of type T is held as its value,
// so the types whose values are not all the 64-bit integers (_Bool, the
// narrow ones, the unsigned ones below 64 bits) are kept in range by an
// explicit conversion wherever C converts to them, and by a mask after an
// unsigned operation that can leave the range. `int` and the other signed
// types of 32 and more bits are one class held in 64 bits: their arithmetic
// does not wrap (signed overflow is undefined in C), nor does a conversion
// between them (long to int keeps the value; GCC would wrap one outside
// int's range); a conversion into them from an unsigned type they cannot
// represent wraps, as GCC and clang do. unsigned long holds its
// bits: + - * and == are exact, the order comparisons flip the sign bit, and
// / % >> on it are refused (the model has no unsigned division).

#include "tsoreach/lang/builder.hpp"

#include <clang-c/Index.h>

#include <optional>

namespace tsoreach::c {

struct IntType {
    int bits = 32;
    bool isSigned = true;
    bool isBool = false;
    friend bool operator==(const IntType&, const IntType&) = default;
};

// The integer type `t` is, after typedefs, enums (their integer type) and
// _Atomic; nullopt when it is none, or not modelled (__int128).
[[nodiscard]] std::optional<IntType> intType(CXType t);
// Every value of `from` is a value of `to`.
[[nodiscard]] bool fits(IntType from, IntType to);
// `v` converted to `to` (C's rules for integer conversions; signed
// targets wrap as on x86).
[[nodiscard]] Expr convert(const Expr& v, IntType to);
// The model's + - * on values of `t` may leave t's range (and so need
// convert): _Bool, the types below 32 bits, unsigned ones below 64 bits.
[[nodiscard]] bool leavesRange(IntType t);
// unsigned long (long): its order and division are not the model's.
[[nodiscard]] bool isUnsigned64(IntType t);

} // namespace tsoreach::c
