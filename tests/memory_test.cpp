// Named shared memory (docs/language.md, "Memory"): the declaration's
// layout and initial values, names and indices in address operands, the
// printer's round trip, the positioned errors of misused names, what the
// builder's check refuses, and initial values as part of the semantics of
// every engine (reach, explore, robustness), against the brute-force
// explorer and the brute-force robustness oracle.

#include "support/brute_force.hpp"
#include "support/model_cases.hpp"
#include "support/robustness_oracle.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/lang/builder.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lang/value_sets.hpp"
#include "tsoreach/reach/dpor.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/rf.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace tsoreach {
namespace {

const std::string kDecl = "memory x = 1 y flag[3] = {0, 5} z[2]={-1,0}\n";

TEST(MemoryParse, LaysOutVariablesInDeclarationOrder) {
    const Program p = test::parse(kDecl + "thread t initial s end\n");
    ASSERT_EQ(p.memory.vars.size(), 4U);
    const MemoryVar& x = p.memory.vars[0];
    EXPECT_EQ(x.name, "x");
    EXPECT_EQ(x.base, 0);
    EXPECT_FALSE(x.array);
    EXPECT_EQ(x.init, std::vector<Value>{1});
    EXPECT_EQ(p.memory.vars[1].base, 1);
    EXPECT_TRUE(p.memory.vars[1].init.empty());
    const MemoryVar& flag = p.memory.vars[2];
    EXPECT_EQ(flag.base, 2);
    EXPECT_EQ(flag.size, 3);
    EXPECT_TRUE(flag.array);
    EXPECT_EQ(flag.init, (std::vector<Value>{0, 5})); // the last 0 is implied
    EXPECT_EQ(p.memory.vars[3].base, 5);
    EXPECT_EQ(p.memory.vars[3].init, std::vector<Value>{-1}); // trailing zeros dropped
    EXPECT_EQ(p.memory.end(), 7);
    EXPECT_EQ(p.memory.initialCells(), (std::vector<MemoryCell>{{0, 1}, {3, 5}, {5, -1}}));
    EXPECT_EQ(p.memory.initialValue(3), 5);
    EXPECT_EQ(p.memory.initialValue(4), 0);
    EXPECT_EQ(p.memory.initialValue(99), 0);
    EXPECT_EQ(p.memory.cellName(0), "x");
    EXPECT_EQ(p.memory.cellName(4), "flag[2]");
    EXPECT_EQ(p.memory.cellName(6), "z[1]");
    EXPECT_EQ(p.memory.cellName(7), "");
    EXPECT_EQ(p.memory.cellName(-1), "");
}

TEST(MemoryParse, NamesAreAddressesInEveryAddressOperand) {
    const Program p = test::parse(kDecl + R"(thread t
initial s
transition s a write 7 x
transition a b read r flag[2]
transition b c read q flag[+ r 1]
transition c d lockfor z[ 1 ]
transition d e unlockfor y
transition e f write r 6
end
)");
    const auto addr = [&](std::size_t i) { return p.expr(p.transitions[i].instr.addr); };
    EXPECT_EQ(addr(0).size(), 1U);
    EXPECT_EQ(addr(0)[0].value, 0);
    EXPECT_EQ(addr(0)[0].var, VarId(0));
    EXPECT_EQ(addr(1)[0].value, 4); // flag[2], folded to its cell
    EXPECT_EQ(addr(1)[0].var, VarId(2));
    ASSERT_EQ(addr(2).size(), 5U); // + 2 + r 1: flag's base plus the index
    EXPECT_EQ(addr(2)[0].op, ExprOp::Add);
    EXPECT_EQ(addr(2)[0].var, VarId(2));
    EXPECT_EQ(addr(2)[1].value, 2);
    EXPECT_FALSE(addr(2)[1].var.valid());
    EXPECT_EQ(addr(3)[0].value, 6);
    EXPECT_EQ(addr(4)[0].value, 1);
    EXPECT_FALSE(addr(5)[0].var.valid()); // a number stays a number
    const Thread& t = p.threads[0];
    EXPECT_EQ(printInstruction(p, p.transitions[2]), "read q flag[+ r 1]");
    EXPECT_EQ(printExpr(p, t, p.transitions[3].instr.addr), "z[1]");
    EXPECT_EQ(printInstruction(p, p.transitions[5]), "write r 6");
    // The index evaluates to base + index.
    std::vector<Value> stack(p.maxExprStack);
    std::vector<Value> regs(t.regCount(), 0);
    regs[0] = 1; // r
    EXPECT_EQ(evaluate(addr(2), regs, stack), 4);
}

TEST(MemoryParse, PrintParsesBackToTheSameProgram) {
    const Program p = test::parse(kDecl + R"(thread t
initial s
final f
transition s a read r flag[+ r 1]
transition a f write - 0 r z[% r 2]
end
thread u
initial s
transition s s write 1 y
end
)");
    const std::string text = printProgram(p);
    EXPECT_EQ(text.substr(0, text.find('\n')), "memory x = 1 y flag[3] = {0, 5} z[2] = {-1}");
    const Program again = test::parse(text);
    EXPECT_EQ(again, p);
    EXPECT_EQ(printProgram(again), text);
}

TEST(MemoryParse, ProgramsWithoutADeclarationAreUnchanged) {
    // Without `memory`, brackets belong to register names and an unassigned
    // register is still a register (0).
    const Program p = test::parse(R"(thread t
initial s
transition s a read a[1] b[2]
transition a s write 1 x
end
)");
    EXPECT_TRUE(p.memory.empty());
    EXPECT_EQ(p.threads[0].regNames, (std::vector<std::string>{"a[1]", "b[2]", "x"}));
    EXPECT_EQ(printProgram(p).rfind("thread", 0), 0U);
}

TEST(MemoryParse, SeveralDeclarationsAndKeywordNames) {
    // `memory` may repeat before the first thread; a name may be any
    // memory-name token, instruction keywords included.
    const Program p = test::parse("memory read\nmemory a b[2]\nthread t initial s "
                                  "transition s s write 1 read end\n");
    ASSERT_EQ(p.memory.vars.size(), 3U);
    EXPECT_EQ(p.memory.vars[2].base, 2);
    EXPECT_EQ(printInstruction(p, p.transitions[0]), "write 1 read");
}

struct BadCase {
    std::string name;
    std::string input;
    std::uint32_t line;
    std::uint32_t col;
    std::string message;
};

void PrintTo(const BadCase& c, std::ostream* os) {
    *os << c.name;
}

// A declaration on line 1 and a thread whose transition is on line 4.
std::string withTransition(const std::string& decl, const std::string& instr) {
    return decl + "\nthread t\ninitial s\ntransition s s " + instr + "\nend\n";
}

std::vector<BadCase> badCases() {
    const std::string d = "memory x flag[2]";
    return {
        {"IndexTooLarge", withTransition(d, "write 1 flag[2]"), 4, 29,
         "index 2 out of range for 'flag' (an array of 2 cells: 0 to 1)"},
        {"IndexNegative", withTransition(d, "read r flag[-1]"), 4, 28, "index -1 out of range"},
        {"ConstantIndexExpression", withTransition(d, "read r flag[+ 1 1]"), 4, 28,
         "index 2 out of range"},
        {"IndexWithSpaces", withTransition(d, "read r flag[ 7 ]"), 4, 29, "index 7 out of range"},
        {"ArrayWithoutIndex", withTransition(d, "write 1 flag"), 4, 24,
         "'flag' is an array of 2 cells: give an index, e.g. flag[0]"},
        {"ScalarWithIndex", withTransition(d, "write 1 x[0]"), 4, 25,
         "'x' is not an array: write it without an index"},
        {"UndeclaredName", withTransition(d, "write 1 xx"), 4, 24,
         "'xx' is not a declared memory variable, and no read or local of thread 't' "
         "assigns it as a register"},
        {"UndeclaredArray", withTransition(d, "write 1 flog[1]"), 4, 24,
         "'flog' is not a declared memory array"},
        {"UnassignedRegisterAsLockAddress", withTransition(d, "lockfor p"), 4, 24,
         "'p' is not a declared memory variable"},
        {"NameAsValue", withTransition(d, "write x 0"), 4, 22,
         "memory variable 'x' used as a value in 'write': read it into a register first "
         "(read REG x)"},
        {"NameInCheck", withTransition(d, "check == x 1"), 4, 25, "used as a value in 'check'"},
        {"NameInIndex", withTransition(d, "read r flag[x]"), 4, 28,
         "memory variable 'x' inside an index"},
        {"NameInsideAddress", withTransition(d, "read r + x 1"), 4, 25,
         "memory variable 'x' inside an address expression of 'read'"},
        {"RegisterNamedLikeMemory", withTransition(d, "read x x"), 4, 21,
         "'x' is a memory variable (declared at 1:8), not a register"},
        {"RegisterWithBracket", withTransition(d, "local a[1] 0"), 4, 22,
         "register 'a[1]': with a memory declaration, a register name has no '[' or ']'"},
        {"IndexNotClosed", withTransition(d, "read r flag[+ 1 0"), 5, 1,
         "expected ']' after the index of 'flag', found 'end'"},
        {"IndexCutShort", withTransition(d, "read r flag[+ 1]"), 4, 31,
         "expression cut short in 'read': expected an operand, found ']'"},
        {"DeclaredTwice", "memory x y x\nthread t initial s end\n", 1, 12,
         "memory variable 'x' declared twice (first at 1:8)"},
        {"EmptyDeclaration", "memory\nthread t initial s end\n", 2, 1,
         "expected a memory variable after 'memory', found 'thread'"},
        {"AfterAThread", "thread t initial s end\nmemory x\n", 2, 1,
         "'memory' after a thread: declare memory before the first thread"},
        {"SizeZero", "memory a[0]\nthread t initial s end\n", 1, 10,
         "the size of array 'a' must be at least 1"},
        {"SizeNotANumber", "memory a[n]\nthread t initial s end\n", 1, 10,
         "expected the size of array 'a', found 'n'"},
        {"SizeNotClosed", "memory a[2 b\nthread t initial s end\n", 1, 12,
         "expected ']' after the size of 'a', found 'b'"},
        {"TooManyValues", "memory a[2] = {1, 2, 3}\nthread t initial s end\n", 1, 22,
         "more initial values than the 2 cells of array 'a'"},
        {"ArrayWithScalarValue", "memory a[2] = 1\nthread t initial s end\n", 1, 15,
         "expected '{' with the initial values of array 'a'"},
        {"ScalarWithBraces", "memory a = {1}\nthread t initial s end\n", 1, 12,
         "expected the initial value of 'a', found '{'"},
        {"ValuesWithoutComma", "memory a[2] = {1 2}\nthread t initial s end\n", 1, 18,
         "expected ',' or '}' between the initial values of array 'a', found '2'"},
        {"ValueOutOfRange", "memory a = 9223372036854775808\nthread t initial s end\n", 1, 12,
         "out of range (values are signed 64-bit integers)"},
        {"ValueMissing", "memory a =\nthread t initial s end\n", 2, 1,
         "expected the initial value of 'a', found 'thread'"},
        {"NameIsANumber", "memory 12\nthread t initial s end\n", 1, 8,
         "expected a memory variable name, found '12'"},
        {"NameIsAnOperator", "memory +\nthread t initial s end\n", 1, 8,
         "expected a memory variable name, found '+'"},
    };
}

class MemoryBad : public ::testing::TestWithParam<BadCase> {};

TEST_P(MemoryBad, ReportsPositionAndMessage) {
    const BadCase& c = GetParam();
    try {
        Program p = test::parse(c.input);
        ADD_FAILURE() << "parsed without error:\n" << printProgram(p);
    } catch (const InputError& e) {
        EXPECT_EQ(e.pos().line, c.line) << e.what();
        EXPECT_EQ(e.pos().col, c.col) << e.what();
        EXPECT_NE(e.message().find(c.message), std::string::npos)
            << "message: " << e.message() << "\nexpected to contain: " << c.message;
    }
}

INSTANTIATE_TEST_SUITE_P(All, MemoryBad, ::testing::ValuesIn(badCases()),
                         [](const ::testing::TestParamInfo<BadCase>& info) {
                             return info.param.name;
                         });

// What the builder's check (checkWellFormed) refuses, so that every built
// program prints as text that parses back to it.
TEST(MemoryBuilder, BuildsNamedAddressesAndRefusesMisplacedNames) {
    MemoryLayout m;
    const VarId x = appendVar(m, "x", 1, false, {3});
    const VarId a = appendVar(m, "a", 4, true, {});
    // A thread that assigns register `reg` and writes `value` to `addr`,
    // both made with that register's handle.
    using Make = std::function<Expr(RegId)>;
    auto build = [&](const Make& value, const Make& addr, const std::string& reg = "r") {
        ProgramBuilder b("built.txt");
        b.setMemory(m);
        b.addThread("t", "s");
        const StateId s = b.state("s");
        const RegId r = b.reg(reg);
        b.addTransition(s, s, Instr::local(r, Expr::constant(1)));
        b.addTransition(s, s, Instr::write(value(r), addr(r)));
        return b.build();
    };
    const auto one = [](RegId) { return Expr::constant(1); };
    const auto cell = [](VarId v, Value addr) {
        return [=](RegId) { return Expr::cell(v, addr); };
    };
    const auto element = [](VarId v, Value base, const Make& index) {
        return [=](RegId r) { return Expr::element(v, base, index(r)); };
    };
    const auto roundTrip = [](const Program& p, const std::string& shown) {
        EXPECT_EQ(printInstruction(p, p.transitions[1]), shown);
        EXPECT_EQ(test::parse(printProgram(p)), p) << printProgram(p);
    };
    roundTrip(build(one, cell(a, 4)), "write 1 a[3]");
    roundTrip(build(one, cell(x, 0)), "write 1 x");
    // A constant index is the cell itself, as the parser reads it.
    roundTrip(build(one, element(a, 1, [](RegId) { return Expr::constant(2); })), "write 1 a[2]");
    roundTrip(build(one, element(a, 1,
                                 [](RegId r) {
                                     return Expr::apply(ExprOp::Add, Expr::reg(r),
                                                        Expr::constant(1));
                                 })),
              "write 1 a[+ r 1]");
    // A name as a value, a cell outside its variable, a register named
    // like a variable, a wrong base, an index into a scalar.
    EXPECT_THROW((void)build(cell(x, 0), one), InputError);
    EXPECT_THROW((void)build(one, cell(x, 1)), InputError);
    EXPECT_THROW((void)build(one, cell(a, 1), "x"), InputError);
    EXPECT_THROW((void)build(one, element(a, 0, [](RegId r) { return Expr::reg(r); })), InputError);
    EXPECT_THROW((void)build(one, element(x, 0, [](RegId r) { return Expr::reg(r); })), InputError);
    EXPECT_THROW((void)build(one, element(a, 1,
                                          [](RegId) {
                                              return Expr::apply(ExprOp::Add, Expr::constant(4),
                                                                 Expr::constant(0));
                                          })),
                 InputError); // index 4 of 4 cells
}

// ---------------------------------------------------------------------------
// Initial values in every engine

using reach::MemoryModel;
using reach::Verdict;
constexpr Verdict R = Verdict::Reachable;
constexpr Verdict U = Verdict::Unreachable;
constexpr MemoryModel kModels[] = {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO};

// Programs whose verdicts the initial values decide: with every cell at 0
// (`zeroed`) at least one model answers otherwise.
struct InitCase {
    test::ModelCase verdicts;
    Verdict zeroedSc, zeroedTso, zeroedPso;
};

std::vector<InitCase> initCases() {
    return {
        // SB where both loads must see the initial 1s: the other thread's
        // store of 0 is still buffered. Zeroed, nobody ever holds 1.
        {{"SbSeesInitialValues", R"(memory x = 1 y = 1
thread t0
initial q0
final q3
transition q0 q1 write 0 x
transition q1 q2 read r y
transition q2 q3 check == r 1
end
thread t1
initial q0
final q3
transition q0 q1 write 0 y
transition q1 q2 read s x
transition q2 q3 check == s 1
end
)",
          U, R, R},
         U,
         U,
         U},
        // MP with a flag that starts raised and is lowered to publish:
        // seeing it lowered and old data needs PSO. Zeroed, the flag is
        // seen lowered from the start.
        {{"MpWithARaisedFlag", R"(memory data flag = 1
thread writer
initial q0
final q2
transition q0 q1 write 1 data
transition q1 q2 write 0 flag
end
thread reader
initial q0
final q4
transition q0 q1 read f flag
transition q1 q2 check == f 0
transition q2 q3 read d data
transition q3 q4 check == d 0
end
)",
          U, U, R},
         R,
         R,
         R},
        // A computed index: idx starts at 1 and a[1] at 7, until a writer
        // moves idx to 2 (a[2] starts at 0).
        {{"ComputedIndexIntoInitialArray", R"(memory idx = 1 a[3] = {0, 7}
thread t0
initial q0
final q3
transition q0 q1 read i idx
transition q1 q2 read r a[i]
transition q2 q3 check == r 7
end
thread t1
initial q0
transition q0 q1 write 2 idx
end
)",
          R, R, R},
         U,
         U,
         U},
        // A counter that starts at 2 and is decremented under a lock by
        // both threads: it reaches 0, never -1. Zeroed, it goes to -2.
        {{"LockedCounterFromTwo", R"(memory n = 2
thread t0
initial q0
final q4
transition q0 q1 lock
transition q1 q2 read r n
transition q2 q3 write - r 1 n
transition q3 q4 unlock
end
thread t1
initial q0
final q5
transition q0 q1 lock
transition q1 q2 read r n
transition q2 q3 write - r 1 n
transition q3 q4 unlock
transition q4 q5 check == r 1
end
)",
          R, R, R},
         U,
         U,
         U},
    };
}

