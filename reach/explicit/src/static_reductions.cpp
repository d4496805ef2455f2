#include "static_reductions.hpp"

#include "tsoreach/lang/value_sets.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <boost/graph/strong_components.hpp>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>

namespace tsoreach::reach {
namespace {

// 64-bit words for a bit per address of a universe of n plus bit 0.
std::size_t addressWords(std::size_t n) {
    return (n + 1 + 63) / 64;
}

// Bit sets of a fixed width, one row per control state of a thread.
class Rows {
  public:
    Rows(std::size_t rows, std::size_t words) : words_(words), bits_(rows * words, 0) {}
    [[nodiscard]] std::uint64_t* row(std::size_t r) { return &bits_[r * words_]; }
    [[nodiscard]] const std::uint64_t* row(std::size_t r) const { return &bits_[r * words_]; }
    void set(std::size_t r, std::size_t bit) {
        if (bit >= 64 * words_) {
            throw std::logic_error("bit set row too narrow");
        }
        row(r)[bit / 64] |= 1ULL << (bit % 64);
    }
    [[nodiscard]] bool test(std::size_t r, std::size_t bit) const {
        return ((row(r)[bit / 64] >> (bit % 64)) & 1U) != 0;
    }
    // row(r) |= (src & ~kill); true if row(r) changed.
    bool merge(std::size_t r, const std::uint64_t* src, const std::uint64_t* kill = nullptr) {
        bool changed = false;
        std::uint64_t* dst = row(r);
        for (std::size_t k = 0; k < words_; ++k) {
            const std::uint64_t add = src[k] & (kill != nullptr ? ~kill[k] : ~0ULL);
            changed |= (dst[k] | add) != dst[k];
            dst[k] |= add;
        }
        return changed;
    }
    [[nodiscard]] std::size_t words() const { return words_; }
    // Moves the bits out (the rows are empty afterwards).
    [[nodiscard]] std::vector<std::uint64_t> take() { return std::move(bits_); }

