#include "x86_syntax.hpp"

#include "condition_parser.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace tsoreach::litmus {

namespace {

const std::map<std::string, Mn>& mnemonics() {
    static const std::map<std::string, Mn> m = {
        {"MOV", Mn::Mov},   {"MFENCE", Mn::Mfence}, {"LFENCE", Mn::Lfence},  {"NOP", Mn::Nop},
        {"XCHG", Mn::Xchg}, {"ADD", Mn::Add},       {"SUB", Mn::Sub},        {"INC", Mn::Inc},
        {"DEC", Mn::Dec},   {"XADD", Mn::Xadd},     {"CMPXCHG", Mn::Cmpxchg}};
    return m;
}

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return out;
}

std::map<std::string, RegName> intelRegisters() {
    std::map<std::string, RegName> m;
    for (const char* f : {"A", "B", "C", "D"}) {
        const std::string e = "E" + std::string(f) + "X";
        m[e] = {e, 32};
        m[std::string(f) + "X"] = m[std::string(f) + "L"] = m[std::string(f) + "H"] = {e, 16};
    }
    for (const char* f : {"SI", "DI", "BP", "SP"}) {
        const std::string e = "E" + std::string(f);
        m[e] = {e, 32};
        m[f] = {e, 16};
    }
    return m;
}

std::map<std::string, RegName> attRegisters() {
    std::map<std::string, RegName> m;
    for (const char* f : {"a", "b", "c", "d"}) {
        const std::string r = "r" + std::string(f) + "x";
        m[r] = {r, 64};
        m["e" + std::string(f) + "x"] = {r, 32};
        m[std::string(f) + "x"] = m[std::string(f) + "l"] = m[std::string(f) + "h"] = {r, 16};
    }
    for (const char* f : {"si", "di", "bp", "sp"}) {
        const std::string r = "r" + std::string(f);
        m[r] = {r, 64};
        m["e" + std::string(f)] = {r, 32};
        m[f] = m[std::string(f) + "l"] = {r, 16};
    }
    for (int n = 8; n <= 15; ++n) {
        const std::string r = "r" + std::to_string(n);
        m[r] = {r, 64};
        m[r + "d"] = {r, 32};
        m[r + "w"] = m[r + "b"] = {r, 16};
    }
    return m;
}

// Reads the mnemonic (after an optional LOCK) and its size suffix.
struct Head {
    Mn mn = Mn::Mov;
    bool locked = false;
    int width = 0; // from a suffix; 0: none
    Piece rest;
};

Head readHead(const LitmusSource& src, Piece cell, Syntax syntax) {
    Head h;
    Piece at = cell;
    auto word = [&] {
        const std::size_t i = std::min(at.text.find_first_of(" \t"), at.text.size());
        const Piece w{at.text.substr(0, i), at.offset};
        at = trim({at.text.substr(i), at.offset + i});
        return w;
    };
    Piece w = word();
    if (upper(w.text) == "LOCK") {
        h.locked = true;
        w = word();
    }
    const std::string u = upper(w.text);
    auto it = mnemonics().find(u);
    if (it == mnemonics().end() && u.size() > 1 &&
        std::string_view("LQWB").find(u.back()) != std::string_view::npos) {
        it = mnemonics().find(u.substr(0, u.size() - 1)); // movl: mov
        const char s = u.back();
        h.width = s == 'L' ? 32 : s == 'Q' ? 64 : 16;
        if (it != mnemonics().end() && (h.width == 16 || (syntax == Syntax::Intel && s == 'Q'))) {
            src.fail(w.offset, "'" + std::string(w.text) + "': " +
                                   (h.width == 16 ? "8- and 16-bit operations are not supported"
                                                  : "64-bit operations are X86_64 code"));
        }
    }
    if (it == mnemonics().end()) {
        src.fail(w.offset, "instruction '" + std::string(cell.text) +
                               "' is not supported: tsoreach reads MOV, MFENCE, LFENCE, NOP, "
                               "XCHG and ADD, SUB, INC, DEC, XADD, CMPXCHG (with or without "
                               "LOCK); no jumps or compares");
    }
    h.mn = it->second;
    h.rest = at;
    return h;
}

