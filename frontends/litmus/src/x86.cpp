#include "x86.hpp"

#include "condition_parser.hpp"
#include "tsoreach/lang/builder.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace tsoreach::litmus {

namespace {

enum class Syntax : std::uint8_t { Intel, Att };

enum class Mn : std::uint8_t { Mov, Mfence, Lfence, Xchg, Add, Sub, Inc, Dec, Xadd, Cmpxchg };

const std::map<std::string, Mn>& mnemonics() {
    static const std::map<std::string, Mn> m = {
        {"MOV", Mn::Mov},   {"MFENCE", Mn::Mfence},  {"LFENCE", Mn::Lfence}, {"XCHG", Mn::Xchg},
        {"ADD", Mn::Add},   {"SUB", Mn::Sub},        {"INC", Mn::Inc},       {"DEC", Mn::Dec},
        {"XADD", Mn::Xadd}, {"CMPXCHG", Mn::Cmpxchg}};
    return m;
}

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    return out;
}

bool identifier(std::string_view s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front())) != 0) {
        return false;
    }
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    });
}

// The register a name denotes, by its widest name (EAX under X86, rax under
// X86_64: AL, AX and EAX are one register); empty when none. Case is
// ignored; X86_64 names may start with '%'.
std::string canonicalRegister(std::string_view name, Syntax syntax) {
    static const std::map<std::string, std::string> intel = [] {
        std::map<std::string, std::string> m;
        for (const char* f : {"A", "B", "C", "D"}) {
            const std::string x = std::string(f) + "X";
            for (const std::string& alias :
                 {std::string(f) + "L", std::string(f) + "H", x, "E" + x}) {
                m[alias] = "E" + x;
            }
        }
        for (const char* f : {"SI", "DI", "BP", "SP"}) {
            m[f] = m["E" + std::string(f)] = "E" + std::string(f);
        }
        return m;
    }();
    static const std::map<std::string, std::string> att = [] {
        std::map<std::string, std::string> m;
        for (const char* f : {"a", "b", "c", "d"}) {
            const std::string x = std::string(f) + "x";
            for (const std::string& alias :
                 {std::string(f) + "l", std::string(f) + "h", x, "e" + x, "r" + x}) {
                m[alias] = "r" + x;
            }
        }
        for (const char* f : {"si", "di", "bp", "sp"}) {
            const std::string r = "r" + std::string(f);
            for (const std::string& alias :
                 {std::string(f), std::string(f) + "l", "e" + std::string(f), r}) {
                m[alias] = r;
            }
        }
        for (int n = 8; n <= 15; ++n) {
            const std::string r = "r" + std::to_string(n);
            for (const char* suffix : {"", "d", "w", "b"}) {
                m[r + suffix] = r;
            }
        }
        return m;
    }();
    if (syntax == Syntax::Att) {
        std::string l(name.starts_with("%") ? name.substr(1) : name);
        for (char& c : l) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        const auto it = att.find(l);
        return it == att.end() ? "" : it->second;
    }
    const auto it = intel.find(upper(name));
    return it == intel.end() ? "" : it->second;
}

struct Operand {
    enum class Kind : std::uint8_t { Reg, Imm, Mem } kind = Kind::Imm;
    std::string name; // register or location
    Value imm = 0;
    std::size_t offset = 0;
};

struct Insn {
    Mn mn = Mn::Mov;
    bool locked = false;
    std::vector<Operand> ops; // destination first
    std::size_t offset = 0;
    std::string text;
};

class X86Translator {
  public:
    explicit X86Translator(const LitmusSource& src) : src_(src) {
        syntax_ = src.arch.text == "X86_64" ? Syntax::Att : Syntax::Intel;
    }

    LitmusProgram run();

  private:
    void readInit();
    void readThreads();
    Operand operand(Piece p);
    Insn instruction(Piece cell);
    void checkShape(const Insn& in);
    Value addrOf(const std::string& loc) const;
    void useLocation(const std::string& name, std::size_t offset);
    ConditionAtom resolve(const AtomText& a);
    void emitThread(ProgramBuilder& b, std::size_t t);
    void emit(ProgramBuilder& b, const Insn& in, const std::string& from, const std::string& to,
              std::size_t row);

