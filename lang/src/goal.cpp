#include "tsoreach/lang/goal.hpp"

#include "tsoreach/lang/suggest.hpp"
#include "tsoreach/lang/validate.hpp"

#include <stdexcept>

namespace tsoreach {

Goal::Term Goal::emptyTerm() const {
    Term t;
    t.constrained.assign(anyConstrained_.size(), 0);
    t.accepting.reserve(anyAccepting_.size());
    for (const auto& acc : anyAccepting_) {
        t.accepting.emplace_back(acc.size(), 0);
    }
    return t;
}

Goal::Goal(const Program& p) : anyConstrained_(p.threads.size(), 0) {
    anyAccepting_.reserve(p.threads.size());
    for (const Thread& t : p.threads) {
        anyAccepting_.emplace_back(t.stateCount(), 0);
    }
    terms_.push_back(emptyTerm());
}

void Goal::addTerm() {
    terms_.push_back(emptyTerm());
}

void Goal::requireView(const ViewAtom& v) {
    terms_.back().views.push_back(v);
    hasViews_ = true;
}

namespace {

// Inserts t into `threads`, kept in thread order so that describe() is stable.
void insertOrdered(std::vector<ThreadId>& threads, ThreadId t) {
    auto pos = threads.begin();
    while (pos != threads.end() && *pos < t) {
        ++pos;
    }
    threads.insert(pos, t);
}

std::vector<StateId> setStates(const std::vector<std::uint8_t>& acc) {
    std::vector<StateId> out;
    for (std::size_t s = 0; s < acc.size(); ++s) {
        if (acc[s] != 0) {
            out.emplace_back(static_cast<std::uint32_t>(s));
        }
    }
    return out;
}

} // namespace

void Goal::constrain(ThreadId t) {
    Term& term = terms_.back();
    if (term.constrained[t.index()] == 0) {
        term.constrained[t.index()] = 1;
        insertOrdered(term.threads, t);
    }
    if (anyConstrained_[t.index()] == 0) {
        anyConstrained_[t.index()] = 1;
        insertOrdered(anyThreads_, t);
    }
}

void Goal::accept(ThreadId t, StateId s) {
    constrain(t);
    terms_.back().accepting[t.index()][s.index()] = 1;
    anyAccepting_[t.index()][s.index()] = 1;
}

bool Goal::changesAcceptance(ThreadId t, StateId from, StateId to) const {
    for (std::size_t i = 0; i < terms_.size(); ++i) {
        if (termAccepts(i, t, from) != termAccepts(i, t, to)) {
            return true;
        }
    }
    return false;
}

std::vector<StateId> Goal::termAcceptedStates(std::size_t term, ThreadId t) const {
    return setStates(terms_[term].accepting[t.index()]);
}

std::vector<StateId> Goal::acceptedStates(ThreadId t) const {
    return setStates(anyAccepting_[t.index()]);
}

std::string Goal::describeTerm(const Program& p, std::size_t term) const {
    std::string out;
    for (ThreadId t : terms_[term].threads) {
        for (StateId s : termAcceptedStates(term, t)) {
            if (!out.empty()) {
                out += ',';
            }
            out += p.thread(t).name + '=' + p.thread(t).stateNames[s.index()];
        }
    }
    for (const ViewAtom& v : terms_[term].views) {
        out += std::string(out.empty() ? "" : ",") + p.thread(v.thread).name + '@' +
               p.memory.label(v.addr) + std::string(spelling(v.op)) + std::to_string(v.value);
    }
    return out;
}

std::string Goal::describe(const Program& p) const {
    std::string out;
    for (std::size_t i = 0; i < terms_.size(); ++i) {
        const std::string term = describeTerm(p, i);
        out += (i == 0 ? "" : " or ") + (term.empty() && terms_.size() > 1 ? "true" : term);
    }
    return out;
}

std::optional<Goal> defaultGoal(const Program& p) {
    if (!p.hasFinals()) {
        return std::nullopt;
    }
    Goal g(p);
    for (std::size_t i = 0; i < p.threads.size(); ++i) {
        for (StateId s : p.threads[i].finals) {
            g.accept(ThreadId(static_cast<std::uint32_t>(i)), s);
        }
    }
    return g;
}

Goal parseGoalSpec(const Program& p, std::string_view spec) {
    Goal g(p);
    std::size_t start = 0;
    while (start <= spec.size()) {
        std::size_t comma = spec.find(',', start);
        std::string_view part = spec.substr(
            start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        std::size_t eq = part.find('=');
        if (part.empty() || eq == std::string_view::npos || eq == 0 || eq + 1 == part.size()) {
            throw GoalSpecError("goal '" + std::string(spec) + "': expected THREAD=STATE, found '" +
                                std::string(part) + "'");
        }
        // Names may contain '=': prefer the split whose halves name a thread
        // and one of its states.
        for (std::size_t at = eq; at != std::string_view::npos; at = part.find('=', at + 1)) {
            ThreadId t = p.findThread(part.substr(0, at));
            if (t.valid() && findState(p.thread(t), part.substr(at + 1)).valid()) {
                eq = at;
                break;
            }
        }
        std::string_view tname = part.substr(0, eq);
        std::string_view sname = part.substr(eq + 1);
        ThreadId t = p.findThread(tname);
        if (!t.valid()) {
            std::vector<std::string> names;
            for (const Thread& th : p.threads) {
                names.push_back(th.name);
            }
            const std::optional<std::string> close = closestName(tname, names);
            throw GoalSpecError("goal: no thread named '" + std::string(tname) +
                                "' (threads: " + nameList(names) + ")" +
                                (close ? "; did you mean '" + *close + "'?" : ""));
        }
        StateId s = findState(p.thread(t), sname);
        if (!s.valid()) {
            throw GoalSpecError("goal state '" + std::string(sname) + "' of thread '" +
                                    std::string(tname) +
                                    "' (--goal) is not a state of the thread: no transition "
                                    "enters or leaves it " +
                                    notAStateDetail(p, t, sname),
                                t);
        }
        g.accept(t, s);
        if (comma == std::string_view::npos) {
            break;
        }
        start = comma + 1;
    }
    return g;
}

Goal goalByStateNames(const Program& from, const Goal& goal, const Program& to) {
    Goal out(to);
    for (std::size_t i = 0; i < goal.termCount(); ++i) {
        if (i > 0) {
            out.addTerm();
        }
        for (ThreadId t : goal.termThreads(i)) {
            out.constrain(t);
            for (StateId s : goal.termAcceptedStates(i, t)) {
                const std::string& name = from.thread(t).stateNames[s.index()];
                const StateId mapped = findState(to.thread(t), name);
                if (!mapped.valid()) {
                    throw std::logic_error("goal state '" + name + "' has no namesake in " +
                                           to.sourceName);
                }
                out.accept(t, mapped);
            }
        }
        for (const ViewAtom& v : goal.termViews(i)) {
            out.requireView(v); // threads keep their order and addresses
        }
    }
    return out;
}

Goal parseGoalSpecs(const Program& p, std::span<const std::string> specs) {
    Goal out(p);
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const Goal one = parseGoalSpec(p, specs[i]);
        if (i > 0) {
            out.addTerm();
        }
        for (ThreadId t : one.termThreads(0)) {
            for (StateId s : one.termAcceptedStates(0, t)) {
                out.accept(t, s);
            }
        }
    }
    return out;
}

} // namespace tsoreach
