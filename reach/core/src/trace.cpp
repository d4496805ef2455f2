#include "tsoreach/reach/trace.hpp"

namespace tsoreach::reach {

Trace withSkippedFences(const Trace& t, std::span<const TransitionId> fenceAfter) {
    Trace out = t;
    out.steps.clear();
    for (std::size_t i = 0; i < t.steps.size(); ++i) {
        const TraceStep& s = t.steps[i];
        out.steps.push_back(s);
        if (s.kind != StepKind::Instruction || !fenceAfter[s.transition.index()].valid()) {
            continue;
        }
        TraceStep fence;
        fence.thread = s.thread;
        fence.transition = fenceAfter[s.transition.index()];
        out.steps.push_back(fence);
        if (i < t.goalStep) {
            ++out.goalStep;
        }
    }
    return out;
}

} // namespace tsoreach::reach
