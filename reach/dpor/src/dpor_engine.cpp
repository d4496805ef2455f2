#include "tsoreach/reach/dpor.hpp"

#include "tsoreach/instrument/unroll.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/lang/value_sets.hpp"
#include "tsoreach/reach/replay.hpp"
#include "tsoreach/reach/resource_monitor.hpp"
#include "tsoreach/reach/stateless_explore.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace tsoreach::reach {

namespace {

// Event indices, clock entries and process numbers are 32 bits. An
// execution of an acyclic program (cyclic ones are unrolled into a program
// that is parsed again) has at most one instruction event per transition
// and one update per write, fewer than 2^31 in all (kMaxSourceBytes,
// lang/source.hpp), so kNone is never an event.
constexpr std::uint32_t kNone = 0xffffffffU;

// A vector clock over processes (threads, then auxiliary threads).
using Clock = std::vector<std::uint32_t>;

void join(Clock& a, const Clock& b) {
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = std::max(a[i], b[i]);
    }
}

// A buffered store; `store` and `lastForwarded` are event indices.
struct Entry {
    Value addr = 0;
    Value value = 0;
    std::uint32_t store = kNone;
    std::uint32_t lastForwarded = kNone; // the newest load served by this entry
};

struct Cell {
    Value value = 0;
    std::uint32_t lastUpdate = kNone; // the event that wrote `value` to memory
    // By thread: its newest load that observed `value` (the cf sources of
    // the next update).
    std::map<std::uint32_t, std::uint32_t> readers;
};

// The program state plus the happens-before bookkeeping of the digest's
// section 2.6, copied at every node of the exploration stack.
struct Sim {
    std::vector<std::size_t> pc;
    std::vector<std::vector<Value>> regs;
    std::map<Value, Cell> mem;
    std::vector<std::deque<Entry>> buffers; // by auxiliary process
    std::vector<Clock> clocks;              // by process: after its newest event
    std::vector<std::uint32_t> seq;         // by process: events so far
    std::uint32_t lastGoal = kNone;         // newest goal-visible event
};

enum class EventKind : std::uint8_t { Instruction, Update };

// What an event does, as far as independence is concerned.
struct Access {
    std::uint32_t proc = 0;
    std::uint32_t thread = 0;
    bool aux = false;
    Value addr = 0;
    bool memRead = false;  // a load served by memory
    bool memWrite = false; // an update (or an SC write)
    bool fence = false;
    bool goal = false; // enters or leaves a goal state that can be left
};

bool dependent(const Access& a, const Access& b) {
    if (a.proc == b.proc) {
        return true;
    }
    if (a.goal && b.goal && a.thread != b.thread) {
        return true;
    }
    // A fence waits for its thread's buffers.
    if ((a.fence && b.aux && b.thread == a.thread) || (b.fence && a.aux && a.thread == b.thread)) {
        return true;
    }
    // A thread's own updates never matter to its loads (the digest's rule 1).
    return a.thread != b.thread && a.addr == b.addr && (a.memWrite || b.memWrite) &&
           (a.memRead || a.memWrite) && (b.memRead || b.memWrite);
}

struct Event {
    std::uint32_t proc = 0;
    std::uint32_t seq = 0; // its index among its process's events, from 1
    EventKind kind = EventKind::Instruction;
    std::uint32_t thread = 0;
    TransitionId transition; // Instruction
    Value addr = 0;          // Update
    Value value = 0;         // Update
    // The store event this one reads from (a read; kNone: the initial
    // value) or lands (an update).
    std::uint32_t store = kNone;
    Access access;
    Clock clock; // after the event
};

// A step: a process, and for a thread the transition it takes.
struct Choice {
    std::uint32_t proc = kNone;
    std::uint32_t transition = kNone; // kNone for an update
};

// Backtrack and sleep sets hold processes. A thread explored at a node is
// explored with every transition it can take there: its choices conflict
// with each other (taking one discards the others) without any race to
// reveal it, so sets of single choices would lose classes.
struct Node {
    Sim sim;
    std::vector<std::uint32_t> backtrack; // processes to explore here, in order
    std::set<std::uint32_t> sleep;        // asleep, or explored already
    Choice current;                       // being explored
    std::vector<TransitionId> alternatives;
    std::size_t alternative = 0;
    bool started = false;
};

