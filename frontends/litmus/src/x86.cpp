#include "x86.hpp"

#include "condition_parser.hpp"
#include "tsoreach/lang/builder.hpp"
#include "tsoreach/lang/tokens.hpp"
#include "x86_emit.hpp"
#include "x86_syntax.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace tsoreach::litmus {

namespace {

// An entry `0:EAX=1` of the initial state, checked once the threads are known.
struct RegisterInit {
    Value thread = 0;
    RegName reg;
    Value value = 0;
    std::size_t offset = 0;
};

class X86Translator {
  public:
    explicit X86Translator(const LitmusSource& src)
        : src_(src), syntax_(src.arch.text == "X86_64" ? Syntax::Att : Syntax::Intel) {}

    LitmusProgram run();

  private:
    void readInit();
    void readThreads();
    void useLocation(const std::string& name, std::size_t offset, int width);
    [[nodiscard]] int widthOf(const std::string& loc) const;
    ConditionAtom resolve(const AtomText& a, std::vector<std::string>& regNames);
    std::vector<ConditionAtom> readLocations(std::vector<std::string>& regNames);
    MemoryLayout layout() const;
    void emitThread(ProgramBuilder& b, const MemoryLayout& memory, std::size_t t);
    [[nodiscard]] RegId regId(const Program& p, std::size_t t, const std::string& name) const;

