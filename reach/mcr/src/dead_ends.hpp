#pragma once
// Configurations from which no goal is reachable by the threads' control
// flow alone: the mcr engine's reach mode need not explore them (every
// run from them misses the goal, so dropping them keeps the search
// complete for the goal). Over-approximate on purpose: a thread may take
// any transition, values and buffers are ignored, except that a lock held
// by a thread that can never release it freezes every other thread, a
// thread whose every transition is a check its registers make false never
// moves again (only its own steps change them), and a goal term that needs
// two threads in states where each must hold the lock never holds.

#include "machine.hpp"

#include "tsoreach/lang/goal.hpp"

#include <functional>
#include <vector>

namespace tsoreach::reach::mcr {

class DeadEnds {
  public:
    DeadEnds(const Machine& m, const Goal& goal);

    // No goal term can hold in any configuration reachable from c.
    [[nodiscard]] bool dead(const Config& c) const;
    // Every configuration with thread t in state s with registers regs is
    // dead, wherever the other threads are.
    [[nodiscard]] bool deadWith(std::uint32_t t, StateId s, const std::vector<Value>& regs) const;

  private:
    // Per thread, the states from which some state in `to` can be reached.
    using Marks = std::vector<std::vector<bool>>;
    Marks backwardFrom(const std::function<bool(std::uint32_t, StateId)>& to) const;
    // Thread t, moving or not, can be in a state the term accepts.
    [[nodiscard]] bool canAccept(std::size_t term, std::uint32_t t, StateId s, bool moves) const;

    const Machine& m_;
    const Program& p_;
    const Goal& goal_;
    std::vector<Marks> accepting_; // by term: a state the term accepts can be reached
    Marks releasing_;              // a release can be reached
    Marks holding_;                // every path to the state holds the lock
    std::vector<bool> impossible_; // by term: two of its threads must hold the lock
    Marks mustHold() const;
    bool twoHolders(std::size_t term) const;
    std::vector<std::vector<std::vector<StateId>>> preds_; // by thread, by state
};

} // namespace tsoreach::reach::mcr
