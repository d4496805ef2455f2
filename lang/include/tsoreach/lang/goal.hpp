#pragma once
// Goals: for every constrained thread, a set of accepted control states.

#include "tsoreach/lang/program.hpp"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace tsoreach {

class Goal {
  public:
    // A goal that constrains no thread yet.
    explicit Goal(const Program& p);

    void accept(ThreadId t, StateId s);
    [[nodiscard]] bool constrains(ThreadId t) const { return constrained_[t.index()]; }
    [[nodiscard]] bool accepts(ThreadId t, StateId s) const {
        return !constrained_[t.index()] || accepting_[t.index()][s.index()] != 0;
    }
    [[nodiscard]] bool empty() const { return constrainedThreads_.empty(); }
    [[nodiscard]] std::span<const ThreadId> constrainedThreads() const {
        return constrainedThreads_;
    }
    [[nodiscard]] std::vector<StateId> acceptedStates(ThreadId t) const;

    // `pcs` holds one control state per thread, in thread order.
    template <class PcRange> [[nodiscard]] bool satisfiedBy(const PcRange& pcs) const {
        for (ThreadId t : constrainedThreads_) {
            if (accepting_[t.index()][static_cast<std::size_t>(pcs[t.index()])] == 0) {
                return false;
            }
        }
        return true;
    }

    // "t0=q3,t1=q3" in the program's names.
    [[nodiscard]] std::string describe(const Program& p) const;

  private:
    std::vector<std::uint8_t> constrained_;
    std::vector<std::vector<std::uint8_t>> accepting_;
    std::vector<ThreadId> constrainedThreads_;
};

// The goal of language.md: every thread with a final state is in one of them.
// nullopt when no thread declares a final state.
std::optional<Goal> defaultGoal(const Program& p);

// `goal` of `from` for a program `to` whose threads and states carry from's
// names (an extension or a fenced copy). Throws std::logic_error when an
// accepted state has no namesake in `to`.
Goal goalByStateNames(const Program& from, const Goal& goal, const Program& to);

// Parses "THREAD=STATE[,THREAD=STATE...]"; a thread named twice accepts any of
// its named states. Throws GoalSpecError naming the bad part.
Goal parseGoalSpec(const Program& p, std::string_view spec);

class GoalSpecError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

} // namespace tsoreach
