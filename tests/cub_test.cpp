// The .cub front end and `tsoreach param` (docs/parameterized.md): every
// Cubicle-W file of tests/corpus/cubicle-w parses or gets a positioned
// error naming the construct; instances decide the hand-checked examples
// (examples/cub, expected verdicts derived in their headers) and the
// corpus programs at small N as their names claim.

#include "support/cli_fixture.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/cub/instantiate.hpp"
#include "tsoreach/frontends/cub/parser.hpp"
#include "tsoreach/frontends/front_end.hpp"
#include "tsoreach/reach/engine.hpp"

#include <filesystem>

#include <gtest/gtest.h>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::Verdict;

const std::string kCorpus = std::string(TSOREACH_CORPUS_DIR) + "/cubicle-w/";
const std::string kExamples = std::string(TSOREACH_SOURCE_DIR) + "/examples/cub/";

cub::System load(const std::string& path) {
    return cub::parseCub(readProgramText(path), path);
}

// The verdict over every setup at n processes, with the explicit engine.
Verdict verdictAt(const std::string& path, std::size_t n, MemoryModel m) {
    const cub::Instances made = cub::instantiate(load(path), n);
    Verdict v = Verdict::Unreachable;
    for (const cub::Instance& inst : made.instances) {
        auto engine = engines::makeReachEngine("explicit", m);
        reach::Options o;
        o.stop.setTimeout(120);
        const reach::Result r = reach::runChecked(*engine, inst.program, inst.goal, o);
        if (r.verdict == Verdict::Reachable) {
            return r.verdict;
        }
        if (r.verdict == Verdict::Unknown) {
            v = Verdict::Unknown;
        }
    }
    return v;
}

TEST(Cub, EveryCorpusFileParses) {
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(kCorpus)) {
        if (e.path().extension() == ".cub") {
            ++files;
            EXPECT_NO_THROW(load(e.path().string())) << e.path();
        }
    }
    EXPECT_EQ(files, 30U);
}

// Constructs outside the translation: an error at the construct, naming it.
TEST(Cub, UntranslatableCorpusFilesGetPositionedErrors) {
    struct Case {
        const char* file;
        std::uint32_t line;
        const char* words;
    };
    for (const Case& c : {
             Case{"chandy_misra.cub", 53, "regular cell of another process"},
             Case{"ticket_spin_lock_N.cub", 10, "may be read before it is assigned"},
         }) {
        try {
            (void)cub::instantiate(load(kCorpus + c.file), 2);
            ADD_FAILURE() << c.file << " was translated";
        } catch (const InputError& e) {
            EXPECT_EQ(e.pos().line, c.line) << c.file << ": " << e.what();
            EXPECT_NE(e.message().find(c.words), std::string::npos) << e.what();
        }
    }
}

TEST(Cub, SyntaxErrorsArePositioned) {
    struct Case {
        const char* text;
        std::uint32_t line, col;
        const char* words;
    };
    for (const Case& c : {
             Case{"type t = A\nunsafe (p) { exists_other q. A = A }", 2, 14,
                  "'exists_other' is not in the supported subset"},
             Case{"(* open\n", 1, 1, "never closed"},
             Case{"var X : bool\ntransition t ([p]) { X := True ", 2, 32, "expected"},
             Case{"var X : bool\nunsafe { X => X }", 2, 12, "'=>' is not in the supported subset"},
             Case{"array A[proc,proc,proc] : bool", 1, 23, "more than two dimensions"},
         }) {
        try {
            (void)cub::parseCub(c.text, "x.cub");
            ADD_FAILURE() << c.text;
        } catch (const InputError& e) {
            EXPECT_EQ(e.pos().line, c.line) << e.what();
            EXPECT_EQ(e.pos().col, c.col) << e.what();
            EXPECT_NE(e.message().find(c.words), std::string::npos) << e.what();
        }
    }
}

TEST(Cub, HandCheckedExamples) {
    struct Case {
        const char* file;
        Verdict sc, tso;
    };
    for (const Case& c : {
             Case{"sb_nofence.cub", Verdict::Unreachable, Verdict::Reachable},
             Case{"rmw_is_fence.cub", Verdict::Unreachable, Verdict::Unreachable},
             Case{"snapshot_read.cub", Verdict::Unreachable, Verdict::Unreachable},
             Case{"reads_in_sequence.cub", Verdict::Reachable, Verdict::Reachable},
             Case{"own_store_forwarded.cub", Verdict::Unreachable, Verdict::Unreachable},
         }) {
        EXPECT_EQ(verdictAt(kExamples + c.file, 2, MemoryModel::SC), c.sc) << c.file;
        EXPECT_EQ(verdictAt(kExamples + c.file, 2, MemoryModel::TSO), c.tso) << c.file;
    }
}

