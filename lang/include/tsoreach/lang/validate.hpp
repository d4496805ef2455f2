#pragma once
// Static checks: what makes a built program invalid (checkWellFormed), and
// what does not make a program invalid but usually means a mistake, such as
// a goal state that no path of its thread can reach, a goal state that is
// no state of its thread at all (a typo: the CLI makes it an error), or a
// register read before it is assigned.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/lang/stop.hpp"

#include <string>
#include <vector>

namespace tsoreach {

// What the parser checks while it reads, for programs built otherwise
// (builder.hpp): at least one thread, distinct thread names, names that are
// tokens (printable ASCII without '#'), registers that are register tokens and
// not keywords, and ids within their 32 bits. So a built program prints as
// text that parses back to it. Throws InputError naming the thread.
void checkWellFormed(const Program& p);

struct Warning {
    SourcePos pos;
    std::string message;
};

// Control states of `t` reachable from its initial state in its control-flow
// graph (ignoring what instructions may block), indexed by StateId.
std::vector<bool> controlReachable(const Program& p, ThreadId t);

struct GoalCheck {
    // A constrained thread of a term none of whose accepted states is
    // reachable in its control-flow graph.
    std::vector<Warning> warnings;
    // Every term has such a thread: no execution under any model reaches the goal.
    bool unreachable = false;
};

GoalCheck checkGoal(const Program& p, const Goal& goal);

// The states of `t` that its automaton has, by StateId: the initial state and
// every state a transition of `t` leaves or enters. A `final` line can name
// any other token (it interns it), which no execution ever reaches.
std::vector<bool> mentionedStates(const Program& p, ThreadId t);

// "(its states: a, b, c); did you mean 'b'?" (the suggestion only when a
// state's name is close to `name`), for a message about `name`, which is
// not one of t's mentioned states.
std::string notAStateDetail(const Program& p, ThreadId t, std::string_view name);

// Where a goal comes from: what its messages call its states, and where they
// point.
enum class GoalOrigin {
    Finals,      // the `final` declarations: "final state", at the declaration
    Declared,    // the file's own goal (.rmm `forbidden`): "goal state", at
                 // the state's `final` declaration if it has one, else the thread
    CommandLine, // --goal options: "goal state ... (--goal)", at the thread
};

// Every goal state that is not a mentioned state of its thread (once per
// thread and state), e.g. "final state 'crit' of thread 't0' is not a state
// of the thread: no transition enters or leaves it (its states: ...); did
// you mean 'cs'?". No execution reaches such a state under any model.
std::vector<Warning> unmentionedGoalStates(const Program& p, const Goal& goal, GoalOrigin origin);

// Registers that some path of their thread's control-flow graph (from the
// initial state, ignoring what checks block) reads before any instruction
// assigns them, where they still hold their initial 0 (docs/language.md).
// One warning per thread and register, at the first transition in
// declaration order that may read it so; read means used by an expression,
// an address included. Polls `stop` and throws Stopped.
std::vector<Warning> unassignedRegisterReads(const Program& p,
                                             const StopCondition& stop = StopCondition());

} // namespace tsoreach
