#include "tsoreach/param/backward.hpp"

#include "cube.hpp"
#include "preimage.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <optional>

namespace tsoreach::backward {
namespace {

// Parameter tuples of a transition over `procs` node processes: injective,
// new processes numbered procs, procs+1, ... in order of first use (new
// processes are interchangeable, so other numberings repeat these).
std::vector<std::vector<std::uint32_t>> instances(std::size_t params, std::uint32_t procs) {
    std::vector<std::vector<std::uint32_t>> out;
    const auto limit = static_cast<std::uint32_t>(procs + params);
    std::vector<std::uint32_t> d(params, 0);
    for (;;) {
        std::uint32_t nextNew = procs;
        bool ok = true;
        for (std::size_t i = 0; i < params && ok; ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                ok = ok && d[i] != d[j];
            }
            if (d[i] >= procs) {
                ok = ok && d[i] == nextNew;
                ++nextNew;
            }
        }
        if (ok) {
            out.push_back(d);
        }
        std::size_t i = 0;
        while (i < params && ++d[i] == limit) {
            d[i++] = 0;
        }
        if (i == params) {
            return out;
        }
    }
}

std::string show(const Term& t) {
    switch (t.kind) {
    case Term::Kind::Const:
        return std::to_string(t.n);
    case Term::Kind::Proc:
        return "#" + std::to_string(t.n + 1);
    case Term::Kind::Var:
        return "v" + std::to_string(t.n) + (t.off != 0 ? "+" + std::to_string(t.off) : "");
    }
    return "?";
}

// A node as text, for TSOREACH_BACKWARD_DEBUG (developers only).
void dump(const Model& m, const Node& n, std::size_t index) {
    std::cerr << "node " << index << " parent " << n.parent << " by "
              << m.sys.transitions[n.transition].name << " procs " << n.procs << "\n  ";
    for (std::uint32_t p = 0; p < n.procs; ++p) {
        for (std::size_t l = 0; l < m.locals.size(); ++l) {
            std::cerr << m.locals[l].name << "[#" << p + 1 << "]=v"
                      << n.locals[p * m.locals.size() + l] << " ";
        }
    }
    std::cerr << "\n  ";
    for (const Lit& l : n.lits) {
        std::cerr << show(l.a) << " " << static_cast<int>(l.op) << " " << show(l.b) << ", ";
    }
    for (std::size_t e = 0; e < n.events.size(); ++e) {
        const Event& ev = n.events[e];
        std::cerr << "\n  e" << e << " #" << ev.proc + 1 << (ev.instant ? " I" : " W")
                  << (ev.fenced ? "F" : "") << " R:";
        for (const Access& a : ev.reads) {
            std::cerr << " " << m.weaks[a.weak].name << a.index << "=v" << a.var << "/src"
                      << a.source << (a.notInit ? "!i" : "") << (a.ownExcluded ? "!o" : "");
            for (std::uint32_t b : a.after) {
                std::cerr << ">e" << b;
            }
        }
        std::cerr << " W:";
        for (const Access& a : ev.writes) {
            std::cerr << " " << m.weaks[a.weak].name << a.index << "=v" << a.var;
        }
        std::cerr << " before:";
        for (std::size_t f = 0; f < n.events.size(); ++f) {
            if (n.before[e][f]) {
                std::cerr << " e" << f;
            }
        }
    }
    std::cerr << "\n";
}

// The coarse pass's node budget: past it the fine pass takes over.
constexpr std::size_t kCoarseNodes = 2000;

class Search {
  public:
    Search(const cub::System& sys, const BackwardOptions& o, Forgetting how)
        : m_(sys), options_(o), how_(how),
          debug_(std::getenv("TSOREACH_BACKWARD_DEBUG") != nullptr) {}

    BackwardResult run() {
        for (Node& n : unsafeNodes(m_)) {
            if (options_.maxProcs == 0 || n.procs <= options_.maxProcs) {
                queue_.push_back(std::move(n)); // distinct processes: no room for more
            }
        }
        while (!queue_.empty()) {
            if (const auto why = stopReason()) {
                result_.stopped = true;
                return unknown(*why);
            }
            Node n = std::move(queue_.front());
            queue_.pop_front();
            summarize(m_, n);
            if (excludedByInvariant(m_, n)) {
                continue;
            }
            if (meetsInit(m_, n)) {
                return unsafe(n);
            }
            if (coveredByVisited(n)) {
                ++result_.stats.subsumed;
                continue;
            }
            if (visited_.size() >= options_.maxNodes) {
                return unknown("node limit " + std::to_string(options_.maxNodes) +
                               " reached (the search does not always terminate)");
            }
            if (debug_) {
                dump(m_, n, visited_.size());
            }
            visited_.push_back(std::move(n));
            result_.stats.nodes = visited_.size();
            expand(visited_.size() - 1);
        }
        result_.verdict = BackwardResult::Verdict::Safe;
        return result_;
    }