    const LitmusSource& src_;
    Syntax syntax_;
    std::vector<std::string> locations_;   // in order of appearance
    std::map<std::string, int> locWidth_;  // by the instructions that access them
    std::map<std::string, Value> memInit_; // as written
    std::vector<RegisterInit> regInits_;
    std::vector<std::map<std::string, Value>> regInit_;  // by thread, at the register's width
    std::vector<std::set<std::string>> regsInCode_;      // by thread
    std::vector<std::set<std::string>> regsInCondition_; // by thread, and `locations`
    std::vector<std::vector<Insn>> code_;                // by thread
    std::vector<std::vector<std::size_t>> rowOf_;        // by thread: each insn's code row
    std::vector<std::size_t> threadOffset_;
    std::string tmp_ = "tmp"; // clear of the locations' names (run)
};

void X86Translator::useLocation(const std::string& name, std::size_t offset, int width) {
    if (!isIdentifier(name)) {
        src_.fail(offset, "'" + name + "' is not a location name");
    }
    if (!detail::isMemoryNameToken(name)) { // final, thread, end, memory, ...
        src_.fail(offset, "location '" + name +
                              "' has the name of a keyword of tsoreach's language, which the "
                              "translation keeps; rename it");
    }
    if (std::find(locations_.begin(), locations_.end(), name) == locations_.end()) {
        locations_.push_back(name);
    }
    if (width == 0) {
        return;
    }
    const auto [it, fresh] = locWidth_.emplace(name, width);
    if (!fresh && it->second != width) {
        src_.fail(offset, "'" + name + "' is accessed with " + std::to_string(it->second) +
                              " and with " + std::to_string(width) +
                              " bits: mixed sizes are not supported");
    }
}

// A location no instruction accesses has the architecture's width.
int X86Translator::widthOf(const std::string& loc) const {
    const auto it = locWidth_.find(loc);
    return it != locWidth_.end() ? it->second : syntax_ == Syntax::Att ? 64 : 32;
}

// Entries `x=1`, `[x]=1`, `int x = 1`, `0:EAX=1`, `x` (0); each once.
void X86Translator::readInit() {
    std::set<std::string> seen;
    for (const Piece& e : src_.init) {
        const std::size_t eq = e.text.find('=');
        Piece lhs = trim({e.text.substr(0, eq), e.offset});
        Value value = 0;
        if (eq != std::string_view::npos) {
            const Piece rhs = trim({e.text.substr(eq + 1), e.offset + eq + 1});
            const std::optional<Value> v = parseInteger(rhs.text, true);
            if (!v) {
                src_.fail(rhs.offset, "initial value '" + std::string(rhs.text) +
                                          "' is not an integer of 64 bits (tsoreach reads no "
                                          "addresses as values)");
            }
            value = *v;
        }
        // A type may come first (`int x`, `uint64_t x`): the last word names.
        if (const std::size_t sp = lhs.text.find_last_of(" \t"); sp != std::string_view::npos) {
            lhs = {lhs.text.substr(sp + 1), lhs.offset + sp + 1};
        }
        if (lhs.text.size() > 2 && lhs.text.front() == '[' && lhs.text.back() == ']') {
            lhs = {lhs.text.substr(1, lhs.text.size() - 2), lhs.offset + 1};
        }
        if (!seen.insert(std::string(lhs.text)).second) {
            src_.fail(lhs.offset, "'" + std::string(lhs.text) + "' has two initial values");
        }
        if (const std::size_t colon = lhs.text.find(':'); colon != std::string_view::npos) {
            const std::optional<Value> t = parseInteger(trim({lhs.text.substr(0, colon), 0}).text);
            const RegName reg = registerName(trim({lhs.text.substr(colon + 1), 0}).text, syntax_);
            if (!t || *t < 0 || reg.name.empty() || reg.width < 32) {
                src_.fail(lhs.offset, "expected 'P:REGISTER=VALUE' (a 32- or 64-bit register) or "
                                      "'LOCATION=VALUE', found '" +
                                          std::string(lhs.text) + "'");
            }
            regInits_.push_back({*t, reg, value, lhs.offset});
            continue;
        }
        useLocation(std::string(lhs.text), lhs.offset, 0);
        memInit_[std::string(lhs.text)] = value;
    }
}

// The thread names row, then each row's cells.
void X86Translator::readThreads() {
    const auto cells = [&](Piece row) {
        if (row.text.ends_with(';')) {
            row.text.remove_suffix(1);
        }
        return splitAt(row, '|');
    };
    const std::vector<Piece> names = cells(src_.rows.front());
    for (std::size_t t = 0; t < names.size(); ++t) {
        if (names[t].text != "P" + std::to_string(t)) {
            src_.fail(names[t].offset, "expected thread name 'P" + std::to_string(t) +
                                           "', found '" + std::string(names[t].text) + "'");
        }
        threadOffset_.push_back(names[t].offset);
    }
    const std::size_t n = names.size();
    code_.resize(n);
    rowOf_.resize(n);
    regsInCode_.resize(n);
    regsInCondition_.resize(n);
    regInit_.resize(n);
    for (const RegisterInit& r : regInits_) {
        if (static_cast<std::uint64_t>(r.thread) >= n) {
            src_.fail(r.offset, "thread " + std::to_string(r.thread) +
                                    " does not exist (the test has " + std::to_string(n) +
                                    (n == 1 ? " thread)" : " threads)"));
        }
        regInit_[static_cast<std::size_t>(r.thread)][r.reg.name] = fitWidth(r.value, r.reg.width);
    }
    for (std::size_t r = 1; r < src_.rows.size(); ++r) {
        const std::vector<Piece> row = cells(src_.rows[r]);
        if (row.size() != n) {
            src_.fail(src_.rows[r].offset, "this row has " + std::to_string(row.size()) +
                                               " columns, the test " + std::to_string(n) +
                                               " threads");
        }
        for (std::size_t t = 0; t < n; ++t) {
            if (row[t].text.empty()) {
                continue;
            }
            Insn in = parseInstruction(src_, row[t], syntax_);
            for (const Operand& o : in.ops) {
                if (o.kind == Operand::Kind::Mem) {
                    useLocation(o.name, o.offset, in.width);
                } else if (o.kind == Operand::Kind::Reg) {
                    regsInCode_[t].insert(o.name);
                }
            }
            if (in.mn == Mn::Cmpxchg) {
                regsInCode_[t].insert(syntax_ == Syntax::Att ? "rax" : "EAX");
            }
            code_[t].push_back(std::move(in));
            rowOf_[t].push_back(r);
        }
    }
}

// An atom of the condition or of `locations`; its register's name goes to
// `regNames` (the RegId is known after the build), "" for a location.
ConditionAtom X86Translator::resolve(const AtomText& a, std::vector<std::string>& regNames) {
    ConditionAtom atom;
    if (a.thread) {
        const std::size_t n = code_.size();
        if (*a.thread < 0 || static_cast<std::uint64_t>(*a.thread) >= n) {
            src_.fail(a.offset, "thread " + std::to_string(*a.thread) +
                                    " does not exist (the test has " + std::to_string(n) +
                                    (n == 1 ? " thread)" : " threads)"));
        }
        const RegName reg = registerName(a.name, syntax_);
        const int width = syntax_ == Syntax::Att ? 64 : 32;
        if (reg.name.empty() || reg.width != width) {
            src_.fail(a.offset,
                      "'" + a.name + "' is not a " + std::to_string(width) + "-bit register" +
                          (reg.name.empty() ? "" : " (a condition names " + reg.name + ")"));
        }
        const auto t = static_cast<std::size_t>(*a.thread);
        atom.thread = ThreadId(static_cast<std::uint32_t>(t));
        atom.value = fitWidth(a.value, width);
        regNames.push_back(reg.name);
        regsInCondition_[t].insert(reg.name);
        return atom;
    }
    if (std::find(locations_.begin(), locations_.end(), a.name) == locations_.end()) {
        src_.fail(a.offset, "unknown location '" + a.name +
                                "': the initial state does not declare it and no thread uses it");
    }
    atom.addr = static_cast<Value>(std::find(locations_.begin(), locations_.end(), a.name) -
                                   locations_.begin());
    atom.value = fitWidth(a.value, widthOf(a.name));
    regNames.emplace_back();
    return atom;
}

// `locations [x; 0:EAX;]`: what the outcome listing shows first.
std::vector<ConditionAtom> X86Translator::readLocations(std::vector<std::string>& regNames) {
    std::vector<ConditionAtom> out;
    for (const Piece& p : splitAt(src_.locations, ';')) {
        if (p.text.empty()) {
            continue;
        }
        AtomText a{std::nullopt, std::string(p.text), 0, p.offset};
        if (const std::size_t colon = p.text.find(':'); colon != std::string_view::npos) {
            a.thread = parseInteger(trim({p.text.substr(0, colon), 0}).text);
            if (!a.thread) {
                src_.fail(p.offset, "expected 'P:REGISTER' or a location, found '" +
                                        std::string(p.text) + "'");
            }
            a.name = std::string(trim({p.text.substr(colon + 1), 0}).text);
        } else if (a.name.size() > 2 && a.name.front() == '[' && a.name.back() == ']') {
            a.name = a.name.substr(1, a.name.size() - 2);
        }
        out.push_back(resolve(a, regNames));
    }
    return out;
}

// Every location a cell of its own, with its initial value at its width.
MemoryLayout X86Translator::layout() const {
    MemoryLayout memory;
    for (const std::string& loc : locations_) {
        const auto it = memInit_.find(loc);
        const Value v = it == memInit_.end() ? 0 : fitWidth(it->second, widthOf(loc));
        appendVar(memory, loc, 1, false, v == 0 ? std::vector<Value>{} : std::vector<Value>{v});
    }
    return memory;
}

// start -> (init) -> r<ROW> ... -> done; registers with an initial value,
// and those only the condition names (0), are set first.
void X86Translator::emitThread(ProgramBuilder& b, const MemoryLayout& memory, std::size_t t) {
    const SourcePos threadPos = src_.pos(threadOffset_[t]);
    b.addThread("P" + std::to_string(t), "start", threadPos);
    std::map<std::string, Value> init = regInit_[t];
    for (const std::string& reg : regsInCondition_[t]) {
        if (regsInCode_[t].count(reg) == 0) {
            init.emplace(reg, 0);
        }
    }
    std::string at = "start";
    std::size_t n = 0;
    for (const auto& [reg, value] : init) {
        const std::string next = ++n == init.size() ? "init" : "init." + std::to_string(n);
        b.addTransition(b.state(at), b.state(next), Instr::local(b.reg(reg), Expr::constant(value)),
                        threadPos);
        at = next;
    }
    const std::string acc = syntax_ == Syntax::Att ? "rax" : "EAX";
    for (std::size_t i = 0; i < code_[t].size(); ++i) {
        const std::string to =
            i + 1 == code_[t].size() ? "done" : "r" + std::to_string(rowOf_[t][i]);
        const EmitContext c{b, memory, tmp_, acc, src_.pos(code_[t][i].offset), rowOf_[t][i]};
        emitInstruction(c, code_[t][i], at, to);
        at = to;
    }
}

RegId X86Translator::regId(const Program& p, std::size_t t, const std::string& name) const {
    const std::vector<std::string>& names = p.threads[t].regNames;
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
        throw std::logic_error("litmus: register " + name + " of P" + std::to_string(t) +
                               " was not built");
    }
    return RegId(static_cast<std::uint32_t>(it - names.begin()));
}

LitmusProgram X86Translator::run() {
    readInit();
    readThreads();
    while (std::find(locations_.begin(), locations_.end(), tmp_) != locations_.end()) {
        tmp_ += "_"; // a register may not have a location's name
    }
    LitmusProgram out;
    std::vector<std::string> locationRegs;
    std::vector<std::string> atomRegs;
    if (!src_.locations.text.empty()) {
        out.locations = readLocations(locationRegs);
    }
    out.condition = parseCondition(src_, src_.condition,
                                   [&](const AtomText& a) { return resolve(a, atomRegs); });
    const MemoryLayout memory = layout();
    ProgramBuilder b(src_.sourceName());
    b.setMemory(memory);
    for (std::size_t t = 0; t < code_.size(); ++t) {
        emitThread(b, memory, t);
    }
    out.program = b.build();
    const auto fix = [&](std::vector<ConditionAtom>& atoms, const std::vector<std::string>& regs) {
        for (std::size_t i = 0; i < atoms.size(); ++i) {
            if (!regs[i].empty()) {
                atoms[i].reg = regId(out.program, atoms[i].thread.index(), regs[i]);
            }
        }
    };
    fix(out.condition.atoms, atomRegs);
    fix(out.locations, locationRegs);
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
