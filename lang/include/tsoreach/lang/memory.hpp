#pragma once
// Named shared memory: a program's optional `memory` declaration
// (docs/language.md). Variables are laid out one after the other from
// address 0 in declaration order: a scalar takes one cell, an array
// `flag[N]` takes N. Addresses stay plain integers for the engines; the
// names are for the printer and the reports, and the initial values are part
// of the semantics (every cell no variable holds starts at 0).

#include "tsoreach/lang/ids.hpp"
#include "tsoreach/lang/source.hpp"
#include "tsoreach/lang/value.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tsoreach {

struct MemoryVar {
    std::string name;
    Value base = 0;     // the address of its first cell
    Value size = 1;     // cells; 1 for a scalar
    bool array = false; // declared NAME[SIZE]: always indexed, never bare
    // The initial values of its first init.size() cells, without trailing
    // zeros (so the representation is canonical); the others start at 0.
    std::vector<Value> init;
    SourcePos pos; // of the name in the declaration; ignored by ==

    [[nodiscard]] bool holds(Value addr) const { return addr >= base && addr - base < size; }
    friend bool operator==(const MemoryVar& a, const MemoryVar& b) {
        return a.name == b.name && a.base == b.base && a.size == b.size && a.array == b.array &&
               a.init == b.init;
    }
};

// A cell and its value, e.g. an initial value.
struct MemoryCell {
    Value addr = 0;
    Value value = 0;
    friend bool operator==(const MemoryCell&, const MemoryCell&) = default;
};

struct MemoryLayout {
    // By VarId, in ascending and disjoint address ranges.
    std::vector<MemoryVar> vars;

    [[nodiscard]] bool empty() const { return vars.empty(); }
    [[nodiscard]] const MemoryVar& var(VarId v) const { return vars[v.index()]; }
    // The variable called `name`; invalid() when none.
    [[nodiscard]] VarId find(std::string_view name) const;
    // The variable holding `addr`; invalid() when none.
    [[nodiscard]] VarId varAt(Value addr) const;
    // The source's name of the cell at `addr` ("x", "flag[1]"); empty when
    // no variable holds it.
    [[nodiscard]] std::string cellName(Value addr) const;
    // How reports show the cell at `addr`: its name, else "mem[ADDR]".
    [[nodiscard]] std::string label(Value addr) const;
    // The value the cell at `addr` starts with.
    [[nodiscard]] Value initialValue(Value addr) const;
    // The cells that do not start at 0, by ascending address.
    [[nodiscard]] std::vector<MemoryCell> initialCells() const;
    // One past the highest declared address; 0 without a declaration.
    [[nodiscard]] Value end() const;

    friend bool operator==(const MemoryLayout&, const MemoryLayout&) = default;
};

// Appends a variable after the last one (base = end()); `init` is trimmed
// of trailing zeros. Throws std::length_error when the addresses would pass
// 2^62 (checkWellFormed's bound).
VarId appendVar(MemoryLayout& m, std::string name, Value size, bool array, std::vector<Value> init,
                SourcePos pos = {});

} // namespace tsoreach