// The corpus at N = 2 under TSO, as the names claim (Table 1 of the paper
// and the README); the unsafe ones need TSO (safe under SC).
TEST(Cub, CorpusAtTwoProcesses) {
    for (const char* safe : {"mutex_N.cub", "dekker_2.cub", "peterson_2.cub", "spinlock_N.cub",
                             "sense_rev_N.cub", "arbiter_v1_N.cub", "minimal.cub",
                             "mutex_xchg_N.cub", "dekker_2b.cub", "peterson_2b.cub"}) {
        EXPECT_EQ(verdictAt(kCorpus + safe, 2, MemoryModel::TSO), Verdict::Unreachable) << safe;
    }
    for (const char* unsafe : {"mutex_N_us.cub", "dekker_2_us.cub", "peterson_2_us.cub",
                               "dekker_2b_us.cub", "peterson_2b_us.cub"}) {
        EXPECT_EQ(verdictAt(kCorpus + unsafe, 2, MemoryModel::TSO), Verdict::Reachable) << unsafe;
        EXPECT_EQ(verdictAt(kCorpus + unsafe, 2, MemoryModel::SC), Verdict::Unreachable) << unsafe;
    }
}

// Transitions with several weak writes (joinwrite groups) and unsafe
// cubes with views. msi_N at N = 3 was once unsafe through the half-made
// state inside write_miss's locked block (views are read outside blocks).
TEST(Cub, GroupsAndViews) {
    for (const auto& [file, n] :
         std::vector<std::pair<const char*, std::size_t>>{{"msi_N.cub", 3},
                                                          {"two_phase_N.cub", 3},
                                                          {"dekker_simple_N.cub", 2},
                                                          {"lamport_simple_N.cub", 2},
                                                          {"moesi_N.cub", 2},
                                                          {"two_phase_i_N.cub", 2}}) {
        EXPECT_EQ(verdictAt(kCorpus + file, n, MemoryModel::TSO), Verdict::Unreachable) << file;
    }
    EXPECT_EQ(verdictAt(kCorpus + "lamport_N_us.cub", 2, MemoryModel::TSO), Verdict::Reachable);
    EXPECT_EQ(verdictAt(kCorpus + "lamport_N_us.cub", 2, MemoryModel::SC), Verdict::Unreachable);
    // X := p; X_set := True loops without a fence: the buffer outgrows any
    // bound, so the explicit engine cannot prove it (param then asks the
    // backward search: InstanceProvedByTheBackwardSearch).
    EXPECT_EQ(verdictAt(kCorpus + "lamport_N.cub", 2, MemoryModel::TSO), Verdict::Unknown);
}

// An unsafe cube over more processes than there are holds in no setup.
TEST(Cub, CubeOverMoreProcessesThanThereAreIsSafe) {
    const cub::System sys =
        cub::parseCub("type s = A | B\narray S[proc] : s\ninit (p) { S[p] = A }\n"
                      "unsafe (i j k) { S[i] = B && S[j] = B && S[k] = B }\n"
                      "transition t ([p]) requires { S[p] = A } { S[p] := B }\n",
                      "x.cub");
    EXPECT_TRUE(cub::instantiate(sys, 2).instances.empty());
    EXPECT_EQ(cub::instantiate(sys, 2).unreachableSetups, 1U);
}

// Verdicts of small systems at N=2 under TSO, found by a review: each was
// wrong once. The expected answers are argued beside each.
Verdict textVerdict(const std::string& text, MemoryModel m = MemoryModel::TSO) {
    const cub::Instances made = cub::instantiate(cub::parseCub(text, "x.cub"), 2);
    for (const cub::Instance& inst : made.instances) {
        auto engine = engines::makeReachEngine("explicit", m);
        if (reach::runChecked(*engine, inst.program, inst.goal, reach::Options{}).verdict ==
            Verdict::Reachable) {
            return Verdict::Reachable;
        }
    }
    return Verdict::Unreachable;
}

