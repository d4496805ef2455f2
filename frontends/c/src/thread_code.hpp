#pragma once
// One thread's automaton while the translator writes it: states are numbers
// that jumps merge (union-find, so `goto`, `break` and the ends of branches
// cost no transition), transitions keep their C position. add() copies it
// into a ProgramBuilder in the parser's canonical order, without the parts
// no path from the initial state reaches.

#include "tsoreach/lang/builder.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tsoreach::c {

using State = std::uint32_t;

class ThreadCode {
  public:
    // A new state; `hint` names it (made unique when the thread is added).
    State newState(std::string hint);
    // From now on `from` and `to` are one state, `to`'s name.
    void merge(State from, State to);
    void add(State from, State to, Instr instr, SourcePos pos);
    // Makes `s` a goal state of the thread (an assertion that fails).
    void markFailure(State s) { failures_.push_back(s); }
    [[nodiscard]] bool hasFailures() const { return !failures_.empty(); }

    // Adds the thread to `b` (its registers are b's current thread's: the
    // caller started it with addThread(..., initialName)); `initial` is its
    // initial state.
    // Declares the failure states final when `declareFinals`. Returns the
    // failure states reachable from the initial state, as b's states.
    std::vector<StateId> emit(ProgramBuilder& b, State initial, std::string_view initialName,
                              bool declareFinals);

  private:
    struct Edge {
        State from;
        State to;
        Instr instr;
        SourcePos pos;
    };
    [[nodiscard]] State find(State s);
    [[nodiscard]] std::vector<bool> reachable(State initial);
    [[nodiscard]] std::vector<std::string> uniqueNames();

    std::vector<State> parent_;
    std::vector<std::string> hints_;
    std::vector<Edge> edges_;
    std::vector<State> failures_;
};

} // namespace tsoreach::c
