#pragma once
// The check of fuzz_c (docs/testing.md): a CProgram's C source goes through
// the C front end (frontends/c) and must
// - load without any exception but InputError, and throw InputError exactly
//   when the program holds a refused construct (the poison), at its line;
// - give a program and goal whose static checks pass (checkLints);
// - under SC, TSO and PSO, get the same definite answer from every engine
//   configuration and the brute force (differential.hpp), and that answer
//   must be the one on the program docs/c.md says the C program
//   translates to (c_expected.hpp), built without the front end, under
//   the explicit engine.

#include "c_expected.hpp"
#include "c_generate.hpp"
#include "c_render.hpp"
#include "differential.hpp"
#include "properties.hpp"
#include "tsoreach/frontends/c/front_end.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tsoreach::fuzz {

struct CCase {
    cgen::CSource c;
    std::string expected; // tsoreach's language, with "# goal" lines
};

inline CCase decodeCCase(std::span<const std::uint8_t> bytes) {
    const cgen::CProgram p = cgen::decodeCProgram(bytes);
    return {cgen::renderC(p), cgen::renderExpected(p)};
}

// Small programs, small limits: a limit only turns an answer into unknown.
inline DifferentialLimits cFuzzLimits() {
    DifferentialLimits lim;
    lim.bruteStates = 3000;
    lim.engineStates = 30000;
    lim.seconds = 0.5;
    lim.runSeconds = 0.15;
    return lim;
}

namespace detail {

inline std::string describeCase(const CCase& k, const std::string& translation) {
    return "\nC program:\n" + k.c.text + "expected translation (docs/c.md):\n" + k.expected +
           "front end's translation:\n" + translation;
}

// The front end's program, or nullopt when it refused (as it should have).
inline std::optional<LoadedProgram> loadC(const CCase& k) {
    try {
        LoadedProgram lp = cFrontEnd().load(k.c.text, "fuzz.c", {});
        if (k.c.poisonLine != 0) {
            throw PropertyViolation("the front end accepted the refused construct of line " +
                                    std::to_string(k.c.poisonLine) +
                                    describeCase(k, lp.translation));
        }
        return lp;
    } catch (const InputError& e) {
        const std::string where =
            std::to_string(e.pos().line) + ":" + std::to_string(e.pos().col) + ": " + e.message();
        if (k.c.poisonLine == 0) {
            throw PropertyViolation("the front end refused a program of the subset: " + where +
                                    describeCase(k, ""));
        }
        if (e.pos().line != static_cast<unsigned>(k.c.poisonLine) || e.pos().col == 0) {
            throw PropertyViolation("the refusal is not at the refused construct (line " +
                                    std::to_string(k.c.poisonLine) + "): " + where +
                                    describeCase(k, ""));
        }
        return std::nullopt;
    }
}

// One configuration per engine (fuzz_differential compares the others):
// the brute force, explicit DFS with its reductions on, and every other
// engine of the catalog.
inline bool oneConfigPerEngine(const std::string& who) {
    if (who.starts_with("explicit")) {
        return who == "explicit dfs por=on live=on" || who == "explicit dfs live=on";
    }
    return who != "lazy-trencher";
}

// The explicit engine's answer on the expected translation (brute force is
// several times slower on the instrumented build; fuzz_differential checks
// the engine against it).
inline reach::Verdict expectedVerdict(const Program& p, const std::optional<Goal>& g,
                                      reach::MemoryModel m, const DifferentialLimits& lim) {
    if (!g) {
        return reach::Verdict::Unreachable;
    }
    reach::Options o;
    o.partialOrder = false;
    o.maxStates = lim.engineStates;
    o.stop.setTimeout(lim.runSeconds);
    const std::unique_ptr<reach::Engine> engine = engines::makeReachEngine("explicit", m);
    return reach::runChecked(*engine, p, *g, o).verdict;
}

} // namespace detail

inline void checkC(const CCase& k, const DifferentialLimits& lim = cFuzzLimits()) {
    const std::optional<LoadedProgram> lp = detail::loadC(k);
    if (!lp) {
        return;
    }
    const std::optional<Goal> goal = lp->goal ? lp->goal : defaultGoal(lp->program);
    checkLints(lp->program, goal);
    const Program expected = parseProgram(k.expected, "expected");
    const std::optional<Goal> expectedGoal = test::goalOfText(expected, k.expected);
    for (reach::MemoryModel m :
         {reach::MemoryModel::SC, reach::MemoryModel::TSO, reach::MemoryModel::PSO}) {
        const reach::Verdict want = detail::expectedVerdict(expected, expectedGoal, m, lim);
        std::vector<DifferentialAnswer> answers;
        if (goal) {
            answers = differentialAnswers(lp->program, *goal, m, lim, detail::oneConfigPerEngine);
        } else {
            answers.push_back({"no goal", reach::Verdict::Unreachable, "", 0});
        }
        answers.push_back({"expected translation (explicit)", want, "", 0});
        const std::string problem = firstDisagreement(answers);
        if (!problem.empty()) {
            throw PropertyViolation("under " + std::string(reach::name(m)) + ": " + problem +
                                    "\nanswers:\n" + describeAnswers(answers) +
                                    detail::describeCase(k, lp->translation));
        }
    }
}

} // namespace tsoreach::fuzz