  private:
    std::size_t words_;
    std::vector<std::uint64_t> bits_;
};

// Backward fixpoint over thread t's control-flow graph:
// out[s] |= step(tr, out[to]) for every transition s -> to. `step` merges
// into out[s] and says whether it changed. The worklist starts with the
// states in depth-first postorder, successors before their predecessors
// (where the graph allows), so that on an acyclic graph every state is
// merged from complete successors, once: a chain of n states costs n
// merges, not n^2 (each one as wide as the rows).
template <class Step> void backwardFixpoint(const Program& p, const Thread& th, Step&& step) {
    const std::size_t n = th.stateCount();
    std::vector<std::vector<TransitionId>> incoming(n);
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    Graph g(n);
    for (TransitionId id : th.transitions) {
        const Transition& tr = p.transition(id);
        incoming[tr.to.index()].push_back(id);
        boost::add_edge(tr.from.index(), tr.to.index(), g);
    }
    struct Finish : boost::default_dfs_visitor {
        std::vector<std::size_t>* order;
        void finish_vertex(std::size_t v, const Graph&) const { order->push_back(v); }
    };
    std::vector<std::size_t> work; // popped from the back: postorder reversed
    work.reserve(n);
    Finish vis;
    vis.order = &work;
    std::vector<boost::default_color_type> colors(n);
    boost::depth_first_search(
        g, vis,
        boost::make_iterator_property_map(colors.begin(), boost::get(boost::vertex_index, g)),
        th.initial.index());
    std::reverse(work.begin(), work.end());
    std::vector<std::uint8_t> queued(n, 1);
    while (!work.empty()) {
        const std::size_t to = work.back();
        work.pop_back();
        queued[to] = 0;
        for (TransitionId id : incoming[to]) {
            const std::size_t from = p.transition(id).from.index();
            if (step(id, from, to) && queued[from] == 0) {
                queued[from] = 1;
                work.push_back(from);
            }
        }
    }
}

void addRegisters(const Program& p, ExprRef e, Rows& rows, std::size_t r) {
    for (const ExprNode& n : p.expr(e)) {
        if (n.op == ExprOp::Reg) {
            rows.set(r, n.reg.index());
        }
    }
}

// A feedback edge set of thread `th`'s control-flow graph that avoids the
// transitions partial-order reduction could use: every control cycle holds a
// returned transition. `blocked` marks transitions that are never in an
// ample set anyway; those inside a strongly connected component are taken
// first, then the back edges of a depth-first forest of what remains.
std::vector<std::uint8_t> stickyTransitions(const Program& p, const Thread& th,
                                            const std::vector<std::uint8_t>& blocked) {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS,
                                        boost::no_property, std::uint32_t>;
    Graph full(th.stateCount());
    for (TransitionId id : th.transitions) {
        const Transition& tr = p.transition(id);
        boost::add_edge(tr.from.index(), tr.to.index(), id.value, full);
    }
    std::vector<std::size_t> component(th.stateCount());
    boost::strong_components(full, boost::make_iterator_property_map(
                                       component.begin(), boost::get(boost::vertex_index, full)));
    std::vector<std::uint8_t> sticky(p.transitions.size(), 0);
    Graph rest(th.stateCount());
    for (TransitionId id : th.transitions) {
        const Transition& tr = p.transition(id);
        if (blocked[id.index()] != 0 && component[tr.from.index()] == component[tr.to.index()]) {
            sticky[id.index()] = 1;
        } else {
            boost::add_edge(tr.from.index(), tr.to.index(), id.value, rest);
        }
    }
    struct Visitor : boost::default_dfs_visitor {
        std::vector<std::uint8_t>* sticky;
        void back_edge(Graph::edge_descriptor e, const Graph& graph) const {
            (*sticky)[graph[e]] = 1;
        }
    };
    Visitor vis;
    vis.sticky = &sticky;
    std::vector<boost::default_color_type> colors(th.stateCount());
    boost::depth_first_search(
        rest, vis,
        boost::make_iterator_property_map(colors.begin(), boost::get(boost::vertex_index, rest)),
        th.initial.index());
    return sticky;
}

} // namespace

std::vector<std::vector<std::vector<std::uint32_t>>> deadRegisters(const Program& p,
                                                                   const StopCondition& stop) {
    StopPoll poll(stop);
    std::vector<std::vector<std::vector<std::uint32_t>>> out;
    for (const Thread& th : p.threads) {
        poll.throwIfStopped();
        const std::size_t words = (th.regCount() + 63) / 64;
        Rows live(th.stateCount(), std::max<std::size_t>(words, 1));
        // use(tr) and def(tr) as rows indexed by transition position.
        Rows use(p.transitions.size(), live.words());
        Rows def(p.transitions.size(), live.words());
        for (TransitionId id : th.transitions) {
            const Instruction& in = p.transition(id).instr;
            addRegisters(p, in.value, use, id.index());
            addRegisters(p, in.addr, use, id.index());
            if (in.reg.valid()) {
                def.set(id.index(), in.reg.index());
            }
        }
        for (TransitionId id : th.transitions) {
            live.merge(p.transition(id).from.index(), use.row(id.index()));
        }
        backwardFixpoint(p, th, [&](TransitionId id, std::size_t from, std::size_t to) {
            return live.merge(from, live.row(to), def.row(id.index()));
        });
        auto& perState = out.emplace_back(th.stateCount());
        for (std::size_t s = 0; s < th.stateCount(); ++s) {
            for (std::size_t r = 0; r < th.regCount(); ++r) {
                if (!live.test(s, r)) {
                    perState[s].push_back(static_cast<std::uint32_t>(r));
                }
            }
        }
    }
    return out;
}

PorTable::PorTable(const Program& p, const Goal& goal, const StopCondition& stop) {
    StopPoll poll(stop);
    // The address universe: every constant address and every address of a
    // bounded computed access (the analysis' per-transition sets, which are
    // finite even when another access is unbounded and `all` is not).
    // Address universe[i] is bit i + 1; bit 0 stands for every address
    // outside the universe, which only unbounded accesses touch, so that
    // two of them always conflict. An unbounded access sets every bit.
    std::vector<Value> universe;
    std::optional<AddressSets> sets;
    for (std::size_t i = 0; i < p.transitions.size(); ++i) {
        const Instruction& in = p.transitions[i].instr;
        if (!accessesMemory(in.kind)) {
            continue;
        }
        if (auto a = constantValue(p.expr(in.addr))) {
            universe.push_back(*a);
            continue;
        }
        if (!sets) {
            sets = accessedAddresses(p, kDefaultValueSetLimit, stop);
        }
        const ValueSet& vs = sets->byTransition[i];
        universe.insert(universe.end(), vs.values.begin(), vs.values.end());
    }
    std::sort(universe.begin(), universe.end());
    universe.erase(std::unique(universe.begin(), universe.end()), universe.end());
    words_ = addressWords(universe.size());
    auto bitOf = [&](Value a) {
        const auto it = std::lower_bound(universe.begin(), universe.end(), a);
        if (it == universe.end() || *it != a) {
            throw std::logic_error("partial-order reduction: address outside its universe");
        }
        return 1 + static_cast<std::size_t>(it - universe.begin());
    };

    std::size_t rows = 0;
    for (const Thread& th : p.threads) {
        base_.push_back(rows);
        rows += th.stateCount();
    }
    // The bit tables below, before they are allocated.
    const double tableMb =
        static_cast<double>((4 * rows + 2 * p.transitions.size() + 2 * p.threads.size()) * words_ *
                            sizeof(std::uint64_t)) /
        (1024.0 * 1024.0);
    if (std::optional<std::string> why = poll.reason(residentMb() + tableMb)) {
        throw Stopped(*why);
    }
    eligible_.assign(rows, 0);
    accesses_.assign(rows, 0);
    futureLock_.assign(rows, 0);
    Rows curRead(rows, words_);
    Rows curWrite(rows, words_);
    Rows futRead(rows, words_);
    Rows futWrite(rows, words_);

    // Pass 1: what each transition and control state accesses.
    Rows trRead(p.transitions.size(), words_);
    Rows trWrite(p.transitions.size(), words_);
    Rows threadRead(p.threads.size(), words_);
    Rows threadWrite(p.threads.size(), words_);
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        poll.throwIfStopped();
        const Thread& th = p.threads[t];
        for (TransitionId id : th.transitions) {
            const Transition& tr = p.transition(id);
            const InstrKind k = tr.instr.kind;
            const std::size_t r = base_[t] + tr.from.index();
            if (takesLock(k) || releasesLock(k)) {
                futureLock_[r] = 1;
            }
            if (!accessesMemory(k)) {
                continue;
            }
            accesses_[r] = 1;
            Rows& rows = k == InstrKind::Read ? trRead : trWrite;
            if (auto a = constantValue(p.expr(tr.instr.addr))) {
                rows.set(id.index(), bitOf(*a));
            } else if (const ValueSet& vs = sets->byTransition[id.index()]; vs.any) {
                std::fill(rows.row(id.index()), rows.row(id.index()) + words_, ~0ULL);
            } else {
                for (Value a : vs.values) {
                    rows.set(id.index(), bitOf(a));
                }
            }
            curRead.merge(r, trRead.row(id.index()));
            curWrite.merge(r, trWrite.row(id.index()));
            threadRead.merge(t, trRead.row(id.index()));
            threadWrite.merge(t, trWrite.row(id.index()));
        }
    }

