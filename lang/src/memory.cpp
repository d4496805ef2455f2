#include "tsoreach/lang/memory.hpp"

#include <algorithm>
#include <stdexcept>

namespace tsoreach {

namespace {
// Keeps base + size and the shadow memory above them far from overflow.
constexpr Value kMaxEnd = Value{1} << 62;
} // namespace

VarId MemoryLayout::find(std::string_view name) const {
    for (std::size_t i = 0; i < vars.size(); ++i) {
        if (vars[i].name == name) {
            return VarId(static_cast<std::uint32_t>(i));
        }
    }
    return VarId::invalid();
}

VarId MemoryLayout::varAt(Value addr) const {
    // The last variable whose base is at most addr.
    auto it = std::upper_bound(vars.begin(), vars.end(), addr,
                               [](Value a, const MemoryVar& v) { return a < v.base; });
    if (it == vars.begin() || !std::prev(it)->holds(addr)) {
        return VarId::invalid();
    }
    return VarId(static_cast<std::uint32_t>(std::prev(it) - vars.begin()));
}

std::string MemoryLayout::cellName(Value addr) const {
    const VarId v = varAt(addr);
    if (!v.valid()) {
        return {};
    }
    const MemoryVar& mv = var(v);
    return mv.array ? mv.name + "[" + std::to_string(addr - mv.base) + "]" : mv.name;
}

std::string MemoryLayout::label(Value addr) const {
    std::string name = cellName(addr);
    return name.empty() ? "mem[" + std::to_string(addr) + "]" : name;
}

Value MemoryLayout::initialValue(Value addr) const {
    const VarId v = varAt(addr);
    if (!v.valid()) {
        return 0;
    }
    const MemoryVar& mv = var(v);
    const auto k = static_cast<std::size_t>(addr - mv.base);
    return k < mv.init.size() ? mv.init[k] : 0;
}

std::vector<MemoryCell> MemoryLayout::initialCells() const {
    std::vector<MemoryCell> out;
    for (const MemoryVar& v : vars) {
        for (std::size_t k = 0; k < v.init.size(); ++k) {
            if (v.init[k] != 0) {
                out.push_back({v.base + static_cast<Value>(k), v.init[k]});
            }
        }
    }
    return out;
}

Value MemoryLayout::end() const {
    return vars.empty() ? 0 : vars.back().base + vars.back().size;
}

VarId appendVar(MemoryLayout& m, std::string name, Value size, bool array, std::vector<Value> init,
                SourcePos pos) {
    const Value base = m.end();
    if (size < 1 || size > kMaxEnd - base) {
        throw std::length_error("memory: the variables need more than 2^62 cells");
    }
    while (!init.empty() && init.back() == 0) {
        init.pop_back();
    }
    const VarId id(static_cast<std::uint32_t>(m.vars.size()));
    m.vars.push_back({std::move(name), base, size, array, std::move(init), pos});
    return id;
}

} // namespace tsoreach
