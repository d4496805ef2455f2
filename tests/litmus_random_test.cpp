// Randomized differential test of the litmus front end and of condition
// goals (frontends/core/condition_goal.hpp). Random x86 litmus tests are
// written as text (X86 or X86_64 syntax) and read by the front end; under
// SC, TSO and PSO:
//  - the goal's answer (explicit and brute-force engines; lazy under TSO)
//    must equal the formula evaluated on every final state
//    (reach::collectOutcomes), as litmus_test.cpp's answerByOutcomes does;
//  - those final states and that answer must equal an independent
//    reference: a small store-buffer simulator of the generated
//    instructions, with the generated formula (not the parsed one).
// A failure prints the program's index, its text, the model and the
// answers; generate(index) regenerates it.

#include "support/brute_force_engine.hpp"
#include "support/litmus_answers.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/condition_goal.hpp"
#include "tsoreach/frontends/litmus/front_end.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/explicit.hpp"
#include "tsoreach/reach/outcomes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>

namespace tsoreach {
namespace {

using reach::MemoryModel;

constexpr std::uint64_t kSeed = 0x15c5dc72;
// About 20 ms a program (the brute force most of it): 480 take 10 s.
constexpr std::size_t kBatches = 12;
constexpr std::size_t kProgramsPerBatch = 40;
constexpr int kRegs = 4;
constexpr std::size_t kMaxReportedPerBatch = 3;
const char* const kPlainLocations[] = {"x", "y", "z"};
// Names the goal construction also uses for its states, registers and
// flags (condition_goal.cpp), `tmp` (the front end's register for a
// read-modify-write: a location of that name was once refused), and
// instruction keywords of tsoreach's language. Not tsoreach's item
// keywords (`final`, `end`, `thread`, `initial`, `transition`, `memory`):
// the front end refuses those as locations.
const char* const kTrickyLocations[] = {"d",        "done",  "read", "start", "init", "r1", "got",
                                        "observer", "write", "lock", "P1",    "seen", "tmp"};
const char* const kIntel[] = {"EAX", "EBX", "ECX", "EDX"};
const char* const kAtt64[] = {"rax", "rbx", "rcx", "rdx"}; // the front end's names
const char* const kAtt32[] = {"eax", "ebx", "ecx", "edx"};
const MemoryModel kModels[] = {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO};

// Not std::uniform_int_distribution nor std::shuffle: their output differs
// between standard libraries, and an index must name the same program
// everywhere (std::mt19937_64 itself is specified exactly).
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : g_(seed) {}
    int below(int n) { return static_cast<int>(g_() % static_cast<std::uint64_t>(n)); }
    bool chance(int percent) { return below(100) < percent; }
    template <class T> void shuffle(std::vector<T>& v) {
        for (std::size_t i = v.size(); i > 1; --i) {
            std::swap(v[i - 1], v[below(static_cast<int>(i))]);
        }
    }

