#include "tsoreach/instrument/fences.hpp"

#include "tsoreach/lang/parser.hpp"
#include "tsoreach/lang/printer.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
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
    Program q = p;
    // Transitions are re-listed per thread: the fence first, then what it
    // guards, so the printed program reads in order.
    for (std::size_t t = 0; t < q.threads.size(); ++t) {
        Thread& th = q.threads[t];
        const ThreadId tid(static_cast<std::uint32_t>(t));
        std::unordered_set<std::string> names(th.stateNames.begin(), th.stateNames.end());
        std::vector<StateId> fencedOf(th.stateCount()); // the q~fence of each fenced state
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
            fencedOf[s] = StateId(static_cast<std::uint32_t>(th.stateNames.size()));
            th.stateNames.push_back(name);
        }
        std::vector<TransitionId> listed;
        std::vector<bool> done(th.stateCount(), false);
        for (TransitionId id : p.thread(tid).transitions) {
            Transition& tr = q.transitions[id.index()];
            const StateId from = tr.from;
            if (from.index() < fencedOf.size() && fencedOf[from.index()].valid()) {
                if (!done[from.index()]) {
                    done[from.index()] = true;
                    Transition fence;
                    fence.thread = tid;
                    fence.from = from;
                    fence.to = fencedOf[from.index()];
                    fence.instr.kind = InstrKind::Mfence;
                    fence.pos = tr.pos;
                    listed.emplace_back(static_cast<std::uint32_t>(q.transitions.size()));
                    q.transitions.push_back(fence);
                }
                q.transitions[id.index()].from = fencedOf[from.index()];
            }
            listed.push_back(id);
        }
        th.transitions = std::move(listed);
    }
    FencedProgram out;
    out.text = printProgram(q);
    out.program = parseProgram(out.text, p.sourceName + " (fenced)");
    // The parser numbers transitions in the order the printer wrote them.
    for (const Thread& th : q.threads) {
        for (TransitionId id : th.transitions) {
            out.origin.push_back(id.index() < p.transitions.size() ? id : TransitionId());
        }
    }
    if (out.origin.size() != out.program.transitions.size()) {
        throw std::logic_error("insertFences: the fenced program lost transitions");
    }
    return out;
}

} // namespace tsoreach::instrument