    const LitmusSource& src_;
    Syntax syntax_ = Syntax::Intel;
    std::vector<std::string> locations_; // in order of appearance
    std::map<std::string, Value> memInit_;
    std::vector<std::map<std::string, Value>> regInit_; // by thread
    std::vector<std::set<std::string>> regsUsed_;       // by thread, in code
    std::vector<std::vector<Insn>> code_;               // by thread
    std::vector<std::size_t> threadOffset_;
    std::vector<std::vector<std::size_t>> rowOf_; // by thread: code row of each insn
    // Condition atoms' registers by name, fixed up after the build.
    std::vector<std::pair<std::size_t, std::string>> atomRegs_;
    MemoryLayout memory_;
};

void X86Translator::useLocation(const std::string& name, std::size_t offset) {
    if (!identifier(name)) {
        src_.fail(offset, "'" + name + "' is not a location name");
    }
    if (std::find(locations_.begin(), locations_.end(), name) == locations_.end()) {
        locations_.push_back(name);
    }
}

Value X86Translator::addrOf(const std::string& loc) const {
    return static_cast<Value>(std::find(locations_.begin(), locations_.end(), loc) -
                              locations_.begin());
}

// Entries `x=1`, `int x = 1`, `0:EAX=1`, `x` (0).
void X86Translator::readInit() {
    for (const Piece& e : src_.init) {
        const std::size_t eq = e.text.find('=');
        Piece lhs = trim({e.text.substr(0, eq), e.offset});
        Value value = 0;
        if (eq != std::string_view::npos) {
            const Piece rhs = trim({e.text.substr(eq + 1), e.offset + eq + 1});
            const std::optional<Value> v = parseInteger(rhs.text, true);
            if (!v) {
                src_.fail(rhs.offset, "initial value '" + std::string(rhs.text) +
                                          "' is not an integer: tsoreach reads integer "
                                          "initial values only (no addresses)");
            }
            value = *v;
        }
        // A type may come first (`int x`, `uint64_t x`): the last word names.
        const std::size_t sp = lhs.text.find_last_of(" \t");
        if (sp != std::string_view::npos) {
            lhs = {lhs.text.substr(sp + 1), lhs.offset + sp + 1};
        }
        if (const std::size_t colon = lhs.text.find(':'); colon != std::string_view::npos) {
            const std::optional<Value> t = parseInteger(lhs.text.substr(0, colon));
            const std::string reg = canonicalRegister(lhs.text.substr(colon + 1), syntax_);
            if (!t || *t < 0 || reg.empty()) {
                src_.fail(lhs.offset, "expected 'P:REGISTER=VALUE' or 'LOCATION=VALUE', found '" +
                                          std::string(lhs.text) + "'");
            }
            const auto thread = static_cast<std::size_t>(*t);
            if (regInit_.size() <= thread) {
                regInit_.resize(thread + 1);
            }
            regInit_[thread][reg] = value;
            continue;
        }
        useLocation(std::string(lhs.text), lhs.offset);
        memInit_[std::string(lhs.text)] = value;
    }
}

