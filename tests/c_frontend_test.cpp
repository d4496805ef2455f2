// The C front end (frontends/c, docs/c.md): what a C program translates to,
// and the positioned errors for what the subset leaves out.

#include "tsoreach/frontends/c/front_end.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/lang/printer.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace tsoreach {
namespace {

LoadedProgram loadC(const std::string& text, const FrontEndOptions& options = {}) {
    return cFrontEnd().load(text, "test.c", options);
}

// The message "test.c:LINE:COL: error: ..." of the program's InputError.
std::string errorOf(const std::string& text) {
    try {
        (void)loadC(text);
    } catch (const InputError& e) {
        return std::to_string(e.pos().line) + ":" + std::to_string(e.pos().col) + ": " +
               e.message();
    }
    return "no error";
}

const char* kHeaders = "#include <assert.h>\n#include <pthread.h>\n#include <stdatomic.h>\n";

std::string program(const std::string& globals, const std::string& thread,
                    const std::string& mainTail = "") {
    return std::string(kHeaders) + globals + "\nvoid *t0(void *arg) {\n" + thread +
           "\n    return NULL;\n}\nint main(void) {\n    pthread_t a;\n"
           "    pthread_create(&a, NULL, t0, NULL);\n" +
           mainTail + "    return 0;\n}\n";
}

TEST(CFrontEnd, TheRegistryPicksItForDotCFiles) {
    EXPECT_EQ(frontEndForFile("dir/sb.c").name, "c");
    EXPECT_NE(findFrontEnd("c"), nullptr);
}

TEST(CFrontEnd, ThreadsAreNamedAfterTheirFunctionsAndGlobalsAreNamedMemory) {
    const LoadedProgram p = loadC(std::string(kHeaders) + R"(
atomic_int x = 3;
int a[3] = {0, 5};
void *w(void *arg) { atomic_store_explicit(&x, 1, memory_order_relaxed); return NULL; }
int main(void) {
    pthread_t t1, t2;
    a[2] = 7;
    pthread_create(&t1, NULL, w, NULL);
    pthread_create(&t2, NULL, w, NULL);
    return 0;
}
)");
    ASSERT_EQ(p.program.threads.size(), 2U);
    EXPECT_EQ(p.program.threads[0].name, "w");
    EXPECT_EQ(p.program.threads[1].name, "w.2");
    const MemoryLayout& m = p.program.memory;
    ASSERT_EQ(m.vars.size(), 2U);
    EXPECT_EQ(m.cellName(0), "x");
    EXPECT_EQ(m.initialValue(0), 3);
    EXPECT_EQ(m.cellName(2), "a[1]");
    EXPECT_EQ(m.initialValue(2), 5);
    EXPECT_EQ(m.initialValue(3), 7); // main's store before the first create
    // Transitions carry the C position of their statement.
    const Transition& store = p.program.transitions.front();
    EXPECT_EQ(store.instr.kind, InstrKind::Write);
    EXPECT_EQ(store.pos.line, 7U);
    EXPECT_EQ(store.pos.col, 22U);
}

TEST(CFrontEnd, MemoryOrdersMapAsOnX86) {
    const LoadedProgram p = loadC(program("atomic_int x, y;", R"(
    atomic_store_explicit(&x, 1, memory_order_release);
    atomic_store(&y, 1);
    atomic_thread_fence(memory_order_acq_rel);
    atomic_thread_fence(memory_order_seq_cst);
    int r = atomic_exchange(&x, 2);)"));
    std::vector<InstrKind> kinds;
    for (const Transition& t : p.program.transitions) {
        kinds.push_back(t.instr.kind);
    }
    // release store: mov; seq_cst store: mov + mfence; acq_rel fence:
    // nothing; seq_cst fence: mfence; exchange: a locked update.
    const std::vector<InstrKind> want = {InstrKind::Write,  InstrKind::Write,  InstrKind::Mfence,
                                         InstrKind::Mfence, InstrKind::Lock,   InstrKind::Read,
                                         InstrKind::Write,  InstrKind::Unlock, InstrKind::Local};
    EXPECT_EQ(kinds, want) << p.translation;
}

TEST(CFrontEnd, AssertionsInTwoThreadsAreTwoGoalTerms) {
    const LoadedProgram p = loadC(program("int x;", "    assert(x == 0);",
                                          "    pthread_join(a, NULL);\n    assert(x == 0);\n"));
    ASSERT_TRUE(p.goal.has_value());
    EXPECT_EQ(p.goal->termCount(), 2U);
    EXPECT_NE(p.translation.find("--goal t0=fail.L6 --goal main=fail.L13"), std::string::npos)
        << p.translation;
    // main waits for the thread's done flag, which follows its stores.
    EXPECT_NE(p.translation.find("read tmp.0 done.t0"), std::string::npos) << p.translation;
}

TEST(CFrontEnd, OneAssertingThreadDeclaresItsFailuresFinal) {
    const LoadedProgram p = loadC(program("int x;", "    int r = x;\n    assert(r != 1);"));
    ASSERT_TRUE(p.goal.has_value());
    EXPECT_EQ(p.goal->termCount(), 1U);
    EXPECT_NE(p.translation.find("final fail.L7"), std::string::npos) << p.translation;
    EXPECT_NE(p.translation.find("read r x"), std::string::npos) << p.translation;
}

TEST(CFrontEnd, ControlFlowAndInlinedCalls) {
    const LoadedProgram p = loadC(std::string(kHeaders) + R"(
atomic_int x;
int twice(int v) { return v + v; }
void *t0(void *arg) {
    int s = 0;
    for (int i = 0; i < 3; i++) {
        if (i == 1) continue;
        s += twice(i);
    }
    do { s--; } while (s > 2);
    while (1) { if (atomic_load(&x)) break; }
    assert(s == 2);
    return NULL;
}
int main(void) { pthread_t a; pthread_create(&a, NULL, t0, NULL); return 0; }
)");
    const std::string text = printProgram(p.program);
    EXPECT_NE(text.find("local v i"), std::string::npos) << text;
    EXPECT_NE(text.find("local ret.twice + v v"), std::string::npos) << text;
    EXPECT_NE(text.find("check < i 3"), std::string::npos) << text;
}

struct Refused {
    std::string code;  // a thread body
    std::string error; // LINE:COL: message start
};

class CFrontEndRefuses : public ::testing::TestWithParam<Refused> {};

TEST_P(CFrontEndRefuses, WithAPositionedError) {
    const std::string e = errorOf(program("atomic_int x; int rec(int n);", GetParam().code));
    EXPECT_TRUE(e.starts_with(GetParam().error)) << e;
}

INSTANTIATE_TEST_SUITE_P(
    Subset, CFrontEndRefuses,
    ::testing::Values(
        Refused{"    int *q = &x;", "6:10: a local variable of type 'int *' is not supported"},
        Refused{"    x = *(&x);",
                "6:9: a pointer ('*' outside an atomic operation's argument) is not "
                "supported"},
        Refused{"    int r = rec(2);", "6:13: calling 'rec' is not supported"},
        Refused{"    x = x << x;", "6:9: a shift by a non-constant amount is not supported"},
        Refused{"    switch (rec(1)) { default: break; }", "6:5: the statement 'SwitchStmt' is not "
                                                           "supported"},
        Refused{"    int e = 0;\n    atomic_compare_exchange_weak(&x, &e, 1);",
                "7:5: 'atomic_compare_exchange_weak' is not supported"},
        Refused{"    atomic_int y;",
                "6:16: a local variable of type 'atomic_int' is not supported"},
        Refused{"    pthread_t b;\n    pthread_create(&b, NULL, t0, NULL);",
                "7:5: pthread_create outside main's first calls is not supported"},
        // Values are 64-bit integers: no wider type, and no unsigned 64-bit
        // division (docs/c.md, "Integer types").
        Refused{"    __int128 w = 0;", "6:14: the type '__int128' is not supported"},
        Refused{"    unsigned long v = 5;\n    v = v / 2;",
                "7:9: '/' on an unsigned 64-bit value is not supported"},
        Refused{"    unsigned long v = 5;\n    v %= 2;",
                "7:5: '%=' on an unsigned 64-bit value is not supported"}));

// An operator inside a macro of the program reached the translator as the
// macro call's tokens (PLUS(2, 3) defined `a + b` was read as a comma): such
// macros are refused; a macro for one token, and the system's (assert,
// atomic_load), are read as before.
TEST(CFrontEnd, MacrosOfTheProgramStandForOneToken) {
    EXPECT_EQ(errorOf(program("atomic_int x;\n#define PLUS(a, b) a + b", "    x = PLUS(2, 3);")),
              "7:9: the function-like macro 'PLUS' is not supported: expand it by hand");
    EXPECT_TRUE(errorOf(program("atomic_int x;\n#define TWO (1 + 1)", "    x = TWO;"))
                    .starts_with("7:9: the macro 'TWO' stands for more than one token"));
    const LoadedProgram p = loadC(program("atomic_int x;\n#define N 3",
                                          "    atomic_store(&x, N);\n    assert(atomic_load(&x) "
                                          "== N);"));
    EXPECT_EQ(p.program.threads.size(), 1U);
}

// A local named like a global, or like a keyword of the program model
// (`final`), gets a suffix, as a second local of one name does (a campaign
// found these refused with an internal message).
TEST(CFrontEnd, LocalsNamedLikeGlobalsOrKeywordsAreRenamed) {
    const LoadedProgram p =
        loadC(std::string(kHeaders) +
              "atomic_int value;\nint twice(int value) { return 2 * value; }\n"
              "void *t0(void *a) { int final = twice(3); atomic_store(&value, "
              "final); return NULL; }\n"
              "int main(void) { pthread_t a; pthread_create(&a, NULL, t0, NULL); "
              "pthread_join(a, NULL); assert(atomic_load(&value) == 6); return 0; }\n");
    const std::string text = printProgram(p.program);
    EXPECT_NE(text.find("value.2"), std::string::npos) << text;
    EXPECT_NE(text.find("final.2"), std::string::npos) << text;
}

// pthread_join's result is not modelled: anything but NULL is refused (it
// was ignored, so `r` kept its old value).
TEST(CFrontEnd, JoinResultMustBeNull) {
    // Also when main only joins (its code is then not translated).
    EXPECT_EQ(errorOf(program("", "", "    long r = 0;\n    pthread_join(a, (void **)&r);\n")),
              "13:21: a pthread_join result other than NULL is not supported");
    EXPECT_EQ(errorOf(program("", "", "    pthread_t b;\n    pthread_join(b, NULL);\n")),
              "13:5: joining a thread that main did not create is not supported");
    EXPECT_EQ(errorOf(program("", "",
                              "    long r = 0;\n    pthread_join(a, (void **)&r);\n"
                              "    assert(r == 5);\n")),
              "13:21: a pthread_join result other than NULL is not supported");
}

TEST(CFrontEnd, GlobalsOutsideTheSubsetAreRefused) {
    EXPECT_EQ(errorOf(program("float f;", "")), "4:7: a global variable of type 'float' is not "
                                                "supported");
    EXPECT_EQ(errorOf(program("int *p;", "")), "4:6: a global variable of type 'int *' is not "
                                               "supported");
}

TEST(CFrontEnd, RecursionIsRefused) {
    const std::string e = errorOf(std::string(kHeaders) + R"(
int f(int n) { return n == 0 ? 0 : f(n - 1); }
void *t0(void *arg) { int r = f(2); return NULL; }
int main(void) { pthread_t a; pthread_create(&a, NULL, t0, NULL); return 0; }
)");
    EXPECT_EQ(e, "5:36: a recursive call of 'f' is not supported");
}

TEST(CFrontEnd, ClangErrorsAreInputErrorsAtTheirPosition) {
    EXPECT_EQ(errorOf("int main(void) { return 0 }\n"),
              "1:26: expected ';' after return statement");
    EXPECT_EQ(errorOf("int x;\n"), "1:1: the program has no main function");
}

TEST(CFrontEnd, MainBeforeTheCreatesMayOnlyInitialise) {
    const std::string e = errorOf(std::string(kHeaders) + R"(
int x, y;
void *t0(void *arg) { return NULL; }
int main(void) { pthread_t a; x = y; pthread_create(&a, NULL, t0, NULL); return 0; }
)");
    EXPECT_EQ(e, "7:31: before main's first pthread_create, anything but a constant "
                 "initialisation of a global is not supported");
}

TEST(CFrontEnd, ThreadArgumentsAreConstants) {
    const LoadedProgram p = loadC(std::string(kHeaders) + R"(
int seen[2];
void *w(void *arg) { seen[(long)arg] = 1; return NULL; }
int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, w, (void *)0);
    pthread_create(&b, NULL, &w, (void *)1);
    return 0;
}
)");
    // `&w` names the function as `w` does.
    EXPECT_NE(printProgram(p.program).find("local arg 1"), std::string::npos);
}

} // namespace
} // namespace tsoreach

