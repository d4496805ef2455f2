#include "tsoreach/instrument/fences_after_unlocks.hpp"

namespace tsoreach::instrument {

namespace {

bool drainsAll(InstrKind k, UnlockDrains drains) {
    return k == InstrKind::Unlock ||
           (k == InstrKind::UnlockFor && drains == UnlockDrains::UnlockAndUnlockFor);
}

// The mfence that state s of thread t must be left by for a draining
// unlock into s to skip it (header: q1 = s), or invalid.
TransitionId skippableFence(const Program& p, ThreadId t, StateId s, const Goal& goal) {
    const Thread& th = p.thread(t);
    const std::span<const TransitionId> out = th.outgoingOf(s);
    if (s == th.initial || out.size() != 1) {
        return TransitionId{};
    }
    const Transition& f = p.transition(out[0]);
    if (f.instr.kind != InstrKind::Mfence || f.to == s || goal.changesAcceptance(t, s, f.to)) {
        return TransitionId{};
    }
    return out[0];
}

} // namespace

std::optional<SkippedFences> skipFencesAfterUnlocks(const Program& p, const Goal& goal,
                                                    UnlockDrains drains) {
    std::optional<SkippedFences> out;
    for (std::size_t ti = 0; ti < p.threads.size(); ++ti) {
        const Thread& th = p.threads[ti];
        const ThreadId t(static_cast<std::uint32_t>(ti));
        for (TransitionId id : th.transitions) {
            const Transition& e = p.transition(id);
            if (!drainsAll(e.instr.kind, drains)) {
                continue;
            }
            const TransitionId f = skippableFence(p, t, e.to, goal);
            if (!f.valid()) {
                continue;
            }
            if (!out) {
                out = SkippedFences{p, std::vector<TransitionId>(p.transitions.size())};
            }
            out->program.transitions[id.index()].to = p.transition(f).to;
            out->fenceAfter[id.index()] = f;
        }
    }
    return out;
}

} // namespace tsoreach::instrument
