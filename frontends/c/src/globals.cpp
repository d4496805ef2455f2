#include "globals.hpp"

namespace tsoreach::c {

namespace {

constexpr long long kMaxArray = 1 << 20;

bool isMutexType(CXType t) {
    return typeName(clang_getCanonicalType(t)).find("pthread_mutex_t") != std::string::npos ||
           typeName(t) == "pthread_mutex_t";
}

// The element type's atomicity and whether it is an integer, or an error.
bool elementIsAtomic(const TranslationUnit& tu, CXCursor decl, CXType t) {
    if (std::optional<CXType> v = atomicValueType(t)) {
        if (isIntegerType(*v)) {
            return true;
        }
    } else if (isIntegerType(t)) {
        return false;
    }
    throw tu.error(decl, "a global variable of type '" + typeName(t) + "' is not supported");
}

long long constantOf(const TranslationUnit& tu, CXCursor e) {
    if (std::optional<long long> v = constantValue(e)) {
        return *v;
    }
    CXEvalResult r = clang_Cursor_Evaluate(e);
    std::optional<long long> out;
    if (r != nullptr) {
        if (clang_EvalResult_getKind(r) == CXEval_Int) {
            out = clang_EvalResult_getAsLongLong(r);
        }
        clang_EvalResult_dispose(r);
    }
    if (!out) {
        throw tu.error(e, "an initialiser that is not an integer constant is not supported");
    }
    return *out;
}

} // namespace

Globals::Globals(const TranslationUnit& tu) {
    for (CXCursor c : children(tu.root())) {
        if (clang_getCursorKind(c) == CXCursor_VarDecl &&
            clang_Location_isFromMainFile(clang_getCursorLocation(c)) != 0) {
            declare(tu, c);
        }
    }
}

void Globals::declare(const TranslationUnit& tu, CXCursor decl) {
    const std::string name = spelling(decl);
    if (clang_Cursor_getStorageClass(decl) == CX_SC_Extern) {
        throw tu.error(decl, "an extern variable is not supported");
    }
    // A tentative definition followed by the definition: one variable.
    const CXCursor def = clang_getCursorDefinition(decl);
    if (!clang_Cursor_isNull(def) && !clang_equalCursors(def, decl)) {
        return;
    }
    const CXType type = clang_getCursorType(decl);
    Global g;
    Value size = 1;
    bool array = false;
    if (isMutexType(type)) {
        g.mutex = true;
    } else if (clang_getCanonicalType(type).kind == CXType_ConstantArray) {
        const long long n = clang_getArraySize(type);
        if (n <= 0 || n > kMaxArray) {
            throw tu.error(decl, "an array of " + std::to_string(n) + " elements is not supported");
        }
        g.atomic = elementIsAtomic(tu, decl, clang_getArrayElementType(type));
        size = n;
        array = true;
    } else {
        g.atomic = elementIsAtomic(tu, decl, type);
    }
    std::vector<Value> init;
    // An array's children are its size, then its initialiser list.
    for (CXCursor k : children(decl)) {
        if (g.mutex || !clang_isExpression(clang_getCursorKind(k))) {
            continue; // PTHREAD_MUTEX_INITIALIZER: free
        }
        if (clang_getCursorKind(k) == CXCursor_InitListExpr) {
            for (CXCursor e : children(k)) {
                if (clang_isExpression(clang_getCursorKind(e))) {
                    init.push_back(constantOf(tu, e));
                }
            }
        } else if (!array) {
            init.assign(1, constantOf(tu, k));
        }
    }
    if (static_cast<Value>(init.size()) > size) {
        throw tu.error(decl, "too many initial values");
    }
    g.var = appendVar(memory_, name, size, array, std::move(init), tu.pos(decl));
    byDecl_.emplace(decl, g);
}

const Global* Globals::find(CXCursor decl) const {
    const CXCursor def = clang_getCursorDefinition(decl);
    auto it = byDecl_.find(clang_Cursor_isNull(def) ? decl : def);
    return it == byDecl_.end() ? nullptr : &it->second;
}

void Globals::setInitial(VarId var, Value index, Value value) {
    MemoryVar& v = memory_.vars[var.index()];
    if (static_cast<Value>(v.init.size()) <= index) {
        v.init.resize(static_cast<std::size_t>(index) + 1, 0);
    }
    v.init[static_cast<std::size_t>(index)] = value;
    while (!v.init.empty() && v.init.back() == 0) {
        v.init.pop_back();
    }
}

VarId Globals::addFlag(const std::string& name) {
    return appendVar(memory_, name, 1, false, {});
}

} // namespace tsoreach::c
