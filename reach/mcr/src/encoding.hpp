#pragma once
// The formulas of the mcr engine (reach/mcr/include/tsoreach/reach/mcr.hpp
// gives the argument): over the events of a node's suffix, orders of them
// that the model allows from the node's configuration C, as Z3 integer
// times. Every thread step e has a time O_e; under TSO and PSO every write
// w also has the time V_w at which it reaches memory (under SC V_w = O_w);
// T is the horizon: the seed is every step with O <= T and every flush
// with V <= T, sorted by time (all times are distinct).

#include "suffix.hpp"

#include "tsoreach/lang/goal.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace tsoreach::reach::mcr {

// One step of a seed: a thread step (event of the problem) or a flush
// (write of the problem). `event` and `write` index the problem's lists.
struct SeedItem {
    bool flush = false;
    std::uint32_t thread = 0;
    std::uint32_t index = 0;
};

// The events of one query: the suffix cut after a target's step, with the
// target's new event if any. `event`/`write` map back to the suffix (-1:
// the target's new event).
struct Problem {
    std::vector<Event> events;
    std::vector<Write> writes;
    std::vector<std::vector<std::uint32_t>> steps;
    std::vector<std::vector<std::uint32_t>> wrote;
    std::int32_t target = -1;      // the event exempt from minimality (or -1)
    std::int32_t targetWrite = -1; // Flush targets: the write instead
};

Problem problemFor(const Suffix& s, const Target* target);

struct SmtStats {
    std::uint64_t queries = 0;
    std::uint64_t sat = 0;
    std::uint64_t unsat = 0;
    double seconds = 0;
};

// Why a query has no answer: the solver was interrupted (the caller's stop
// condition) or gave up.
struct SolverGaveUp {
    std::string reason;
};

class Solver {
  public:
    explicit Solver(MemoryModel model);
    ~Solver();
    Solver(const Solver&) = delete;
    Solver& operator=(const Solver&) = delete;

    // Stops a running query from another thread.
    void interrupt();

    // Every configuration reachable by a minimal seed of `target` from C:
    // `accept` gets each seed and returns the configuration it reaches
    // (std::nullopt: stop), which is then excluded. Throws SolverGaveUp.
    void enumerate(const Machine& m, const Config& c, const Problem& p, const Target& target,
                   const std::function<std::optional<Config>(const std::vector<SeedItem>&)>& accept,
                   SmtStats& stats);

    // A seed (any order, not minimal) after which the goal holds.
    std::optional<std::vector<SeedItem>> goalSeed(const Machine& m, const Config& c,
                                                  const Problem& p, const Goal& goal,
                                                  SmtStats& stats);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace tsoreach::reach::mcr