    // Pass 2: per thread, the transitions never in an ample set (lock,
    // visible, or conflicting with some access of another thread), the
    // sticky ones (C3), the static eligibility and the futures.
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        poll.throwIfStopped();
        const Thread& th = p.threads[t];
        const ThreadId tid(static_cast<std::uint32_t>(t));
        std::vector<std::uint8_t> blocked(p.transitions.size(), 0);
        for (TransitionId id : th.transitions) {
            const Transition& tr = p.transition(id);
            const InstrKind k = tr.instr.kind;
            bool never =
                takesLock(k) || releasesLock(k) || goal.changesAcceptance(tid, tr.from, tr.to);
            for (std::size_t u = 0; u < p.threads.size() && !never; ++u) {
                if (u == t) {
                    continue;
                }
                for (std::size_t w = 0; w < words_; ++w) {
                    const std::uint64_t ur = threadRead.row(u)[w];
                    const std::uint64_t uw = threadWrite.row(u)[w];
                    if (((trWrite.row(id.index())[w] & (ur | uw)) |
                         (trRead.row(id.index())[w] & uw)) != 0) {
                        never = true;
                    }
                }
            }
            blocked[id.index()] = never ? 1 : 0;
        }
        const std::vector<std::uint8_t> sticky = stickyTransitions(p, th, blocked);
        for (std::size_t s = 0; s < th.stateCount(); ++s) {
            const std::size_t r = base_[t] + s;
            const auto out = th.outgoingOf(StateId(static_cast<std::uint32_t>(s)));
            bool ok = !out.empty();
            for (TransitionId id : out) {
                const Transition& tr = p.transition(id);
                const InstrKind k = tr.instr.kind;
                if (takesLock(k) || releasesLock(k) || sticky[id.index()] != 0 ||
                    goal.changesAcceptance(tid, tr.from, tr.to)) {
                    ok = false;
                }
            }
            eligible_[r] = ok ? 1 : 0;
            futRead.merge(r, curRead.row(r));
            futWrite.merge(r, curWrite.row(r));
        }
        backwardFixpoint(p, th, [&](TransitionId, std::size_t from, std::size_t to) {
            const std::size_t rf = base_[t] + from;
            const std::size_t rt = base_[t] + to;
            bool changed = futRead.merge(rf, futRead.row(rt));
            changed |= futWrite.merge(rf, futWrite.row(rt));
            if (futureLock_[rt] != 0 && futureLock_[rf] == 0) {
                futureLock_[rf] = 1;
                changed = true;
            }
            return changed;
        });
    }
    curRead_ = curRead.take();
    curWrite_ = curWrite.take();
    futWrite_ = futWrite.take();
    futAccess_ = futRead.take();
    for (std::size_t k = 0; k < futAccess_.size(); ++k) {
        futAccess_[k] |= futWrite_[k];
    }
}

} // namespace tsoreach::reach