TEST(Cub, ReviewedShapes) {
    // forall_other in a cube ranges over the processes the cube does not
    // name: #1 at B while #2 is still at A.
    EXPECT_EQ(textVerdict("type loc = A | B\narray PC[proc] : loc\ninit (p) { PC[p] = A }\n"
                          "transition go ([p]) requires { PC[p] = A } { PC[p] := B }\n"
                          "unsafe (p) { PC[p] = B && forall_other q. PC[q] = A }"),
              Verdict::Reachable);
    // A cube over const cells only holds from the start in the setup that
    // makes it true.
    EXPECT_EQ(textVerdict("type loc = A\nconst K[proc] : bool\narray PC[proc] : loc\n"
                          "init (p) { PC[p] = A }\n"
                          "transition go ([p]) requires { PC[p] = A } { PC[p] := A }\n"
                          "unsafe (p q) { K[p] = True && K[q] = True }"),
              Verdict::Reachable);
    // A transition called `init` is not the thread's first steps: C is
    // never reached, so F stays False.
    EXPECT_EQ(textVerdict("type loc = A | B | C\narray PC[proc] : loc\narray F[proc] : bool\n"
                          "weak var X : bool\ninit (p) { PC[p] = B && F[p] = False && X = False }\n"
                          "transition init ([p]) requires { PC[p] = C && X = False } "
                          "{ F[p] := True }\nunsafe (p) { F[p] = True }"),
              Verdict::Unreachable);
    // A weak case without `_` that writes nothing leaves a read-only
    // transition, not a locked one: store buffering stays possible.
    EXPECT_EQ(textVerdict("type loc = L1 | L2 | L3\narray PC[proc] : loc\n"
                          "weak array X[proc] : bool\nweak var Z : bool\n"
                          "init (p) { PC[p] = L1 && X[p] = False && Z = False }\n"
                          "transition t1 ([p]) requires { PC[p] = L1 } "
                          "{ PC[p] := L2; X[p] := True }\n"
                          "transition t2 ([p] q) requires { PC[p] = L2 && X[q] = False } "
                          "{ PC[p] := L3; Z := case | X[q] = True : True }\n"
                          "unsafe (p q) { PC[p] = L3 && PC[q] = L3 }"),
              Verdict::Reachable);
    // ... and under SC it is safe (the second reader sees the first write).
    EXPECT_EQ(textVerdict("type loc = L1 | L2 | L3\narray PC[proc] : loc\n"
                          "weak array X[proc] : bool\nweak var Z : bool\n"
                          "init (p) { PC[p] = L1 && X[p] = False && Z = False }\n"
                          "transition t1 ([p]) requires { PC[p] = L1 } "
                          "{ PC[p] := L2; X[p] := True }\n"
                          "transition t2 ([p] q) requires { PC[p] = L2 && X[q] = False } "
                          "{ PC[p] := L3; Z := case | X[q] = True : True }\n"
                          "unsafe (p q) { PC[p] = L3 && PC[q] = L3 }",
                          MemoryModel::SC),
              Verdict::Unreachable);
}

// Inputs refused whatever N, at the construct.
TEST(Cub, ReviewedErrors) {
    struct Case {
        const char* text;
        const char* words;
    };
    for (const Case& c : {
             // an int cell that a case without `_` may leave unassigned
             Case{"type loc = A | B\narray P[proc] : loc\narray X[proc] : int\n"
                  "array F[proc] : bool\ninit (p) { P[p] = A && F[p] = False }\n"
                  "transition t1 ([p]) requires { P[p] = A } "
                  "{ P[p] := B; X[p] := case | F[p] = True : 1 }\n"
                  "transition t2 ([p]) requires { P[p] = B && X[p] = 5 } { F[p] := True }\n"
                  "unsafe (p) { F[p] = True }",
                  "may be read before it is assigned"},
             Case{"type loc = A\narray P[proc] : loc\ninit (p) { P[p] = A }\n"
                  "transition t ([p]) { P[p] := A; P[p] := A }\nunsafe (p) { P[p] = A }",
                  "assigned twice"},
             Case{"type loc = A\narray P[proc] : loc\ntransition t ([p]) { P[p] := A }\n"
                  "transition t ([p]) { P[p] := A }\nunsafe (p) { P[p] = A }",
                  "declared twice"},
             Case{"type s = C | A\ntype loc = A | B\nunsafe (p) { true }", "already belongs"},
             Case{"type loc = A\nconst K[proc] : bool\narray P[proc] : loc\n"
                  "transition t ([p]) requires { p @ K[p] = True } { P[p] := A }\n"
                  "unsafe (p) { P[p] = A }",
                  "not weak"},
             Case{"type loc = A\narray P[proc] : loc\nunsafe (p q r) { P[p] = Zzz }",
                  "unknown name 'Zzz'"},
             Case{"type loc = A\narray P[proc] : loc\nunsafe (p p) { P[p] = A }", "named twice"},
         }) {
        try {
            (void)cub::instantiate(cub::parseCub(c.text, "x.cub"), 2);
            ADD_FAILURE() << c.text;
        } catch (const InputError& e) {
            EXPECT_GT(e.pos().line, 0U) << e.what();
            EXPECT_NE(e.message().find(c.words), std::string::npos) << e.what();
        }
    }
}

