#include "clang_tu.hpp"

#include <array>
#include <cctype>

namespace tsoreach::c {

std::string take(CXString s) {
    const char* p = clang_getCString(s);
    std::string out = p == nullptr ? "" : p;
    clang_disposeString(s);
    return out;
}

namespace {

// Standard C11 with the system's headers and clang's builtin ones (which
// libclang does not always find by itself). Strict ANSI makes glibc's
// assert() the plain conditional expression the translator knows.
constexpr std::array kArgs = {"-x", "c", "-std=c11", "-isystem", TSOREACH_CLANG_BUILTIN_INCLUDE};

CXChildVisitResult collect(CXCursor c, CXCursor, CXClientData out) {
    static_cast<std::vector<CXCursor>*>(out)->push_back(c);
    return CXChildVisit_Continue;
}

} // namespace

TranslationUnit::TranslationUnit(std::string_view text, const std::string& sourceName)
    : text_(text), sourceName_(sourceName),
      fileName_(sourceName.ends_with(".c") ? sourceName : sourceName + ".c"),
      index_(clang_createIndex(0, 0)) {
    checkSourceSize(text.size(), sourceName);
    CXUnsavedFile file{fileName_.c_str(), text_.data(), static_cast<unsigned long>(text_.size())};
    CXTranslationUnit tu = nullptr;
    const CXErrorCode code = clang_parseTranslationUnit2(
        index_.get(), fileName_.c_str(), kArgs.data(), static_cast<int>(kArgs.size()), &file, 1,
        CXTranslationUnit_DetailedPreprocessingRecord, &tu);
    unit_.reset(tu);
    if (code != CXError_Success || tu == nullptr) {
        throw InputError(sourceName_, {}, "libclang could not parse the file");
    }
    const unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; ++i) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        const CXDiagnosticSeverity severity = clang_getDiagnosticSeverity(d);
        const CXSourceLocation loc = clang_getDiagnosticLocation(d);
        std::string message = take(clang_getDiagnosticSpelling(d));
        clang_disposeDiagnostic(d);
        if (severity >= CXDiagnostic_Error) {
            CXFile f = nullptr;
            unsigned line = 0, col = 0, off = 0;
            clang_getFileLocation(loc, &f, &line, &col, &off);
            throw InputError(sourceName_, {line, col}, message);
        }
    }
    refuseProgramMacros();
    refuseUnmodelledTypes();
}

// The translator reads an operator from the tokens around its operands,
// and libclang 14 gives a macro body's tokens only as the macro's call: an
// operator written in a macro of the program could be misread (PLUS(a, b)
// defined as `a + b` read as a comma). So the program's macros may only
// stand for one token (a constant, a name); system headers' (assert,
// stdatomic.h, NULL) are read through their expansion as before.
void TranslationUnit::refuseProgramMacros() const {
    for (CXCursor c : children(root())) {
        if (clang_getCursorKind(c) != CXCursor_MacroExpansion ||
            clang_Location_isFromMainFile(clang_getCursorLocation(c)) == 0) {
            continue;
        }
        const CXCursor def = clang_getCursorReferenced(c);
        if (clang_Cursor_isNull(def) != 0 ||
            clang_Location_isInSystemHeader(clang_getCursorLocation(def)) != 0 ||
            clang_Cursor_isMacroBuiltin(def) != 0) {
            continue;
        }
        const std::string name = take(clang_getCursorSpelling(def));
        if (clang_Cursor_isMacroFunctionLike(def) != 0) {
            throw error(c, "the function-like macro '" + name +
                               "' is not supported: expand it by hand");
        }
        if (tokens(clang_getCursorExtent(def)).size() > 2) { // the name and one token
            throw error(c, "the macro '" + name +
                               "' stands for more than one token, which is not supported: "
                               "expand it by hand, or write a constant");
        }
    }
}