  private:
    std::mt19937_64 g_;
};

enum class Op : std::uint8_t {
    StoreImm,
    StoreReg,
    Load,
    MovImm,
    Mfence,
    Lfence,
    Xchg, // always locked
    IncMem,
    DecMem,
    AddMem,
    SubMem,
    Xadd,
    Cmpxchg,
    AddReg,
};

// A read-modify-write of memory: LOCK makes it atomic and a fence; without
// LOCK it is a read, then a write.
bool isRmw(Op op) {
    return op == Op::IncMem || op == Op::DecMem || op == Op::AddMem || op == Op::SubMem ||
           op == Op::Xadd || op == Op::Cmpxchg;
}

bool touchesMemory(Op op) {
    return op != Op::MovImm && op != Op::Mfence && op != Op::Lfence && op != Op::AddReg;
}

struct Ins {
    Op op = Op::Mfence;
    int loc = 0;
    int reg = 0;  // the register operand (Cmpxchg: the implicit EAX)
    int src = -1; // AddMem, SubMem, AddReg: a source register (-1: imm); Cmpxchg: the new value's
    Value imm = 1;
    bool locked = false; // Xchg always
};

struct Node {
    enum class Kind : std::uint8_t { Atom, Not, And, Or } kind = Kind::Atom;
    int a = -1, b = -1; // operands, earlier in the vector
    int thread = -1;    // -1: a memory atom
    int reg = 0, loc = 0;
    Value value = 0;
};

struct Generated {
    bool att = false;
    int threads = 2, locs = 2;
    std::vector<std::string> locNames;
    std::vector<bool> locWide;                 // X86_64: accessed with 64 bits (q), else 32 (l)
    std::vector<Value> memInit;                // by location
    std::vector<std::map<int, Value>> regInit; // by thread
    std::vector<std::vector<Ins>> code;        // by thread
    Quantifier quantifier = Quantifier::Exists;
    std::vector<Node> formula; // operands before operators; the root last
    // A final state (the reference's layout) most atoms take their values
    // from, so that the answer is not nearly always the same; empty: none.
    std::vector<Value> target;
    std::vector<int> informative; // where the final states differ (indices into target)
    std::string text;
};

// ---------------------------------------------------------------- generator

Ins randomIns(Rng& r, int locs) {
    // Mostly plain stores and loads: locked instructions are fences, and
    // with many of them the models rarely differ.
    static constexpr Op kOps[] = {
        Op::StoreImm, Op::StoreImm, Op::StoreImm, Op::StoreImm, Op::StoreImm, Op::Load,
        Op::Load,     Op::Load,     Op::Load,     Op::Load,     Op::StoreReg, Op::MovImm,
        Op::Mfence,   Op::Lfence,   Op::Xchg,     Op::IncMem,   Op::IncMem,   Op::DecMem,
        Op::AddMem,   Op::SubMem,   Op::Xadd,     Op::Cmpxchg,  Op::AddReg};
    Ins in;
    in.op = kOps[r.below(static_cast<int>(std::size(kOps)))];
    in.loc = r.below(locs);
    in.reg = in.op == Op::Cmpxchg ? 0 : r.below(kRegs);
    in.imm = 1 + r.below(2);
    const bool withSource = in.op == Op::AddMem || in.op == Op::SubMem || in.op == Op::AddReg;
    if (in.op == Op::Cmpxchg || (withSource && r.chance(30))) {
        in.src = r.below(kRegs);
    }
    in.locked = in.op == Op::Xchg || (isRmw(in.op) && r.chance(75));
    return in;
}

// Two accesses: `write` for a store, else a load.
std::vector<Ins> accessPair(Rng& r, int locs, bool write0, int loc0, bool write1, int loc1) {
    std::vector<Ins> code = {randomIns(r, locs), randomIns(r, locs)};
    code[0].op = write0 ? Op::StoreImm : Op::Load;
    code[1].op = write1 ? Op::StoreImm : Op::Load;
    code[0].loc = loc0;
    code[1].loc = loc1;
    for (Ins& in : code) {
        in.src = -1;
        in.locked = false;
    }
    return code;
}

// A thread's code: `seed` (maybe empty) with random instructions inserted,
// up to maxLength in all.
std::vector<Ins> randomThread(Rng& r, int locs, int maxLength, const std::vector<Ins>& seed) {
    std::vector<Ins> code = seed;
    const auto length = static_cast<std::size_t>(1 + r.below(maxLength));
    while (code.size() < length) {
        code.insert(code.begin() + r.below(static_cast<int>(code.size()) + 1), randomIns(r, locs));
    }
    return code;
}

// Often SB's or MP's two threads (locations a, b), where TSO or PSO
// reorder; the others random.
void randomCode(Rng& r, Generated& t) {
    const int a = r.below(t.locs);
    const int b = (a + 1 + r.below(t.locs - 1)) % t.locs;
    const int shape = r.below(4);
    std::vector<std::vector<Ins>> seeds(t.threads);
    if (shape == 0) { // SB
        seeds[0] = accessPair(r, t.locs, true, a, false, b);
        seeds[1] = accessPair(r, t.locs, true, b, false, a);
    } else if (shape == 1) { // MP
        seeds[0] = accessPair(r, t.locs, true, a, true, b);
        seeds[1] = accessPair(r, t.locs, false, b, false, a);
    } else if (shape == 2) { // 2+2W
        seeds[0] = accessPair(r, t.locs, true, a, true, b);
        seeds[1] = accessPair(r, t.locs, true, b, true, a);
    }
    if (t.threads == 3 && r.chance(50)) {
        std::swap(seeds[1], seeds[2]);
    }
    // More instructions, with the goal's observer, can pass the brute
    // force's cap of 200000 states under PSO.
    const int maxLength = t.threads == 2 ? 4 : 3;
    int budget = t.threads == 2 ? 8 : 7;
    int needed = 0; // by the threads not yet written
    for (const std::vector<Ins>& s : seeds) {
        needed += std::max<int>(1, static_cast<int>(s.size()));
    }
    t.code.resize(t.threads);
    for (int th = 0; th < t.threads; ++th) {
        needed -= std::max<int>(1, static_cast<int>(seeds[th].size()));
        t.code[th] = randomThread(r, t.locs, std::min(maxLength, budget - needed), seeds[th]);
        budget -= static_cast<int>(t.code[th].size());
    }
}

bool hasRegister(Op op) {
    return op == Op::StoreReg || op == Op::Load || op == Op::MovImm || op == Op::Xchg ||
           op == Op::Xadd || op == Op::Cmpxchg || op == Op::AddReg;
}

// The registers thread `th` names in its code or initial state.
std::vector<int> usedRegisters(const Generated& t, int th) {
    std::set<int> used;
    for (const Ins& in : t.code[th]) {
        if (hasRegister(in.op)) {
            used.insert(in.reg);
        }
        if (in.src >= 0) {
            used.insert(in.src);
        }
    }
    for (const auto& [reg, value] : t.regInit[th]) {
        used.insert(reg);
    }
    return {used.begin(), used.end()};
}

// The atom on coordinate `c` of a final state (the reference's layout).
Node atomAt(const Generated& t, int c, Value value) {
    Node n;
    n.value = value;
    if (c < t.threads * kRegs) {
        n.thread = c / kRegs;
        n.reg = c % kRegs;
    } else {
        n.loc = c - t.threads * kRegs;
    }
    return n;
}

Node randomAtom(Rng& r, const Generated& t, int targetPercent) {
    const Value value = r.chance(85) ? r.below(3) : 3;
    const bool fromTarget = !t.target.empty() && r.chance(targetPercent);
    if (fromTarget && !t.informative.empty() && r.chance(70)) {
        const int c = t.informative[r.below(static_cast<int>(t.informative.size()))];
        return atomAt(t, c, t.target[c]);
    }
    int c = t.threads * kRegs + r.below(t.locs);
    if (r.chance(55)) {
        const int th = r.below(t.threads);
        const std::vector<int> used = usedRegisters(t, th);
        // Sometimes a register the thread never names (its final value is 0).
        c = th * kRegs + (!used.empty() && r.chance(80)
                              ? used[r.below(static_cast<int>(used.size()))]
                              : r.below(kRegs));
    }
    return atomAt(t, c, fromTarget ? t.target[c] : value);
}

// Depth <= 3, so the recursion is bounded.
int randomFormula(Rng& r, Generated& t, int depth) {
    Node n;
    if (depth < 3 && !r.chance(depth == 0 ? 15 : 40)) {
        const int k = r.below(5);
        n.kind = k == 0 ? Node::Kind::Not : k <= 2 ? Node::Kind::And : Node::Kind::Or;
        n.a = randomFormula(r, t, depth + 1);
        if (n.kind != Node::Kind::Not) {
            n.b = randomFormula(r, t, depth + 1);
        }
    } else {
        n = randomAtom(r, t, 75);
    }
    t.formula.push_back(n);
    return static_cast<int>(t.formula.size()) - 1;
}

// herd's usual condition: a conjunction of atoms, most often of the
// target's informative values (all of them: the target itself), as a
// balanced tree of up to `most` atoms (8: depth 3).
void randomConjunction(Rng& r, Generated& t, std::size_t most) {
    std::vector<int> coords = t.informative;
    r.shuffle(coords);
    const std::size_t all = std::min(coords.size(), most);
    coords.resize(r.chance(60) ? all : std::min<std::size_t>(all, 1 + r.below(4)));
    std::vector<int> level;
    for (int c : coords) {
        t.formula.push_back(r.chance(90) ? atomAt(t, c, t.target[c]) : randomAtom(r, t, 50));
        level.push_back(static_cast<int>(t.formula.size()) - 1);
    }
    while (level.size() < 2) {
        t.formula.push_back(randomAtom(r, t, 90));
        level.push_back(static_cast<int>(t.formula.size()) - 1);
    }
    while (level.size() > 1) {
        std::vector<int> next;
        for (std::size_t i = 0; i + 1 < level.size(); i += 2) {
            Node n;
            n.kind = Node::Kind::And;
            n.a = level[i];
            n.b = level[i + 1];
            t.formula.push_back(n);
            next.push_back(static_cast<int>(t.formula.size()) - 1);
        }
        if (level.size() % 2 == 1) {
            next.push_back(level.back());
        }
        level = std::move(next);
    }
}

// ------------------------------------------------------------------ writing

// An instruction's mnemonic and operands, destination first.
struct Spelled {
    std::string mn;
    bool lock = false;
    std::vector<std::string> ops;
};

// `wide`: 64-bit register names (X86_64); `bare`: a location without
// parentheses (X86_64), an immediate without '$' (X86).
Spelled spell(const Generated& t, const Ins& in, bool wide, bool bare) {
    const std::string& loc = t.locNames[in.loc];
    const std::string mem = t.att ? (bare ? loc : "(" + loc + ")") : "[" + loc + "]";
    const auto reg = [&](int i) {
        return t.att ? std::string("%") + (wide ? kAtt64 : kAtt32)[i] : std::string(kIntel[i]);
    };
    const std::string imm = (!t.att && bare ? "" : "$") + std::to_string(in.imm);
    const std::string src = in.src >= 0 ? reg(in.src) : imm;
    const bool lock = in.locked && in.op != Op::Xchg;
    switch (in.op) {
    case Op::StoreImm:
        return {"MOV", false, {mem, imm}};
    case Op::StoreReg:
        return {"MOV", false, {mem, reg(in.reg)}};
    case Op::Load:
        return {"MOV", false, {reg(in.reg), mem}};
    case Op::MovImm:
        return {"MOV", false, {reg(in.reg), imm}};
    case Op::Mfence:
        return {"MFENCE", false, {}};
    case Op::Lfence:
        return {"LFENCE", false, {}};
    case Op::Xchg:
        return {"XCHG", false, {mem, reg(in.reg)}};
    case Op::IncMem:
        return {"INC", lock, {mem}};
    case Op::DecMem:
        return {"DEC", lock, {mem}};
    case Op::AddMem:
        return {"ADD", lock, {mem, src}};
    case Op::SubMem:
        return {"SUB", lock, {mem, src}};
    case Op::Xadd:
        return {"XADD", lock, {mem, reg(in.reg)}};
    case Op::Cmpxchg:
        return {"CMPXCHG", lock, {mem, src}};
    case Op::AddReg:
        return {"ADD", false, {reg(in.reg), src}};
    }
    return {};
}

std::string lower(std::string s) {
    for (char& c : s) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return s;
}

std::string cellText(Rng& r, const Generated& t, const Ins& in) {
    // One width per location: the front end refuses mixed sizes.
    const bool wide = touchesMemory(in.op) ? t.locWide[in.loc] : r.chance(40);
    Spelled s = spell(t, in, wide, r.chance(10));
    if (t.att) {
        std::reverse(s.ops.begin(), s.ops.end()); // AT&T: source first
        s.mn = lower(s.mn) + (s.ops.empty() ? "" : wide ? "q" : "l");
    } else if (r.chance(10)) {
        s.mn = lower(s.mn);
    }
    // XCHG takes its operands either way round.
    if (in.op == Op::Xchg && r.chance(50)) {
        std::swap(s.ops[0], s.ops[1]);
    }
    std::string out = s.lock ? (t.att ? "lock " : "LOCK ") + s.mn : s.mn;
    for (std::size_t i = 0; i < s.ops.size(); ++i) {
        out += (i == 0 ? " " : ",") + s.ops[i];
    }
    return out;
}

// The code rows, the thread names first; some cells left empty.
std::string codeText(Rng& r, const Generated& t) {
    std::vector<std::vector<std::string>> cols(t.threads);
    std::size_t rows = 0;
    for (int th = 0; th < t.threads; ++th) {
        cols[th].push_back("P" + std::to_string(th));
        for (const Ins& in : t.code[th]) {
            if (r.chance(10)) {
                cols[th].emplace_back();
            }
            cols[th].push_back(cellText(r, t, in));
        }
        rows = std::max(rows, cols[th].size());
    }
    std::vector<std::size_t> width(t.threads, 0);
    for (int th = 0; th < t.threads; ++th) {
        cols[th].resize(rows);
        for (const std::string& c : cols[th]) {
            width[th] = std::max(width[th], c.size());
        }
    }
    std::string out;
    for (std::size_t row = 0; row < rows; ++row) {
        for (int th = 0; th < t.threads; ++th) {
            const std::string& c = cols[th][row];
            out += " " + c + std::string(width[th] - c.size(), ' ') +
                   (th + 1 == t.threads ? " ;\n" : " |");
        }
    }
    return out;
}

bool usedInCode(const Generated& t, int loc) {
    for (const std::vector<Ins>& code : t.code) {
        for (const Ins& in : code) {
            if (touchesMemory(in.op) && in.loc == loc) {
                return true;
            }
        }
    }
    return false;
}

std::string initText(Rng& r, const Generated& t) {
    std::vector<std::string> entries;
    for (int l = 0; l < t.locs; ++l) {
        // A location at 0 may go undeclared when the code names it.
        if (t.memInit[l] == 0 && usedInCode(t, l) && r.chance(40)) {
            continue;
        }
        const std::string type = !r.chance(25) ? "" : t.att && t.locWide[l] ? "uint64_t " : "int ";
        entries.push_back(type + t.locNames[l] + "=" + std::to_string(t.memInit[l]));
    }
    for (int th = 0; th < t.threads; ++th) {
        for (const auto& [reg, value] : t.regInit[th]) {
            const char* name = t.att ? (r.chance(50) ? kAtt64 : kAtt32)[reg] : kIntel[reg];
            entries.push_back(std::to_string(th) + ":" + name + "=" + std::to_string(value));
        }
    }
    std::string out = "{";
    for (const std::string& e : entries) {
        out += " " + e + ";";
    }
    return out + " }\n";
}

int precedence(Node::Kind k) {
    return k == Node::Kind::Atom ? 4 : k == Node::Kind::Not ? 3 : k == Node::Kind::And ? 2 : 1;
}

std::string atomText(Rng& r, const Generated& t, const Node& n) {
    const std::string eq = r.chance(15) ? " = " : "=";
    if (n.thread < 0) {
        const std::string loc = t.locNames[n.loc];
        return (r.chance(20) ? "[" + loc + "]" : loc) + eq + std::to_string(n.value);
    }
    // X86_64 conditions name the 64-bit register (herd's `0:rax`).
    const char* reg = t.att ? kAtt64[n.reg] : kIntel[n.reg];
    return std::to_string(n.thread) + ":" + reg + eq + std::to_string(n.value);
}

// Parentheses where precedence needs them, and some where it does not.
// Recursion as deep as the formula (<= 3).
std::string formulaText(Rng& r, const Generated& t, int i, int needed) {
    const Node& n = t.formula[i];
    const std::string op = n.kind == Node::Kind::And ? "/\\" : "\\/";
    std::string s;
    switch (n.kind) {
    case Node::Kind::Atom:
        s = atomText(r, t, n);
        break;
    case Node::Kind::Not:
        s = (r.chance(20) ? "~ " : "~") + formulaText(r, t, n.a, 3);
        break;
    case Node::Kind::And:
    case Node::Kind::Or: {
        const int p = precedence(n.kind);
        const int space = r.below(20);
        s = formulaText(r, t, n.a, p) +
            (space < 3   ? op
             : space < 4 ? " " + op + "\n  "
                         : " " + op + " ") +
            formulaText(r, t, n.b, p);
        break;
    }
    }
    return precedence(n.kind) < needed || r.chance(10) ? "(" + s + ")" : s;
}

std::string conditionText(Rng& r, const Generated& t) {
    const int root = static_cast<int>(t.formula.size()) - 1;
    const std::string q = t.quantifier == Quantifier::Exists ? "exists"
                          : t.quantifier == Quantifier::NotExists
                              ? (r.chance(20) ? "~ exists" : "~exists")
                              : "forall";
    const std::string f = formulaText(r, t, root, 0);
    const bool paren = r.chance(80) && f.front() != '(';
    return q + " " + (paren ? "(" + f + ")" : f) + "\n";
}

// `locations [...]`: what outcome listings show; registers it names exist.
std::string locationsText(Rng& r, const Generated& t) {
    std::string out = "locations [";
    for (int i = 0, n = 1 + r.below(3); i < n; ++i) {
        const int th = r.below(t.threads);
        const int reg = r.below(kRegs);
        out += r.chance(50) ? t.locNames[r.below(t.locs)]
                            : std::to_string(th) + ":" + (t.att ? kAtt64 : kIntel)[reg];
        out += ";";
    }
    return out + "]\n";
}

std::string litmusText(Rng& r, const Generated& t, std::size_t index) {
    std::string out = (t.att ? "X86_64 R" : "X86 R") + std::to_string(index) + "\n";
    if (r.chance(30)) {
        out += "\"random test " + std::to_string(index) + "\"\n";
    }
    out += initText(r, t) + codeText(r, t);
    if (r.chance(10)) {
        out += "(* a comment (* nested *) *)\n";
    }
    if (r.chance(15)) {
        out += locationsText(r, t);
    }
    return out + conditionText(r, t);
}

// ---------------------------------------------------------------- reference

// A final state: each thread's kRegs registers, then each location.
using Final = std::vector<Value>;

struct SimState {
    std::vector<int> pc;                                 // by thread: the next instruction
    std::vector<int> half;                               // 1: an unlocked RMW has read
    std::vector<Value> regs;                             // thread * kRegs + register
    std::vector<Value> tmp;                              // by thread: what it read
    std::vector<Value> mem;                              // by location
    std::vector<std::vector<std::pair<int, Value>>> buf; // by thread, oldest first
    friend auto operator<=>(const SimState&, const SimState&) = default;
};

// x86 as docs/litmus.md reads it, written from the generated instructions
// without the front end: stores go through a FIFO buffer per thread (TSO)
// or leave it in any order across locations (PSO); MFENCE and locked
// instructions wait for an empty buffer and act on memory at once;
// a read-modify-write without LOCK is a read, then a write.
class Simulator {
  public:
    Simulator(const Generated& t, MemoryModel m) : t_(t), m_(m) {}
    // `sawNegative`, if given, is set when a reachable state holds a
    // negative value anywhere.
    std::set<Final> finals(bool* sawNegative = nullptr) const;