class Explorer {
  public:
    Explorer(const Program& p, MemoryModel model, const ExploreOptions& options)
        : p_(p), model_(model), options_(options), monitor_(options.limits),
          threads_(static_cast<std::uint32_t>(p.threads.size())) {
        std::size_t depth = 1;
        for (const Transition& tr : p.transitions) {
            depth = std::max(
                {depth, stackDepth(p.expr(tr.instr.value)), stackDepth(p.expr(tr.instr.addr))});
        }
        stack_.resize(depth);
        // Processes: threads, then one flusher per thread (TSO) or per
        // thread and address (PSO).
        procs_ = threads_;
        if (model == MemoryModel::TSO) {
            for (std::uint32_t t = 0; t < threads_; ++t) {
                auxThread_.push_back(t);
            }
        } else if (model == MemoryModel::PSO) {
            const AddressSets sets =
                accessedAddresses(p, kDefaultValueSetLimit, options.limits.stop);
            for (std::uint32_t t = 0; t < threads_; ++t) {
                for (Value a : sets.all.values) {
                    psoAux_[{t, a}] = static_cast<std::uint32_t>(auxThread_.size());
                    auxThread_.push_back(t);
                }
            }
        }
        procs_ += static_cast<std::uint32_t>(auxThread_.size());
        if (options.goal != nullptr) {
            bool leavable = false;
            for (ThreadId t : options.goal->constrainedThreads()) {
                for (StateId s : options.goal->acceptedStates(t)) {
                    leavable = leavable || !p.thread(t).outgoingOf(s).empty();
                }
            }
            goalVisible_.assign(p.transitions.size(), false);
            if (leavable) {
                for (std::size_t i = 0; i < p.transitions.size(); ++i) {
                    const Transition& tr = p.transitions[i];
                    goalVisible_[i] = options.goal->constrains(tr.thread) &&
                                      (options.goal->acceptedBySomeTerm(tr.thread, tr.from) ||
                                       options.goal->acceptedBySomeTerm(tr.thread, tr.to));
                }
            }
        }
    }

    ExploreResult run() {
        Node root;
        Sim& s = root.sim;
        for (const Thread& t : p_.threads) {
            s.pc.push_back(t.initial.index());
            s.regs.emplace_back(t.regCount(), 0);
        }
        for (const MemoryCell& c : p_.memory.initialCells()) {
            s.mem[c.addr].value = c.value; // written by no event, as a 0 is
        }
        s.buffers.resize(auxThread_.size());
        s.clocks.assign(procs_, Clock(procs_, 0));
        s.seq.assign(procs_, 0);
        nodes_.push_back(std::move(root));
        std::uint64_t sinceCheck = 0;
        const std::uint64_t maxStates = options_.limits.maxStates;
        while (!nodes_.empty()) {
            // A stateless search stores no states: --max-states bounds the
            // states it visits, one per event executed.
            if (maxStates != 0 && result_.stats.events >= maxStates) {
                result_.reason = "state limit of " + std::to_string(maxStates) +
                                 " reached (--max-states: states visited, one per event)";
                return finish(false);
            }
            if (++sinceCheck >= 256) {
                sinceCheck = 0;
                if (std::optional<std::string> why = limitReason()) {
                    result_.reason = *why;
                    return finish(false);
                }
            }
            const std::size_t d = nodes_.size() - 1;
            if (!nodes_[d].started) {
                nodes_[d].started = true;
                if (options_.goal != nullptr && goalHolds(nodes_[d].sim)) {
                    result_.goalTrace = traceOf(d);
                    result_.goalTrace->goalStep = result_.goalTrace->steps.size();
                    return finish(true);
                }
                const std::vector<std::uint32_t> enabled = enabledProcs(nodes_[d].sim);
                if (enabled.empty()) {
                    ended(d);
                    nodes_.pop_back();
                    continue;
                }
                auto awake = std::find_if(enabled.begin(), enabled.end(), [&](std::uint32_t q) {
                    return !nodes_[d].sleep.contains(q);
                });
                if (awake == enabled.end()) {
                    ++result_.stats.redundant;
                    nodes_.pop_back();
                    continue;
                }
                nodes_[d].backtrack.push_back(*awake);
            }
            if (!nextChoice(nodes_[d])) {
                nodes_.pop_back();
                continue;
            }
            step(d);
        }
        return finish(true);
    }

