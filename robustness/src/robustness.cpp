#include "tsoreach/robustness/robustness.hpp"

#include "tsoreach/lang/parser.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/replay.hpp"

#include <stdexcept>

namespace tsoreach::robustness {

namespace {

// Maps the SC trace of the instrumented program back to a TSO trace of the
// original one and checks it by replay (filling in addresses and values).
reach::Trace witnessTrace(const Program& p, const instrument::Attack& attack,
                          const instrument::AttackProgram& instrumented,
                          const reach::Trace& scTrace) {
    reach::Trace t;
    t.model = reach::MemoryModel::TSO;
    std::size_t delayedStores = 0;
    for (std::size_t i = 0; i < scTrace.goalStep; ++i) {
        const reach::TraceStep& s = scTrace.steps[i];
        const instrument::StepOrigin origin = instrumented.origins[s.transition.index()];
        if (!origin.original.valid()) {
            continue; // shadow bookkeeping
        }
        reach::TraceStep step;
        step.thread = s.thread;
        step.transition = origin.original;
        t.steps.push_back(step);
        if (p.transition(origin.original).instr.kind == InstrKind::Write) {
            if (origin.delayed) {
                ++delayedStores;
            } else {
                reach::TraceStep flush;
                flush.kind = reach::StepKind::Flush;
                flush.thread = s.thread;
                t.steps.push_back(flush);
            }
        }
    }
    // The delayed stores reach memory last, the attack store first.
    for (std::size_t k = 0; k < delayedStores; ++k) {
        reach::TraceStep flush;
        flush.kind = reach::StepKind::Flush;
        flush.thread = attack.thread;
        t.steps.push_back(flush);
    }
    t.goalStep = t.steps.size();
    const reach::ReplayOutcome replay = reach::replayTrace(p, Goal(p), t, reach::Recorded::IfGiven);
    if (!replay.ok) {
        throw std::logic_error("the robustness witness does not replay under TSO: " + replay.error);
    }
    return replay.completed;
}

} // namespace

RobustnessResult checkTsoRobustness(const Program& p, const reach::Options& options, bool all) {
    RobustnessResult r;
    const std::vector<instrument::Attack> attacks = instrument::candidateAttacks(p);
    r.attacks = attacks.size();
    auto engine = reach::makeEngine("", reach::MemoryModel::SC);
    for (const instrument::Attack& a : attacks) {
        const instrument::AttackProgram instrumented = instrument::attackProgram(p, a);
        const Program attack = parseProgram(instrumented.text, "attack");
        const reach::Result res = reach::runChecked(*engine, attack, *defaultGoal(attack), options);
        ++r.checked;
        if (res.verdict == reach::Verdict::Reachable) {
            Witness w{a, witnessTrace(p, a, instrumented, *res.trace), {}, {}};
            w.graph = happensBefore(p, w.trace);
            w.cycle = findCycle(w.graph);
            if (w.cycle.empty()) {
                throw std::logic_error("a robustness witness without a happens-before cycle");
            }
            r.witnesses.push_back(std::move(w));
            if (!all) {
                break;
            }
        } else if (res.verdict == reach::Verdict::Unknown && r.reason.empty()) {
            r.reason = res.reason;
        }
    }
    if (!r.witnesses.empty()) {
        r.verdict = RobustVerdict::NotRobust;
    } else if (!r.reason.empty()) {
        r.verdict = RobustVerdict::Unknown; // an attack was not decided: no proof
    } else {
        r.verdict = RobustVerdict::Robust;
    }
    return r;
}

} // namespace tsoreach::robustness
