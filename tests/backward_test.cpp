// The all-N mode (param/, docs/backward.md): the Table 1 programs of
// Cubicle-W's paper get the verdicts its table claims, hand-made systems
// get the verdicts derived in their comments, and every system it proves
// safe is also safe at N = 2 and 3 by the fixed-N instances.

#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/cub/instantiate.hpp"
#include "tsoreach/frontends/cub/parser.hpp"
#include "tsoreach/frontends/front_end.hpp"
#include "tsoreach/param/backward.hpp"
#include "tsoreach/reach/engine.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace tsoreach {
namespace {

using backward::BackwardResult;
using V = BackwardResult::Verdict;

const std::string kCorpus = std::string(TSOREACH_CORPUS_DIR) + "/cubicle-w/";

BackwardResult check(const cub::System& sys, double seconds = 20,
                     backward::BackwardOptions o = {}) {
    StopCondition stop;
    stop.setTimeout(seconds);
    o.stop = &stop;
    o.maxNodes = 200000;
    return backward::checkAllN(sys, o);
}

BackwardResult checkFile(const std::string& name) {
    const std::string path = kCorpus + name + ".cub";
    return check(cub::parseCub(readProgramText(path), path));
}

BackwardResult checkText(const std::string& text) {
    return check(cub::parseCub(text, "test.cub"));
}

const char* name(V v) {
    return v == V::Safe ? "safe" : v == V::Unsafe ? "unsafe" : "unknown";
}

// Table 1 of the paper, the files this search decides within seconds;
// arbiter_v2_N (longer) is in bench/param_alln.sh.
TEST(Backward, TableOneFiles) {
    struct Case {
        const char* file;
        V expect;
    };
    for (const Case& c :
         {Case{"mutex_N_us", V::Unsafe}, Case{"mutex_N", V::Safe}, Case{"lamport_N_us", V::Unsafe},
          Case{"lamport_N", V::Safe}, Case{"sense_rev_N", V::Safe}, Case{"spinlock_N", V::Safe},
          Case{"arbiter_v1_N", V::Safe}, Case{"two_phase_N", V::Safe}}) {
        const BackwardResult r = checkFile(c.file);
        EXPECT_EQ(name(r.verdict), std::string(name(c.expect))) << c.file << ": " << r.reason;
    }
}

// The coarse pass proves lamport_N (its loop-back reads are forgotten); on
// sense_rev_N it meets a spurious path, so the fine pass decides. The fine
// pass alone does not prove lamport_N within its budget.
TEST(Backward, TwoPasses) {
    const std::string path = kCorpus + "lamport_N.cub";
    const cub::System lamport = cub::parseCub(readProgramText(path), path);
    const BackwardResult coarse = check(lamport);
    EXPECT_EQ(coarse.verdict, V::Safe) << coarse.reason;
    EXPECT_EQ(coarse.stats.passes, 1U);
    backward::BackwardOptions fineOnly;
    fineOnly.coarseFirst = false;
    const BackwardResult fine = check(lamport, 2, fineOnly);
    EXPECT_EQ(fine.verdict, V::Unknown);
    EXPECT_TRUE(fine.stopped);
    const BackwardResult sense = checkFile("sense_rev_N");
    EXPECT_EQ(sense.verdict, V::Safe) << sense.reason;
    EXPECT_EQ(sense.stats.passes, 2U);
}

// A campaign finding: the value solver's enumeration ignored the limit
// (300 s for a 6 s one). The fine pass alone is held to it here; the
// coarse pass proves the system (no process reaches L2) at once.
TEST(Backward, FinePassHoldsTheTimeout) {
    const cub::System sys = cub::parseCub(
        "type loc = L0 | L1 | L2 | L3 | L4 | L5\narray PC[proc] : loc\n"
        "weak array A[proc] : bool\nweak array B[proc] : bool\nweak array F[proc] : bool\n"
        "init (p) { PC[p] = L0 && A[p] = False && B[p] = False && F[p] = False }\n"
        "unsafe (p1 p2) { PC[p1] = L5 && PC[p2] = L2 }\n"
        "transition t1 ([p] q) requires { PC[p] = L2 && F[q] = False } { PC[p] := L4 }\n"
        "transition t2 ([p]) requires { PC[p] = L1 } { PC[p] := case | B[p] = False : L0 | _ "
        ": L0; B[p] := True; A[p] := F[p] }\n"
        "transition t3 ([p] q) requires { PC[p] = L2 && A[q] = False && B[p] = False && "
        "forall_other j. F[j] <> False } { PC[p] := L3; A[p] := False }\n"
        "transition t4 ([p] q r) requires { PC[p] = L3 && q = q } { PC[p] := L4 }\n"
        "transition t5 ([p]) requires { PC[p] = L4 && B[p] = False } { PC[p] := L5 }\n",
        "slow.cub");
    backward::BackwardOptions fineOnly;
    fineOnly.coarseFirst = false;
    const auto start = std::chrono::steady_clock::now();
    const BackwardResult fine = check(sys, 1, fineOnly);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_NE(fine.verdict, V::Unsafe);
    EXPECT_LT(seconds, 30.0);
    EXPECT_EQ(check(sys).verdict, V::Safe);
}

// Three distinct processes are needed: two in CS, each let in by a helper
// that raised its flag and stays out. With at most two processes no
// helper is left, so the search restricted to two proves it, and at three
// it finds the path.
TEST(Backward, AtMostNProcesses) {
    const cub::System sys = cub::parseCub(
        "type loc = L0 | H | CS\narray PC[proc] : loc\nweak array G[proc] : bool\n"
        "init (p) { PC[p] = L0 && G[p] = False }\n"
        "unsafe (p1 p2) { PC[p1] = CS && PC[p2] = CS }\n"
        "transition go ([q]) requires { PC[q] = L0 } { PC[q] := H; G[q] := True }\n"
        "transition enter ([p] q) requires { PC[p] = L0 && G[q] = True } { PC[p] := CS }\n",
        "helper.cub");
    for (std::uint32_t n : {2U, 3U}) {
        backward::BackwardOptions o;
        o.maxProcs = n;
        const BackwardResult r = check(sys, 20, o);
        EXPECT_EQ(name(r.verdict), std::string(n == 2 ? "safe" : "unsafe")) << n;
        if (n == 3) {
            EXPECT_EQ(r.procs, 3U);
        }
    }
    EXPECT_EQ(check(sys).verdict, V::Unsafe);
    // An unsafe cube over more processes than allowed is empty.
    backward::BackwardOptions one;
    one.maxProcs = 1;
    EXPECT_EQ(check(sys, 20, one).verdict, V::Safe);
}

// Two reads of X from memory, the first seeing another process's id and
// the second its own reader's: the reader's write reached memory after the
// first read, so it cannot have been flushed by a fence before it.
// lamport_N's spurious path of the fine pass was of this shape.
TEST(Backward, ReadsInMemoryOrder) {
    const cub::System sys = cub::parseCub(
        "type loc = A | B | C | D\narray PC[proc] : loc\nweak var X : proc\n"
        "init (p) { PC[p] = A }\n"
        "unsafe (p1 p2) { PC[p1] = D && PC[p2] = C }\n"
        "transition w ([p]) requires { PC[p] = A } { PC[p] := B; X := p }\n"
        "transition f ([p]) requires { PC[p] = B && fence() } { PC[p] := C }\n"
        "transition r ([p] q) requires { PC[p] = C && X = q && fence() } { PC[p] := D }\n",
        "order.cub");
    // p1 reads X = p2 after its own fence, so p2's write reached memory
    // after p1's; p2 at C has flushed it. Reachable: p1 w, f; p2 w, f; p1 r.
    backward::BackwardOptions fineOnly;
    fineOnly.coarseFirst = false;
    EXPECT_EQ(check(sys, 20, fineOnly).verdict, V::Unsafe);
    // After its fence p reads X = q, then X = p: its only write of X would
    // have to reach memory after the first read, past the fence. Safe.
    const cub::System back = cub::parseCub(
        "type loc = A | B | C | D | E\narray PC[proc] : loc\nweak var X : proc\n"
        "init (p) { PC[p] = A }\nunsafe (p1) { PC[p1] = E }\n"
        "transition w ([p]) requires { PC[p] = A } { PC[p] := B; X := p }\n"
        "transition f ([p]) requires { PC[p] = B && fence() } { PC[p] := C }\n"
        "transition r1 ([p] q) requires { PC[p] = C && X = q && fence() } { PC[p] := D }\n"
        "transition r2 ([p]) requires { PC[p] = D && X = p && fence() } { PC[p] := E }\n",
        "back.cub");
    EXPECT_EQ(check(back, 20, fineOnly).verdict, V::Safe);
    EXPECT_EQ(check(back).verdict, V::Safe);
}

// lamport_N with one of its two fences taken out is unsafe under TSO (each
// confirmed by the fixed-N instance at N = 2): the facts on cells that hold
// their writer (X, Y) and on cells written together (X, X_set) must keep
// both paths.
TEST(Backward, LamportWithOneFenceLess) {
    const std::string path = kCorpus + "lamport_N.cub";
    const std::string text = readProgramText(path);
    for (const char* guard : {"Y_set = False && fence()", "X_set = True && fence()"}) {
        std::string less = text;
        const std::size_t at = less.find(guard);
        ASSERT_NE(at, std::string::npos) << guard;
        less.replace(at + std::string(guard).find(" && fence()"), 11, "");
        EXPECT_EQ(name(checkText(less).verdict), std::string("unsafe")) << guard;
    }
}

// The unsafe path is a candidate the fixed-N instance confirms: mutex_N_us
// is store buffering between two processes.
TEST(Backward, UnsafePathOfTheNaiveMutex) {
    const BackwardResult r = checkFile("mutex_N_us");
    ASSERT_EQ(r.verdict, V::Unsafe);
    EXPECT_EQ(r.procs, 2U);
    ASSERT_EQ(r.path.size(), 4U);
    EXPECT_EQ(r.path.back().first, "t2");
    const std::string path = kCorpus + "mutex_N_us.cub";
    const cub::Instances made =
        cub::instantiate(cub::parseCub(readProgramText(path), path), r.procs);
    auto engine = engines::makeReachEngine("explicit", reach::MemoryModel::TSO);
    const reach::Result fixed =
        reach::runChecked(*engine, made.instances.at(0).program, made.instances.at(0).goal, {});
    EXPECT_EQ(fixed.verdict, reach::Verdict::Reachable);
}

// Store buffering at any N: each process announces itself, then enters when
// it sees every other process's flag down. Under TSO both announcements can
// sit in the buffers while both read (unsafe with two processes); with
// fence() each read comes after its own announcement reached memory, and
// the later of the two reads sees the earlier announcement (safe).
const char* const kStoreBuffering = R"(
type loc = A | B | C
array PC[proc] : loc
weak array X[proc] : bool
init (p) { PC[p] = A && X[p] = False }
unsafe (p q) { PC[p] = C && PC[q] = C }
transition announce ([p]) requires { PC[p] = A } { PC[p] := B; X[p] := True }
transition enter ([p]) requires { PC[p] = B && forall_other q. X[q] = False FENCE } { PC[p] := C }
)";