namespace {

// Integer types the model does not hold (wider than its 64-bit values).
bool unmodelled(CXType t) {
    t = clang_getCanonicalType(t);
    if (t.kind == CXType_Atomic) {
        t = clang_getCanonicalType(clang_Type_getValueType(t));
    }
    return t.kind == CXType_Int128 || t.kind == CXType_UInt128;
}

struct TypeScan {
    CXCursor found = clang_getNullCursor();
};

CXChildVisitResult scanTypes(CXCursor c, CXCursor parent, CXClientData data) {
    auto* scan = static_cast<TypeScan*>(data);
    const CXCursorKind k = clang_getCursorKind(c);
    if (clang_Location_isFromMainFile(clang_getCursorLocation(c)) == 0) {
        return CXChildVisit_Continue;
    }
    const bool mainParam = k == CXCursor_ParmDecl &&
                           clang_getCursorKind(parent) == CXCursor_FunctionDecl &&
                           take(clang_getCursorSpelling(parent)) == "main";
    const bool typed = k == CXCursor_VarDecl || (k == CXCursor_ParmDecl && !mainParam) ||
                       k == CXCursor_CStyleCastExpr || k == CXCursor_IntegerLiteral ||
                       k == CXCursor_FieldDecl;
    const CXType type = clang_getCursorType(c);
    const bool handle = take(clang_getTypeSpelling(type)) == "pthread_t"; // an id, no arithmetic
    if (typed && !handle && unmodelled(type)) {
        scan->found = c;
        return CXChildVisit_Break;
    }
    if (k == CXCursor_FunctionDecl && unmodelled(clang_getCursorResultType(c))) {
        scan->found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

} // namespace

// Values are 64-bit integers (docs/c.md, "Integer types"): a program with
// wider ones is refused at the first such declaration or cast.
void TranslationUnit::refuseUnmodelledTypes() const {
    TypeScan scan;
    clang_visitChildren(root(), scanTypes, &scan);
    if (clang_Cursor_isNull(scan.found) == 0) {
        const CXType t = clang_getCursorKind(scan.found) == CXCursor_FunctionDecl
                             ? clang_getCursorResultType(scan.found)
                             : clang_getCursorType(scan.found);
        throw error(scan.found, "the type '" + take(clang_getTypeSpelling(t)) +
                                    "' is not supported: integers have at most 64 bits");
    }
}

CXCursor TranslationUnit::root() const {
    return clang_getTranslationUnitCursor(unit_.get());
}

SourcePos TranslationUnit::pos(CXCursor c) const {
    CXFile f = nullptr;
    unsigned line = 0, col = 0, off = 0;
    clang_getFileLocation(clang_getCursorLocation(c), &f, &line, &col, &off);
    return {line, col};
}

std::size_t TranslationUnit::offset(CXSourceLocation loc) const {
    CXFile f = nullptr;
    unsigned line = 0, col = 0, off = 0;
    clang_getFileLocation(loc, &f, &line, &col, &off);
    return off;
}

std::optional<FenceSite> TranslationUnit::textSite(CXCursor s, bool condition) const {
    const CXSourceRange range = clang_getCursorExtent(s);
    const CXSourceLocation first = clang_getRangeStart(range);
    const CXSourceLocation last = clang_getRangeEnd(range);
    // A macro's call stands for its expansion here (atomic_store(...) as a
    // statement); a statement inside a header has no place in this text.
    const CXFile main = clang_getFile(unit_.get(), fileName_.c_str());
    const auto inMain = [&](CXSourceLocation loc) {
        CXFile f = nullptr;
        unsigned line = 0, col = 0, off = 0;
        clang_getFileLocation(loc, &f, &line, &col, &off);
        return f != nullptr && clang_File_isEqual(f, main) != 0;
    };
    if (!inMain(first) || !inMain(last)) {
        return std::nullopt;
    }
    FenceSite site;
    site.condition = condition;
    site.begin = offset(first);
    site.end = offset(last);
    if (site.begin >= site.end || site.end > text_.size()) {
        return std::nullopt;
    }
    std::size_t next = site.end;
    while (next < text_.size() && (text_[next] == ' ' || text_[next] == '\t')) {
        ++next;
    }
    if (!condition && next < text_.size() && text_[next] == ';' && text_[site.end - 1] != ';' &&
        text_[site.end - 1] != '}') {
        site.end = next + 1; // an expression statement's extent stops before its `;`
    }
    std::size_t lineStart = site.begin;
    while (lineStart > 0 && text_[lineStart - 1] != '\n') {
        --lineStart;
    }
    const std::string_view before =
        std::string_view(text_).substr(lineStart, site.begin - lineStart);
    if (before.find_first_not_of(" \t") == std::string_view::npos) {
        site.indent = std::string(before);
    }
    CXFile f = nullptr;
    unsigned line = 0, col = 0, off = 0;
    clang_getFileLocation(first, &f, &line, &col, &off);
    site.pos = {line, col};
    return site;
}

std::vector<std::string> TranslationUnit::tokens(CXSourceRange range) const {
    CXToken* toks = nullptr;
    unsigned n = 0;
    clang_tokenize(unit_.get(), range, &toks, &n);
    std::vector<std::string> out;
    for (unsigned i = 0; i < n; ++i) {
        // Other tokens get a leading blank, so that operatorBetween skips them.
        const bool punctuation = clang_getTokenKind(toks[i]) == CXToken_Punctuation;
        out.push_back((punctuation ? "" : " ") +
                      take(clang_getTokenSpelling(unit_.get(), toks[i])));
    }
    clang_disposeTokens(unit_.get(), toks, n);
    return out;
}

// Tokens of this file's text from `from` up to `to` (file positions: a
// macro's argument is where it is written), nullopt unless both are in this
// file and `from` comes first. Reading the operator from the text between
// the operands' starts works inside assert(...) too, where libclang's
// extents of a macro call as operand end where the call starts.
std::optional<std::vector<std::string>> TranslationUnit::tokensBetween(CXSourceLocation from,
                                                                       CXSourceLocation to) const {
    const CXFile main = clang_getFile(unit_.get(), fileName_.c_str());
    CXFile f = nullptr, g = nullptr;
    unsigned line = 0, col = 0, a = 0, b = 0;
    clang_getFileLocation(from, &f, &line, &col, &a);
    clang_getFileLocation(to, &g, &line, &col, &b);
    if (f == nullptr || g == nullptr || clang_File_isEqual(f, main) == 0 ||
        clang_File_isEqual(g, main) == 0 || a >= b) {
        return std::nullopt;
    }
    // clang_tokenize may give the token that starts at `to`: only those before it count.
    CXToken* toks = nullptr;
    unsigned n = 0;
    clang_tokenize(unit_.get(),
                   clang_getRange(clang_getLocationForOffset(unit_.get(), main, a),
                                  clang_getLocationForOffset(unit_.get(), main, b)),
                   &toks, &n);
    std::vector<std::string> out;
    for (unsigned i = 0; i < n && offset(clang_getTokenLocation(unit_.get(), toks[i])) < b; ++i) {
        if (clang_getTokenKind(toks[i]) == CXToken_Comment) {
            continue;
        }
        const bool punctuation = clang_getTokenKind(toks[i]) == CXToken_Punctuation;
        out.push_back((punctuation ? "" : " ") +
                      take(clang_getTokenSpelling(unit_.get(), toks[i])));
    }
    clang_disposeTokens(unit_.get(), toks, n);
    return out;
}

namespace {

// `lhs op` as tokens: the last one, when the others balance their brackets
// (else the text between the starts is not one operand and its operator:
// the operands come from different arguments of a header's macro).
std::string lastAfterBalanced(const std::vector<std::string>& t) {
    int depth = 0;
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
        depth += (t[i] == "(" || t[i] == "[") ? 1 : (t[i] == ")" || t[i] == "]") ? -1 : 0;
        if (depth < 0) {
            return "";
        }
    }
    return depth == 0 && !t.empty() && !t.back().starts_with(' ') ? t.back() : "";
}

} // namespace

std::string TranslationUnit::binaryOperator(CXCursor lhs, CXCursor rhs, CXCursor whole) const {
    const auto between = tokensBetween(clang_getRangeStart(clang_getCursorExtent(whole)),
                                       clang_getRangeStart(clang_getCursorExtent(rhs)));
    if (between) {
        if (std::string op = lastAfterBalanced(*between); !op.empty()) {
            return op;
        }
    }
    return operatorAfter(lhs, whole);
}

TranslationUnit::UnaryOperator TranslationUnit::unaryOperator(CXCursor e, CXCursor operand) const {
    const CXSourceRange r = clang_getCursorExtent(e);
    const CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(operand));
    if (const auto before = tokensBetween(clang_getRangeStart(r), start);
        before && before->size() == 1) {
        return {before->front(), false}; // -x, ++x, &x
    }
    if (offset(clang_getRangeStart(r)) == offset(start)) {
        if (const auto all = tokensBetween(start, clang_getRangeEnd(r)); all && !all->empty()) {
            return {all->back(), true}; // x++
        }
    }
    const std::string first = firstToken(e);
    const std::string last = lastToken(e);
    const bool postfix = first != "++" && first != "--" && (last == "++" || last == "--");
    return {postfix ? last : first, postfix};
}

