// The .rmm front end: translations of each construct, checked by running
// the translated programs, and positioned errors for what it refuses.

#include "support/identical_programs.hpp"
#include "test_util.hpp"

#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/frontends/rmm/rmm.hpp"
#include "tsoreach/frontends/tsoreach/parser.hpp"
#include "tsoreach/reach/engine.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::Verdict;

// Verdict of the explicit engine on the .rmm test `text` (its forbidden goal).
Verdict verdict(const std::string& text, MemoryModel m) {
    RmmTranslation t = translateRmm(text, "test.rmm");
    auto engine = engines::makeReachEngine("explicit", m);
    reach::Options o;
    o.stop.setTimeout(60);
    return reach::runChecked(*engine, t.program, t.goal, o).verdict;
}

// "LINE:COL: error: ..." of the error the translation raises, or "" if none.
std::string error(const std::string& text) {
    try {
        translateRmm(text, "t.rmm");
    } catch (const InputError& e) {
        return std::to_string(e.pos().line) + ":" + std::to_string(e.pos().col) + ": " +
               e.message();
    }
    return "";
}

constexpr const char* kSb = R"(
/* store buffering */
forbidden DONE DONE
data
  x = 0 : [0:1]
  y = 0 : [0:1]
process
text
  write: x := 1;
  read: y = 0;
  DONE: nop
process
text
  write: y := 1;
  read: x = 0;
  DONE: nop
)";

TEST(Rmm, StoreBufferingIsReachableOnlyUnderRelaxedModels) {
    EXPECT_EQ(verdict(kSb, MemoryModel::SC), Verdict::Unreachable);
    EXPECT_EQ(verdict(kSb, MemoryModel::TSO), Verdict::Reachable);
    EXPECT_EQ(verdict(kSb, MemoryModel::PSO), Verdict::Reachable);
    std::string fenced = kSb;
    for (const char* w : {"write: x := 1;", "write: y := 1;"}) {
        fenced.replace(fenced.find(w), std::string(w).size(), std::string(w) + " fence;");
    }
    EXPECT_EQ(verdict(fenced, MemoryModel::TSO), Verdict::Unreachable);
    EXPECT_EQ(verdict(fenced, MemoryModel::PSO), Verdict::Unreachable);
}

TEST(Rmm, LabelsNameStatesAndTheSingleTupleBecomesFinalStates) {
    RmmTranslation t = translateRmm(kSb, "sb.rmm");
    ASSERT_EQ(t.program.threads.size(), 2U);
    EXPECT_EQ(t.program.threads[0].name, "p0");
    EXPECT_EQ(t.goal.termCount(), 1U);
    EXPECT_EQ(t.goal.describe(t.program), "p0=DONE,p1=DONE");
    EXPECT_NE(t.text.find("final DONE"), std::string::npos);
    // Transitions carry the .rmm positions: the write of p0 is on line 9.
    EXPECT_EQ(t.program.transitions[0].pos.line, 9U);
    EXPECT_EQ(t.program.transitions[0].pos.col, 3U);
}

TEST(Rmm, LocalDataIsPerProcessAndIndexedRelatively) {
    // Each process raises its own flag and waits for the other's: [0] is the
    // first *other* process, so both read each other's flag.
    const std::string text = R"(
forbidden A A
process(2)
data
  f = 0 : [0:1]
text
  write: f[my] := 1;
  read: f[0] = 1;
  A: nop
)";
    EXPECT_EQ(verdict(text, MemoryModel::SC), Verdict::Reachable);
    RmmTranslation t = translateRmm(text, "f.rmm");
    // One array with a cell per process: f[p] is process p's copy.
    EXPECT_NE(t.text.find("memory f[2]\n"), std::string::npos) << t.text;
    // p0 writes its own copy and reads p1's, and back.
    const std::size_t p1 = t.text.find("thread p1");
    EXPECT_LT(t.text.find("write 1 f[0]"), p1) << t.text;
    EXPECT_LT(t.text.find("read _t f[1]"), p1) << t.text;
    EXPECT_GT(t.text.find("write 1 f[1]"), p1) << t.text;
    EXPECT_GT(t.text.find("read _t f[0]"), p1) << t.text;
}

