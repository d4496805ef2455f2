#include "tsoreach/lang/value_sets.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace tsoreach {

namespace {

ValueSet anyValue() {
    return ValueSet{true, {}};
}

ValueSet single(Value v) {
    return ValueSet{false, {v}};
}

// Adds `b` into `a`; true if `a` grew.
bool join(ValueSet& a, const ValueSet& b, std::size_t limit) {
    if (a.any) {
        return false;
    }
    if (b.any) {
        a = anyValue();
        return true;
    }
    std::vector<Value> merged;
    merged.reserve(a.values.size() + b.values.size());
    std::set_union(a.values.begin(), a.values.end(), b.values.begin(), b.values.end(),
                   std::back_inserter(merged));
    if (merged.size() == a.values.size()) {
        return false;
    }
    if (merged.size() > limit) {
        a = anyValue();
    } else {
        a.values = std::move(merged);
    }
    return true;
}

bool isBoolean(ExprOp op) {
    switch (op) {
    case ExprOp::Not:
    case ExprOp::Eq:
    case ExprOp::Ne:
    case ExprOp::Lt:
    case ExprOp::Le:
    case ExprOp::Gt:
    case ExprOp::Ge:
    case ExprOp::And:
    case ExprOp::Or:
        return true;
    default:
        return false;
    }
}

// Every value `op` gives on operands drawn from `a` and `b`.
ValueSet apply(ExprOp op, const ValueSet& a, const ValueSet& b, std::size_t limit) {
    if (a.any || b.any) {
        return isBoolean(op) ? ValueSet{false, {0, 1}} : anyValue();
    }
    std::vector<Value> out;
    for (Value x : a.values) {
        for (Value y : b.values) {
            out.push_back(applyOperator(op, x, y));
        }
        // Bound the work on large products early.
        if (out.size() > 4 * limit) {
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
            if (out.size() > limit) {
                return anyValue();
            }
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (out.size() > limit) {
        return anyValue();
    }
    return ValueSet{false, std::move(out)};
}

// Evaluates a prefix-order expression over sets, right to left like the
// concrete evaluator (no recursion: expressions may be deep).
ValueSet evaluateSets(std::span<const ExprNode> nodes, const std::vector<ValueSet>& regs,
                      std::size_t limit) {
    std::vector<ValueSet> stack;
    for (std::size_t i = nodes.size(); i-- > 0;) {
        const ExprNode& n = nodes[i];
        switch (n.op) {
        case ExprOp::Const:
            stack.push_back(single(n.value));
            break;
        case ExprOp::Reg:
            stack.push_back(regs[n.reg.index()]);
            break;
        case ExprOp::Not:
            stack.back() = apply(ExprOp::Eq, stack.back(), single(0), limit);
            break;
        default: {
            ValueSet a = std::move(stack.back());
            stack.pop_back();
            stack.back() = apply(n.op, a, stack.back(), limit);
            break;
        }
        }
    }
    return stack.empty() ? single(0) : std::move(stack.back());
}

// One past the end of the subexpression that starts at `i` (prefix order).
std::size_t subtreeEnd(std::span<const ExprNode> nodes, std::size_t i) {
    std::size_t need = 1;
    while (need > 0) {
        need = need - 1 + static_cast<std::size_t>(arity(nodes[i].op));
        ++i;
    }
    return i;
}

// Does `x op y` hold?
bool holds(ExprOp op, Value x, Value y) {
    return applyOperator(op, x, y) != 0;
}

ExprOp mirrored(ExprOp op) {
    switch (op) {
    case ExprOp::Lt:
        return ExprOp::Gt;
    case ExprOp::Le:
        return ExprOp::Ge;
    case ExprOp::Gt:
        return ExprOp::Lt;
    case ExprOp::Ge:
        return ExprOp::Le;
    default:
        return op; // == and != are symmetric
    }
}

bool isComparison(ExprOp op) {
    return op == ExprOp::Eq || op == ExprOp::Ne || op == ExprOp::Lt || op == ExprOp::Le ||
           op == ExprOp::Gt || op == ExprOp::Ge;
}

// Keeps the x in `xs` for which `x cmp y` holds for some y in `ys` (both
// sorted): linear, since refinement runs on every check of every pass.
void keepSatisfying(std::vector<Value>& xs, ExprOp cmp, const std::vector<Value>& ys) {
    if (ys.empty()) {
        xs.clear();
        return;
    }
    switch (cmp) {
    case ExprOp::Eq: {
        std::vector<Value> both;
        std::set_intersection(xs.begin(), xs.end(), ys.begin(), ys.end(), std::back_inserter(both));
        xs = std::move(both);
        return;
    }
    case ExprOp::Ne:
        if (ys.size() == 1) {
            std::erase(xs, ys.front());
        }
        return; // two distinct y: every x differs from one of them
    case ExprOp::Lt:
    case ExprOp::Le:
        std::erase_if(xs, [&](Value x) { return !holds(cmp, x, ys.back()); });
        return;
    case ExprOp::Gt:
    case ExprOp::Ge:
        std::erase_if(xs, [&](Value x) { return !holds(cmp, x, ys.front()); });
        return;
    default:
        std::erase_if(xs, [&](Value x) {
            return std::none_of(ys.begin(), ys.end(), [&](Value y) { return holds(cmp, x, y); });
        });
        return;
    }
}

// Narrows the registers to values under which `check cond` can pass, for
// conditions made of && over comparisons of a register with an expression
// and bare registers; other conditions narrow nothing. Without this, loop
// counters bounded by a check (for j := 1 to N) would grow without limit.
void refine(std::span<const ExprNode> cond, std::vector<ValueSet>& regs, std::size_t limit) {
    std::vector<std::span<const ExprNode>> work{cond};
    while (!work.empty()) {
        const std::span<const ExprNode> e = work.back();
        work.pop_back();
        const ExprOp op = e[0].op;
        if (op == ExprOp::Reg) {
            ValueSet& r = regs[e[0].reg.index()];
            std::erase(r.values, Value(0));
            continue;
        }
        if (op == ExprOp::And) {
            const std::size_t mid = subtreeEnd(e, 1);
            work.push_back(e.subspan(1, mid - 1));
            work.push_back(e.subspan(mid));
            continue;
        }
        if (!isComparison(op)) {
            continue;
        }
        const std::size_t mid = subtreeEnd(e, 1);
        const std::span<const ExprNode> lhs = e.subspan(1, mid - 1);
        const std::span<const ExprNode> rhs = e.subspan(mid);
        auto narrow = [&](std::span<const ExprNode> reg, std::span<const ExprNode> other,
                          ExprOp cmp) {
            if (reg.size() != 1 || reg[0].op != ExprOp::Reg) {
                return;
            }
            ValueSet& r = regs[reg[0].reg.index()];
            const ValueSet bound = evaluateSets(other, regs, limit);
            if (r.any || bound.any) {
                return;
            }
            keepSatisfying(r.values, cmp, bound.values);
        };
        narrow(lhs, rhs, op);
        narrow(rhs, lhs, mirrored(op));
    }
}

bool feasible(const std::vector<ValueSet>& regs) {
    return std::none_of(regs.begin(), regs.end(),
                        [](const ValueSet& r) { return !r.any && r.values.empty(); });
}

class Analysis {
  public:
    Analysis(const Program& p, std::size_t limit, const StopCondition& stop)
        : p_(p), limit_(limit), poll_(stop), initial_(p.memory.initialCells()) {
        out_.byTransition.resize(p.transitions.size());
        env_.resize(p.threads.size());
        for (std::size_t t = 0; t < p.threads.size(); ++t) {
            const Thread& th = p.threads[t];
            env_[t].resize(th.stateCount());
            // Registers start at 0.
            env_[t][th.initial.index()] = std::vector<ValueSet>(th.regCount(), single(0));
        }
    }

    AddressSets run() {
        // Memory only grows, so rerunning every thread until memory is
        // stable reaches the fixpoint.
        for (bool memoryGrew = true; memoryGrew;) {
            memoryGrew = false;
            for (std::size_t t = 0; t < p_.threads.size(); ++t) {
                memoryGrew = thread(t) || memoryGrew;
            }
        }
        for (const ValueSet& s : out_.byTransition) {
            join(out_.all, s, static_cast<std::size_t>(-1));
        }
        for (const auto& states : env_) {
            std::vector<bool>& reach = out_.reachable.emplace_back(states.size());
            for (std::size_t s = 0; s < states.size(); ++s) {
                reach[s] = states[s].has_value();
            }
        }
        return std::move(out_);
    }

  private:
    // One thread to a fixpoint under the current memory; true if it stored
    // something new.
    bool thread(std::size_t t) {
        const Thread& th = p_.threads[t];
        bool memoryGrew = false;
        std::vector<StateId> work;
        std::vector<bool> queued(th.stateCount(), false);
        for (std::size_t s = 0; s < th.stateCount(); ++s) {
            if (env_[t][s]) {
                work.push_back(StateId(static_cast<std::uint32_t>(s)));
                queued[s] = true;
            }
        }
        for (std::size_t steps = 0; !work.empty(); ++steps) {
            // A step copies the state's register sets: with thousands of
            // registers that costs far more than the poll.
            if (steps % 16 == 0) {
                poll_.throwIfStopped();
            }
            const StateId s = work.back();
            work.pop_back();
            queued[s.index()] = false;
            for (TransitionId id : th.outgoingOf(s)) {
                const Transition& tr = p_.transition(id);
                std::vector<ValueSet> next = *env_[t][s.index()];
                const Instruction& in = tr.instr;
                switch (in.kind) {
                case InstrKind::Read:
                case InstrKind::Write: {
                    const ValueSet addrs = evaluateSets(p_.expr(in.addr), next, limit_);
                    join(out_.byTransition[id.index()], addrs, limit_);
                    if (in.kind == InstrKind::Read) {
                        next[in.reg.index()] = load(addrs);
                    } else {
                        memoryGrew = store(addrs, evaluateSets(p_.expr(in.value), next, limit_)) ||
                                     memoryGrew;
                    }
                    break;
                }
                case InstrKind::Local:
                    next[in.reg.index()] = evaluateSets(p_.expr(in.value), next, limit_);
                    break;
                case InstrKind::Check:
                    refine(p_.expr(in.value), next, limit_);
                    if (!feasible(next)) {
                        continue; // no register values let the check pass
                    }
                    break;
                default:
                    break;
                }
                if (merge(env_[t][tr.to.index()], next) && !queued[tr.to.index()]) {
                    queued[tr.to.index()] = true;
                    work.push_back(tr.to);
                }
            }
        }
        return memoryGrew;
    }

    // Joins `regs` into a state's registers; true if the state is reached
    // for the first time or its registers grew.
    bool merge(std::optional<std::vector<ValueSet>>& cur, const std::vector<ValueSet>& regs) {
        if (!cur) {
            cur = regs;
            return true;
        }
        bool grew = false;
        for (std::size_t r = 0; r < cur->size(); ++r) {
            grew = join((*cur)[r], regs[r], limit_) || grew;
        }
        return grew;
    }

    // A cell's initial value (0 unless the program declares another), or
    // any value stored there.
    ValueSet load(const ValueSet& addrs) const {
        ValueSet v;
        join(v, unknownAddress_, limit_);
        if (addrs.any || addrs.values.empty()) {
            join(v, single(0), limit_);
        }
        if (addrs.any) {
            for (const MemoryCell& c : initial_) {
                join(v, single(c.value), limit_);
            }
            for (const auto& [a, vals] : memory_) {
                join(v, vals, limit_);
            }
            return v;
        }
        for (Value a : addrs.values) {
            join(v, single(p_.memory.initialValue(a)), limit_);
            if (auto it = memory_.find(a); it != memory_.end()) {
                join(v, it->second, limit_);
            }
        }
        return v;
    }

    bool store(const ValueSet& addrs, const ValueSet& values) {
        if (addrs.any) {
            return join(unknownAddress_, values, limit_);
        }
        bool grew = false;
        for (Value a : addrs.values) {
            grew = join(memory_[a], values, limit_) || grew;
        }
        return grew;
    }

    const Program& p_;
    std::size_t limit_;
    StopPoll poll_;
    std::vector<MemoryCell> initial_; // the cells that do not start at 0
    AddressSets out_;
    // By thread and control state: the registers' values, nullopt while
    // the state is not known to be reachable.
    std::vector<std::vector<std::optional<std::vector<ValueSet>>>> env_;
    std::map<Value, ValueSet> memory_; // values stored per known address
    ValueSet unknownAddress_;          // values stored at addresses not known
};

} // namespace

AddressSets accessedAddresses(const Program& p, std::size_t limit, const StopCondition& stop) {
    return Analysis(p, limit, stop).run();
}

} // namespace tsoreach