std::string TranslationUnit::operatorAfter(CXCursor lhs, CXCursor whole) const {
    // Up to the end of the whole expression: the right operand's extent may
    // be a macro's (atomic_load(...)), the whole one is the source's.
    const CXSourceLocation from = clang_getRangeEnd(clang_getCursorExtent(lhs));
    const CXSourceLocation to = clang_getRangeEnd(clang_getCursorExtent(whole));
    if (offset(from) < offset(to)) {
        for (const std::string& t : tokens(clang_getRange(from, to))) {
            if (!t.starts_with(' ')) {
                return t; // the first punctuation: a closing parenthesis ends `lhs`'s extent
            }
        }
    }
    return operatorInText(lhs);
}

namespace {

constexpr std::array<std::string_view, 30> kSpelledOperators = {
    "<<=", ">>=", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "+=", "-=", "*=", "/=", "%=",
    "&=",  "|=",  "^=", "+",  "-",  "*",  "/",  "%",  "&",  "|",  "^",  "<",  ">",  "=",  ","};

bool isIdentifierChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

} // namespace

// Inside a macro's argument (assert(atomic_load(&x) == 1)) libclang's
// extents of an operand that is itself a macro call end where that call
// starts; the operator is then read from the text after the call.
std::string TranslationUnit::operatorInText(CXCursor lhs) const {
    const CXSourceRange r = clang_getCursorExtent(lhs);
    std::size_t p = offset(clang_getRangeEnd(r));
    if (p == offset(clang_getRangeStart(r))) { // NAME( ... ): skip the call
        while (p < text_.size() && isIdentifierChar(text_[p])) {
            ++p;
        }
        while (p < text_.size() && std::isspace(static_cast<unsigned char>(text_[p])) != 0) {
            ++p;
        }
        int depth = 0;
        do {
            if (p >= text_.size()) {
                return "";
            }
            depth += text_[p] == '(' ? 1 : text_[p] == ')' ? -1 : 0;
            ++p;
        } while (depth > 0);
    }
    while (p < text_.size() && std::isspace(static_cast<unsigned char>(text_[p])) != 0) {
        ++p;
    }
    for (std::string_view op : kSpelledOperators) {
        if (std::string_view(text_).substr(p).starts_with(op)) {
            return std::string(op);
        }
    }
    return "";
}