class ParamCli : public test::CliFixture {};

TEST_F(ParamCli, UnsafeAtTheFirstNWithTraceInCubTerms) {
    const test::CliOutcome r =
        run("param '" + kCorpus + "mutex_N_us.cub' --procs 2..3 --model tso");
    EXPECT_EQ(r.code, 10) << r.err;
    EXPECT_NE(r.out.find("N=2: unsafe"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("N=3"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("p1: t2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("trace (replayed)"), std::string::npos) << r.out;
}

TEST_F(ParamCli, SafeForEveryNAskedFor) {
    const test::CliOutcome r = run("param '" + kCorpus + "mutex_N.cub' --procs 2..3 --json");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("\"verdict\": \"safe\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"n\": 3"), std::string::npos) << r.out;
    // The header of every JSON document (docs/json.md), then the mode.
    EXPECT_EQ(r.out.rfind("{\n  \"tool\": \"tsoreach\",", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("\"schema_version\": 1,\n  \"command\": \"param\",\n  \"mode\": "
                         "\"instances\""),
              std::string::npos)
        << r.out;
}

// --print shows each setup's program, which `reach --goal` checks as printed.
TEST_F(ParamCli, PrintedProgramsAreCheckedAsPrinted) {
    const test::CliOutcome r = run("param '" + kCorpus + "dekker_2_us.cub' --procs 2 --print");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("# goal p1=unsafe,p2=unsafe\nmemory Want[3] Turn = 1\n"),
              std::string::npos)
        << r.out;
    const std::string first = r.out.substr(0, r.out.find("\n\n# "));
    const test::CliOutcome reach =
        run("reach '" + write("p.txt", first) + "' --goal p1=unsafe,p2=unsafe --model tso");
    EXPECT_EQ(reach.code, 10) << reach.out << reach.err;
}

TEST_F(ParamCli, ErrorsAndUsage) {
    const test::CliOutcome bad =
        run("param '" + write("x.cub", "var X : bool\nfoo\n") + "' --procs 2");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("x.cub:2:1: error:"), std::string::npos) << bad.err;
    EXPECT_TRUE(bad.out.empty()) << bad.out;
    EXPECT_EQ(run("param '" + kCorpus + "mutex_N.cub' --procs 3..2").code, 2);
    EXPECT_EQ(run("param '" + kCorpus + "mutex_N.cub' --procs 2 --model pso").code, 2);
    const test::CliOutcome fixed = run("param '" + kCorpus + "dekker_2.cub' --procs 3");
    EXPECT_EQ(fixed.code, 2);
    EXPECT_NE(fixed.err.find("number_procs 2"), std::string::npos) << fixed.err;
}

// Every N at once: a proof, a confirmed unsafe path with the instance's
// trace, and the usage rules of the mode.
TEST_F(ParamCli, EveryNAtOnce) {
    const test::CliOutcome safe = run("param '" + kCorpus + "mutex_N.cub' --stats");
    EXPECT_EQ(safe.code, 0) << safe.err;
    EXPECT_NE(safe.out.find("safe for all N"), std::string::npos) << safe.out;
    EXPECT_NE(safe.out.find("pre-images"), std::string::npos) << safe.out;
    const test::CliOutcome unsafe = run("param '" + kCorpus + "mutex_N_us.cub' --json");
    EXPECT_EQ(unsafe.code, 10) << unsafe.err;
    EXPECT_NE(unsafe.out.find("\"mode\": \"all-n\""), std::string::npos) << unsafe.out;
    EXPECT_NE(unsafe.out.find("\"verdict\": \"unsafe\""), std::string::npos) << unsafe.out;
    EXPECT_NE(unsafe.out.find("\"transition\": \"t2\""), std::string::npos) << unsafe.out;
    // The instance's trace as reach --json's steps, its .cub transitions as objects.
    EXPECT_NE(unsafe.out.find("\"instance\": {"), std::string::npos) << unsafe.out;
    EXPECT_NE(unsafe.out.find("\"process\": \"p"), std::string::npos) << unsafe.out;
    EXPECT_NE(unsafe.out.find("\"kind\": \"flush\""), std::string::npos) << unsafe.out;
    EXPECT_NE(unsafe.out.find("\"goal_step\": "), std::string::npos) << unsafe.out;
    const test::CliOutcome limited = run("param '" + kCorpus + "arbiter_v2_N.cub' --max-states 50");
    EXPECT_EQ(limited.code, 3) << limited.out << limited.err;
    EXPECT_NE(limited.out.find("unknown"), std::string::npos) << limited.out;
    EXPECT_EQ(run("param '" + kCorpus + "mutex_N.cub' --model sc").code, 2);
    EXPECT_EQ(run("param '" + kCorpus + "mutex_N.cub' --print").code, 2);
}

// Found by a differential campaign (scripts/cub_fuzz.py): an unbound index
// in a weak write crashed the search; one pre-image's value search ignored
// --timeout for minutes; a path whose instance the translation refuses
// exited 2 after the search; no unsafe cube was "safe for all N".
TEST_F(ParamCli, EveryNAtOnceOnCampaignFindings) {
    const std::string head = "type loc = L0 | L1\narray PC[proc] : loc\n";
    const test::CliOutcome all =
        run("param '" +
            write("all.cub", head + "weak array A[proc] : bool\ninit (p) { PC[p] = L0 && A[p] = "
                                    "False }\nunsafe (p1) { PC[p1] = L1 }\ntransition t ([p])\n"
                                    "requires { PC[p] = L0 }\n{ PC[p] := L1; A[j] := True }\n") +
            "'");
    EXPECT_EQ(all.code, 2) << all.out << all.err;
    EXPECT_NE(all.err.find("all.cub:8:16: error:"), std::string::npos) << all.err;
    const test::CliOutcome refused = run(
        "param '" +
        write("case.cub", head + "weak var X : bool\ninit (p) { PC[p] = L0 && X = False }\n"
                                 "unsafe (p1) { PC[p1] = L1 }\ntransition t ([p])\nrequires { "
                                 "PC[p] = L0 }\n{ PC[p] := L1; X := case | PC[p] = L0 : True }\n") +
        "'");
    EXPECT_EQ(refused.code, 3) << refused.out << refused.err;
    EXPECT_NE(refused.out.find("cannot be built"), std::string::npos) << refused.out;
    const test::CliOutcome none =
        run("param '" +
            write("none.cub", head + "init (p) { PC[p] = L0 }\ntransition t ([p]) "
                                     "requires { PC[p] = L0 } { PC[p] := L1 }\n") +
            "'");
    EXPECT_EQ(none.code, 2) << none.out;
    // The system that once ran 300 s under a 6 s limit is in backward_test
    // (FinePassHoldsTheTimeout): the coarse pass now proves it at once.
}

// lamport_N's instances outgrow the explicit engine's buffer bound; the
// backward search over at most N processes proves each N.
TEST_F(ParamCli, InstanceProvedByTheBackwardSearch) {
    const test::CliOutcome r =
        run("param '" + kCorpus + "lamport_N.cub' --procs 2..3 --timeout 120");
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    for (const char* n : {"N=2: safe", "N=3: safe", "over at most 3 processes", "buffer bound"}) {
        EXPECT_NE(r.out.find(n), std::string::npos) << n << "\n" << r.out;
    }
    const test::CliOutcome j =
        run("param '" + kCorpus + "lamport_N.cub' --procs 2 --json --timeout 120");
    EXPECT_EQ(j.code, 0) << j.out << j.err;
    EXPECT_NE(j.out.find("\"proof\": \"proved by backward reachability over at most 2"),
              std::string::npos)
        << j.out;
    // Unsafe instances are still found by the engine, past the probe.
    const test::CliOutcome us = run("param '" + kCorpus + "lamport_N_us.cub' --procs 2..3");
    EXPECT_EQ(us.code, 10) << us.out << us.err;
    EXPECT_NE(us.out.find("N=2: unsafe"), std::string::npos) << us.out;
}

} // namespace
} // namespace tsoreach
