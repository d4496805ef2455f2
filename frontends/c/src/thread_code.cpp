#include "thread_code.hpp"

#include <algorithm>
#include <unordered_map>

namespace tsoreach::c {

State ThreadCode::newState(std::string hint) {
    parent_.push_back(static_cast<State>(parent_.size()));
    hints_.push_back(std::move(hint));
    return parent_.back();
}

State ThreadCode::find(State s) {
    while (parent_[s] != s) {
        parent_[s] = parent_[parent_[s]];
        s = parent_[s];
    }
    return s;
}

void ThreadCode::merge(State from, State to) {
    log_.push_back({from, to, false});
    const State a = find(from);
    const State b = find(to);
    if (a != b) {
        parent_[a] = b;
    }
}

void ThreadCode::add(State from, State to, Instr instr, SourcePos pos) {
    edges_.push_back({from, to, std::move(instr), pos});
    log_.push_back({from, to, true});
}

bool ThreadCode::placeable(State at, std::size_t since) {
    const State q = find(at);
    bool leaves = false;
    for (std::size_t i = since; i < log_.size(); ++i) {
        const bool from = find(log_[i].a) == q;
        if (find(log_[i].b) == q || (from && !log_[i].transition)) {
            return false;
        }
        leaves = leaves || from;
    }
    return leaves;
}

void ThreadCode::addSite(State at, FenceSite site) {
    sites_.emplace_back(at, std::move(site));
}

std::vector<FenceSite> ThreadCode::sites(ProgramBuilder& b, ThreadId thread) {
    std::vector<FenceSite> out;
    for (auto& [at, site] : sites_) {
        const State q = find(at);
        if (!live_[q]) {
            continue;
        }
        site.thread = thread;
        site.state = b.state(names_[q]);
        const StateId state = site.state; // clang 14 cannot capture a structured binding
        if (std::none_of(out.begin(), out.end(),
                         [&](const FenceSite& s) { return s.state == state; })) {
            out.push_back(site);
        }
    }
    return out;
}

std::vector<bool> ThreadCode::reachable(State initial) {
    std::vector<std::vector<std::size_t>> out(parent_.size());
    for (std::size_t i = 0; i < edges_.size(); ++i) {
        out[find(edges_[i].from)].push_back(i);
    }
    std::vector<bool> seen(parent_.size(), false);
    std::vector<State> stack{find(initial)};
    seen[stack.back()] = true;
    while (!stack.empty()) {
        const State s = stack.back();
        stack.pop_back();
        for (std::size_t i : out[s]) {
            const State t = find(edges_[i].to);
            if (!seen[t]) {
                seen[t] = true;
                stack.push_back(t);
            }
        }
    }
    return seen;
}

// Hints are C positions ("L12"); a second state of the same hint is L12.2.
std::vector<std::string> ThreadCode::uniqueNames() {
    std::vector<std::string> names(parent_.size());
    std::unordered_map<std::string, int> used;
    for (State s = 0; s < parent_.size(); ++s) {
        if (find(s) != s) {
            continue;
        }
        const int n = ++used[hints_[s]];
        names[s] = n == 1 ? hints_[s] : hints_[s] + "." + std::to_string(n);
    }
    return names;
}

std::vector<StateId> ThreadCode::emit(ProgramBuilder& b, State initial,
                                      std::string_view initialName, bool declareFinals) {
    live_ = reachable(initial);
    const std::vector<bool>& live = live_;
    names_ = uniqueNames();
    std::vector<std::string>& names = names_;
    // The initial state keeps the name addThread gave it, even when a label
    // at the top of the function was merged into it.
    names[find(initial)] = initialName;
    (void)b.state(initialName);
    // Finals come right after the initial state in the canonical order;
    // otherwise the failure states are named where the transitions reach them.
    const auto addFailures = [&](std::vector<StateId>& out) {
        for (State f : failures_) {
            const State r = find(f);
            if (!live[r]) {
                continue;
            }
            const StateId id = b.state(names[r]);
            if (std::find(out.begin(), out.end(), id) == out.end()) {
                out.push_back(id);
                if (declareFinals) {
                    b.addFinal(id);
                }
            }
        }
    };
    std::vector<StateId> failures;
    if (declareFinals) {
        addFailures(failures);
    }
    for (const Edge& e : edges_) {
        const State from = find(e.from);
        if (live[from]) {
            const StateId f = b.state(names[from]);
            const StateId t = b.state(names[find(e.to)]);
            b.addTransition(f, t, e.instr, e.pos);
        }
    }
    if (!declareFinals) {
        addFailures(failures);
    }
    return failures;
}

} // namespace tsoreach::c
