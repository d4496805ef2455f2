#pragma once
// Maximal causality reduction (paper 003) under SC, TSO and PSO, on Z3.
//
// A node is a configuration C (control states, registers, memory, buffers,
// lock holder) with the trace σ that reaches it. The node's run τ is σ
// followed by a default schedule from C (the lowest thread whose step does
// not take the lock nor leave it blocked for good by its own failed
// checks, else a flush, else the lowest thread's step that does not take
// the lock, else the lowest lock) until nothing is enabled; the argument
// below holds for any maximal run. From the events of τ after C the
// solver builds seeds (reach/mcr/src/encoding.hpp): orders of
// some of them, with every read keeping τ's value, that the model allows
// from C and that end with a target: a read returning another value that
// some write of τ (or C) stores, another transition of a thread at some
// point (or its step τ never ran because the lock froze it), a buffered
// store τ never flushed, or a lock τ never releases taken before a step of
// another thread. For each target the solver lists every configuration
// its *minimal* seeds reach (each seed step has a later step of its thread
// or a dependent step after it in the seed; the target ends it), and each
// configuration not seen before becomes a child node with trace σ·seed.
// In reach mode a child from which the threads' control flow reaches no
// goal term (or only terms with two threads that must hold the lock; a
// thread whose every transition is a check its registers fail never
// moves again) is dropped (dead_ends.hpp): no run from it reaches a goal.
// A target whose own thread's state after it (the same for every seed:
// the target ends its thread in the seed, whose reads keep their values)
// already makes every such child dead is not asked for.
//
// Completeness (every reachable configuration, so every goal; docs/
// architecture.md). Dependence: steps of one thread; a flush with its own
// thread's issue of it, reads of its address and drains; flushes of one
// channel; a memory read (any read under TSO/PSO) with a memory write (a
// write under SC, a flush otherwise) of the same address. Lock sections
// are units: no step or flush of another thread runs inside one, so a
// section whose release is in the run is one atomic step, dependent with
// what any member depends on (it needs a free lock before and leaves it
// free after, like a step that does not touch the lock). Adjacent
// independent steps and units commute (same state after both orders), so
// any linearization of a run's dependence order is a run to the same
// configuration with the same values. A section held in C ends before
// every step and flush of other threads, so its release is in their past.
// A section left open at the end of a prefix cannot move before steps of
// other threads that precede it: they could not run inside it, so they are
// in the past of every step in it. Claim: every run P from a
// node's C ends in a configuration that a goal query (the solver, over τ's
// events after C) or a node below finds. Induction on |P|. Let ρ be the
// longest prefix of P whose steps are τ's steps with τ's values. If P = ρ,
// the goal query of the node has P's order as a model. Else P's next step
// g is a target of τ: each thread is deterministic given its values read
// and choices, so g is one of τ's reads with another value (the value of a
// write in ρ or C, hence a candidate), another transition, a step τ never
// ran (only the lock freezes a thread that could move), or a flush τ never
// ran. Let K be the steps of ρ before g in P's dependence order; K·g·(ρ∖K)·rest
// is a run equivalent to P (K whole units; if g is inside a section open
// at g, K holds every step of other threads before it), and K·g is a
// minimal seed of g, so its
// configuration C' is listed and explored at some node. The rest of P
// from C' is shorter than P. For explore, keys also hold every thread's
// path, so every maximal run's values are found; a maximal P that is a
// reordering of τ's steps but stops a thread earlier has a lock never
// released taken before that thread's step: a LockFirst target.
//
// Soundness: every seed is replayed from C by the engine's stepper (a
// mismatch is an internal error) and every goal trace by the independent
// checker. Executions: distinct value vectors (the threads' paths) of
// complete and blocked runs; redundant: runs whose vector was explored.
// Acyclic programs, or cyclic ones with --unroll K (then `unknown`).

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/explore.hpp"
#include "tsoreach/reach/model.hpp"

#include <optional>
#include <string>

namespace tsoreach::reach {

// Why mcr cannot explore `p` (with loops unrolled `unroll` times, if not 0).
std::optional<std::string> mcrUnsupported(const Program& p, std::size_t unroll = 0);

// stats.executions / blocked: distinct value vectors of complete / blocked
// maximal runs; redundant: runs whose vector was seen; events: runs;
// smt*: solver queries, answers and time.
ExploreResult mcrExplore(const Program& p, MemoryModel model, const ExploreOptions& options);

class McrEngine final : public Engine {
  public:
    explicit McrEngine(MemoryModel model) : model_(model) {}
    [[nodiscard]] std::string_view name() const override { return "mcr"; }
    [[nodiscard]] MemoryModel model() const override { return model_; }
    Result run(const Program& program, const Goal& goal, const Options& options) override;

  private:
    MemoryModel model_;
};

} // namespace tsoreach::reach