  private:
    ExploreResult finish(bool complete) {
        result_.complete = complete && result_.reason.empty();
        result_.stats.outcomes = outcomes_.size();
        result_.stats.timeSeconds = monitor_.elapsedSeconds();
        return std::move(result_);
    }

    std::optional<std::string> limitReason() {
        if (monitor_.progressDue()) { // the line is built only when printed
            monitor_.progress("dpor", result_.stats.events, "events",
                              std::to_string(result_.stats.executions) + " executions, " +
                                  std::to_string(result_.stats.blocked) + " blocked, depth " +
                                  std::to_string(nodes_.size()));
        }
        return monitor_.exceeded(nodes_.size() * (sizeof(Node) + 64 * procs_));
    }

    bool goalHolds(const Sim& s) const { return options_.goal->satisfiedBy(s.pc); }

    [[nodiscard]] std::uint32_t auxOf(std::uint32_t thread, Value addr) const {
        if (model_ == MemoryModel::TSO) {
            return thread;
        }
        return psoAux_.at({thread, addr});
    }

    [[nodiscard]] bool buffersEmpty(const Sim& s, std::uint32_t thread) const {
        for (std::size_t a = 0; a < auxThread_.size(); ++a) {
            if (auxThread_[a] == thread && !s.buffers[a].empty()) {
                return false;
            }
        }
        return true;
    }

    Value eval(const Sim& s, std::uint32_t thread, ExprRef e) {
        return evaluate(p_.expr(e), s.regs[thread], stack_);
    }

    // The transitions thread t can take in s.
    std::vector<TransitionId> alternativesOf(const Sim& s, std::uint32_t t) {
        std::vector<TransitionId> out;
        const Thread& th = p_.threads[t];
        for (TransitionId id : th.outgoingOf(StateId(static_cast<std::uint32_t>(s.pc[t])))) {
            const Instruction& in = p_.transition(id).instr;
            if (in.kind == InstrKind::Check && eval(s, t, in.value) == 0) {
                continue;
            }
            if (in.kind == InstrKind::Mfence && !buffersEmpty(s, t)) {
                continue;
            }
            out.push_back(id);
        }
        return out;
    }

    std::vector<std::uint32_t> enabledProcs(const Sim& s) {
        std::vector<std::uint32_t> out;
        for (std::uint32_t t = 0; t < threads_; ++t) {
            if (!alternativesOf(s, t).empty()) {
                out.push_back(t);
            }
        }
        for (std::uint32_t a = 0; a < auxThread_.size(); ++a) {
            if (!s.buffers[a].empty()) {
                out.push_back(threads_ + a);
            }
        }
        return out;
    }

    // The transitions whose checks hold, `mfence` included while it waits
    // for the buffers: what the thread may do next, for independence.
    std::vector<TransitionId> candidatesOf(const Sim& s, std::uint32_t t) {
        std::vector<TransitionId> out;
        for (TransitionId id :
             p_.threads[t].outgoingOf(StateId(static_cast<std::uint32_t>(s.pc[t])))) {
            const Instruction& in = p_.transition(id).instr;
            if (in.kind != InstrKind::Check || eval(s, t, in.value) != 0) {
                out.push_back(id);
            }
        }
        return out;
    }