TEST(Rmm, OutOfDomainValuesDisableTheStep) {
    const std::string text = R"(
forbidden B
data x = 0 : [0:1]
process
registers $r = 0 : [0:3]
text
  $r := 2;
  write: x := $r;
  B: nop
)";
    EXPECT_EQ(verdict(text, MemoryModel::SC), Verdict::Unreachable);
    std::string ok = text;
    ok.replace(ok.find("$r := 2"), 7, "$r := 1");
    EXPECT_EQ(verdict(ok, MemoryModel::SC), Verdict::Reachable);
    std::string narrow = text;
    narrow.replace(narrow.find("[0:3]"), 5, "[0:1]");
    EXPECT_EQ(verdict(narrow, MemoryModel::SC), Verdict::Unreachable);
}

TEST(Rmm, NondeterministicInitialValuesAreChosenBeforeAnyProcessStarts) {
    for (int v : {0, 1, 2}) {
        const std::string text =
            "forbidden B\ndata t = * : [0:1]\nprocess\ntext\n  read: t = " + std::to_string(v) +
            ";\n  B: nop\n";
        EXPECT_EQ(verdict(text, MemoryModel::TSO),
                  v <= 1 ? Verdict::Reachable : Verdict::Unreachable)
            << v;
    }
    // A constant start value is seen by every process, even under PSO: it
    // is the program's initial value, no thread writes it.
    const std::string seven = "forbidden B B\ndata a = 7 b = 5\nprocess(2)\ntext\n"
                              "  read: b = 0;\n  B: nop\n";
    EXPECT_EQ(verdict(seven, MemoryModel::PSO), Verdict::Unreachable);
    const RmmTranslation t = translateRmm(seven, "seven.rmm");
    EXPECT_EQ(t.program.threads.size(), 2U); // no `init` thread
    EXPECT_EQ(t.program.memory.initialCells(), (std::vector<MemoryCell>{{0, 7}, {1, 5}}));
    EXPECT_NE(t.text.find("memory a = 7 b = 5\n"), std::string::npos) << t.text;
    // A register's '*' matters when it is read before written.
    const std::string reg = "forbidden B\nprocess\nregisters $r = * : [4:5]\ntext\n"
                            "  assume: $r = 5;\n  B: nop\n";
    EXPECT_EQ(verdict(reg, MemoryModel::SC), Verdict::Reachable);
    EXPECT_NE(error("forbidden B\nprocess\nregisters $r = *\ntext\n  assume: $r = 5;\n  B: nop\n")
                  .find("3:11: initial value '*' of register '$r' ranges over all integers"),
              std::string::npos);
    // ... and not when it is written first.
    EXPECT_EQ(verdict("forbidden B\nprocess\nregisters $r = *\ntext\n  $r := 1;\n"
                      "  assume: $r = 1;\n  B: nop\n",
                      MemoryModel::SC),
              Verdict::Reachable);
}

TEST(Rmm, CasIsAtomicAndBlocksOnAMismatch) {
    const std::string cas = R"(
forbidden CS CS
data l = 0 : [0:1]
process(2)
text
  cas(l, 0, 1);
  CS: write: l := 0
)";
    for (MemoryModel m : {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO}) {
        EXPECT_EQ(verdict(cas, m), Verdict::Unreachable) << reach::name(m);
    }
    // The same test-and-set without atomicity lets both in.
    std::string racy = cas;
    racy.replace(racy.find("cas(l, 0, 1)"), 12, "read: l = 0; write: l := 1");
    EXPECT_EQ(verdict(racy, MemoryModel::SC), Verdict::Reachable);
}

TEST(Rmm, LockedBlocksChooseOneAlternativeAtomically) {
    const std::string text = R"(
forbidden B *
data x = 0 : [0:2]
process
registers $r = 0 : [0:2]
text
  locked { read: x = 0; write: x := 1 or read: x = 2; write: x := 0 };
  read: $r := x;
  assume: $r = 1;
  B: nop
process
text
  locked { read: x = 1; write: x := 2 }
)";
    EXPECT_EQ(verdict(text, MemoryModel::TSO), Verdict::Reachable);
    // A block without a write is an atomic block (docs/language.md).
    EXPECT_EQ(
        error("forbidden B\ndata x = 0\nprocess\ntext\n  locked { read: x = 0 };\n  B: nop\n"), "");
    EXPECT_NE(error("forbidden B\ndata x = 0\nprocess\ntext\n  locked { goto B; write: x := 1 };\n"
                    "  B: nop\n")
                  .find("5:12: this statement is not allowed inside a 'locked' block"),
              std::string::npos);
}