void PrintTo(const InitCase& c, std::ostream* os) {
    *os << c.verdicts.name;
}

// `text` with every initial value dropped: all of memory starts at 0.
std::string zeroed(std::string text) {
    const std::size_t end = text.find('\n');
    std::string decl = text.substr(0, end);
    std::string out;
    for (std::size_t i = 0; i < decl.size(); ++i) {
        if (decl[i] == '=') {
            // Skip "= v" or "= {...}" up to the next name.
            std::size_t j = decl.find_first_not_of(' ', i + 1);
            j = decl[j] == '{' ? decl.find('}', j) + 1 : decl.find(' ', j);
            i = (j == std::string::npos ? decl.size() : j) - 1;
            continue;
        }
        out += decl[i];
    }
    return out + text.substr(end);
}

class InitialValues : public ::testing::TestWithParam<InitCase> {};

// Every reach engine of every model (each trace replayed by runChecked)
// and the brute force give the case's verdict; zeroed, the brute force
// gives the zeroed ones, so the initial values decide.
TEST_P(InitialValues, EveryReachEngineAndTheBruteForceAgree) {
    const InitCase& c = GetParam();
    test::expectExplicitAndBruteForce(c.verdicts);
    const Program p = test::parse(c.verdicts.text);
    const Goal goal = *defaultGoal(p);
    const Verdict want[] = {c.verdicts.sc, c.verdicts.tso, c.verdicts.pso};
    for (int k = 0; k < 3; ++k) {
        for (const engines::EngineEntry& e : engines::reachEnginesFor(kModels[k])) {
            if (e.unsupportedFor(p, kModels[k])) {
                continue;
            }
            // The lazy engine without probes builds extensions R + sigma,
            // which copy named addresses.
            for (const bool probes : {true, false}) {
                reach::Options o;
                o.stop.setTimeout(60);
                o.explicitProbes = probes;
                auto engine = e.makeReach(kModels[k]);
                const reach::Result r = reach::runChecked(*engine, p, goal, o);
                EXPECT_EQ(reach::name(r.verdict), reach::name(want[k]))
                    << c.verdicts.name << ": " << e.name << " under " << reach::name(kModels[k])
                    << (probes ? "" : " without probes") << " " << r.reason;
            }
        }
    }
    const Program z = test::parse(zeroed(c.verdicts.text));
    EXPECT_EQ(z.memory.initialCells().size(), 0U) << zeroed(c.verdicts.text);
    const Verdict zero[] = {c.zeroedSc, c.zeroedTso, c.zeroedPso};
    bool differs = false;
    for (int k = 0; k < 3; ++k) {
        test::BruteOptions bo;
        bo.model = test::bruteModel(kModels[k]);
        const bool reachable =
            test::bruteForce(z, *defaultGoal(z), bo).verdict == test::BruteVerdict::Reachable;
        EXPECT_EQ(reachable, zero[k] == R) << c.verdicts.name << " zeroed";
        differs = differs || zero[k] != want[k];
    }
    EXPECT_TRUE(differs) << c.verdicts.name << ": the initial values change no verdict";
}

