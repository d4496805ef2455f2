#pragma once
// A reference explorer for the differential test, written from language.md
// alone: a plain BFS over a plain state struct kept in a std::map. It uses
// only the program model and the expression evaluator of lang/, nothing of
// the engines. Slow and obviously correct is the point.
//
// TSO and PSO buffers are unbounded in the language; here a thread may hold
// at most max(bufferBound, its number of write transitions) buffered stores,
// so only a thread that stores in a loop is ever limited. A store beyond the
// bound is not explored, so a search that skipped one cannot prove
// "unreachable" and says "unknown" instead. A goal found is reachable
// whatever the bound.
//
// Joined stores (`joinwrite`): under TSO each buffered store says whether
// it is joined to the thread's next store; a flush moves the oldest store
// and every store joined after it, and only when the last of them is not
// joined (the group is closed). Under SC a joinwrite is a write; under PSO
// a program with one is refused (unknown), as the engines refuse it.
// Goal terms with views also ask that no thread holds the lock and that
// each thread's view of a cell (what it would read there) compares as asked.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tsoreach::test {

enum class BruteModel { SC, TSO, PSO };
enum class BruteVerdict { Reachable, Unreachable, Unknown };

inline const char* bruteName(BruteVerdict v) {
    switch (v) {
    case BruteVerdict::Reachable:
        return "reachable";
    case BruteVerdict::Unreachable:
        return "unreachable";
    case BruteVerdict::Unknown:
        break;
    }
    return "unknown";
}

struct BruteState;

struct BruteOptions {
    BruteModel model = BruteModel::SC;
    std::size_t maxStates = 200000; // more distinct states: unknown
    std::size_t bufferBound = 4;    // buffered stores per looping thread (TSO, PSO)
    // Called with every address a read or write accesses (tests of analyses).
    std::function<void(TransitionId, Value)> onAccess;
    bool noGoal = false;     // explore every state (within maxStates), ignoring the goal
    bool recordPath = false; // keep each state's parent to return a path to the goal
    // Called with every state discovered, the initial one included.
    std::function<void(const BruteState&)> onState;
};

// One step of a path the brute force found: a transition of `thread`, or a
// flush of its store to `addr` (the oldest one there, under PSO).
struct BruteStep {
    std::size_t thread = 0;
    bool flush = false;
    TransitionId transition; // not a flush
    Value addr = 0;          // a flush: the address of its first store
    std::size_t stores = 1;  // a flush: how many stores it moves (a joined group: several)
};

struct BruteResult {
    BruteVerdict verdict = BruteVerdict::Unknown;
    // Reachable with BruteOptions::recordPath: the steps of a shortest path
    // to the goal (within the buffer bound).
    std::vector<BruteStep> path;
    std::string reason;     // Unknown only
    std::size_t states = 0; // distinct states discovered
    // Reachable: the fewest steps to a goal state (a flush is a step), when
    // known exactly; the buffer bound can hide a shorter path.
    std::optional<std::size_t> distance;
};

// A store in a TSO buffer; `joined`: joined to the thread's next store.
struct BruteStore {
    Value addr = 0;
    Value value = 0;
    bool joined = false;
    friend auto operator<=>(const BruteStore&, const BruteStore&) = default;
};

struct BruteState {
    std::vector<std::uint32_t> pcs;            // by thread
    std::vector<std::vector<Value>> regs;      // by thread, by register
    std::map<Value, Value> mem;                // zero cells erased: equal memories compare equal
    std::optional<std::uint32_t> lockHolder;   // thread holding the lock
    std::vector<std::vector<BruteStore>> fifo; // TSO, by thread, oldest first
    std::vector<std::map<Value, std::vector<Value>>> perAddr; // PSO, by thread: empty ones erased

    friend auto operator<=>(const BruteState&, const BruteState&) = default;
    friend bool operator==(const BruteState&, const BruteState&) = default;
};

class BruteForce {
  public:
    BruteForce(const Program& p, const Goal& g, const BruteOptions& o)
        : p_(p), g_(g), o_(o), stack_(p.maxExprStack) {
        // Without a loop, a thread cannot buffer more stores than it has writes.
        for (const Thread& t : p.threads) {
            std::size_t writes = 0;
            for (TransitionId id : t.transitions) {
                const Instruction& in = p.transition(id).instr;
                writes += in.kind == InstrKind::Write ? 1 : 0;
                hasJoined_ = hasJoined_ || (in.kind == InstrKind::Write && in.joined);
            }
            bound_.push_back(std::max(o.bufferBound, writes));
        }
    }