    // Picks the next step to explore at n; false when everything is done
    // there.
    bool nextChoice(Node& n) {
        if (n.current.proc != kNone && n.alternative + 1 < n.alternatives.size()) {
            ++n.alternative;
            n.current.transition =
                static_cast<std::uint32_t>(n.alternatives[n.alternative].index());
            return true;
        }
        if (n.current.proc != kNone) {
            n.sleep.insert(n.current.proc);
            n.current = Choice{};
        }
        n.alternatives.clear();
        n.alternative = 0;
        // By index: the loop may add the thread's flushers.
        for (std::size_t i = 0; i < n.backtrack.size(); ++i) {
            const std::uint32_t q = n.backtrack[i];
            if (n.sleep.contains(q)) {
                continue;
            }
            if (q >= threads_) {
                if (n.sim.buffers[q - threads_].empty()) {
                    n.sleep.insert(q);
                    continue;
                }
                n.current = Choice{q, kNone};
                return true;
            }
            // An mfence waiting for the thread's own stores conflicts with
            // the other choices, which would discard it: the flushes that
            // enable it are explored here as well.
            const std::vector<TransitionId> candidates = candidatesOf(n.sim, q);
            const bool waitingFence =
                !buffersEmpty(n.sim, q) &&
                std::any_of(candidates.begin(), candidates.end(), [&](TransitionId id) {
                    return p_.transition(id).instr.kind == InstrKind::Mfence;
                });
            if (waitingFence) {
                for (std::uint32_t a = 0; a < auxThread_.size(); ++a) {
                    const std::uint32_t flusher = threads_ + a;
                    if (auxThread_[a] == q && !n.sim.buffers[a].empty() &&
                        std::find(n.backtrack.begin(), n.backtrack.end(), flusher) ==
                            n.backtrack.end()) {
                        n.backtrack.push_back(flusher);
                    }
                }
            }
            n.alternatives = alternativesOf(n.sim, q);
            if (n.alternatives.empty()) {
                n.sleep.insert(q);
                continue;
            }
            n.current = Choice{q, static_cast<std::uint32_t>(n.alternatives.front().index())};
            return true;
        }
        return false;
    }

    // Whether anything process q may do next in s depends on `x`.
    bool dependsOn(const Sim& s, std::uint32_t q, const Access& x) {
        if (q >= threads_) {
            return s.buffers[q - threads_].empty() || dependent(accessOf(s, Choice{q, kNone}), x);
        }
        const std::vector<TransitionId> candidates = candidatesOf(s, q);
        return std::any_of(candidates.begin(), candidates.end(),
                           [&](TransitionId id) { return dependent(accessOf(s, q, id), x); });
    }

    Access accessOf(const Sim& s, const Choice& c) {
        if (c.proc < threads_) {
            return accessOf(s, c.proc, TransitionId(c.transition));
        }
        const std::uint32_t a = c.proc - threads_;
        Access x;
        x.proc = c.proc;
        x.thread = auxThread_[a];
        x.aux = true;
        x.addr = s.buffers[a].front().addr;
        x.memWrite = true;
        return x;
    }

    Access accessOf(const Sim& s, std::uint32_t t, TransitionId id) {
        const Transition& tr = p_.transition(id);
        Access x;
        x.proc = t;
        x.thread = t;
        x.goal = !goalVisible_.empty() && goalVisible_[id.index()];
        switch (tr.instr.kind) {
        case InstrKind::Read:
            x.addr = eval(s, t, tr.instr.addr);
            x.memRead = forwardingEntry(s, t, x.addr).first == kNone;
            break;
        case InstrKind::Write:
            x.addr = eval(s, t, tr.instr.addr);
            x.memWrite = model_ == MemoryModel::SC;
            break;
        case InstrKind::Mfence:
            x.fence = true;
            break;
        default:
            break;
        }
        return x;
    }

    // The buffer (auxiliary index) and position of the newest entry of t
    // for addr, or kNone.
    std::pair<std::uint32_t, std::size_t> forwardingEntry(const Sim& s, std::uint32_t t,
                                                          Value addr) const {
        if (model_ == MemoryModel::SC) {
            return {kNone, 0};
        }
        const std::uint32_t a = auxOf(t, addr);
        const std::deque<Entry>& b = s.buffers[a];
        for (std::size_t k = b.size(); k-- > 0;) {
            if (b[k].addr == addr) {
                return {a, k};
            }
        }
        return {kNone, 0};
    }

    [[nodiscard]] bool happensBefore(std::uint32_t e, const Clock& c) const {
        return events_[e].seq <= c[events_[e].proc];
    }