TEST(Rmm, ControlFlowStatements) {
    // while/if/either/goto: count to 2 in a register, branching both ways.
    const std::string text = R"(
forbidden DONE
process
registers $i = 0 : [0:3]
text
  while $i < 2 do {
    either { $i := $i + 1 or nop }
  };
  if $i = 2 then goto DONE else goto OTHER;
  OTHER: goto OTHER;
  DONE: nop
)";
    EXPECT_EQ(verdict(text, MemoryModel::SC), Verdict::Reachable);
    std::string never = text;
    never.replace(never.find("$i = 2 then"), 11, "$i = 3 then");
    EXPECT_EQ(verdict(never, MemoryModel::SC), Verdict::Unreachable);
}

TEST(Rmm, MacrosExpandWithParametersAndNesting) {
    const std::string text = R"(
forbidden CS CS
data
  a = 0 : [0:1]
  b = 0 : [0:1]
macro flagup(v) write: v := 1 endmacro
macro proc(mine, theirs)
process
text
  flagup(mine); fence;
  read: theirs = 0;
  CS: nop
endmacro
proc(a, b)
proc(b, a)
)";
    EXPECT_EQ(verdict(text, MemoryModel::TSO), Verdict::Unreachable);
    EXPECT_NE(error("forbidden A\nmacro m() m() endmacro\nprocess text A: m()\n")
                  .find("macro 'm' calls itself"),
              std::string::npos);
    EXPECT_NE(error("forbidden A\nmacro m(x) nop endmacro\nprocess text A: m(1, 2)\n")
                  .find("3:17: macro 'm' takes 1 argument(s), given 2"),
              std::string::npos);
    EXPECT_NE(error("forbidden A\nmacro m(x) nop\n").find("2:7: macro 'm' has no 'endmacro'"),
              std::string::npos);
}

TEST(Rmm, SeveralForbiddenTuplesAreAnyOf) {
    const std::string text = R"(
forbidden A B ; B A
process(2)
text
  A: nop;
  B: nop
)";
    RmmTranslation t = translateRmm(text, "two.rmm");
    EXPECT_EQ(t.goal.termCount(), 2U);
    EXPECT_EQ(t.goal.describe(t.program), "p0=A,p1=B or p0=B,p1=A");
    auto engine = engines::makeReachEngine("explicit", MemoryModel::SC);
    reach::Result r = reach::runChecked(*engine, t.program, t.goal, reach::Options{});
    ASSERT_EQ(r.verdict, Verdict::Reachable);
    // The shortest run moves one thread: p0 at B, p1 at A is term 2.
    EXPECT_LT(r.trace->goalTerm, 2U);
}