  private:
    SimState initial() const;
    void successors(const SimState& s, std::vector<SimState>& out) const;
    bool step(SimState& s, int th) const; // false: blocked
    // The value `in` writes when memory held `old` (none: no write); sets its register.
    std::optional<Value> modify(SimState& s, int th, const Ins& in, Value old) const;
    bool readModifyWrite(SimState& s, int th, const Ins& in) const;
    Value read(const SimState& s, int th, int loc) const;
    void write(SimState& s, int th, int loc, Value v) const;

    const Generated& t_;
    MemoryModel m_;
};

SimState Simulator::initial() const {
    SimState s;
    s.pc.assign(t_.threads, 0);
    s.half.assign(t_.threads, 0);
    s.regs.assign(static_cast<std::size_t>(t_.threads) * kRegs, 0);
    for (int th = 0; th < t_.threads; ++th) {
        for (const auto& [reg, value] : t_.regInit[th]) {
            s.regs[th * kRegs + reg] = value;
        }
    }
    s.tmp.assign(t_.threads, 0);
    s.mem = t_.memInit;
    s.buf.resize(t_.threads);
    return s;
}

Value Simulator::read(const SimState& s, int th, int loc) const {
    const auto& b = s.buf[th];
    const auto it =
        std::find_if(b.rbegin(), b.rend(), [&](const auto& e) { return e.first == loc; });
    return it == b.rend() ? s.mem[loc] : it->second;
}

void Simulator::write(SimState& s, int th, int loc, Value v) const {
    if (m_ == MemoryModel::SC) {
        s.mem[loc] = v;
    } else {
        s.buf[th].emplace_back(loc, v);
    }
}

std::optional<Value> Simulator::modify(SimState& s, int th, const Ins& in, Value old) const {
    Value& reg = s.regs[th * kRegs + in.reg];
    const Value src = in.src >= 0 ? s.regs[th * kRegs + in.src] : in.imm;
    const Value r = reg;
    switch (in.op) {
    case Op::Xchg:
        reg = old;
        return r;
    case Op::IncMem:
        return arith::add(old, 1);
    case Op::DecMem:
        return arith::sub(old, 1);
    case Op::AddMem:
        return arith::add(old, src);
    case Op::SubMem:
        return arith::sub(old, src);
    case Op::Xadd:
        reg = old;
        return arith::add(old, r);
    case Op::Cmpxchg: // reg is EAX, the accumulator
        if (old == r) {
            return src;
        }
        reg = old;
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

// A read-modify-write: locked, at once on memory once the buffer is empty;
// else the read (into tmp), then the write through the buffer.
bool Simulator::readModifyWrite(SimState& s, int th, const Ins& in) const {
    if (in.locked) {
        if (!s.buf[th].empty()) {
            return false;
        }
        if (std::optional<Value> v = modify(s, th, in, s.mem[in.loc])) {
            s.mem[in.loc] = *v;
        }
    } else if (s.half[th] == 0) {
        s.tmp[th] = read(s, th, in.loc);
        s.half[th] = 1;
        return true;
    } else {
        if (std::optional<Value> v = modify(s, th, in, s.tmp[th])) {
            write(s, th, in.loc, *v);
        }
        s.half[th] = 0;
    }
    ++s.pc[th];
    return true;
}

bool Simulator::step(SimState& s, int th) const {
    const Ins& in = t_.code[th][s.pc[th]];
    Value& reg = s.regs[th * kRegs + in.reg];
    const Value src = in.src >= 0 ? s.regs[th * kRegs + in.src] : in.imm;
    switch (in.op) {
    case Op::StoreImm:
        write(s, th, in.loc, in.imm);
        break;
    case Op::StoreReg:
        write(s, th, in.loc, reg);
        break;
    case Op::Load:
        reg = read(s, th, in.loc);
        break;
    case Op::MovImm:
        reg = in.imm;
        break;
    case Op::AddReg:
        reg = arith::add(reg, src);
        break;
    case Op::Lfence:
        break;
    case Op::Mfence:
        if (!s.buf[th].empty()) {
            return false;
        }
        break;
    default:
        return readModifyWrite(s, th, in);
    }
    ++s.pc[th];
    return true;
}

void Simulator::successors(const SimState& s, std::vector<SimState>& out) const {
    for (int th = 0; th < t_.threads; ++th) {
        if (s.pc[th] < static_cast<int>(t_.code[th].size())) {
            SimState n = s;
            if (step(n, th)) {
                out.push_back(std::move(n));
            }
        }
        const auto& b = s.buf[th];
        for (std::size_t j = 0; j < b.size(); ++j) {
            // TSO: the oldest store; PSO: the oldest of each location.
            const bool first = std::none_of(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(j),
                                            [&](const auto& e) { return e.first == b[j].first; });
            if (m_ == MemoryModel::PSO ? first : j == 0) {
                SimState n = s;
                n.mem[b[j].first] = b[j].second;
                n.buf[th].erase(n.buf[th].begin() + static_cast<std::ptrdiff_t>(j));
                out.push_back(std::move(n));
            }
        }
    }
}

bool negative(const SimState& s) {
    const auto below0 = [](const std::vector<Value>& v) {
        return std::any_of(v.begin(), v.end(), [](Value x) { return x < 0; });
    };
    return below0(s.regs) || below0(s.tmp) || below0(s.mem) ||
           std::any_of(s.buf.begin(), s.buf.end(), [](const auto& b) {
               return std::any_of(b.begin(), b.end(), [](const auto& e) { return e.second < 0; });
           });
}

std::set<Final> Simulator::finals(bool* sawNegative) const {
    std::set<Final> out;
    std::set<SimState> seen{initial()};
    std::vector<SimState> stack{initial()};
    std::vector<SimState> next;
    while (!stack.empty()) {
        const SimState s = std::move(stack.back());
        stack.pop_back();
        next.clear();
        successors(s, next);
        if (sawNegative != nullptr && negative(s)) {
            *sawNegative = true;
        }
        if (next.empty()) {
            Final f = s.regs;
            f.insert(f.end(), s.mem.begin(), s.mem.end());
            out.insert(std::move(f));
        }
        for (SimState& n : next) {
            if (seen.insert(n).second) {
                stack.push_back(std::move(n));
            }
        }
    }
    return out;
}

// The generated formula (not the parsed one) at a final state.
bool holds(const Generated& t, const Final& f) {
    std::vector<bool> v(t.formula.size());
    for (std::size_t i = 0; i < t.formula.size(); ++i) {
        const Node& n = t.formula[i];
        switch (n.kind) {
        case Node::Kind::Atom:
            v[i] = (n.thread < 0 ? f[t.threads * kRegs + n.loc] : f[n.thread * kRegs + n.reg]) ==
                   n.value;
            break;
        case Node::Kind::Not:
            v[i] = !v[n.a];
            break;
        case Node::Kind::And:
            v[i] = v[n.a] && v[n.b];
            break;
        case Node::Kind::Or:
            v[i] = v[n.a] || v[n.b];
            break;
        }
    }
    return v.back();
}

// No negative value anywhere, so that the answer does not depend on how
// the front end keeps 32-bit values (as is, or modulo 2^32): a program
// where one can occur counts up instead of down.
void avoidNegativeValues(Generated& t) {
    bool negative = false;
    Simulator(t, MemoryModel::PSO).finals(&negative);
    for (std::vector<Ins>& code : t.code) {
        for (Ins& in : code) {
            in.op = !negative             ? in.op
                    : in.op == Op::DecMem ? Op::IncMem
                    : in.op == Op::SubMem ? Op::AddMem
                                          : in.op;
        }
    }
}

// A final state of the program, most often one that only TSO or only PSO
// reaches (conditions near it tell the models apart), and the coordinates
// where the program's final states differ.
void chooseTarget(Rng& r, Generated& t) {
    const std::set<Final> sc = Simulator(t, MemoryModel::SC).finals();
    const std::set<Final> tso = Simulator(t, MemoryModel::TSO).finals();
    const std::set<Final> pso = Simulator(t, MemoryModel::PSO).finals();
    const auto minus = [](const std::set<Final>& a, const std::set<Final>& b) {
        std::vector<Final> out;
        std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
        return out;
    };
    const std::vector<Final> tsoOnly = minus(tso, sc);
    const std::vector<Final> psoOnly = minus(pso, tso);
    const int k = r.below(5);
    const std::vector<Final> any(pso.begin(), pso.end());
    const std::vector<Final>& from = k <= 1 && !tsoOnly.empty()   ? tsoOnly
                                     : k <= 3 && !psoOnly.empty() ? psoOnly
                                                                  : any;
    t.target = from[r.below(static_cast<int>(from.size()))];
    for (std::size_t c = 0; c < t.target.size(); ++c) {
        if (std::any_of(any.begin(), any.end(),
                        [&](const Final& f) { return f[c] != any[0][c]; })) {
            t.informative.push_back(static_cast<int>(c));
        }
    }
}

Generated generate(std::size_t index) {
    Rng r(kSeed + index);
    Generated t;
    t.att = r.chance(40);
    t.threads = 2 + r.below(2);
    t.locs = 2 + r.below(2);
    std::vector<std::string> names(std::begin(kPlainLocations), std::end(kPlainLocations));
    if (r.chance(30)) {
        names.assign(std::begin(kTrickyLocations), std::end(kTrickyLocations));
        r.shuffle(names);
    }
    t.locNames.assign(names.begin(), names.begin() + t.locs);
    for (int l = 0; l < t.locs; ++l) {
        t.memInit.push_back(r.chance(35) ? 1 + r.below(2) : 0);
    }
    t.regInit.resize(t.threads);
    for (int th = 0; th < t.threads; ++th) {
        if (r.chance(30)) {
            t.regInit[th][r.below(kRegs)] = 1 + r.below(2);
        }
    }
    for (int l = 0; l < t.locs; ++l) {
        t.locWide.push_back(r.chance(50));
    }
    randomCode(r, t);
    avoidNegativeValues(t);
    chooseTarget(r, t);
    t.quantifier = static_cast<Quantifier>(r.below(3));
    if (r.chance(55)) {
        // forall ~(a weak outcome): does every execution avoid it?
        const bool negate = t.quantifier == Quantifier::Forall && r.chance(60);
        randomConjunction(r, t, negate ? 4 : 8);
        if (negate) {
            Node n;
            n.kind = Node::Kind::Not;
            n.a = static_cast<int>(t.formula.size()) - 1;
            t.formula.push_back(n);
        }
    } else {
        randomFormula(r, t, 0);
    }
    t.text = litmusText(r, t, index);
    return t;
}

// ------------------------------------------------------------------ checks

// herd's word for whether the searched formula was reachable.

bool searchedReachable(const Generated& t, const std::set<Final>& finals) {
    return std::any_of(finals.begin(), finals.end(), [&](const Final& f) {
        return holds(t, f) != (t.quantifier == Quantifier::Forall);
    });
}

// The front end's final states in the reference's layout (a register the
// program lacks is 0: no instruction names it).
std::set<Final> frontEndFinals(const Generated& t, const Program& p, const reach::OutcomeList& l) {
    std::set<Final> out;
    for (const reach::Outcome& o : l.outcomes) {
        Final f;
        for (int th = 0; th < t.threads; ++th) {
            const std::vector<std::string>& names = p.threads[th].regNames;
            for (int r = 0; r < kRegs; ++r) {
                const auto it =
                    std::find(names.begin(), names.end(), t.att ? kAtt64[r] : kIntel[r]);
                f.push_back(it == names.end() ? 0 : o.regs[th][it - names.begin()]);
            }
        }
        for (int loc = 0; loc < t.locs; ++loc) {
            const VarId v = p.memory.find(t.locNames[loc]);
            const auto it = v.valid() ? o.memory.find(p.memory.var(v).base) : o.memory.end();
            f.push_back(it == o.memory.end() ? 0 : it->second);
        }
        out.insert(std::move(f));
    }
    return out;
}

std::string show(const Generated& t, const std::set<Final>& finals) {
    std::ostringstream s;
    for (const Final& f : finals) {
        s << "\n   ";
        for (std::size_t i = 0; i < f.size(); ++i) {
            const bool cell = static_cast<int>(i) >= t.threads * kRegs;
            s << (cell ? " " + t.locNames[i - t.threads * kRegs] + "=" : " ") << f[i]
              << (!cell && i % kRegs == kRegs - 1 ? " |" : "");
        }
    }
    return s.str();
}

const engines::Catalog kCatalog = test::catalogWithBruteForce();

std::string engineAnswer(const LoadedProgram& in, const std::string& engine, MemoryModel m) {
    const engines::EngineEntry& e = kCatalog.find(engines::Task::Reach, engine, m);
    if (std::optional<std::string> why = e.unsupportedFor(in.program, m)) {
        return "unsupported: " + *why;
    }
    reach::Options o;
    o.stop.setTimeout(60);
    const reach::Result r = reach::runChecked(*e.makeReach(m), in.program, *in.goal, o);
    if (r.verdict == reach::Verdict::Unknown) {
        return "unknown: " + r.reason;
    }
    return test::herdWord(in.condition->quantifier, r.verdict == reach::Verdict::Reachable);
}

struct Checked {
    std::vector<std::string> problems;
    std::map<MemoryModel, bool> reachable; // the searched state, by the reference
};

void checkModel(const Generated& t, const LoadedProgram& plain, const LoadedProgram& goal,
                MemoryModel m, Checked& c) {
    const std::string model(reach::name(m));
    const Program& p = plain.program;
    const reach::OutcomeList l = reach::collectOutcomes(
        p, m, [&](const reach::ExploreOptions& o) { return reach::explicitFinalStates(p, m, o); },
        {});
    if (!l.complete) {
        c.problems.push_back(model + ": outcomes incomplete: " + l.reason);
        return;
    }
    const std::set<Final> ref = Simulator(t, m).finals();
    const std::set<Final> fe = frontEndFinals(t, p, l);
    if (ref != fe) {
        c.problems.push_back(model + ": final states (registers " +
                             (t.att ? "rax rbx rcx rdx" : "EAX EBX ECX EDX") +
                             " of each thread, locations) differ; front end:" + show(t, fe) +
                             "\n  reference:" + show(t, ref));
    }
    c.reachable[m] = searchedReachable(t, ref);
    const std::string expected = test::herdWord(t.quantifier, c.reachable[m]);
    const std::string byOutcomes = test::answerFromOutcomes(*plain.condition, l);
    if (byOutcomes != expected) {
        c.problems.push_back(model + ": the parsed condition on the final states says " +
                             byOutcomes + ", the generated formula on the reference's " + expected);
    }
    std::vector<std::string> engines = {"explicit", "brute-force"};
    if (m == MemoryModel::TSO) {
        engines.emplace_back("lazy");
    }
    for (const std::string& e : engines) {
        const std::string a = engineAnswer(goal, e, m);
        if (a != byOutcomes) {
            c.problems.push_back(model + ": the goal searched by " + e + " says " + a +
                                 ", the final states say " + byOutcomes);
        }
    }
}

Checked checkProgram(const Generated& t) {
    Checked c;
    try {
        const LoadedProgram plain = litmusFrontEnd().load(t.text, "random.litmus", {});
        const LoadedProgram goal = withConditionGoal(plain);
        for (MemoryModel m : kModels) {
            checkModel(t, plain, goal, m, c);
        }
    } catch (const InputError& e) {
        c.problems.push_back(std::string("refused: ") + e.what());
    }
    return c;
}

class LitmusRandom : public ::testing::TestWithParam<std::size_t> {};

// Each batch is its own test, so that ctest names the failing range.
TEST_P(LitmusRandom, GoalFinalStatesAndReferenceAgree) {
    const std::size_t first = GetParam() * kProgramsPerBatch;
    std::size_t failing = 0;
    std::map<MemoryModel, std::set<bool>> seen;
    std::size_t modelsDiffer = 0;
    for (std::size_t i = first; i < first + kProgramsPerBatch; ++i) {
        const Generated t = generate(i);
        const Checked c = checkProgram(t);
        std::set<bool> answers;
        for (const auto& [m, r] : c.reachable) {
            seen[m].insert(r);
            answers.insert(r);
        }
        modelsDiffer += answers.size() == 2 ? 1 : 0;
        if (!c.problems.empty() && ++failing <= kMaxReportedPerBatch) {
            std::string all;
            for (const std::string& p : c.problems) {
                all += "\n  " + p;
            }
            ADD_FAILURE() << "program " << i << " (generate(" << i << ")):\n" << t.text << all;
        }
    }
    EXPECT_EQ(failing, 0U) << "failing programs in this batch";
    // A generator that always gives one answer, or the same under every
    // model, would test little.
    for (MemoryModel m : kModels) {
        EXPECT_EQ(seen[m].size(), 2U) << "one answer only under " << reach::name(m);
    }
    EXPECT_GE(modelsDiffer, 1U) << "no program whose answer depends on the model";
}

std::string batchName(const ::testing::TestParamInfo<std::size_t>& info) {
    const std::size_t first = info.param * kProgramsPerBatch;
    return "Programs" + std::to_string(first) + "To" +
           std::to_string(first + kProgramsPerBatch - 1);
}

INSTANTIATE_TEST_SUITE_P(Batches, LitmusRandom, ::testing::Range<std::size_t>(0, kBatches),
                         batchName);

} // namespace
} // namespace tsoreach