std::string storeBuffering(bool fence) {
    std::string s = kStoreBuffering;
    s.replace(s.find("FENCE"), 5, fence ? "&& fence()" : "");
    return s;
}

TEST(Backward, StoreBufferingNeedsTheFence) {
    const BackwardResult r = checkText(storeBuffering(false));
    EXPECT_EQ(r.verdict, V::Unsafe);
    EXPECT_EQ(r.procs, 2U);
    EXPECT_EQ(r.path.size(), 4U); // two announcements, two entries
    EXPECT_EQ(checkText(storeBuffering(true)).verdict, V::Safe);
}

// Test-and-set: a transition that reads and writes L is one locked step,
// so only the first process sees L = False. Split into a read step and a
// write step, two processes both see False (unsafe even under SC).
TEST(Backward, LockedReadModifyWrite) {
    const std::string head = R"(
type loc = A | B | C
array PC[proc] : loc
weak var L : bool
init (p) { PC[p] = A && L = False }
unsafe (p q) { PC[p] = C && PC[q] = C }
)";
    EXPECT_EQ(checkText(head + R"(
transition take ([p]) requires { PC[p] = A && L = False } { PC[p] := C; L := True }
transition leave ([p]) requires { PC[p] = C } { PC[p] := A; L := False }
)")
                  .verdict,
              V::Safe);
    EXPECT_EQ(checkText(head + R"(
transition look ([p]) requires { PC[p] = A && L = False } { PC[p] := B }
transition set ([p]) requires { PC[p] = B } { PC[p] := C; L := True }
)")
                  .verdict,
              V::Unsafe);
}