// The thread names row, then each row's cells.
void X86Translator::readThreads() {
    const auto cells = [&](Piece row) {
        Piece r = row;
        if (r.text.ends_with(';')) {
            r.text.remove_suffix(1);
        }
        return splitAt(r, '|');
    };
    const std::vector<Piece> names = cells(src_.rows.front());
    for (std::size_t t = 0; t < names.size(); ++t) {
        if (names[t].text != "P" + std::to_string(t)) {
            src_.fail(names[t].offset, "expected thread name 'P" + std::to_string(t) +
                                           "', found '" + std::string(names[t].text) + "'");
        }
        threadOffset_.push_back(names[t].offset);
    }
    code_.resize(names.size());
    rowOf_.resize(names.size());
    regsUsed_.resize(names.size());
    if (regInit_.size() > names.size()) {
        src_.fail(src_.init.front().offset,
                  "the initial state names thread " + std::to_string(regInit_.size() - 1) +
                      ", but the test has " + std::to_string(names.size()) + " threads");
    }
    regInit_.resize(names.size());
    for (std::size_t r = 1; r < src_.rows.size(); ++r) {
        const std::vector<Piece> row = cells(src_.rows[r]);
        if (row.size() != names.size()) {
            src_.fail(src_.rows[r].offset, "this row has " + std::to_string(row.size()) +
                                               " columns, the test " +
                                               std::to_string(names.size()) + " threads");
        }
        for (std::size_t t = 0; t < row.size(); ++t) {
            if (!row[t].text.empty()) {
                Insn in = instruction(row[t]);
                for (const Operand& o : in.ops) {
                    if (o.kind == Operand::Kind::Reg) {
                        regsUsed_[t].insert(o.name);
                    }
                }
                if (in.mn == Mn::Cmpxchg) {
                    regsUsed_[t].insert(syntax_ == Syntax::Att ? "rax" : "EAX");
                }
                code_[t].push_back(std::move(in));
                rowOf_[t].push_back(r);
            }
        }
    }
}

Operand X86Translator::operand(Piece p) {
    const std::string_view t = p.text;
    Operand o;
    o.offset = p.offset;
    const bool intelMem = t.size() > 2 && t.front() == '[' && t.back() == ']';
    const bool attMem = t.size() > 2 && t.front() == '(' && t.back() == ')';
    if ((syntax_ == Syntax::Intel && intelMem) || (syntax_ == Syntax::Att && attMem)) {
        o.kind = Operand::Kind::Mem;
        o.name = std::string(trim({t.substr(1, t.size() - 2), 0}).text);
        if (!canonicalRegister(o.name, syntax_).empty() || !identifier(o.name)) {
            src_.fail(p.offset, "'" + std::string(t) +
                                    "': tsoreach reads a location by name "
                                    "only (no register or computed address)");
        }
        useLocation(o.name, p.offset + 1);
        return o;
    }
    if (const std::optional<Value> v = parseInteger(t, true);
        v && (t.front() == '$' || syntax_ == Syntax::Intel)) {
        o.kind = Operand::Kind::Imm;
        o.imm = *v;
        return o;
    }
    if (syntax_ == Syntax::Intel || t.starts_with("%")) {
        o.name = canonicalRegister(t, syntax_);
        if (!o.name.empty()) {
            o.kind = Operand::Kind::Reg;
            return o;
        }
    }
    if (syntax_ == Syntax::Att && identifier(t)) { // `movl x,%eax`: x is memory
        o.kind = Operand::Kind::Mem;
        o.name = std::string(t);
        useLocation(o.name, p.offset);
        return o;
    }
    src_.fail(p.offset,
              "unknown operand '" + std::string(t) + "'" +
                  (syntax_ == Syntax::Intel ? " (X86: a register such as EAX, [x] or $1)"
                                            : " (X86_64: a register such as %eax, (x) or $1)"));
}

Insn X86Translator::instruction(Piece cell) {
    Insn in;
    in.offset = cell.offset;
    in.text = std::string(cell.text);
    std::size_t i = cell.text.find_first_of(" \t");
    std::string word = upper(cell.text.substr(0, i));
    Piece rest = trim({i == std::string_view::npos ? std::string_view() : cell.text.substr(i),
                       cell.offset + (i == std::string_view::npos ? cell.text.size() : i)});
    std::size_t wordOffset = cell.offset;
    if (word == "LOCK") {
        in.locked = true;
        i = rest.text.find_first_of(" \t");
        word = upper(rest.text.substr(0, i));
        wordOffset = rest.offset;
        rest = trim({i == std::string_view::npos ? std::string_view() : rest.text.substr(i),
                     rest.offset + (i == std::string_view::npos ? rest.text.size() : i)});
    }
    auto it = mnemonics().find(word);
    if (it == mnemonics().end() && syntax_ == Syntax::Att && word.size() > 1 &&
        std::string_view("LQWB").find(word.back()) != std::string_view::npos) {
        it = mnemonics().find(word.substr(0, word.size() - 1)); // movl: mov
    }
    if (it == mnemonics().end()) {
        src_.fail(wordOffset, "instruction '" + std::string(cell.text) +
                                  "' is not supported: tsoreach reads MOV, MFENCE, LFENCE, XCHG "
                                  "and ADD, SUB, INC, DEC, XADD, CMPXCHG (with or without LOCK); "
                                  "no jumps");
    }
    in.mn = it->second;
    if (!rest.text.empty()) {
        for (const Piece& p : splitAt(rest, ',')) {
            in.ops.push_back(operand(p));
        }
    }
    if (syntax_ == Syntax::Att) {
        std::reverse(in.ops.begin(), in.ops.end()); // AT&T: source first
    }
    checkShape(in);
    return in;
}