namespace tsoreach {
namespace {

// --seq-cst-store xchg: a seq_cst store is one locked instruction; the
// default is a store followed by mfence (docs/c.md).
TEST(CFrontEnd, SeqCstStoresAsMfenceOrAsXchg) {
    const std::string text = program("atomic_int x;", "    atomic_store(&x, 1);");
    const std::string mfence = printProgram(loadC(text).program);
    EXPECT_NE(mfence.find("write 1 x\n"), std::string::npos) << mfence;
    EXPECT_NE(mfence.find("mfence"), std::string::npos) << mfence;
    EXPECT_EQ(mfence.find(" lock"), std::string::npos) << mfence;
    FrontEndOptions xchg;
    xchg.seqCstStore = SeqCstStore::Xchg;
    const std::string locked = printProgram(loadC(text, xchg).program);
    EXPECT_NE(locked.find(" lock\n"), std::string::npos) << locked;
    EXPECT_NE(locked.find("write 1 x\n"), std::string::npos) << locked;
    EXPECT_NE(locked.find(" unlock\n"), std::string::npos) << locked;
    // A relaxed store stays a plain write either way.
    const std::string relaxed = printProgram(
        loadC(program("atomic_int x;", "    atomic_store_explicit(&x, 1, memory_order_relaxed);"),
              xchg)
            .program);
    EXPECT_EQ(relaxed.find(" lock"), std::string::npos) << relaxed;
}

// Fence sites: before statements that leave their state by an instruction
// of their own, in loop conditions, and nowhere a fence could be skipped.
TEST(CFrontEnd, FenceSitesAreStatementsAndLoopConditions) {
    const std::string text = program(
        "atomic_int x, y; int r;", "    atomic_store_explicit(&x, 1, memory_order_relaxed);\n"
                                   "    while (atomic_load_explicit(&y, memory_order_relaxed)) {\n"
                                   "        r = 1;\n"
                                   "        if (r) break;\n"
                                   "    }");
    const LoadedProgram p = loadC(text);
    EXPECT_EQ(p.fenceStatement, "atomic_thread_fence(memory_order_seq_cst);");
    std::vector<std::string> where;
    for (const FenceSite& s : p.fenceSites) {
        where.push_back(placeText(s.pos) + (s.condition ? " cond" : "") +
                        (s.braces ? " braces" : ""));
    }
    // Line 5 opens t0: the store (6), the loop's condition (7:12), the
    // body's statements (8, 9); not the `while` (its head is reached again
    // from the body) nor the `break` (a jump away).
    const auto has = [&](const std::string& w) {
        return std::find(where.begin(), where.end(), w) != where.end();
    };
    EXPECT_TRUE(has("6:5")) << ::testing::PrintToString(where);
    EXPECT_TRUE(has("7:12 cond")) << ::testing::PrintToString(where);
    EXPECT_TRUE(has("8:9")) << ::testing::PrintToString(where);
    EXPECT_TRUE(has("9:9")) << ::testing::PrintToString(where);
    EXPECT_FALSE(has("7:5")) << ::testing::PrintToString(where);
    EXPECT_FALSE(has("9:16 braces")) << ::testing::PrintToString(where);
    // Without <stdatomic.h> the fence is GCC's builtin, which needs no header.
    const LoadedProgram plain = loadC("#include <pthread.h>\nint x;\n"
                                      "void *t(void *a) { x = 1; return 0; }\n"
                                      "int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); "
                                      "return 0; }\n");
    EXPECT_EQ(plain.fenceStatement, "__sync_synchronize();");
}

TEST(FenceSites, WrittenOnTheirOwnLineInBracesOrInTheCondition) {
    const std::string src = "  x = 1;\n  if (c) y = 2;\n  while (z) {}\n";
    FenceSite own;
    own.begin = 2;
    own.end = 8;
    own.indent = "  ";
    FenceSite braced;
    braced.begin = 18;
    braced.end = 24;
    braced.braces = true;
    FenceSite cond;
    cond.begin = 34;
    cond.end = 35;
    cond.condition = true;
    const std::vector<FenceSite> sites{own, braced, cond, own}; // twice: written once
    EXPECT_EQ(sourceWithFences(src, sites, "F();"),
              "  F();\n  x = 1;\n  if (c) { F(); y = 2; }\n  while ((F(), z)) {}\n");
}

} // namespace
} // namespace tsoreach