// One transition's writes are one buffer entry: a reader that reads X and
// Y at one instant never sees X new and Y old. Two write transitions (X
// first) let it, between the two entries' arrival in memory.
const std::string kTwoWritesHead = R"(
type loc = A | B | D | C
array PC[proc] : loc
weak var X : bool
weak var Y : bool
init (p) { PC[p] = A && X = False && Y = False }
unsafe (p) { PC[p] = C }
transition look ([p]) requires { PC[p] = A && X = True && Y = False } { PC[p] := C }
)";
const std::string kTwoWrites = kTwoWritesHead + R"(
transition both ([p]) requires { PC[p] = A } { PC[p] := B; X := True; Y := True }
)";

TEST(Backward, TwoWritesOneEntry) {
    EXPECT_EQ(checkText(kTwoWrites).verdict, V::Safe);
    const BackwardResult split = checkText(kTwoWritesHead + R"(
transition first ([p]) requires { PC[p] = A } { PC[p] := B; X := True }
transition second ([p]) requires { PC[p] = B } { PC[p] := D; Y := True }
)");
    EXPECT_EQ(split.verdict, V::Unsafe);
    EXPECT_EQ(split.procs, 2U);
}

// A proof for every N must agree with the fixed-N instances (the same
// semantics, docs/parameterized.md): each system proved safe is unreachable
// at N = 2 and 3 with the explicit engine.
TEST(Backward, SafeAgreesWithFixedN) {
    std::vector<std::pair<std::string, cub::System>> systems;
    for (const char* f : {"mutex_N", "sense_rev_N", "spinlock_N", "arbiter_v1_N", "two_phase_N"}) {
        const std::string path = kCorpus + f + ".cub";
        systems.emplace_back(f, cub::parseCub(readProgramText(path), path));
    }
    systems.emplace_back("store buffering with fence",
                         cub::parseCub(storeBuffering(true), "sb_fence.cub"));
    systems.emplace_back("two writes, one entry", cub::parseCub(kTwoWrites, "two.cub"));
    for (const auto& [label, sys] : systems) {
        const BackwardResult r = check(sys);
        EXPECT_EQ(r.verdict, V::Safe) << label;
        for (std::size_t n : {2U, 3U}) {
            const cub::Instances made = cub::instantiate(sys, n);
            for (const cub::Instance& inst : made.instances) {
                auto engine = engines::makeReachEngine("explicit", reach::MemoryModel::TSO);
                reach::Options o;
                o.stop.setTimeout(120);
                const reach::Result fixed = reach::runChecked(*engine, inst.program, inst.goal, o);
                EXPECT_EQ(fixed.verdict, reach::Verdict::Unreachable)
                    << label << " at N=" << n << " " << inst.setup;
            }
        }
    }
}

} // namespace
} // namespace tsoreach