    BruteResult run() {
        BruteState init;
        for (const Thread& t : p_.threads) {
            init.pcs.push_back(t.initial.value);
            init.regs.emplace_back(t.regCount(), 0);
        }
        for (const MemoryCell& c : p_.memory.initialCells()) {
            init.mem[c.addr] = c.value; // the declared initial values; all else is 0
        }
        init.fifo.resize(p_.threads.size());
        init.perAddr.resize(p_.threads.size());

        BruteResult res;
        if (o_.model == BruteModel::PSO && hasJoined_) {
            res.reason = "joined stores (joinwrite) have no PSO semantics";
            return res;
        }
        std::map<BruteState, std::size_t> dist; // node addresses are stable: the queue keeps them
        std::deque<const std::pair<const BruteState, std::size_t>*> queue;
        queue.push_back(&*dist.emplace(init, 0).first);
        if (o_.onState) {
            o_.onState(init);
        }
        if (!o_.noGoal && goalHolds(init)) {
            res.verdict = BruteVerdict::Reachable;
            res.distance = 0;
            res.states = 1;
            return res;
        }
        // The lowest BFS level where a store was skipped for the bound.
        std::optional<std::size_t> skippedAt;
        std::vector<BruteState> next;
        std::vector<BruteStep> steps;
        // recordPath: each state's parent and the step from it.
        std::map<const BruteState*, std::pair<const BruteState*, BruteStep>> parent;
        while (!queue.empty()) {
            const auto* node = queue.front();
            queue.pop_front();
            const std::size_t d = node->second;
            next.clear();
            steps.clear();
            if (successors(node->first, next, steps) && !skippedAt) {
                skippedAt = d;
            }
            for (std::size_t i = 0; i < next.size(); ++i) {
                BruteState& n = next[i];
                if (dist.count(n) != 0) {
                    continue;
                }
                if (dist.size() >= o_.maxStates) {
                    res.reason = "state cap";
                    res.states = dist.size();
                    return res;
                }
                if (o_.onState) {
                    o_.onState(n);
                }
                const bool goal = !o_.noGoal && goalHolds(n);
                queue.push_back(&*dist.emplace(std::move(n), d + 1).first);
                if (o_.recordPath) {
                    parent.emplace(&queue.back()->first, std::pair(&node->first, steps[i]));
                }
                if (goal) {
                    res.verdict = BruteVerdict::Reachable;
                    if (o_.recordPath) {
                        res.path = pathTo(&queue.back()->first, parent);
                    }
                    res.states = dist.size();
                    // A store skipped at level d or later leads to paths of
                    // at least d + 1 steps: no shorter goal is hidden.
                    if (!skippedAt || *skippedAt >= d) {
                        res.distance = d + 1;
                    }
                    return res;
                }
            }
        }
        res.states = dist.size();
        if (skippedAt) {
            res.reason = "buffer bound";
        } else {
            res.verdict = BruteVerdict::Unreachable;
        }
        return res;
    }

  private:
    using Parents = std::map<const BruteState*, std::pair<const BruteState*, BruteStep>>;

    // The steps from the initial state to `s`, oldest first.
    static std::vector<BruteStep> pathTo(const BruteState* s, const Parents& parent) {
        std::vector<BruteStep> path;
        for (auto it = parent.find(s); it != parent.end(); it = parent.find(it->second.first)) {
            path.push_back(it->second.second);
        }
        std::reverse(path.begin(), path.end());
        return path;
    }

    // Some term of the goal holds in s: its threads are in states it
    // accepts and, if it has views, no thread holds the lock and each view
    // compares as asked.
    bool goalHolds(const BruteState& s) const {
        for (std::size_t term = 0; term < g_.termCount(); ++term) {
            if (termHolds(s, term)) {
                return true;
            }
        }
        return false;
    }

