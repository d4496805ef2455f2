#include "tsoreach/lang/goal.hpp"

#include <stdexcept>

namespace tsoreach {

Goal::Goal(const Program& p) : constrained_(p.threads.size(), 0) {
    accepting_.reserve(p.threads.size());
    for (const Thread& t : p.threads) {
        accepting_.emplace_back(t.stateCount(), 0);
    }
}

void Goal::accept(ThreadId t, StateId s) {
    if (constrained_[t.index()] == 0) {
        constrained_[t.index()] = 1;
        // Keep thread order so that describe() is stable.
        auto pos = constrainedThreads_.begin();
        while (pos != constrainedThreads_.end() && *pos < t) {
            ++pos;
        }
        constrainedThreads_.insert(pos, t);
    }
    accepting_[t.index()][s.index()] = 1;
}

std::vector<StateId> Goal::acceptedStates(ThreadId t) const {
    std::vector<StateId> out;
    const auto& acc = accepting_[t.index()];
    for (std::size_t s = 0; s < acc.size(); ++s) {
        if (acc[s] != 0) {
            out.emplace_back(static_cast<std::uint32_t>(s));
        }
    }
    return out;
}

std::string Goal::describe(const Program& p) const {
    std::string out;
    for (ThreadId t : constrainedThreads_) {
        for (StateId s : acceptedStates(t)) {
            if (!out.empty()) {
                out += ',';
            }
            out += p.thread(t).name + '=' + p.thread(t).stateNames[s.index()];
        }
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
            std::string names;
            for (const Thread& th : p.threads) {
                names += (names.empty() ? "" : ", ") + th.name;
            }
            throw GoalSpecError("goal: no thread named '" + std::string(tname) +
                                "' (threads: " + names + ")");
        }
        StateId s = findState(p.thread(t), sname);
        if (!s.valid()) {
            throw GoalSpecError("goal: thread '" + std::string(tname) + "' has no state named '" +
                                std::string(sname) + "'");
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
    for (ThreadId t : goal.constrainedThreads()) {
        for (StateId s : goal.acceptedStates(t)) {
            const std::string& name = from.thread(t).stateNames[s.index()];
            const StateId mapped = findState(to.thread(t), name);
            if (!mapped.valid()) {
                throw std::logic_error("goal state '" + name + "' has no namesake in " +
                                       to.sourceName);
            }
            out.accept(t, mapped);
        }
    }
    return out;
}

} // namespace tsoreach
