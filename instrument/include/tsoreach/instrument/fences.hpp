#pragma once
// Fence insertion as a program transformation. A fence position is a control
// state of a thread; fencing state q makes every transition that leaves q
// wait for an empty store buffer: q gets a fresh successor q~fence reached by
// `mfence`, and q's outgoing transitions leave from q~fence instead. q keeps
// its name, so goals and final states still refer to it, and under SC the
// fenced program reaches the same states of the original.

#include "tsoreach/lang/program.hpp"

#include <compare>
#include <span>
#include <string>
#include <vector>

namespace tsoreach::instrument {

struct FencePosition {
    ThreadId thread;
    StateId state;
    friend auto operator<=>(const FencePosition&, const FencePosition&) = default;
};

struct FencedProgram {
    Program program; // states of p keep their names, transitions their positions
    // For each transition of `program`, the transition of p it is, or
    // invalid() for an inserted fence.
    std::vector<TransitionId> origin;
};

// `p` with a fence at each position (duplicates ignored; a state without
// outgoing transitions needs no fence and is left alone). Fresh state names
// never clash with p's.
FencedProgram insertFences(const Program& p, std::span<const FencePosition> fences);

// The positions of p worth fencing: states with an outgoing transition that
// is not itself `mfence`, `lock` or `unlock` (those already drain the buffer).
std::vector<FencePosition> fenceCandidates(const Program& p);

} // namespace tsoreach::instrument