    // Executes n's current choice and pushes the child node.
    void step(std::size_t d) {
        Node& n = nodes_[d];
        const std::uint32_t q = n.current.proc;
        const auto idx = static_cast<std::uint32_t>(d);
        Sim c = n.sim;
        Event ev;
        ev.proc = q;
        std::vector<std::uint32_t> candidates; // race sources
        Clock clock = c.clocks[q];
        auto observeMemory = [&](Cell& cell, std::uint32_t thread, bool write) {
            if (cell.lastUpdate != kNone && events_[cell.lastUpdate].thread != thread) {
                candidates.push_back(cell.lastUpdate);
            }
            if (write) {
                for (const auto& [t, load] : cell.readers) {
                    if (t != thread) {
                        candidates.push_back(load);
                    }
                }
            }
        };
        if (q >= threads_) {
            const std::uint32_t a = q - threads_;
            const Entry entry = c.buffers[a].front();
            c.buffers[a].pop_front();
            ev.kind = EventKind::Update;
            ev.thread = auxThread_[a];
            ev.addr = entry.addr;
            ev.value = entry.value;
            ev.store = entry.store;
            ev.access = accessOf(n.sim, n.current);
            join(clock, events_[entry.store].clock); // a store precedes its update
            Cell& cell = c.mem[entry.addr];
            observeMemory(cell, ev.thread, true);
            cell.value = entry.value;
            cell.lastUpdate = idx;
            cell.readers.clear();
            if (entry.lastForwarded != kNone) {
                // A forwarded load observes memory from now on (its cf edge).
                cell.readers[ev.thread] = entry.lastForwarded;
            }
        } else {
            const TransitionId id(n.current.transition);
            const Transition& tr = p_.transition(id);
            const Instruction& in = tr.instr;
            ev.thread = q;
            ev.transition = id;
            ev.access = accessOf(n.sim, q, id);
            switch (in.kind) {
            case InstrKind::Local:
                c.regs[q][in.reg.index()] = eval(n.sim, q, in.value);
                break;
            case InstrKind::Mfence:
                for (std::uint32_t a = 0; a < auxThread_.size(); ++a) {
                    if (auxThread_[a] == q) {
                        join(clock, c.clocks[threads_ + a]);
                    }
                }
                break;
            case InstrKind::Read: {
                const Value addr = ev.access.addr;
                const auto [a, k] = forwardingEntry(c, q, addr);
                if (a != kNone) {
                    Entry& entry = c.buffers[a][k];
                    c.regs[q][in.reg.index()] = entry.value;
                    entry.lastForwarded = idx;
                    ev.store = entry.store;
                } else {
                    Cell& cell = c.mem[addr];
                    ev.store = cell.lastUpdate == kNone ? kNone : storeOf(cell.lastUpdate);
                    observeMemory(cell, q, false);
                    c.regs[q][in.reg.index()] = cell.value;
                    cell.readers[q] = idx;
                }
                break;
            }
            case InstrKind::Write: {
                const Value addr = ev.access.addr;
                const Value value = eval(n.sim, q, in.value);
                if (model_ == MemoryModel::SC) {
                    Cell& cell = c.mem[addr];
                    observeMemory(cell, q, true);
                    cell.value = value;
                    cell.lastUpdate = idx;
                    cell.readers.clear();
                } else {
                    c.buffers[auxOf(q, addr)].push_back(Entry{addr, value, idx, kNone});
                }
                break;
            }
            default: // check, noop
                break;
            }
            if (ev.access.goal) {
                if (c.lastGoal != kNone && events_[c.lastGoal].thread != q) {
                    candidates.push_back(c.lastGoal);
                }
                c.lastGoal = idx;
            }
            c.pc[q] = tr.to.index();
        }
        const Clock before = clock; // without the race edges
        for (std::uint32_t e : candidates) {
            join(clock, events_[e].clock);
        }
        clock[q] = ++c.seq[q];
        ev.seq = clock[q];
        c.clocks[q] = clock;
        ev.clock = clock;
        events_.resize(d);
        events_.push_back(ev);
        ++result_.stats.events;

        // Reversible races: a candidate not ordered before the event by
        // another path.
        for (std::uint32_t e : candidates) {
            Clock others = before;
            for (std::uint32_t f : candidates) {
                if (f != e) {
                    join(others, events_[f].clock);
                }
            }
            if (!happensBefore(e, others)) {
                addBacktrack(e, idx);
            }
        }

        Node child;
        child.sim = std::move(c);
        for (std::uint32_t sleeper : nodes_[d].sleep) {
            if (!dependsOn(nodes_[d].sim, sleeper, ev.access)) {
                child.sleep.insert(sleeper);
            }
        }
        nodes_.push_back(std::move(child));
    }