TEST(Rmm, PositionedErrors) {
    const struct {
        const char* text;
        const char* where;
    } cases[] = {
        {"forbidden A\nprocess\ntext\n  A: $r := 1\n", "4:6: register '$r' is not declared"},
        {"forbidden A\nprocess\ntext\n  A: goto Z\n", "4:6: no label 'Z' in this process"},
        {"forbidden A\nprocess\ntext\n  A: write: x := 1\n", "4:13: no global variable 'x'"},
        {"forbidden A\nprocess\ndata f = 0\ntext\n  A: read: f[3] = 1\n",
         "5:12: 'f[3]' names no process"},
        {"forbidden A\nprocess\ndata f = 0\ntext\n  A: write: f := 1\n",
         "5:13: 'f' is process-local"},
        {"forbidden A A\nprocess\ntext\n  A: nop\n", "1:11: this forbidden tuple names 2 label(s)"},
        {"forbidden Q\nprocess\ntext\n  A: nop\n", "1:11: process 0 has no label 'Q'"},
        {"forbidden A\nprocess\ntext\n  A: nop;\n  A: nop\n", "5:3: label 'A' is defined twice"},
        {"forbidden A /* open\nprocess\n", "1:13: comment '/*' is never closed"},
        {"forbidden A\nprocess\nregisters $r = 0\ntext\n  A: $r := me\n",
         "5:12: 'me' is not supported"},
        {"forbidden A\nprocess\ntext\n  A: ssfence\n", "4:6: 'ssfence' is not supported"},
        {"forbidden A\nprocess\nregisters $r = 99999999999999999999\ntext\n  A: nop\n",
         "3:16: number '99999999999999999999' out of range"},
        {"forbidden A\ndata x = 5 : [0:1]\nprocess\ntext\n  A: nop\n",
         "2:6: initial value 5 of 'x' is outside its domain"},
        {"forbidden A\nprocess\ntext\n  A: write: [7] := 1\n",
         "4:13: pointer [7] is outside the 0 global variables"},
        {"forbidden A\nprocess\ntext\n  A: nop ! x\n", "4:10: unexpected character '!'"},
        {"process\ntext\n  nop\n", "1:1: a .rmm test starts with 'forbidden'"},
        {"forbidden A\nprocess\ntext\n  A: read: 5 = 1\n", "4:12: expected a memory location"},
    };
    for (const auto& c : cases) {
        EXPECT_NE(error(c.text).find(c.where), std::string::npos)
            << c.text << "\n got: " << error(c.text);
    }
    // Deep nesting is refused, not a stack overflow.
    std::string deep = "forbidden A\nprocess\ntext\n  A: ";
    for (int i = 0; i < 5000; ++i) {
        deep += "{ ";
    }
    EXPECT_NE(error(deep).find("nest more than"), std::string::npos);
    std::string deepExpr = "forbidden A\nprocess\nregisters $r = 0\ntext\n  A: $r := ";
    for (int i = 0; i < 5000; ++i) {
        deepExpr += "(";
    }
    EXPECT_NE(error(deepExpr).find("nests more than"), std::string::npos);
}

TEST(Rmm, EveryCorpusFileTranslatesOrNamesTheUnsupportedConstruct) {
    const auto files = test::filesUnder(
        std::filesystem::path(TSOREACH_SOURCE_DIR) / "tests" / "corpus" / "memorax", ".rmm");
    ASSERT_GE(files.size(), 18U);
    std::size_t translated = 0;
    for (const auto& f : files) {
        try {
            LoadedProgram p = loadProgramFile(f.string(), kAutoInputFormat);
            ASSERT_TRUE(p.goal.has_value()) << f;
            ++translated;
        } catch (const InputError& e) {
            // Only the VIPS-M store-store fence is refused in this corpus.
            EXPECT_NE(e.message().find("'ssfence' is not supported"), std::string::npos)
                << e.what();
            EXPECT_GT(e.pos().line, 0U) << e.what();
        }
    }
    EXPECT_GE(translated, 13U);
}

// The translation is built (lang/builder.hpp), not printed and parsed: the
// built program is the one its text (what `print` shows) parses to, and its
// positions point into the .rmm file.
TEST(Rmm, TheBuiltTranslationIsWhatItsTextParsesTo) {
    const std::filesystem::path corpus = TSOREACH_CORPUS_DIR;
    std::vector<std::filesystem::path> files = test::filesUnder(corpus / "memorax", ".rmm");
    for (const auto& f : test::filesUnder(corpus / "trencher-reachability", ".rmm")) {
        files.push_back(f);
    }
    ASSERT_GE(files.size(), 22U);
    std::size_t compared = 0;
    for (const auto& f : files) {
        const std::string source = readProgramText(f.string());
        std::optional<RmmTranslation> t;
        try {
            t = translateRmm(source, f.string());
        } catch (const InputError&) {
            continue; // EveryCorpusFileTranslatesOrNamesTheUnsupportedConstruct
        }
        const Program parsed = parseProgram(t->text, f.string());
        test::expectIdentical(t->program, parsed, f.filename().string(), false);
        const auto lines =
            static_cast<std::uint32_t>(std::count(source.begin(), source.end(), '\n'));
        for (const Transition& tr : t->program.transitions) {
            EXPECT_TRUE(tr.pos.line >= 1 && tr.pos.line <= lines + 1 && tr.pos.col >= 1) << f;
        }
        for (const Thread& th : t->program.threads) {
            EXPECT_TRUE(th.pos.line >= 1 && th.pos.line <= lines + 1 && th.pos.col >= 1) << f;
        }
        ++compared;
    }
    EXPECT_GE(compared, 17U);
}

} // namespace
} // namespace tsoreach

