#include "int_type.hpp"

namespace tsoreach::c {

std::optional<IntType> intType(CXType t) {
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_Atomic) {
        t = clang_getCanonicalType(clang_Type_getValueType(t));
    }
    if (t.kind == CXType_Enum) {
        t = clang_getCanonicalType(clang_getEnumDeclIntegerType(clang_getTypeDeclaration(t)));
    }
    switch (t.kind) {
    case CXType_Bool:
        return IntType{1, false, true};
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_Char_U:
    case CXType_UChar:
    case CXType_Short:
    case CXType_UShort:
    case CXType_Int:
    case CXType_UInt:
    case CXType_Long:
    case CXType_ULong:
    case CXType_LongLong:
    case CXType_ULongLong: {
        const long long bytes = clang_Type_getSizeOf(t);
        const bool isSigned = t.kind == CXType_Char_S || t.kind == CXType_SChar ||
                              t.kind == CXType_Short || t.kind == CXType_Int ||
                              t.kind == CXType_Long || t.kind == CXType_LongLong;
        if (bytes <= 0 || bytes > 8) {
            return std::nullopt;
        }
        return IntType{static_cast<int>(bytes * 8), isSigned, false};
    }
    default:
        return std::nullopt;
    }
}

bool fits(IntType from, IntType to) {
    if (to.isBool || from.isBool) {
        return from.isBool; // _Bool's 0 and 1 fit every type; only _Bool fits _Bool
    }
    if (from.isSigned && to.isSigned) {
        // int and long are one 64-bit class: int's arithmetic does not wrap
        // either (docs/c.md, "Integer types").
        return from.bits <= to.bits || (from.bits >= 32 && to.bits >= 32);
    }
    if (from.isSigned == to.isSigned) {
        return from.bits <= to.bits;
    }
    return !from.isSigned && from.bits < to.bits;
}

Expr convert(const Expr& v, IntType to) {
    if (to.isBool) {
        return Expr::apply(ExprOp::Ne, v, Expr::constant(0));
    }
    if (to.bits >= 64) {
        return v; // the same 64 bits
    }
    const Value mask = (Value{1} << to.bits) - 1;
    if (!to.isSigned) {
        return Expr::apply(ExprOp::BitAnd, v, Expr::constant(mask));
    }
    // ((v + 2^(b-1)) mod 2^b) - 2^(b-1): the b-bit two's complement value.
    const Value half = Value{1} << (to.bits - 1);
    const Expr low = Expr::apply(ExprOp::BitAnd, Expr::apply(ExprOp::Add, v, Expr::constant(half)),
                                 Expr::constant(mask));
    return Expr::apply(ExprOp::Sub, low, Expr::constant(half));
}

bool leavesRange(IntType t) {
    return t.isBool || t.bits < 32 || (!t.isSigned && t.bits < 64);
}

bool isUnsigned64(IntType t) {
    return !t.isSigned && !t.isBool && t.bits >= 64;
}

} // namespace tsoreach::c