// The operand shapes each instruction takes.
void X86Translator::checkShape(const Insn& in) {
    using K = Operand::Kind;
    const auto n = in.ops.size();
    const auto kind = [&](std::size_t i) { return in.ops[i].kind; };
    bool ok = false;
    switch (in.mn) {
    case Mn::Mov:
        ok = n == 2 && kind(0) != K::Imm && !(kind(0) == K::Mem && kind(1) == K::Mem);
        break;
    case Mn::Mfence:
    case Mn::Lfence:
        ok = n == 0;
        break;
    case Mn::Xchg:
        ok = n == 2 && kind(0) != K::Imm && kind(1) != K::Imm &&
             (kind(0) == K::Mem) != (kind(1) == K::Mem);
        break;
    case Mn::Add:
    case Mn::Sub:
        ok = n == 2 && kind(0) != K::Imm && kind(1) != K::Mem;
        break;
    case Mn::Inc:
    case Mn::Dec:
        ok = n == 1 && kind(0) != K::Imm;
        break;
    case Mn::Xadd:
    case Mn::Cmpxchg:
        ok = n == 2 && kind(0) == K::Mem && kind(1) == K::Reg;
        break;
    }
    if (!ok) {
        src_.fail(in.offset, "'" + in.text + "': operands not supported for this instruction");
    }
    const bool touchesMemory = std::any_of(in.ops.begin(), in.ops.end(),
                                           [](const Operand& o) { return o.kind == K::Mem; });
    if (in.locked && (in.mn == Mn::Mov || !touchesMemory)) {
        src_.fail(in.offset, "'" + in.text + "': LOCK needs a read-modify-write of memory");
    }
}

ConditionAtom X86Translator::resolve(const AtomText& a) {
    ConditionAtom atom;
    atom.value = a.value;
    if (a.thread) {
        if (*a.thread >= code_.size()) {
            src_.fail(a.offset, "thread " + std::to_string(*a.thread) +
                                    " does not exist (the "
                                    "test has " +
                                    std::to_string(code_.size()) + " threads)");
        }
        const std::string reg = canonicalRegister(a.name, syntax_);
        if (reg.empty()) {
            src_.fail(a.offset, "'" + a.name + "' is not a register");
        }
        atom.thread = ThreadId(*a.thread);
        atomRegs_.emplace_back(*a.thread, reg);
        return atom;
    }
    if (std::find(locations_.begin(), locations_.end(), a.name) == locations_.end()) {
        src_.fail(a.offset, "unknown location '" + a.name +
                                "': the initial state does not declare it and no thread uses it");
    }
    atom.addr = addrOf(a.name);
    atomRegs_.emplace_back(0, "");
    return atom;
}

