#pragma once
// The program model: threads as finite automata over instructions.
//
// Names are interned per thread (states, registers) and the transitions are
// compiled into one global array with a per-thread index by control state, so
// that engines never look anything up by name.

#include "tsoreach/lang/expr.hpp"
#include "tsoreach/lang/ids.hpp"
#include "tsoreach/lang/instruction.hpp"
#include "tsoreach/lang/memory.hpp"
#include "tsoreach/lang/source.hpp"

#include <span>
#include <string>
#include <vector>

namespace tsoreach {

struct Transition {
    ThreadId thread;
    StateId from;
    StateId to;
    Instruction instr;
    SourcePos pos; // of the `transition` keyword; ignored by ==

    friend bool operator==(const Transition& a, const Transition& b) {
        return a.thread == b.thread && a.from == b.from && a.to == b.to && a.instr == b.instr;
    }
};

struct Thread {
    std::string name;
    std::vector<std::string> stateNames; // indexed by StateId
    std::vector<std::string> regNames;   // indexed by RegId
    StateId initial;
    std::vector<StateId> finals; // in declaration order, no duplicates
    // Where each final state is first declared, parallel to `finals` (the
    // name's position; line 0 when unknown); ignored by ==.
    std::vector<SourcePos> finalPos;
    std::vector<TransitionId> transitions; // in declaration order
    // Outgoing transitions by source state: those of state s are
    // outgoing[outgoingBegin[s] .. outgoingBegin[s+1]).
    std::vector<std::uint32_t> outgoingBegin;
    std::vector<TransitionId> outgoing;
    SourcePos pos; // of the `thread` keyword; ignored by ==

    [[nodiscard]] std::size_t stateCount() const { return stateNames.size(); }
    [[nodiscard]] std::size_t regCount() const { return regNames.size(); }
    [[nodiscard]] std::span<const TransitionId> outgoingOf(StateId s) const {
        return std::span<const TransitionId>(outgoing).subspan(
            outgoingBegin[s.index()], outgoingBegin[s.index() + 1] - outgoingBegin[s.index()]);
    }
    [[nodiscard]] bool isFinal(StateId s) const;

    friend bool operator==(const Thread& a, const Thread& b) {
        return a.name == b.name && a.stateNames == b.stateNames && a.regNames == b.regNames &&
               a.initial == b.initial && a.finals == b.finals && a.transitions == b.transitions;
    }
};

struct Program {
    std::string sourceName; // file name for messages; ignored by ==
    MemoryLayout memory;    // the `memory` declaration; empty when there is none
    std::vector<Thread> threads;
    std::vector<Transition> transitions;
    std::vector<ExprNode> exprPool;
    std::size_t maxExprStack = 1; // enough stack for every expression in the pool

    [[nodiscard]] std::span<const ExprNode> expr(ExprRef r) const {
        return std::span<const ExprNode>(exprPool).subspan(r.begin, r.size);
    }
    [[nodiscard]] const Thread& thread(ThreadId t) const { return threads[t.index()]; }
    [[nodiscard]] const Transition& transition(TransitionId t) const {
        return transitions[t.index()];
    }
    [[nodiscard]] ThreadId findThread(std::string_view name) const;
    // True when some thread declares a final state, i.e. the program has a goal.
    [[nodiscard]] bool hasFinals() const;

    // Expressions compare by content, not by pool offset.
    friend bool operator==(const Program& a, const Program& b);
};

// Fills t.outgoingBegin and t.outgoing from t.transitions (ids into
// `transitions`); declaration order is kept within a state.
void indexOutgoing(Thread& t, std::span<const Transition> transitions);

// What checkWellFormed checks of the memory declaration (memory.hpp): names
// that are memory-name tokens, distinct, and no register's name; variables
// laid out one after the other from 0; named expression nodes only at the
// root of an address operand, naming a declared cell (an index without
// names). Throws InputError.
void checkMemoryWellFormed(const Program& p);

// Looks up a state or register by name; invalid() when absent.
StateId findState(const Thread& t, std::string_view name);
RegId findReg(const Thread& t, std::string_view name);

} // namespace tsoreach