    bool termHolds(const BruteState& s, std::size_t term) const {
        for (std::size_t t = 0; t < s.pcs.size(); ++t) {
            if (!g_.termAccepts(term, ThreadId(static_cast<std::uint32_t>(t)), StateId(s.pcs[t]))) {
                return false;
            }
        }
        const std::span<const ViewAtom> views = g_.termViews(term);
        if (views.empty()) {
            return true;
        }
        if (s.lockHolder) {
            return false; // a block is one instant for the others: not looked at
        }
        return std::all_of(views.begin(), views.end(), [&](const ViewAtom& v) {
            return compares(v.op, load(s, v.thread.index(), v.addr), v.value);
        });
    }

    static bool compares(ExprOp op, Value a, Value b) {
        switch (op) {
        case ExprOp::Eq:
            return a == b;
        case ExprOp::Ne:
            return a != b;
        case ExprOp::Lt:
            return a < b;
        case ExprOp::Le:
            return a <= b;
        case ExprOp::Gt:
            return a > b;
        case ExprOp::Ge:
            return a >= b;
        default:
            throw std::logic_error("brute force: a view compared by a non-comparison");
        }
    }

    Value eval(const BruteState& s, std::size_t t, ExprRef e) {
        return evaluate(p_.expr(e), s.regs[t], stack_);
    }

    std::size_t buffered(const BruteState& s, std::size_t t) const {
        if (o_.model == BruteModel::TSO) {
            return s.fifo[t].size();
        }
        std::size_t n = 0;
        if (o_.model == BruteModel::PSO) {
            for (const auto& [addr, values] : s.perAddr[t]) {
                n += values.size();
            }
        }
        return n;
    }

    // Whether thread t holds no store that one to addr would queue behind:
    // none at all under TSO, none to addr under PSO (lockfor, unlockfor).
    bool drainedFor(const BruteState& s, std::size_t t, Value addr) const {
        if (o_.model == BruteModel::PSO) {
            auto it = s.perAddr[t].find(addr);
            return it == s.perAddr[t].end() || it->second.empty();
        }
        return buffered(s, t) == 0;
    }

    // What thread t reads at `addr`: its own newest buffered store, else memory.
    Value load(const BruteState& s, std::size_t t, Value addr) const {
        if (o_.model == BruteModel::TSO) {
            for (auto it = s.fifo[t].rbegin(); it != s.fifo[t].rend(); ++it) {
                if (it->addr == addr) {
                    return it->value;
                }
            }
        }
        if (o_.model == BruteModel::PSO) {
            auto it = s.perAddr[t].find(addr);
            if (it != s.perAddr[t].end()) {
                return it->second.back();
            }
        }
        auto it = s.mem.find(addr);
        return it == s.mem.end() ? 0 : it->second;
    }

    static void store(std::map<Value, Value>& mem, Value addr, Value v) {
        if (v == 0) {
            mem.erase(addr);
        } else {
            mem[addr] = v;
        }
    }