std::string TranslationUnit::firstToken(CXCursor c) const {
    const std::vector<std::string> t = tokens(clang_getCursorExtent(c));
    return t.empty() ? "" : t.front();
}

std::string TranslationUnit::lastToken(CXCursor c) const {
    const std::vector<std::string> t = tokens(clang_getCursorExtent(c));
    return t.empty() ? "" : t.back();
}

std::string TranslationUnit::builtinName(CXCursor c) const {
    // Where the name is spelled: in stdatomic.h's macro (atomic_load is
    // __c11_atomic_load) or in the program, even inside assert(...).
    CXFile f = nullptr;
    unsigned line = 0, col = 0, off = 0;
    clang_getSpellingLocation(clang_getCursorLocation(c), &f, &line, &col, &off);
    std::size_t size = 0;
    const char* contents = f == nullptr ? nullptr : clang_getFileContents(unit_.get(), f, &size);
    if (contents == nullptr) {
        return "";
    }
    std::string out;
    for (std::size_t i = off;
         i < size &&
         (std::isalnum(static_cast<unsigned char>(contents[i])) != 0 || contents[i] == '_');
         ++i) {
        out += contents[i];
    }
    return out;
}

InputError TranslationUnit::error(CXCursor c, const std::string& message) const {
    return InputError(sourceName_, pos(c), message);
}