void X86Translator::emit(ProgramBuilder& b, const Insn& in, const std::string& from,
                         const std::string& to, std::size_t row) {
    using K = Operand::Kind;
    const auto value = [&](const Operand& o) {
        return o.kind == K::Imm ? Expr::constant(o.imm) : Expr::reg(b.reg(o.name));
    };
    const auto cell = [&](const Operand& o) {
        return Expr::cell(memory_.find(o.name), addrOf(o.name));
    };
    const SourcePos pos = src_.pos(in.offset);
    int k = 0;
    const auto mid = [&] { return "r" + std::to_string(row) + "." + std::to_string(++k); };
    std::string at = from;
    // Each step goes to a new state, the last one to `to`.
    std::vector<Instr> steps;
    const auto flush = [&](const std::string& last) {
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const std::string next = i + 1 == steps.size() ? last : mid();
            b.addTransition(b.state(at), b.state(next), steps[i], pos);
            at = next;
        }
        steps.clear();
    };
    const bool locked = in.locked || (in.mn == Mn::Xchg);
    const Operand* m = nullptr; // the memory operand, if any
    for (const Operand& o : in.ops) {
        m = o.kind == K::Mem ? &o : m;
    }
    const Operand& dst = in.ops.empty() ? Operand() : in.ops[0];
    const RegId tmp = b.reg("tmp");
    if (locked) {
        steps.push_back(Instr::plain(InstrKind::Lock));
    }
    switch (in.mn) {
    case Mn::Mov:
        steps.push_back(dst.kind == K::Mem ? Instr::write(value(in.ops[1]), cell(dst))
                        : in.ops[1].kind == K::Mem
                            ? Instr::read(b.reg(dst.name), cell(in.ops[1]))
                            : Instr::local(b.reg(dst.name), value(in.ops[1])));
        break;
    case Mn::Mfence:
        steps.push_back(Instr::plain(InstrKind::Mfence));
        break;
    case Mn::Lfence:
        steps.push_back(Instr::plain(InstrKind::Noop));
        break;
    case Mn::Xchg: {
        const Operand& r = in.ops[0].kind == K::Reg ? in.ops[0] : in.ops[1];
        steps.push_back(Instr::read(tmp, cell(*m)));
        steps.push_back(Instr::write(value(r), cell(*m)));
        steps.push_back(Instr::local(b.reg(r.name), Expr::reg(tmp)));
        break;
    }
    case Mn::Add:
    case Mn::Sub:
    case Mn::Inc:
    case Mn::Dec: {
        const ExprOp op = in.mn == Mn::Add || in.mn == Mn::Inc ? ExprOp::Add : ExprOp::Sub;
        const Expr by = in.ops.size() == 2 ? value(in.ops[1]) : Expr::constant(1);
        if (dst.kind == K::Reg) {
            steps.push_back(Instr::local(b.reg(dst.name), Expr::apply(op, value(dst), by)));
        } else {
            steps.push_back(Instr::read(tmp, cell(dst)));
            steps.push_back(Instr::write(Expr::apply(op, Expr::reg(tmp), by), cell(dst)));
        }
        break;
    }
    case Mn::Xadd:
        steps.push_back(Instr::read(tmp, cell(dst)));
        steps.push_back(
            Instr::write(Expr::apply(ExprOp::Add, Expr::reg(tmp), value(in.ops[1])), cell(dst)));
        steps.push_back(Instr::local(b.reg(in.ops[1].name), Expr::reg(tmp)));
        break;
    case Mn::Cmpxchg: {
        // tmp := [m]; equal to the accumulator: [m] := src; else acc := tmp.
        steps.push_back(Instr::read(tmp, cell(dst)));
        const std::string test = mid();
        flush(test);
        const std::string join = locked ? mid() : to;
        const RegId acc = b.reg(syntax_ == Syntax::Att ? "rax" : "EAX");
        const std::string equal = mid();
        const std::string differ = mid();
        b.addTransition(b.state(test), b.state(equal),
                        Instr::check(Expr::apply(ExprOp::Eq, Expr::reg(tmp), Expr::reg(acc))), pos);
        b.addTransition(b.state(equal), b.state(join), Instr::write(value(in.ops[1]), cell(dst)),
                        pos);
        b.addTransition(b.state(test), b.state(differ),
                        Instr::check(Expr::apply(ExprOp::Ne, Expr::reg(tmp), Expr::reg(acc))), pos);
        b.addTransition(b.state(differ), b.state(join), Instr::local(acc, Expr::reg(tmp)), pos);
        at = join;
        if (locked) {
            steps.push_back(Instr::plain(InstrKind::Unlock));
            flush(to);
        }
        return;
    }
    }
    if (locked) {
        steps.push_back(Instr::plain(InstrKind::Unlock));
    }
    flush(to);
}