    // Source-DPOR: at the node before e, some initial of
    // notdep(e) . e' must be explored.
    void addBacktrack(std::uint32_t e, std::uint32_t ePrime) {
        std::vector<std::uint32_t> v;
        for (std::uint32_t j = e + 1; j < ePrime; ++j) {
            if (!happensBefore(e, events_[j].clock)) {
                v.push_back(j);
            }
        }
        v.push_back(ePrime);
        std::vector<std::uint32_t> initials;
        for (std::size_t k = 0; k < v.size(); ++k) {
            bool first = true;
            for (std::size_t m = 0; m < k && first; ++m) {
                first = !happensBefore(v[m], events_[v[k]].clock);
            }
            if (first) {
                initials.push_back(events_[v[k]].proc);
            }
        }
        std::vector<std::uint32_t>& backtrack = nodes_[e].backtrack;
        for (std::uint32_t q : initials) {
            if (std::find(backtrack.begin(), backtrack.end(), q) != backtrack.end()) {
                return;
            }
        }
        backtrack.push_back(initials.front());
    }

    // No process can move at node d.
    // The store an update lands, or an SC write itself.
    [[nodiscard]] std::uint32_t storeOf(std::uint32_t e) const {
        return events_[e].kind == EventKind::Update ? events_[e].store : e;
    }

    // The class of the execution before node d: each thread's transitions,
    // the store each read reads from, and the order in which stores reach
    // each address.
    [[nodiscard]] std::vector<Value> classKey(std::size_t d) const {
        // A store is named by (thread, its position among the thread's steps).
        std::vector<Value> position(d, 0);
        std::vector<Value> steps(threads_, 0);
        for (std::size_t k = 0; k < d; ++k) {
            if (events_[k].kind == EventKind::Instruction) {
                position[k] = steps[events_[k].thread]++;
            }
        }
        auto name = [&](std::uint32_t store) -> Value {
            return store == kNone ? -1
                                  : static_cast<Value>(events_[store].thread) * (Value(1) << 32) +
                                        position[store];
        };
        std::vector<Value> key;
        std::map<Value, std::vector<Value>> coherence;
        for (std::uint32_t t = 0; t < threads_; ++t) {
            for (std::size_t k = 0; k < d; ++k) {
                const Event& ev = events_[k];
                if (ev.kind != EventKind::Instruction || ev.thread != t) {
                    continue;
                }
                key.push_back(static_cast<Value>(ev.transition.index()));
                const InstrKind kind = p_.transition(ev.transition).instr.kind;
                if (kind == InstrKind::Read) {
                    key.push_back(name(ev.store));
                }
            }
            key.push_back(-2);
        }
        for (std::size_t k = 0; k < d; ++k) {
            const Event& ev = events_[k];
            if (ev.kind == EventKind::Update) {
                coherence[ev.addr].push_back(name(ev.store));
            } else if (model_ == MemoryModel::SC &&
                       p_.transition(ev.transition).instr.kind == InstrKind::Write) {
                coherence[ev.access.addr].push_back(name(static_cast<std::uint32_t>(k)));
            }
        }
        for (const auto& [addr, order] : coherence) {
            key.push_back(addr);
            key.insert(key.end(), order.begin(), order.end());
            key.push_back(-2);
        }
        return key;
    }

