#pragma once
// libclang, held by RAII: a parsed translation unit and what the translator
// asks of its cursors (kind, children, names, positions, constants).

#include "tsoreach/frontends/fence_site.hpp"
#include "tsoreach/lang/source.hpp"

#include <clang-c/Index.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tsoreach::c {

// One C file parsed with the system headers. Throws InputError at clang's
// first error (its own message).
class TranslationUnit {
  public:
    TranslationUnit(std::string_view text, const std::string& sourceName);

    [[nodiscard]] CXCursor root() const;
    [[nodiscard]] const std::string& sourceName() const { return sourceName_; }
    [[nodiscard]] std::string_view text() const { return text_; }

    // Where the cursor is in the file (the expansion of a macro: where the
    // macro is used).
    [[nodiscard]] SourcePos pos(CXCursor c) const;
    // The operator of the binary expression `whole` with operands `lhs` and
    // `rhs` ("+", "+=", ",").
    [[nodiscard]] std::string binaryOperator(CXCursor lhs, CXCursor rhs, CXCursor whole) const;
    // The operator of the unary expression `e` over `operand` ("-", "&",
    // "++"); `postfix` for x++ and x--.
    struct UnaryOperator {
        std::string spelling;
        bool postfix = false;
    };
    [[nodiscard]] UnaryOperator unaryOperator(CXCursor e, CXCursor operand) const;
    // The name of the C11 atomic builtin `c` is (atomic_load(...) expands to
    // __c11_atomic_load(...), which libclang does not expose): the
    // identifier where its name is spelled.
    [[nodiscard]] std::string builtinName(CXCursor c) const;

    // Where a statement (or a loop's condition) is in the text, for writing a
    // fence before it (FenceSite: begin, end past a statement's `;`,
    // indent); nullopt when it comes from another file.
    [[nodiscard]] std::optional<FenceSite> textSite(CXCursor s, bool condition) const;

    // An InputError at `c`.
    [[nodiscard]] InputError error(CXCursor c, const std::string& message) const;

  private:
    struct IndexDeleter {
        void operator()(void* index) const { clang_disposeIndex(index); }
    };
    struct UnitDeleter {
        void operator()(CXTranslationUnitImpl* tu) const { clang_disposeTranslationUnit(tu); }
    };
    [[nodiscard]] std::vector<std::string> tokens(CXSourceRange range) const;
    [[nodiscard]] std::optional<std::vector<std::string>> tokensBetween(CXSourceLocation from,
                                                                        CXSourceLocation to) const;
    [[nodiscard]] std::string operatorAfter(CXCursor lhs, CXCursor whole) const;
    [[nodiscard]] std::string operatorInText(CXCursor lhs) const;
    [[nodiscard]] std::string firstToken(CXCursor c) const;
    [[nodiscard]] std::string lastToken(CXCursor c) const;
    void refuseProgramMacros() const;
    void refuseUnmodelledTypes() const;
    [[nodiscard]] std::size_t offset(CXSourceLocation loc) const;

    std::string text_;
    std::string sourceName_;
    std::string fileName_; // what clang calls the file (sourceName, or a name for stdin)
    std::unique_ptr<void, IndexDeleter> index_;
    std::unique_ptr<CXTranslationUnitImpl, UnitDeleter> unit_;
};

// A libclang string as std::string (disposes it).
std::string take(CXString s);

[[nodiscard]] std::vector<CXCursor> children(CXCursor c);
[[nodiscard]] inline std::string spelling(CXCursor c) {
    return take(clang_getCursorSpelling(c));
}
[[nodiscard]] inline std::string kindName(CXCursor c) {
    return take(clang_getCursorKindSpelling(clang_getCursorKind(c)));
}
// The expression under parentheses and implicit conversions (the unexposed
// nodes with one child, C casts between integer types).
[[nodiscard]] CXCursor stripped(CXCursor c);
// `c` and each node under it that stripped() passes, down to stripped(c).
[[nodiscard]] std::vector<CXCursor> strippedChain(CXCursor c);
// The integer value of a constant expression (a literal, an enumerator,
// sizeof, or unary operators over one: -1), converted to `c`'s type (as
// clang evaluates it: (unsigned char)300 is 44), nullopt when it is not one.
[[nodiscard]] std::optional<long long> constantValue(CXCursor c);
// An integer type (any width and signedness, _Bool, enums), after typedefs.
[[nodiscard]] bool isIntegerType(CXType t);
// `_Atomic T` (atomic_int): the underlying type, else nullopt.
[[nodiscard]] std::optional<CXType> atomicValueType(CXType t);
// The type's name after typedefs ("pthread_mutex_t" stays itself).
[[nodiscard]] std::string typeName(CXType t);

// Cursors as map keys (declarations).
struct CursorHash {
    std::size_t operator()(const CXCursor& c) const { return clang_hashCursor(c); }
};
struct CursorEq {
    bool operator()(const CXCursor& a, const CXCursor& b) const {
        return clang_equalCursors(a, b) != 0;
    }
};

} // namespace tsoreach::c
