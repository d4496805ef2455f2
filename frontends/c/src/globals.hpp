#pragma once
// The C program's shared memory: its global variables of integer and atomic
// integer types (scalars and arrays of constant size) and its mutexes, in
// declaration order, as the program's named memory (lang/memory.hpp), with
// the values their initialisers and main's first statements give them.

#include "clang_tu.hpp"
#include "tsoreach/lang/memory.hpp"

#include <unordered_map>

namespace tsoreach::c {

struct Global {
    VarId var;
    bool atomic = false; // _Atomic: plain accesses are seq_cst, ++ is a locked update
    bool mutex = false;  // pthread_mutex_t: one cell, 0 when free
};

class Globals {
  public:
    // Reads every file-scope variable of the main file; throws InputError
    // at one whose type or initialiser is outside the subset.
    explicit Globals(const TranslationUnit& tu);

    // The global `decl` declares, or nullptr.
    [[nodiscard]] const Global* find(CXCursor decl) const;
    [[nodiscard]] const MemoryLayout& memory() const { return memory_; }
    // Sets the initial value of cell `index` of `var`.
    void setInitial(VarId var, Value index, Value value);
    // A flag cell of the translation (not a C variable): done.t0.
    VarId addFlag(const std::string& name);

  private:
    void declare(const TranslationUnit& tu, CXCursor decl);
    MemoryLayout memory_;
    std::unordered_map<CXCursor, Global, CursorHash, CursorEq> byDecl_;
};

} // namespace tsoreach::c
