#include "tsoreach/instrument/fences.hpp"

#include "tsoreach/lang/builder.hpp"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace tsoreach::instrument {

namespace {

bool drains(InstrKind k) {
    return k == InstrKind::Mfence || k == InstrKind::Lock || k == InstrKind::Unlock;
}

} // namespace

std::vector<FencePosition> fenceCandidates(const Program& p) {
    std::vector<FencePosition> out;
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        const Thread& th = p.threads[t];
        for (std::size_t s = 0; s < th.stateCount(); ++s) {
            const StateId q(static_cast<std::uint32_t>(s));
            const auto leaving = th.outgoingOf(q);
            if (std::any_of(leaving.begin(), leaving.end(), [&](TransitionId id) {
                    return !drains(p.transition(id).instr.kind);
                })) {
                out.push_back({ThreadId(static_cast<std::uint32_t>(t)), q});
            }
        }
    }
    return out;
}

FencedProgram insertFences(const Program& p, std::span<const FencePosition> fences) {
    const std::set<FencePosition> wanted(fences.begin(), fences.end());
    ProgramBuilder b(p.sourceName + " (fenced)");
    b.setMemory(p.memory);
    FencedProgram out;
    // Per thread: the fence first, then what it guards, so the program
    // reads in order.
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        const Thread& th = p.threads[t];
        const ThreadId tid(static_cast<std::uint32_t>(t));
        std::unordered_set<std::string> names(th.stateNames.begin(), th.stateNames.end());
        std::vector<std::string> fencedOf(th.stateCount()); // q~fence of each fenced state
        for (std::size_t s = 0; s < th.stateCount(); ++s) {
            const StateId state(static_cast<std::uint32_t>(s));
            if (!wanted.contains({tid, state}) || th.outgoingOf(state).empty()) {
                continue;
            }
            std::string name = th.stateNames[s] + "~fence";
            for (int k = 2; names.contains(name); ++k) {
                name = th.stateNames[s] + "~fence" + std::to_string(k);
            }
            names.insert(name);
            fencedOf[s] = std::move(name);
        }
        b.addThread(th.name, th.stateNames[th.initial.index()], th.pos);
        for (StateId f : th.finals) {
            b.addFinal(b.state(th.stateNames[f.index()]));
        }
        std::vector<bool> done(th.stateCount(), false);
        for (TransitionId id : th.transitions) {
            const Transition& tr = p.transition(id);
            StateId from = b.state(th.stateNames[tr.from.index()]);
            if (const std::string& fenced = fencedOf[tr.from.index()]; !fenced.empty()) {
                const StateId guard = b.state(fenced);
                if (!done[tr.from.index()]) {
                    done[tr.from.index()] = true;
                    b.addTransition(from, guard, Instr::plain(InstrKind::Mfence), tr.pos);
                    out.origin.emplace_back();
                }
                from = guard;
            }
            const StateId to = b.state(th.stateNames[tr.to.index()]);
            b.addTransition(from, to, b.copy(p, tr), tr.pos);
            out.origin.push_back(id);
        }
    }
    out.program = b.build();
    return out;
}

} // namespace tsoreach::instrument