std::vector<CXCursor> children(CXCursor c) {
    std::vector<CXCursor> out;
    clang_visitChildren(c, collect, &out);
    return out;
}

CXCursor stripped(CXCursor c) {
    return strippedChain(c).back();
}

std::vector<CXCursor> strippedChain(CXCursor c) {
    std::vector<CXCursor> chain{c};
    for (;;) {
        const CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr &&
            k != CXCursor_CStyleCastExpr) {
            return chain;
        }
        std::vector<CXCursor> kids = children(c);
        // A cast's first child may name its type.
        std::erase_if(kids,
                      [](CXCursor k2) { return !clang_isExpression(clang_getCursorKind(k2)); });
        if (kids.size() != 1) {
            return chain;
        }
        if (k == CXCursor_CStyleCastExpr && !isIntegerType(clang_getCursorType(c)) &&
            clang_getCursorType(c).kind != CXType_Void &&
            clang_getCursorType(c).kind != CXType_Pointer) {
            return chain;
        }
        c = kids.front();
        chain.push_back(c);
    }
}

std::optional<long long> constantValue(CXCursor original) {
    const CXCursor c = stripped(original);
    // `-1`, `~0`, `!0`: unary operators over a constant (a loop: `- - 1` may
    // nest deep); `&x` and `*p` end at a variable, which is no constant.
    CXCursor operand = c;
    while (clang_getCursorKind(operand) == CXCursor_UnaryOperator) {
        const std::vector<CXCursor> k = children(operand);
        if (k.size() != 1) {
            return std::nullopt;
        }
        operand = stripped(k[0]);
    }
    const CXCursorKind k = clang_getCursorKind(operand);
    bool constant =
        k == CXCursor_IntegerLiteral || k == CXCursor_CharacterLiteral || k == CXCursor_UnaryExpr;
    if (k == CXCursor_DeclRefExpr) {
        constant =
            clang_getCursorKind(clang_getCursorReferenced(operand)) == CXCursor_EnumConstantDecl;
    }
    if (!constant) {
        return std::nullopt;
    }
    // The outermost integer-typed layer: its conversions apply ((char)300),
    // a pointer's do not ((void *)0 is 0).
    CXCursor typed = c;
    for (CXCursor layer : strippedChain(original)) {
        if (isIntegerType(clang_getCursorType(layer))) {
            typed = layer;
            break;
        }
    }
    CXEvalResult r = clang_Cursor_Evaluate(typed);
    if (r == nullptr) {
        return std::nullopt;
    }
    std::optional<long long> out;
    if (clang_EvalResult_getKind(r) == CXEval_Int) {
        out = clang_EvalResult_getAsLongLong(r);
    }
    clang_EvalResult_dispose(r);
    return out;
}

bool isIntegerType(CXType t) {
    t = clang_getCanonicalType(t);
    switch (t.kind) {
    case CXType_Bool:
    case CXType_Char_U:
    case CXType_UChar:
    case CXType_UShort:
    case CXType_UInt:
    case CXType_ULong:
    case CXType_ULongLong:
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_Short:
    case CXType_Int:
    case CXType_Long:
    case CXType_LongLong:
    case CXType_Enum:
        return true;
    default:
        return false;
    }
}

std::optional<CXType> atomicValueType(CXType t) {
    t = clang_getCanonicalType(t);
    if (t.kind != CXType_Atomic) {
        return std::nullopt;
    }
    return clang_Type_getValueType(t);
}

std::string typeName(CXType t) {
    return take(clang_getTypeSpelling(t));
}

} // namespace tsoreach::c