    // Appends every successor of `s` to `out` and the step to it to `steps`.
    // True if a store was skipped because of the buffer bound.
    bool successors(const BruteState& s, std::vector<BruteState>& out,
                    std::vector<BruteStep>& steps) {
        bool skipped = false;
        for (std::size_t t = 0; t < p_.threads.size(); ++t) {
            // While a thread holds the lock, no other thread steps, flushes included.
            if (s.lockHolder && *s.lockHolder != t) {
                continue;
            }
            const Thread& th = p_.threads[t];
            const std::size_t inBuffer = buffered(s, t);
            for (TransitionId id : th.outgoingOf(StateId(s.pcs[t]))) {
                const Transition& tr = p_.transition(id);
                const Instruction& in = tr.instr;
                BruteState n = s;
                switch (in.kind) {
                case InstrKind::Read:
                    n.regs[t][in.reg.index()] = load(s, t, eval(s, t, in.addr));
                    if (o_.onAccess) {
                        o_.onAccess(id, eval(s, t, in.addr));
                    }
                    break;
                case InstrKind::Write: {
                    const Value v = eval(s, t, in.value);
                    const Value a = eval(s, t, in.addr);
                    if (o_.onAccess) {
                        o_.onAccess(id, a);
                    }
                    if (o_.model == BruteModel::SC) {
                        store(n.mem, a, v);
                        break;
                    }
                    // At most kMaxJoined stores of a buffer may be joined
                    // (language.md): one beyond is blocked like the bound.
                    const bool joined = in.joined && o_.model == BruteModel::TSO;
                    if (inBuffer >= bound_[t] || (joined && inBuffer >= kMaxJoined)) {
                        skipped = true;
                        continue;
                    }
                    if (o_.model == BruteModel::TSO) {
                        n.fifo[t].push_back({a, v, joined});
                    } else {
                        n.perAddr[t][a].push_back(v);
                    }
                    break;
                }
                case InstrKind::Local:
                    n.regs[t][in.reg.index()] = eval(s, t, in.value);
                    break;
                case InstrKind::Check:
                    if (eval(s, t, in.value) == 0) {
                        continue;
                    }
                    break;
                case InstrKind::Mfence:
                    if (inBuffer != 0) {
                        continue;
                    }
                    break;
                case InstrKind::Noop:
                    break;
                case InstrKind::Lock:
                    if (s.lockHolder || inBuffer != 0) {
                        continue;
                    }
                    n.lockHolder = static_cast<std::uint32_t>(t);
                    break;
                case InstrKind::Unlock:
                    if (s.lockHolder != static_cast<std::uint32_t>(t) || inBuffer != 0) {
                        continue;
                    }
                    n.lockHolder.reset();
                    break;
                case InstrKind::Atomic: // the lock, whatever the buffers hold
                    if (s.lockHolder) {
                        continue;
                    }
                    n.lockHolder = static_cast<std::uint32_t>(t);
                    break;
                case InstrKind::EndAtomic:
                    if (s.lockHolder != static_cast<std::uint32_t>(t)) {
                        continue;
                    }
                    n.lockHolder.reset();
                    break;
                case InstrKind::LockFor:
                    if (s.lockHolder || !drainedFor(s, t, eval(s, t, in.addr))) {
                        continue;
                    }
                    n.lockHolder = static_cast<std::uint32_t>(t);
                    break;
                case InstrKind::UnlockFor:
                    if (s.lockHolder != static_cast<std::uint32_t>(t) ||
                        !drainedFor(s, t, eval(s, t, in.addr))) {
                        continue;
                    }
                    n.lockHolder.reset();
                    break;
                }
                n.pcs[t] = tr.to.value;
                out.push_back(std::move(n));
                steps.push_back({t, false, id, 0});
            }
            // Flushes: the oldest store of the buffer (TSO, with the stores
            // joined to it) or of any one per-address buffer (PSO) goes to memory.
            if (o_.model == BruteModel::TSO) {
                flushGroup(s, t, out, steps);
            }
            if (o_.model == BruteModel::PSO) {
                for (const auto& [addr, values] : s.perAddr[t]) {
                    BruteState n = s;
                    store(n.mem, addr, values.front());
                    std::vector<Value>& buf = n.perAddr[t][addr];
                    buf.erase(buf.begin());
                    if (buf.empty()) {
                        n.perAddr[t].erase(addr);
                    }
                    out.push_back(std::move(n));
                    steps.push_back({t, true, TransitionId(), addr});
                }
            }
        }
        return skipped;
    }

    // Under TSO: the oldest store of t's buffer and the stores joined after
    // it reach memory in one step, in order, once the last is not joined.
    void flushGroup(const BruteState& s, std::size_t t, std::vector<BruteState>& out,
                    std::vector<BruteStep>& steps) const {
        const std::vector<BruteStore>& fifo = s.fifo[t];
        std::size_t group = 0;
        while (group < fifo.size() && fifo[group].joined) {
            ++group;
        }
        if (group == fifo.size()) {
            return; // empty, or its group still open
        }
        ++group; // the store that closes the group
        BruteState n = s;
        for (std::size_t i = 0; i < group; ++i) {
            store(n.mem, fifo[i].addr, fifo[i].value);
        }
        n.fifo[t].erase(n.fifo[t].begin(), n.fifo[t].begin() + static_cast<std::ptrdiff_t>(group));
        out.push_back(std::move(n));
        steps.push_back({t, true, TransitionId(), fifo.front().addr, group});
    }

    static constexpr std::size_t kMaxJoined = 31;

    const Program& p_;
    const Goal& g_;
    BruteOptions o_;
    bool hasJoined_ = false; // some write is a joinwrite
    std::vector<Value> stack_;
    std::vector<std::size_t> bound_; // by thread
};

inline BruteResult bruteForce(const Program& p, const Goal& g, const BruteOptions& o) {
    return BruteForce(p, g, o).run();
}

} // namespace tsoreach::test
