#pragma once
// Robustness against TSO by attacks (paper 004 §4.6-4.7): the program is
// robust iff no attack's instrumented SC program reaches its goal.
//
// Computed addresses are supported when the value-set analysis bounds them;
// otherwise the verdict is unknown, with the access named in the reason.
// lockfor/unlockfor are lock/unlock under TSO (instrument/plain_locks.hpp):
// the attacks run on the program with plain locks, and the witnesses are
// replayed on the program given (their lockfor steps with addresses).

#include "tsoreach/instrument/attack.hpp"
#include "tsoreach/reach/options.hpp"
#include "tsoreach/reach/trace.hpp"
#include "tsoreach/robustness/happens_before.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tsoreach::robustness {

enum class RobustVerdict { Robust, NotRobust, Unknown };

// A feasible attack with its TSO execution of the original program: the
// attacker's stores from the attack store on wait in its buffer until the
// end; every other store reaches memory at once.
struct Witness {
    instrument::Attack attack;
    reach::Trace trace;       // replayed under TSO, every address and value filled in
    HbGraph graph;            // happens-before of `trace`
    std::vector<HbArc> cycle; // a cycle of `graph`, checked to exist
    // The attacker's transitions from the attack store to the attack load,
    // in order: the path σ the lazy engine extends the program by.
    std::vector<TransitionId> path;
};

struct RobustnessResult {
    RobustVerdict verdict = RobustVerdict::Unknown;
    std::string reason; // Unknown only: the limit that stopped an attack's search
    std::size_t attacks = 0;
    std::size_t checked = 0;
    std::size_t undecided = 0;      // checked attacks whose search a limit stopped
    std::vector<Witness> witnesses; // one per feasible attack
    std::uint64_t scQueries = 0;    // SC searches run (an attack may need two, see Auto)
    std::uint64_t scStates = 0;     // states they stored, in total
};

// How each attack's SC check searches. Depth-first finds deep witnesses fast
// but can wander off forever in an infinite state space (an unbounded
// counter); breadth-first finds the shallowest witness, but is slow when
// witnesses are deep. Auto: depth-first up to kAutoDfsStates states, then
// breadth-first as far, then both again with kAutoGrowth times the budget,
// and so on until one decides: a finite space is searched to the end by
// depth-first at the latest when the budget exceeds it, and a witness that
// breadth-first finds within a budget is found in finite time however deep
// depth-first wanders off; the searches repeated cost a constant factor.
enum class AttackSearch { Auto, Dfs, Bfs };
constexpr std::uint64_t kAutoDfsStates = 200000;
constexpr std::uint64_t kAutoGrowth = 8;

// Which feasible attacks to find. "First" means lowest in the order of
// instrument::candidateAttacks (shortest store-to-load distance first).
enum class WitnessScope {
    First,          // the first feasible attack (enough to decide robustness)
    FirstPerThread, // the first feasible attack of each thread (the lazy engine)
    All,            // every feasible attack (fence insertion)
};

// Checks the candidate attacks with the SC engine under `options`
// (`maxStates` applies to each attack's search, `stop` to the whole check,
// static passes included; `options.search` is ignored in favour of
// `search`), on `jobs` threads. An attack after a feasible one of its group
// (per scope) is not checked. The result does not depend on `jobs`, except
// that an attack that `stop` cut off, or never let start, makes the verdict
// Unknown (never Robust) with the stop's reason.
RobustnessResult checkTsoRobustness(const Program& p, const reach::Options& options,
                                    WitnessScope scope, unsigned jobs = 1,
                                    AttackSearch search = AttackSearch::Auto);

} // namespace tsoreach::robustness