void X86Translator::emitThread(ProgramBuilder& b, std::size_t t) {
    b.addThread("P" + std::to_string(t), "start", src_.pos(threadOffset_[t]));
    // Initial register values, and registers only the condition names (0).
    std::map<std::string, Value> init = regInit_[t];
    for (const auto& [thread, reg] : atomRegs_) {
        if (thread == t && !reg.empty() && regsUsed_[t].count(reg) == 0) {
            init.emplace(reg, 0);
        }
    }
    std::string at = "start";
    std::size_t n = 0;
    for (const auto& [reg, value] : init) {
        const std::string next = ++n == init.size() ? "init" : "init." + std::to_string(n);
        b.addTransition(b.state(at), b.state(next), Instr::local(b.reg(reg), Expr::constant(value)),
                        src_.pos(threadOffset_[t]));
        at = next;
    }
    for (std::size_t i = 0; i < code_[t].size(); ++i) {
        const std::string to =
            i + 1 == code_[t].size() ? "done" : "r" + std::to_string(rowOf_[t][i]);
        emit(b, code_[t][i], at, to, rowOf_[t][i]);
        at = to;
    }
}

LitmusProgram X86Translator::run() {
    readInit();
    readThreads();
    LitmusProgram out;
    std::vector<std::pair<std::size_t, std::string>> locationRegs;
    if (!src_.locations.text.empty()) {
        for (const Piece& p : splitAt(src_.locations, ';')) {
            if (p.text.empty()) {
                continue;
            }
            AtomText a{std::nullopt, std::string(p.text), 0, p.offset};
            if (const std::size_t colon = p.text.find(':'); colon != std::string_view::npos) {
                const std::optional<Value> th = parseInteger(p.text.substr(0, colon));
                a.thread = th && *th >= 0 ? static_cast<std::uint32_t>(*th) : ~0U;
                a.name = std::string(p.text.substr(colon + 1));
            }
            out.locations.push_back(resolve(a));
        }
    }
    locationRegs = atomRegs_;
    atomRegs_.clear();
    out.condition =
        parseCondition(src_, src_.condition, [this](const AtomText& a) { return resolve(a); });
    for (const std::string& loc : locations_) {
        const auto it = memInit_.find(loc);
        appendVar(memory_, loc, 1, false,
                  it == memInit_.end() ? std::vector<Value>{} : std::vector<Value>{it->second}, {});
    }
    // Registers the condition or `locations` name exist in every thread.
    atomRegs_.insert(atomRegs_.end(), locationRegs.begin(), locationRegs.end());
    ProgramBuilder b(src_.sourceName());
    b.setMemory(memory_);
    for (std::size_t t = 0; t < code_.size(); ++t) {
        emitThread(b, t);
    }
    out.program = b.build();
    const auto regId = [&](std::size_t t, const std::string& name) {
        const std::vector<std::string>& names = out.program.threads[t].regNames;
        return RegId(static_cast<std::uint32_t>(std::find(names.begin(), names.end(), name) -
                                                names.begin()));
    };
    for (std::size_t i = 0; i < out.condition.atoms.size(); ++i) {
        const auto& [t, reg] = atomRegs_[i];
        if (!reg.empty()) {
            out.condition.atoms[i].reg = regId(t, reg);
        }
    }
    for (std::size_t i = 0; i < out.locations.size(); ++i) {
        const auto& [t, reg] = locationRegs[i];
        if (!reg.empty()) {
            out.locations[i].reg = regId(t, reg);
        }
    }
    return out;
}

} // namespace

LitmusProgram translateX86(const LitmusSource& src) {
    if (src.arch.text != "X86" && src.arch.text != "X86_64") {
        src.fail(src.arch.offset, "architecture '" + std::string(src.arch.text) +
                                      "' is not supported: tsoreach reads X86 (Intel syntax) "
                                      "and X86_64 (AT&T syntax) tests");
    }
    return X86Translator(src).run();
}

} // namespace tsoreach::litmus
