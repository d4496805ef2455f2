#pragma once
// Safety of a Cubicle-W system for every number of processes at once:
// backward reachability modulo TSO (Conchon, Declerck, Zaïdi, paper 002,
// §3-4), rebuilt as docs/backward.md describes.
//
// A node is a cube over a few distinct processes: literals on their regular
// and const cells, and the weak-memory events of the steps after the node's
// instant (reads with their values and sources, writes, fences), with the
// order their instants must have. The search starts from the unsafe cubes
// and takes pre-images by every transition instance over the node's
// processes and new ones; it drops a node whose order is cyclic or whose
// values are inconsistent, and one that a visited node covers up to a
// renaming of processes and events.
//
// Why "Safe" is a proof (docs/backward.md has the details): every concrete
// run of any N, cut at any instant, lies in the set of some node that the
// search keeps, because (1) each rule adds only facts that hold of every
// TSO run (instants of reads are their steps', writes reach memory after
// their step, in program order, before a later fence or locked step of the
// writer; a read's value comes from the write it takes, and the cases for
// an unsatisfied read are exhaustive); (2) a pre-image contains every state
// one step before (forall_other is expanded over the node's processes
// only, which only weakens the guard); (3) a covered node's states are in
// its cover's. When the queue empties, no kept node meets the initial
// states, so no run reaches an unsafe cube.
//
// "Unsafe" means a node met the initial states: the path (transition and
// processes) is a candidate that the fixed-N instance must confirm, since
// the over-approximations above can make it spurious. A coarse pass that
// also forgets bare waiting reads runs first; only its "Safe" is kept
// (docs/backward.md, "Two passes").

#include "tsoreach/frontends/cub/ast.hpp"
#include "tsoreach/lang/stop.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tsoreach::backward {

struct BackwardOptions {
    const StopCondition* stop = nullptr; // polled in every loop; nullptr: no limit
    std::size_t maxNodes = 100000;       // nodes kept (visited); beyond: Unknown
    // 0: every N. Otherwise nodes use at most this many processes, and the
    // verdicts are about the instances with at most that many.
    std::uint32_t maxProcs = 0;
    // Run the coarse pass first (docs/backward.md, "Two passes"); false runs
    // the fine pass alone, as tests of the fine rules do.
    bool coarseFirst = true;
};

struct BackwardResult {
    enum class Verdict : std::uint8_t { Safe, Unsafe, Unknown };
    Verdict verdict = Verdict::Unknown;
    std::string reason;   // Unknown: the limit; Unsafe: which cube met the initial states
    bool stopped = false; // Unknown because a limit of `stop` (time, memory, interrupt) held
    std::size_t procs = 0;
    // From an initial state to the unsafe cube: a transition's name and its
    // parameters' processes (1..procs), the moving process first.
    std::vector<std::pair<std::string, std::vector<std::size_t>>> path;
    struct Stats {
        std::uint64_t nodes = 0;       // nodes kept
        std::uint64_t subsumed = 0;    // nodes covered by a kept one
        std::uint64_t preimages = 0;   // transition instances tried
        std::uint64_t solverCalls = 0; // value satisfiability checks in subsumption
        std::uint32_t passes = 0;      // passes run: the coarse one, then maybe the fine one
    } stats;
};

// Throws InputError, at the construct, for what the search does not take
// (docs/backward.md, "Refused").
BackwardResult checkAllN(const cub::System& sys, const BackwardOptions& options);

} // namespace tsoreach::backward