// `text` with every check a noop: the exploring engines count classes of
// complete executions, which a blocked check would not end.
std::string checkFree(const std::string& text) {
    std::istringstream in(text);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        const std::size_t at = line.find(" check ");
        out += (at == std::string::npos ? line : line.substr(0, at) + " noop") + "\n";
    }
    return out;
}

// dpor counts the Shasha-Snir classes, rf the reads-from classes, that the
// brute-force oracle finds, which read the initial values (where they apply:
// no locks).
TEST_P(InitialValues, ExploringEnginesCountTheOraclesClasses) {
    const Program p = test::parse(checkFree(GetParam().verdicts.text));
    const test::RobModel rob[] = {test::RobModel::SC, test::RobModel::TSO, test::RobModel::PSO};
    for (int k = 0; k < 3; ++k) {
        if (reach::dporUnsupported(p, kModels[k]) || reach::rfUnsupported(p)) {
            continue;
        }
        test::RobOptions o;
        o.model = rob[k];
        const test::RobResult brute = test::robustness(p, o);
        ASSERT_NE(brute.verdict, test::RobVerdict::Unknown);
        const reach::ExploreResult d = reach::dporExplore(p, kModels[k], {});
        ASSERT_TRUE(d.complete) << d.reason;
        EXPECT_EQ(d.stats.executions, brute.ssClasses) << reach::name(kModels[k]);
        std::set<std::vector<std::vector<test::RobEvent>>> rfClasses;
        for (const test::RobKey& key : brute.classes) {
            rfClasses.insert(key.events);
        }
        const reach::ExploreResult r = reach::rfExplore(p, kModels[k], {});
        ASSERT_TRUE(r.complete) << r.reason;
        EXPECT_EQ(r.stats.executions, rfClasses.size()) << reach::name(kModels[k]);
    }
}