Operand readOperand(const LitmusSource& src, Piece p, Syntax syntax, int& regWidth) {
    const std::string_view t = p.text;
    Operand o;
    o.offset = p.offset;
    const bool mem =
        t.size() > 2 && ((syntax == Syntax::Intel && t.front() == '[' && t.back() == ']') ||
                         (syntax == Syntax::Att && t.front() == '(' && t.back() == ')'));
    if (mem || (syntax == Syntax::Att && isIdentifier(t))) { // `movl x,%eax`: x is memory
        o.kind = Operand::Kind::Mem;
        o.name = std::string(trim({mem ? t.substr(1, t.size() - 2) : t, 0}).text);
        if (!registerName(o.name, syntax).name.empty() || !isIdentifier(o.name)) {
            src.fail(p.offset, "'" + std::string(t) +
                                   "': tsoreach reads a location by name only (no register or "
                                   "computed address)");
        }
        return o;
    }
    if (t.starts_with("$") ||
        (syntax == Syntax::Intel && !t.empty() &&
         (std::isdigit(static_cast<unsigned char>(t.front())) != 0 || t.front() == '-'))) {
        const std::optional<Value> v = parseInteger(t, true);
        if (!v) {
            src.fail(p.offset, "'" + std::string(t) + "' is not an integer of 64 bits");
        }
        o.imm = *v;
        return o;
    }
    const RegName r = registerName(t, syntax);
    if (r.name.empty() || (syntax == Syntax::Att && !t.starts_with("%"))) {
        src.fail(p.offset,
                 "unknown operand '" + std::string(t) + "'" +
                     (syntax == Syntax::Intel ? " (X86: a register such as EAX, [x] or $1)"
                                              : " (X86_64: a register such as %eax, (x) or $1)"));
    }
    if (r.width < 32) {
        src.fail(p.offset, "'" + std::string(t) + "': 8- and 16-bit registers are not supported");
    }
    if (regWidth != 0 && regWidth != r.width) {
        src.fail(p.offset, "'" + std::string(t) + "': operands of different sizes");
    }
    regWidth = r.width;
    o.kind = Operand::Kind::Reg;
    o.name = r.name;
    return o;
}

// The operand shapes each instruction takes.
bool shapeOk(const Insn& in) {
    using K = Operand::Kind;
    const auto n = in.ops.size();
    const auto kind = [&](std::size_t i) { return in.ops[i].kind; };
    switch (in.mn) {
    case Mn::Mov:
        return n == 2 && kind(0) != K::Imm && !(kind(0) == K::Mem && kind(1) == K::Mem);
    case Mn::Mfence:
    case Mn::Lfence:
    case Mn::Nop:
        return n == 0;
    case Mn::Xchg:
        return n == 2 && kind(0) != K::Imm && kind(1) != K::Imm &&
               (kind(0) == K::Mem) != (kind(1) == K::Mem);
    case Mn::Add:
    case Mn::Sub:
        return n == 2 && kind(0) != K::Imm && kind(1) != K::Mem;
    case Mn::Inc:
    case Mn::Dec:
        return n == 1 && kind(0) != K::Imm;
    case Mn::Xadd:
    case Mn::Cmpxchg:
        return n == 2 && kind(0) == K::Mem && kind(1) == K::Reg;
    }
    return false;
}

} // namespace

bool isIdentifier(std::string_view s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front())) != 0) {
        return false;
    }
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    });
}

Value fitWidth(Value v, int width) {
    return width == 32 ? static_cast<Value>(static_cast<std::uint32_t>(v)) : v;
}

RegName registerName(std::string_view name, Syntax syntax) {
    static const std::map<std::string, RegName> intel = intelRegisters();
    static const std::map<std::string, RegName> att = attRegisters();
    if (syntax == Syntax::Att) {
        std::string l(name.starts_with("%") ? name.substr(1) : name);
        std::transform(l.begin(), l.end(), l.begin(),
                       [](char c) { return static_cast<char>(std::tolower(c)); });
        const auto it = att.find(l);
        return it == att.end() ? RegName{} : it->second;
    }
    const auto it = intel.find(upper(name));
    return it == intel.end() ? RegName{} : it->second;
}

Insn parseInstruction(const LitmusSource& src, Piece cell, Syntax syntax) {
    const Head h = readHead(src, cell, syntax);
    Insn in;
    in.mn = h.mn;
    in.locked = h.locked;
    in.offset = cell.offset;
    in.text = std::string(cell.text);
    int regWidth = 0;
    if (!h.rest.text.empty()) {
        for (const Piece& p : splitAt(h.rest, ',')) {
            in.ops.push_back(readOperand(src, p, syntax, regWidth));
        }
    }
    if (syntax == Syntax::Att) {
        std::reverse(in.ops.begin(), in.ops.end()); // AT&T: source first
    }
    if (h.width != 0 && regWidth != 0 && h.width != regWidth) {
        src.fail(cell.offset, "'" + in.text + "': the suffix and the registers differ in size");
    }
    in.width = syntax == Syntax::Intel ? 32 : h.width != 0 ? h.width : regWidth;
    const bool memory = std::any_of(in.ops.begin(), in.ops.end(),
                                    [](const Operand& o) { return o.kind == Operand::Kind::Mem; });
    if (in.width == 0 && !in.ops.empty()) {
        src.fail(cell.offset, "'" + in.text + "': the size is not known: add a suffix (l or q)");
    }
    if (!shapeOk(in)) {
        src.fail(cell.offset, "'" + in.text + "': operands not supported for this instruction");
    }
    if (in.locked && (in.mn == Mn::Mov || !memory)) {
        src.fail(cell.offset, "'" + in.text + "': LOCK needs a read-modify-write of memory");
    }
    return in;
}

} // namespace tsoreach::litmus