namespace tsoreach {
namespace {

// fuzz_c's findings: a negative constant initialises (it is `-` over a
// literal), and a load's memory order must be a constant like any other's.
TEST(CFrontEnd, NegativeConstantsInitialiseAndLoadOrdersAreConstants) {
    const LoadedProgram p = loadC(std::string(kHeaders) + R"(
int x;
atomic_int y;
void *t0(void *arg) { return NULL; }
int main(void) {
    int r = -1;
    x = -2;
    atomic_store(&y, ~0);
    pthread_t a;
    pthread_create(&a, NULL, t0, NULL);
    return 0;
}
)");
    const MemoryLayout& m = p.program.memory;
    ASSERT_EQ(m.vars.size(), 2U);
    EXPECT_EQ(m.vars[0].init.at(0), -2);
    EXPECT_EQ(m.vars[1].init.at(0), -1);
    EXPECT_NE(errorOf(program("atomic_int x; int o;", "    int r = atomic_load_explicit(&x, o);"))
                  .find("memory order that is not a constant"),
              std::string::npos);
}

// Inside assert(...) the operands are a macro's argument, and libclang's
// extent of an operand that is a macro call (atomic_load) ends where the
// call starts: the operators still come from where the text writes them.
TEST(CFrontEnd, OperatorsNextToMacroCallsInsideAssert) {
    const LoadedProgram p = loadC(program("atomic_int x, y; int z, w;", "", R"(
    pthread_join(a, NULL);
    assert(atomic_load(&x)+atomic_load(&y) == 2);
    assert(-atomic_load(&x) == -1);
    assert(!atomic_load(&y) && ~atomic_load(&x) == -2);
    assert(z++ == 3 && ++z == 5);
    assert(atomic_load(&x) /* a */ - /* b */ atomic_load(&y) < 1);
    assert((atomic_load(&x), atomic_load(&y)) == 0);
    int r = z+++w;
)"));
    const std::string text = printProgram(p.program);
    for (const char* check :
         {"check == + tmp.0 tmp.1 2", "check == - 0 tmp.0 -1", "check ! tmp.0",
          "check == - -1 tmp.1 -2", "write + tmp.0 1 z", "check == tmp.0 3", "check == + tmp.1 1 5",
          "check < - tmp.0 tmp.1 1", "check == tmp.1 0", "local r + tmp.0 tmp.1"}) {
        EXPECT_NE(text.find(check), std::string::npos) << check << " in\n" << text;
    }
}

// Each type keeps its C values: conversions into _Bool, narrow and unsigned
// types, and a mask after unsigned arithmetic (a campaign had found
// `unsigned u = 0; u - 1 > 0` false when values did not wrap).
TEST(CFrontEnd, IntegerTypesConvertAsInC) {
    const LoadedProgram p = loadC(
        program("unsigned char uc = 300; signed char sc = 200; unsigned u = -1; _Bool b = 5;\n"
                "unsigned long ul = -1; int i;",
                R"(    uc += 250;
    u = u + 2;
    b = 2;
    i = -1;
    i /= 2u;
    if (ul - 1 > 5) i = 0;)"));
    const MemoryLayout& m = p.program.memory;
    EXPECT_EQ(m.vars[0].init.at(0), 44);
    EXPECT_EQ(m.vars[1].init.at(0), -56);
    EXPECT_EQ(m.vars[2].init.at(0), 4294967295);
    EXPECT_EQ(m.vars[3].init.at(0), 1);
    EXPECT_EQ(m.vars[4].init.at(0), -1);
    const std::string text = printProgram(p.program);
    for (const char* part :
         {"local tmp.1 & + tmp.0 250 255", "write & + tmp.0 2 4294967295 u", "write 1 b",
          "- & + / & tmp.0 4294967295 2 2147483648 4294967295 2147483648",
          "check > + - tmp.0 1 -9223372036854775808 + 5 -9223372036854775808"}) {
        EXPECT_NE(text.find(part), std::string::npos) << part << " in\n" << text;
    }
}

// Found by scripts/c_types_vs_gcc.py: two pending results of one function
// shared `ret.f` (f(1) * 10 + f(2) was 22), an argument that calls the
// function overwrote a parameter already set (g(1, g(2, 3)) was 43), a
// compound assignment into _Bool lost the unsigned wrap, and `<< 63` was
// refused.
TEST(CFrontEnd, CallResultsArgumentsAndWrapsAsGccComputesThem) {
    const LoadedProgram p = loadC(std::string(kHeaders) + R"(
int f(int x) { return x; }
int g(int a, int b) { return a * 10 + b; }
int r, w;
_Bool bb;
unsigned long u = 1;
void *t0(void *arg) {
    r = f(1) * 10 + f(2);
    w = g(1, g(2, 3));
    _Bool l = 1;
    l += 4294967295u;
    bb = l;
    u = u << 63;
    return NULL;
}
int main(void) {
    pthread_t a;
    pthread_create(&a, NULL, t0, NULL);
    return 0;
}
)");
    const std::string text = printProgram(p.program);
    for (const char* part :
         {"local ret.f x", "local ret.f.1 x", "write + * ret.f 10 ret.f.1 r",
          "local ret.g + * a 10 b", "local a 1", "local b ret.g", "write ret.g.1 w",
          "local l != & + l 4294967295 4294967295 0", "write * tmp.0 -9223372036854775808 u"}) {
        EXPECT_NE(text.find(part), std::string::npos) << part << " in\n" << text;
    }
}

} // namespace
} // namespace tsoreach