INSTANTIATE_TEST_SUITE_P(All, InitialValues, ::testing::ValuesIn(initCases()),
                         [](const ::testing::TestParamInfo<InitCase>& info) {
                             return std::string(info.param.verdicts.name);
                         });

// The value-set analysis (computed addresses for the attacks, dpor's PSO
// flushers, the explicit engine's reductions) sees initial values: a
// pointer that starts at 5 is followed to 5, and only there.
TEST(InitialValuesAnalysis, LoadsSeeTheInitialValue) {
    const Program p = test::parse(R"(memory ptr = 5 pad[5]
thread t
initial q0
transition q0 q1 read r ptr
transition q1 q2 read s r
end
)");
    const AddressSets sets = accessedAddresses(p);
    EXPECT_EQ(sets.byTransition[1].values, std::vector<Value>{5});
}

// Robustness depends on initial values: SB over scalars runs only when `go`
// starts at 1; SB over flag[0] and flag[1] through indices computed from
// `idx` needs idx = 1 (with 0 both threads write flag[1] and read flag[0],
// which nobody writes). Every robustness engine agrees with the oracle.
TEST(InitialValuesRobustness, EveryEngineAgreesWithTheOracle) {
    const std::string sb = R"(
thread t0
initial q0
transition q0 q1 read g go
transition q1 q2 check == g 1
transition q2 q3 write 1 x
transition q3 q4 read r y
end
thread t1
initial q0
transition q0 q1 write 1 y
transition q1 q2 read s x
end
)";
    const std::string indexed = R"(
