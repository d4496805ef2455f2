#pragma once
// What each fuzz target checks, shared with the regression test
// (tests/fuzz_regressions_test.cpp feeds every saved input through the same
// function). A check returns normally when the input is handled as it
// should be, InputError included; anything else escapes: PropertyViolation
// for a broken promise, or whatever the code under test threw.

#include "fixed_program.hpp"
#include "trace_json.hpp"
#include "tsoreach/frontends/rmm/rmm.hpp"
#include "tsoreach/frontends/tsoreach/parser.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lang/source.hpp"
#include "tsoreach/lang/validate.hpp"
#include "tsoreach/reach/replay.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tsoreach::fuzz {

class PropertyViolation : public std::logic_error {
  public:
    using std::logic_error::logic_error;
};

// The static checks of validate.hpp throw nothing on a program a front end
// gave, and every warning has a position (a line of the input).
inline void checkLints(const Program& p, const std::optional<Goal>& goal) {
    std::vector<Warning> ws = unassignedRegisterReads(p);
    if (goal) {
        for (GoalOrigin o : {GoalOrigin::Finals, GoalOrigin::Declared, GoalOrigin::CommandLine}) {
            const std::vector<Warning> more = unmentionedGoalStates(p, *goal, o);
            ws.insert(ws.end(), more.begin(), more.end());
        }
    }
    for (const Warning& w : ws) {
        if (w.pos.line == 0 || w.message.empty()) {
            throw PropertyViolation("a warning without a position or message: " + w.message);
        }
    }
}

// parseProgram only throws InputError, and what it accepts prints
// canonically: parse(print(p)) == p and printing is a fixed point.
inline void checkParser(std::string_view text) {
    Program p;
    try {
        p = parseProgram(text, "fuzz");
    } catch (const InputError&) {
        return;
    }
    checkLints(p, defaultGoal(p));
    const std::string printed = printProgram(p);
    Program q;
    try {
        q = parseProgram(printed, "printed");
    } catch (const InputError& e) {
        throw PropertyViolation(std::string("the printed program does not parse: ") + e.what() +
                                "\n" + printed);
    }
    if (!(p == q) || printProgram(q) != printed) {
        throw PropertyViolation("print and parse are not a round trip:\n" + printed);
    }
}

// translateRmm only throws InputError.
inline void checkRmm(std::string_view text) {
    try {
        const RmmTranslation t = translateRmm(text, "fuzz.rmm");
        (void)t.goal.describe(t.program);
        checkLints(t.program, t.goal);
    } catch (const InputError&) {
    }
}

// The fixed program of fixed_program.hpp.
inline const Program& fixedProgram() {
    static const Program p = parseProgram(kFixedProgram, "fixed");
    return p;
}

// The JSON trace reader only throws InputError, and every step it returns
// names a thread of the program and, for an instruction, a transition of
// that thread.
inline void checkTraceJson(std::string_view text) {
    const Program& p = fixedProgram();
    cli::LoadedTrace t;
    try {
        t = cli::parseTraceJson(p, text, "fuzz.json");
    } catch (const InputError&) {
        return;
    }
    for (const reach::TraceStep& s : t.trace.steps) {
        if (s.thread.index() >= p.threads.size()) {
            throw PropertyViolation("a step of no thread");
        }
        if (s.kind == reach::StepKind::Instruction &&
            (s.transition.index() >= p.transitions.size() ||
             p.transition(s.transition).thread != s.thread)) {
            throw PropertyViolation("a step with a transition of another thread");
        }
    }
}

// The separator between the program and the trace of a replay input.
inline constexpr std::string_view kReplaySeparator = "\n---\n";

// "PROGRAM\n---\nTRACE": the program's parser and the trace reader may
// refuse (InputError); replayTrace under every model must answer whatever
// the trace says, and a failing replay names a step of the trace (or 0).
inline void checkReplay(std::string_view input) {
    const std::size_t cut = input.find(kReplaySeparator);
    if (cut == std::string_view::npos) {
        return;
    }
    try {
        const Program program = parseProgram(input.substr(0, cut), "fuzz");
        const std::optional<Goal> defaulted = defaultGoal(program);
        const Goal goal = defaulted ? *defaulted : Goal(program);
        cli::LoadedTrace loaded =
            cli::parseTraceJson(program, input.substr(cut + kReplaySeparator.size()), "fuzz.json");
        for (reach::MemoryModel m :
             {reach::MemoryModel::SC, reach::MemoryModel::TSO, reach::MemoryModel::PSO}) {
            loaded.trace.model = m;
            const reach::ReplayOutcome out =
                reach::replayTrace(program, goal, loaded.trace, reach::Recorded::IfGiven);
            if (!out.ok && out.failedStep > loaded.trace.steps.size()) {
                throw PropertyViolation("replay failed at step " + std::to_string(out.failedStep) +
                                        " of " + std::to_string(loaded.trace.steps.size()));
            }
        }
    } catch (const InputError&) {
    }
}

} // namespace tsoreach::fuzz
