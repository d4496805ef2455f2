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

namespace tsoreach {
namespace {

using backward::BackwardResult;
using V = BackwardResult::Verdict;

const std::string kCorpus = std::string(TSOREACH_CORPUS_DIR) + "/cubicle-w/";

BackwardResult check(const cub::System& sys, double seconds = 20) {
    StopCondition stop;
    stop.setTimeout(seconds);
    backward::BackwardOptions o;
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
// lamport_N (not proved) and arbiter_v2_N (longer) are in
// bench/param_alln.sh.
TEST(Backward, TableOneFiles) {
    struct Case {
        const char* file;
        V expect;
    };
    for (const Case& c :
         {Case{"mutex_N_us", V::Unsafe}, Case{"mutex_N", V::Safe}, Case{"lamport_N_us", V::Unsafe},
          Case{"sense_rev_N", V::Safe}, Case{"spinlock_N", V::Safe}, Case{"arbiter_v1_N", V::Safe},
          Case{"two_phase_N", V::Safe}}) {
        const BackwardResult r = checkFile(c.file);
        EXPECT_EQ(name(r.verdict), std::string(name(c.expect))) << c.file << ": " << r.reason;
    }
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
