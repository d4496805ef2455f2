#pragma once
// Goals: a disjunction of terms; a term accepts, for every thread it
// constrains, a set of control states, and holds when each of those threads
// is in one of its accepted states. Most goals have one term; Memorax's
// `forbidden A B; C D` and repeated `--goal` options give several.
// A term may also ask for views (ViewAtom): conditions on what a thread
// would read from one cell in the goal state. A term with views holds only
// in states where no thread holds the lock: a locked or atomic block is one
// instant for the others, and its inner states are not observed (terms
// without views are not so restricted). Only engines that evaluate views
// on a whole state take such goals (Goal::hasViews; the explicit engine
// and the replay checker); runChecked refuses them for the others.

#include "tsoreach/lang/expr.hpp"
#include "tsoreach/lang/program.hpp"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace tsoreach {

// Thread `thread`'s view of cell `addr` (its newest buffered store to
// addr, else memory) compared with `value` by `op` (a comparison).
struct ViewAtom {
    ThreadId thread;
    Value addr = 0;
    ExprOp op = ExprOp::Eq;
    Value value = 0;
    friend bool operator==(const ViewAtom&, const ViewAtom&) = default;
};

class Goal {
  public:
    // A goal of one term that constrains no thread yet.
    explicit Goal(const Program& p);

    // Adds state s of thread t to the accepted states of the last term.
    void accept(ThreadId t, StateId s);
    // Makes the last term constrain t even if it accepts none of t's states
    // (then the term never holds). Translations of a goal use it so that a
    // thread whose accepted states all vanish stays constrained.
    void constrain(ThreadId t);
    // Starts a new, empty term; accept() then fills it.
    void addTerm();
    // Adds a view condition to the last term.
    void requireView(const ViewAtom& v);
    [[nodiscard]] bool hasViews() const { return hasViews_; }
    [[nodiscard]] std::span<const ViewAtom> termViews(std::size_t term) const {
        return terms_[term].views;
    }

    [[nodiscard]] std::size_t termCount() const { return terms_.size(); }
    [[nodiscard]] bool termConstrains(std::size_t term, ThreadId t) const {
        return terms_[term].constrained[t.index()] != 0;
    }
    [[nodiscard]] bool termAccepts(std::size_t term, ThreadId t, StateId s) const {
        const Term& x = terms_[term];
        return x.constrained[t.index()] == 0 || x.accepting[t.index()][s.index()] != 0;
    }
    [[nodiscard]] std::span<const ThreadId> termThreads(std::size_t term) const {
        return terms_[term].threads;
    }
    [[nodiscard]] std::vector<StateId> termAcceptedStates(std::size_t term, ThreadId t) const;

    // Unions over the terms.
    // True when some term constrains t.
    [[nodiscard]] bool constrains(ThreadId t) const { return anyConstrained_[t.index()] != 0; }
    // True when some term that constrains t accepts s.
    [[nodiscard]] bool acceptedBySomeTerm(ThreadId t, StateId s) const {
        return anyAccepting_[t.index()][s.index()] != 0;
    }
    // True when a step of t from `from` to `to` can change whether some
    // term holds (the step is visible to the goal).
    [[nodiscard]] bool changesAcceptance(ThreadId t, StateId from, StateId to) const;
    // The threads some term constrains, in thread order.
    [[nodiscard]] std::span<const ThreadId> constrainedThreads() const { return anyThreads_; }
    // The states of t that some term constraining t accepts.
    [[nodiscard]] std::vector<StateId> acceptedStates(ThreadId t) const;

    // `pcs` holds one control state per thread, in thread order.
    template <class PcRange> [[nodiscard]] bool satisfiedBy(const PcRange& pcs) const {
        return satisfiedTerm(pcs).has_value();
    }
    // The first term that `pcs` and the views satisfy: view(thread, addr)
    // gives the thread's view of the cell in the state; a term with views
    // needs `lockFree` (no thread holds the lock in the state).
    template <class PcRange, class ViewOf>
    [[nodiscard]] std::optional<std::size_t> satisfiedTerm(const PcRange& pcs, ViewOf&& view,
                                                           bool lockFree) const {
        for (std::size_t i = 0; i < terms_.size(); ++i) {
            const Term& t = terms_[i];
            if (t.satisfiedBy(pcs) && (t.views.empty() || (lockFree && viewsHold(t.views, view)))) {
                return i;
            }
        }
        return std::nullopt;
    }
    // The first term that `pcs` satisfies, views aside (for engines that
    // refuse goals with views).
    template <class PcRange>
    [[nodiscard]] std::optional<std::size_t> satisfiedTerm(const PcRange& pcs) const {
        for (std::size_t i = 0; i < terms_.size(); ++i) {
            if (terms_[i].satisfiedBy(pcs)) {
                return i;
            }
        }
        return std::nullopt;
    }

    // "t0=q3,t1=q3", terms joined by " or ", in the program's names.
    [[nodiscard]] std::string describe(const Program& p) const;
    [[nodiscard]] std::string describeTerm(const Program& p, std::size_t term) const;

  private:
    struct Term {
        std::vector<std::uint8_t> constrained;            // by thread
        std::vector<std::vector<std::uint8_t>> accepting; // by thread, then state
        std::vector<ThreadId> threads;                    // constrained, in thread order
        std::vector<ViewAtom> views;

        template <class PcRange> [[nodiscard]] bool satisfiedBy(const PcRange& pcs) const {
            for (ThreadId t : threads) {
                if (accepting[t.index()][static_cast<std::size_t>(pcs[t.index()])] == 0) {
                    return false;
                }
            }
            return true;
        }
    };
    Term emptyTerm() const;
    template <class ViewOf>
    static bool viewsHold(const std::vector<ViewAtom>& views, ViewOf& view) {
        for (const ViewAtom& v : views) {
            if (applyOperator(v.op, view(v.thread, v.addr), v.value) == 0) {
                return false;
            }
        }
        return true;
    }
    bool hasViews_ = false;

    std::vector<Term> terms_;
    std::vector<std::uint8_t> anyConstrained_;
    std::vector<std::vector<std::uint8_t>> anyAccepting_;
    std::vector<ThreadId> anyThreads_;
};

// The goal of language.md: every thread with a final state is in one of them.
// nullopt when no thread declares a final state.
std::optional<Goal> defaultGoal(const Program& p);

// `goal` of `from` for a program `to` whose threads and states carry from's
// names (an extension or a fenced copy). Throws std::logic_error when an
// accepted state has no namesake in `to`.
Goal goalByStateNames(const Program& from, const Goal& goal, const Program& to);

// Parses "THREAD=STATE[,THREAD=STATE...]" into a one-term goal; a thread
// named twice accepts any of its named states. Throws GoalSpecError naming
// the bad part. A STATE must be a name the thread's text uses; whether a
// transition mentions it is for validate.hpp (unmentionedGoalStates).
Goal parseGoalSpec(const Program& p, std::string_view spec);
// The disjunction of the specs: each spec is one term.
Goal parseGoalSpecs(const Program& p, std::span<const std::string> specs);

class GoalSpecError : public std::runtime_error {
  public:
    explicit GoalSpecError(const std::string& what, ThreadId thread = ThreadId::invalid())
        : std::runtime_error(what), thread_(thread) {}
    // The thread none of whose states the spec names (its declaration is
    // where a message can point); invalid for other mistakes.
    [[nodiscard]] ThreadId thread() const { return thread_; }

  private:
    ThreadId thread_;
};

} // namespace tsoreach