  private:
    std::optional<std::string> stopReason() {
        if (options_.stop == nullptr) {
            return std::nullopt;
        }
        if (!poll_) {
            poll_.emplace(*options_.stop);
        }
        return poll_->reason();
    }

    // True also once a limit has come (the loop then stops with it).
    bool coveredByVisited(const Node& n) {
        for (std::size_t i = 0; i < visited_.size(); ++i) {
            if ((i % 8 == 7 && stopReason()) ||
                covers(m_, visited_[i], n, result_.stats.solverCalls)) {
                return true;
            }
        }
        return false;
    }

    void expand(std::size_t at) {
        const auto& transitions = m_.sys.transitions;
        for (std::uint32_t t = 0; t < transitions.size(); ++t) {
            for (const auto& args : instances(transitions[t].params.size(), visited_[at].procs)) {
                const bool tooMany = options_.maxProcs > 0 &&
                                     std::any_of(args.begin(), args.end(), [&](std::uint32_t a) {
                                         return a >= options_.maxProcs;
                                     });
                if (tooMany || !relevant(m_, visited_[at], t, args)) {
                    continue;
                }
                ++result_.stats.preimages;
                std::vector<Node> made;
                preImage(m_, visited_[at], t, args, how_, made);
                for (Node& n : made) {
                    n.parent = static_cast<std::int64_t>(at);
                    n.transition = t;
                    n.args = args;
                    queue_.push_back(std::move(n));
                }
            }
        }
    }

    BackwardResult unknown(const std::string& why) {
        result_.verdict = BackwardResult::Verdict::Unknown;
        result_.reason = why;
        return result_;
    }

    BackwardResult unsafe(const Node& met) {
        result_.verdict = BackwardResult::Verdict::Unsafe;
        result_.reason =
            "a node meets the initial states (to be confirmed at N = " + std::to_string(met.procs) +
            ")";
        result_.procs = met.procs;
        const Node* n = &met;
        while (n->parent >= 0) {
            std::vector<std::size_t> procs;
            for (std::uint32_t a : n->args) {
                procs.push_back(a + 1);
            }
            result_.path.emplace_back(m_.sys.transitions[n->transition].name, procs);
            n = &visited_[static_cast<std::size_t>(n->parent)];
        }
        return result_;
    }

    Model m_;
    BackwardOptions options_;
    Forgetting how_;
    bool debug_; // TSOREACH_BACKWARD_DEBUG, read once per search
    std::optional<StopPoll> poll_;
    std::deque<Node> queue_;
    std::vector<Node> visited_;
    BackwardResult result_;
};

} // namespace

BackwardResult checkAllN(const cub::System& sys, const BackwardOptions& options) {
    // A coarse pass first: its "safe" is a proof too, and it ends far sooner
    // where waiting reads pile up (lamport_N). Any other answer of it may
    // come from what it forgot, so the fine pass decides then.
    BackwardOptions first = options;
    first.maxNodes = std::min<std::size_t>(options.maxNodes, kCoarseNodes);
    BackwardResult coarse;
    if (options.coarseFirst) {
        coarse = Search(sys, first, Forgetting::Coarse).run();
        coarse.stats.passes = 1;
        if (coarse.verdict == BackwardResult::Verdict::Safe || coarse.stopped) {
            return coarse;
        }
    }
    BackwardResult fine = Search(sys, options, Forgetting::Fine).run();
    fine.stats.passes = options.coarseFirst ? 2 : 1;
    fine.stats.nodes += coarse.stats.nodes;
    fine.stats.subsumed += coarse.stats.subsumed;
    fine.stats.preimages += coarse.stats.preimages;
    fine.stats.solverCalls += coarse.stats.solverCalls;
    return fine;
}

} // namespace tsoreach::backward