    void ended(std::size_t d) {
        const Sim& s = nodes_[d].sim;
        bool blocked = false;
        for (std::uint32_t t = 0; t < threads_; ++t) {
            blocked =
                blocked ||
                !p_.threads[t].outgoingOf(StateId(static_cast<std::uint32_t>(s.pc[t]))).empty();
        }
        // With a thread choosing between transitions on the way, a class
        // can come twice (see Node): the repeats count as redundant.
        const bool chose =
            std::any_of(nodes_.begin(), nodes_.begin() + static_cast<std::ptrdiff_t>(d),
                        [](const Node& n) { return n.alternatives.size() > 1; });
        if (chose && !seen_.insert(classKey(d)).second) {
            ++result_.stats.redundant;
            return;
        }
        if (blocked) {
            ++result_.stats.blocked;
        } else {
            ++result_.stats.executions;
            std::vector<Value> outcome;
            for (std::uint32_t t = 0; t < threads_; ++t) {
                outcome.push_back(static_cast<Value>(s.pc[t]));
                outcome.insert(outcome.end(), s.regs[t].begin(), s.regs[t].end());
            }
            for (const auto& [addr, cell] : s.mem) {
                if (cell.value != 0) {
                    outcome.push_back(addr);
                    outcome.push_back(cell.value);
                }
            }
            outcomes_.insert(std::move(outcome));
        }
        if (options_.onExecution) {
            Trace t = traceOf(d);
            t.goalStep = t.steps.size();
            options_.onExecution(t, blocked);
        }
    }

    // The trace of the events before node d.
    Trace traceOf(std::size_t d) const {
        Trace t;
        t.model = model_;
        for (std::size_t k = 0; k < d; ++k) {
            const Event& ev = events_[k];
            TraceStep s;
            s.thread = ThreadId(ev.thread);
            if (ev.kind == EventKind::Update) {
                s.kind = StepKind::Flush;
                s.addr = ev.addr;
                s.value = ev.value;
            } else {
                s.transition = ev.transition;
            }
            t.steps.push_back(s);
        }
        return t;
    }

    const Program& p_;
    MemoryModel model_;
    const ExploreOptions& options_;
    ResourceMonitor monitor_;
    std::uint32_t threads_;
    std::uint32_t procs_ = 0;
    std::vector<std::uint32_t> auxThread_; // by auxiliary process: its thread
    std::map<std::pair<std::uint32_t, Value>, std::uint32_t> psoAux_;
    std::vector<bool> goalVisible_; // by transition
    std::vector<Value> stack_;
    std::vector<Node> nodes_;
    std::vector<Event> events_; // events_[k]: the event taken at nodes_[k]
    std::set<std::vector<Value>> outcomes_;
    // Classes of ended executions whose path took a thread with two or
    // more transitions to choose from (only those can repeat a class).
    std::set<std::vector<Value>> seen_;
    ExploreResult result_;
};

} // namespace

std::optional<std::string> dporUnsupported(const Program& p, MemoryModel model, std::size_t unroll,
                                           const StopCondition& stop) {
    if (std::optional<std::string> why = statelessUnsupported(p, unroll, "dpor")) {
        return why;
    }
    if (model == MemoryModel::PSO && accessedAddresses(p, kDefaultValueSetLimit, stop).all.any) {
        return "the dpor engine needs a bounded set of addresses under PSO (one flusher per "
               "address), and the value analysis cannot bound them";
    }
    return std::nullopt;
}

ExploreResult dporExplore(const Program& p, MemoryModel model, const ExploreOptions& options) {
    try {
        if (std::optional<std::string> why =
                dporUnsupported(p, model, options.limits.unroll, options.limits.stop)) {
            ExploreResult r;
            r.reason = *why;
            return r;
        }
        return exploreUnrolled(p, options, [&](const Program& q, const ExploreOptions& o) {
            return Explorer(q, model, o).run();
        });
    } catch (const Stopped& e) { // in the value analysis or the unrolling
        ExploreResult r;
        r.reason = e.what();
        return r;
    }
}

Result DporEngine::run(const Program& program, const Goal& goal, const Options& options) {
    ExploreOptions o;
    o.limits = options;
    o.goal = &goal;
    return answerOf(program, goal, dporExplore(program, model_, o), "dpor");
}

} // namespace tsoreach::reach