namespace tsoreach {
namespace {

// A locked block whose check after a write fails does nothing at all, as
// Memorax's (the xchg/cmpxchg idiom): the translation takes the writes back
// before anyone can see them, also through a pointer.
TEST(Rmm, ChecksAfterWritesInsideLockedBlocksUndoTheWrites) {
    const std::string blocked = "forbidden * M\ndata x = 0 : [0:1] y = 0 : [0:1]\n"
                                "process\nregisters $p = 0 : [0:1]\ntext\n"
                                "  locked { write: [$p] := 1; write: x := 1; read: y = 1 };\n"
                                "  L: nop\n"
                                "process\ntext\n  either { read: x = 1 or read: y = 1 };\n"
                                "  M: nop\n";
    for (MemoryModel m : {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO}) {
        EXPECT_EQ(verdict(blocked, m), Verdict::Unreachable) << reach::name(m);
    }
    // When the check can pass, the writes stay.
    std::string passes = blocked;
    passes.replace(passes.find("read: y = 1 }"), 13, "read: y = 0 }");
    for (MemoryModel m : {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO}) {
        EXPECT_EQ(verdict(passes, m), Verdict::Reachable) << reach::name(m);
    }
    // Checks first, then writes: atomic as well.
    EXPECT_EQ(verdict("forbidden * M\ndata x = 0 : [0:1] y = 0 : [0:1]\nprocess\ntext\n"
                      "  locked { read: y = 1; write: x := 1 };\n  L: nop\n"
                      "process\ntext\n  read: x = 1;\n  M: nop\n",
                      MemoryModel::TSO),
              Verdict::Unreachable);
    // Which writes to take back after a nested choice is not known.
    EXPECT_NE(error("forbidden L\ndata x = 0 : [0:1] y = 0 : [0:1]\nprocess\ntext\n"
                    "  locked { locked { write: x := 1 or nop }; read: y = 1 };\n  L: nop\n")
                  .find("5:45: a statement that can block after a nested 'locked' block"),
              std::string::npos);
}

TEST(Rmm, XchgMutexOfTheCubicleAuthorsIsSafe) {
    const std::string xchg = R"(
forbidden CS CS
data lock = 0 : [0:1]
process (2)
registers
  $r = * : [0:1]
  $t = * : [0:1]
text
  ENT: $r := 1;
       locked { read: $t := lock; write: lock := $r; $r := $t };
       if $r = 1 then goto ENT;
  CS:  nop;
  REL: write: lock := 0;
       goto ENT
)";
    for (MemoryModel m : {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO}) {
        EXPECT_EQ(verdict(xchg, m), Verdict::Unreachable) << reach::name(m);
    }
}

// Found in review: domains at the ends of the 64-bit range overflowed the
// count of initial choices.
TEST(Rmm, InitialChoicesAtTheEndsOfTheIntegerRange) {
    EXPECT_EQ(verdict("forbidden B\ndata x = * : [9223372036854775807:9223372036854775807]\n"
                      "process\ntext\n  read: x = 9223372036854775807;\n  B: nop\n",
                      MemoryModel::SC),
              Verdict::Reachable);
    EXPECT_NE(error("forbidden B\ndata x = * : [-9223372036854775808:0]\nprocess\ntext\n  B: nop\n")
                  .find("has more than 256 choices"),
              std::string::npos);
    EXPECT_NE(error("forbidden B\nprocess\nregisters $r = * : "
                    "[-9223372036854775808:9223372036854775807]\ntext\n  assume: $r = 1;\n"
                    "  B: nop\n")
                  .find("has more than 256 choices"),
              std::string::npos);
}

} // namespace
} // namespace tsoreach
