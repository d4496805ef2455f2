#include "tsoreach/robustness/robustness.hpp"

#include "tsoreach/lang/parser.hpp"
#include "tsoreach/reach/engine.hpp"

namespace tsoreach::robustness {

RobustnessResult checkTsoRobustness(const Program& p, const reach::Options& options, bool all) {
    RobustnessResult r;
    const std::vector<instrument::Attack> attacks = instrument::candidateAttacks(p);
    r.attacks = attacks.size();
    auto engine = reach::makeEngine("", reach::MemoryModel::SC);
    for (const instrument::Attack& a : attacks) {
        const Program attack = parseProgram(instrument::attackProgramText(p, a), "attack");
        const reach::Result res = reach::runChecked(*engine, attack, *defaultGoal(attack), options);
        ++r.checked;
        if (res.verdict == reach::Verdict::Reachable) {
            r.feasible.push_back(a);
            if (!all) {
                break;
            }
        } else if (res.verdict == reach::Verdict::Unknown && r.reason.empty()) {
            r.reason = res.reason;
        }
    }
    if (!r.feasible.empty()) {
        r.verdict = RobustVerdict::NotRobust;
    } else if (!r.reason.empty()) {
        r.verdict = RobustVerdict::Unknown; // an attack was not decided: no proof
    } else {
        r.verdict = RobustVerdict::Robust;
    }
    return r;
}

} // namespace tsoreach::robustness
