#pragma once
// Robustness against TSO by attacks (paper 004 §4.6-4.7): the program is
// robust iff no attack's instrumented SC program reaches its goal.
//
// Work in progress (issue 5): no witness trace or cycle yet, no CLI command;
// programs with lock/unlock or computed addresses raise
// instrument::UnsupportedProgram.

#include "tsoreach/instrument/attack.hpp"
#include "tsoreach/reach/options.hpp"

#include <string>
#include <vector>

namespace tsoreach::robustness {

enum class RobustVerdict { Robust, NotRobust, Unknown };

struct RobustnessResult {
    RobustVerdict verdict = RobustVerdict::Unknown;
    std::string reason; // Unknown only: the limit that stopped an attack's search
    std::size_t attacks = 0;
    std::size_t checked = 0;
    std::vector<instrument::Attack> feasible;
};

// Checks every candidate attack with the SC engine under `options`; with
// `all` false it stops at the first feasible one.
RobustnessResult checkTsoRobustness(const Program& p, const reach::Options& options, bool all);

} // namespace tsoreach::robustness
