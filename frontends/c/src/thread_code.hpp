#pragma once
// One thread's automaton while the translator writes it: states are numbers
// that jumps merge (union-find, so `goto`, `break` and the ends of branches
// cost no transition), transitions keep their C position. add() copies it
// into a ProgramBuilder in the parser's canonical order, without the parts
// no path from the initial state reaches.

#include "tsoreach/frontends/front_end.hpp"
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
    // How many merges and transitions were made so far (a mark for placeable()).
    [[nodiscard]] std::size_t mark() const { return log_.size(); }
    // Whether a fence statement written before the statement that began at
    // `at` (when mark() was `since`) and has just ended runs exactly when the
    // thread leaves `at`: the statement left `at` by a transition of its
    // own, and neither merged `at` with another state nor made a
    // transition into it (a loop back to its start, a jump away from it).
    [[nodiscard]] bool placeable(State at, std::size_t since);
    // A place for a fence before the statement that begins at `at`
    // (FenceSite without its thread and state, which emit() resolves).
    void addSite(State at, FenceSite site);

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
    // The sites of live states after emit(), as b's states of `thread`; of
    // several sites at one state, the first added: the innermost statement
    // (a block's first statement, not the block), which needs no braces.
    [[nodiscard]] std::vector<FenceSite> sites(ProgramBuilder& b, ThreadId thread);

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
    // A merge of two states, or a transition from `a` to `b`.
    struct Op {
        State a;
        State b;
        bool transition;
    };
    std::vector<Edge> edges_;
    std::vector<State> failures_;
    std::vector<Op> log_;
    std::vector<std::pair<State, FenceSite>> sites_;
    std::vector<std::string> names_; // by state, after emit()
    std::vector<bool> live_;         // by state, after emit()
};

} // namespace tsoreach::c
