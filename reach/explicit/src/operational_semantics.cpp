#include "operational_semantics.hpp"

#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/lang/validate.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/topological_sort.hpp>

namespace tsoreach::reach {

std::vector<std::size_t> bufferBounds(const Program& p, std::size_t bound) {
    std::vector<std::size_t> out;
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        const Thread& th = p.threads[t];
        const std::vector<bool> live = controlReachable(p, ThreadId(static_cast<std::uint32_t>(t)));
        using Graph =
            boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                  boost::property<boost::edge_weight_t, int>>;
        Graph g(th.stateCount());
        for (TransitionId id : th.transitions) {
            const Transition& tr = p.transition(id);
            if (live[tr.from.index()]) {
                boost::add_edge(tr.from.index(), tr.to.index(),
                                tr.instr.kind == InstrKind::Write ? 1 : 0, g);
            }
        }
        std::vector<std::size_t> order; // reverse topological order
        try {
            boost::topological_sort(g, std::back_inserter(order));
        } catch (const boost::not_a_dag&) {
            out.push_back(bound);
            continue;
        }
        // Most writes on a path from each state, successors first.
        std::vector<std::size_t> most(th.stateCount(), 0);
        auto weight = boost::get(boost::edge_weight, g);
        for (std::size_t v : order) {
            for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
                std::size_t w = most[boost::target(*e, g)] + static_cast<std::size_t>(weight[*e]);
                most[v] = std::max(most[v], w);
            }
        }
        out.push_back(most[th.initial.index()]);
    }
    return out;
}

template <class Policy>
OperationalSemantics<Policy>::OperationalSemantics(const Program& p, const Options& o,
                                                   const Goal* goal)
    : program_(p), threadCount_(p.threads.size()), lockWord_(p.threads.size()),
      exprStack_(p.maxExprStack) {
    std::size_t word = lockWord_ + 1;
    for (const Thread& t : p.threads) {
        regBase_.push_back(word);
        regCount_.push_back(t.regCount());
        word += t.regCount();
    }
    for (const Transition& tr : p.transitions) {
        if (accessesMemory(tr.instr.kind)) {
            if (auto a = constantValue(p.expr(tr.instr.addr))) {
                staticAddrs_.push_back(*a);
            }
        }
    }
    for (const MemoryCell& c : p.memory.initialCells()) {
        staticAddrs_.push_back(c.addr);
    }
    std::sort(staticAddrs_.begin(), staticAddrs_.end());
    staticAddrs_.erase(std::unique(staticAddrs_.begin(), staticAddrs_.end()), staticAddrs_.end());
    memBase_ = word;
    bufLenWord_ = memBase_ + staticAddrs_.size();
    fixedWords_ = bufLenWord_ + (Policy::buffered ? threadCount_ : 0);
    if constexpr (Policy::buffered) {
        bound_ = bufferBounds(p, o.bufferBound);
    }

    if (o.liveRegisters) {
        deadWords_ = deadRegisters(p, o.stop);
        for (std::size_t t = 0; t < threadCount_; ++t) {
            for (std::vector<std::uint32_t>& regs : deadWords_[t]) {
                for (std::uint32_t& r : regs) {
                    r = static_cast<std::uint32_t>(regBase_[t] + r); // below fixedWords_
                }
            }
        }
    }
    if constexpr (!Policy::buffered) {
        // A goal on views sees writes, which the reduction takes as invisible.
        if (o.partialOrder && goal != nullptr && !goal->hasViews()) {
            por_.emplace(p, *goal, o.stop);
            // Compressed chains count as one edge, so BFS would no longer
            // return the fewest steps.
            compress_ = o.search == SearchOrder::Dfs;
        }
    }

    if constexpr (Policy::buffered) {
        if (o.mergeStores && firstJoinedWrite(p) == nullptr) { // a group is not merged
            owners_.emplace(p);
        }
    }

    outgoing_.resize(threadCount_);
    for (std::size_t t = 0; t < threadCount_; ++t) {
        const Thread& th = p.threads[t];
        outgoing_[t].resize(th.stateCount());
        for (std::size_t s = 0; s < th.stateCount(); ++s) {
            auto first = static_cast<std::uint32_t>(compiled_.size());
            for (TransitionId id : th.outgoingOf(StateId(static_cast<std::uint32_t>(s)))) {
                const Transition& tr = p.transition(id);
                Compiled c{};
                c.kind = tr.instr.kind;
                c.joined = tr.instr.joined && Policy::joinsStores;
                c.to = static_cast<StateWord>(tr.to.index());
                c.regWord = tr.instr.reg.valid()
                                ? static_cast<std::uint32_t>(regBase_[t] + tr.instr.reg.index())
                                : 0;
                c.slot = -1;
                c.merge = mergeKind(tr);
                c.value = p.expr(tr.instr.value);
                c.addr = p.expr(tr.instr.addr);
                if (accessesMemory(tr.instr.kind)) {
                    if (auto a = constantValue(c.addr)) {
                        c.slot = slotOf(*a);
                    }
                }
                c.id = id;
                if (!deadWords_.empty()) {
                    c.dead = deadWords_[t][tr.to.index()];
                }
                compiled_.push_back(c);
            }
            outgoing_[t][s] = {first, static_cast<std::uint32_t>(compiled_.size())};
        }
    }
}

template <class Policy>
void OperationalSemantics<Policy>::initialState(std::vector<StateWord>& out) const {
    out.assign(fixedWords_, 0);
    for (std::size_t t = 0; t < threadCount_; ++t) {
        out[t] = static_cast<StateWord>(program_.threads[t].initial.index());
    }
    out[lockWord_] = noLockHolder;
    for (const MemoryCell& c : program_.memory.initialCells()) {
        out[static_cast<std::size_t>(slotOf(c.addr))] = c.value;
    }
}

template <class Policy>
TraceStep OperationalSemantics<Policy>::describe(std::span<const StateWord> s, StepCode code) {
    TraceStep step;
    if (code.isFlush()) {
        const std::size_t at = bufBase(s, code.thread()) + 2 * code.entry();
        step.kind = StepKind::Flush;
        step.thread = ThreadId(static_cast<std::uint32_t>(code.thread()));
        step.addr = s[at];
        step.value = s[at + 1];
        return step;
    }
    const Transition& tr = program_.transition(code.transitionId());
    const std::size_t t = tr.thread.index();
    const std::span<const StateWord> regs = s.subspan(regBase_[t], regCount_[t]);
    step.kind = StepKind::Instruction;
    step.thread = tr.thread;
    step.transition = code.transitionId();
    switch (tr.instr.kind) {
    case InstrKind::Read: {
        Value addr = eval(program_.expr(tr.instr.addr), regs);
        auto [v, forwarded] = load(s, t, bufBase(s, t), slotOf(addr), addr);
        step.addr = addr;
        step.value = v;
        step.forwarded = forwarded;
        break;
    }
    case InstrKind::Write:
        step.value = eval(program_.expr(tr.instr.value), regs);
        step.addr = eval(program_.expr(tr.instr.addr), regs);
        break;
    case InstrKind::Local:
        step.value = eval(program_.expr(tr.instr.value), regs);
        break;
    case InstrKind::LockFor:
    case InstrKind::UnlockFor:
        step.addr = eval(program_.expr(tr.instr.addr), regs);
        break;
    default:
        break;
    }
    return step;
}

template class OperationalSemantics<ScPolicy>;
template class OperationalSemantics<TsoPolicy>;
template class OperationalSemantics<PsoPolicy>;

} // namespace tsoreach::reach