thread t0
initial q0
transition q0 q1 read i idx
transition q1 q2 write 1 flag[- 1 i]
transition q2 q3 read r flag[i]
end
thread t1
initial q0
transition q0 q1 write 1 flag[1]
transition q1 q2 read s flag[0]
end
)";
    const engines::Catalog catalog = engines::standardCatalog();
    const std::pair<std::string, bool> programs[] = {
        {"memory go = 1 x y" + sb, false},
        {"memory go x y" + sb, true},
        {"memory idx = 1 flag[2]" + indexed, false},
        {"memory idx flag[2]" + indexed, true},
    };
    for (const auto& [text, robust] : programs) {
        const Program p = test::parse(text);
        for (const auto& [model, rob] : {std::pair{MemoryModel::TSO, test::RobModel::TSO},
                                         std::pair{MemoryModel::PSO, test::RobModel::PSO}}) {
            test::RobOptions o;
            o.model = rob;
            const test::RobResult brute = test::robustness(p, o);
            ASSERT_NE(brute.verdict, test::RobVerdict::Unknown);
            EXPECT_EQ(brute.verdict == test::RobVerdict::Robust, robust) << text;
            for (const engines::EngineEntry* e :
                 catalog.enginesFor(engines::Task::Robustness, model)) {
                engines::Settings s;
                s.options.stop.setTimeout(60);
                const engines::RobustnessOutcome out = e->checkRobustness(p, model, s);
                const robustness::RobustVerdict v =
                    std::visit([](const auto& r) { return r.verdict; }, out);
                EXPECT_EQ(v, robust ? robustness::RobustVerdict::Robust
                                    : robustness::RobustVerdict::NotRobust)
                    << e->name << " under " << reach::name(model) << ":\n"
                    << text;
            }
        }
    }
}

} // namespace
} // namespace tsoreach
