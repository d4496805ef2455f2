#pragma once
// A brute-force robustness oracle for tests, written from language.md alone
// (section "Robustness") and algorithms.md sections 4.6, 7 and 8. It uses only
// the program model, the expression evaluator and the printer of lang/.
//
// It enumerates every complete execution of a small program under SC, TSO or
// PSO: an execution that ends in a state without any successor (no enabled
// instruction and no flush) with every buffer empty. The search is an explicit
// DFS (no recursion) over states that carry the event history:
//   - the memory events (reads and writes) of every thread, in program order;
//     an event is identified by (thread, index among the thread's memory
//     events), and a flush creates no event;
//   - for each read, the store it read from (the initial value is a virtual
//     store, first in coherence order); a read served from the thread's own
//     buffer reads from that buffered store;
//   - for each address, the order in which stores reached memory (co).
// Two paths that reach the same state with the same history have the same
// futures, so states (history included) are visited once.
//
// The SS class of a complete execution is its key: the memory events of every
// thread (transition, address, value, read-from) and co. On straight-line
// programs this is exactly the (rf, co) pair of algorithms.md section 7; with
// branches the events also say which instructions ran.
//
// The happens-before relation of an execution is po ∪ rf ∪ co ∪ fr over its
// memory events and the virtual initial stores, with po the full program
// order (the SC requirement). The program is robust against the model when
// every complete execution has an acyclic relation; a cyclic one is reported
// with one execution (its steps) and one cycle (events and edge kinds).
//
// Locked blocks: while a thread holds the lock no other thread moves, so under
// SC the memory events of a locked block run without interruption, and under
// TSO/PSO too (lock and unlock need empty buffers). The plain relation over
// memory events does not see that atomicity: a block that reads y before a
// buffered store to y reaches memory and then reads z after a store that the
// delaying thread's later load missed is acyclic, yet no SC execution has it
// (random acyclic seed 111 shows it). So the events of one locked block are one
// node of the relation, and a cycle through a block has an Atomic edge between
// the block's events where it enters and leaves. With that, acyclic <=> the
// class is an SC class, which the tests check on random programs.
//
// The search is bounded by a state cap: beyond it the verdict is "unknown",
// and no class count is final. Programs with loops have unbounded histories,
// so on them the oracle only terminates through the cap.

#include "tsoreach/lang/expr.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lang/program.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tsoreach::test {

enum class RobModel { SC, TSO, PSO };
enum class RobVerdict { Robust, NotRobust, Unknown };

inline const char* robName(RobModel m) {
    switch (m) {
    case RobModel::SC:
        return "SC";
    case RobModel::TSO:
        return "TSO";
    case RobModel::PSO:
        break;
    }
    return "PSO";
}

inline const char* robName(RobVerdict v) {
    switch (v) {
    case RobVerdict::Robust:
        return "robust";
    case RobVerdict::NotRobust:
        return "not robust";
    case RobVerdict::Unknown:
        break;
    }
    return "unknown";
}

struct RobOptions {
    RobModel model = RobModel::TSO;
    std::size_t maxStates = 300000; // more distinct states: unknown
};

// A memory event: (thread, index among the thread's memory events). The
// virtual initial store of an address has thread == kInitThread and
// index == 0 (its address is carried by the event that refers to it).
inline constexpr std::uint32_t kInitThread = std::numeric_limits<std::uint32_t>::max();

struct RobEventRef {
    std::uint32_t thread = kInitThread;
    std::uint32_t index = 0;
    friend auto operator<=>(const RobEventRef&, const RobEventRef&) = default;
};

struct RobEvent {
    std::uint32_t transition = 0; // TransitionId value of the instruction
    bool store = false;
    Value addr = 0;
    Value value = 0;
    RobEventRef rf; // loads: the store read from
    // The thread's lock acquisitions so far while it holds the lock, else 0:
    // events with the same non-zero block ran in one locked block.
    std::uint32_t block = 0;
    friend auto operator<=>(const RobEvent&, const RobEvent&) = default;
};

// One step of an execution: an instruction of a thread, or a flush of one of
// its buffered stores (the store event `event`).
struct RobStep {
    std::uint32_t thread = 0;
    bool flush = false;
    std::uint32_t transition = 0; // instruction steps
    std::uint32_t event = 0;      // flushes: index of the flushed store event
    Value addr = 0;               // memory steps
    Value value = 0;
};

enum class RobEdgeKind { Po, Rf, Co, Fr, Atomic };

inline const char* robName(RobEdgeKind k) {
    switch (k) {
    case RobEdgeKind::Po:
        return "po";
    case RobEdgeKind::Rf:
        return "rf";
    case RobEdgeKind::Co:
        return "co";
    case RobEdgeKind::Fr:
        return "fr";
    case RobEdgeKind::Atomic:
        break;
    }
    return "atomic";
}

struct RobEdge {
    RobEventRef from;
    RobEventRef to;
    Value addr = 0; // of `from` (identifies an initial store)
    RobEdgeKind kind = RobEdgeKind::Po;
};

// The SS class of a complete execution.
struct RobKey {
    std::vector<std::vector<RobEvent>> events; // by thread, program order
    std::map<Value, std::vector<RobEventRef>> co;
    friend auto operator<=>(const RobKey&, const RobKey&) = default;
};

struct RobResult {
    RobVerdict verdict = RobVerdict::Unknown;
    std::string reason;     // Unknown only
    std::size_t states = 0; // distinct states (with history) discovered
    std::size_t ssClasses = 0;
    std::set<RobKey> classes; // every SS class (all of them unless Unknown)
    std::size_t cyclicClasses = 0;
    std::size_t stuckWithBuffers = 0; // terminal states with stores still buffered (not complete)
    // NotRobust (and, if the cap struck after one was found, Unknown): one
    // complete execution with a cyclic happens-before relation, and one cycle.
    std::vector<RobStep> trace;
    std::vector<RobEdge> cycle;
    RobKey witness; // the class of `trace`
};

// A cycle in po ∪ rf ∪ co ∪ fr of `key`, empty if acyclic. The events of one
// locked block count as one node (see the header comment); where a cycle goes
// through a block from one of its events to another, an Atomic edge links them
// so that the cycle stays a closed chain of events. Iterative DFS.
inline std::vector<RobEdge> hbCycle(const RobKey& key) {
    // Nodes: one per event outside locked blocks, one per locked block (named
    // by its first event), one initial store per address.
    std::vector<std::vector<std::size_t>> nodeOf(key.events.size());
    std::size_t n = 0;
    std::map<Value, std::size_t> initNode;
    for (std::size_t t = 0; t < key.events.size(); ++t) {
        const auto& evs = key.events[t];
        for (std::size_t i = 0; i < evs.size(); ++i) {
            const bool sameBlock = i > 0 && evs[i].block != 0 && evs[i].block == evs[i - 1].block;
            nodeOf[t].push_back(sameBlock ? nodeOf[t][i - 1] : n++);
        }
    }
    for (const auto& evs : key.events) {
        for (const RobEvent& e : evs) {
            if (initNode.count(e.addr) == 0) {
                initNode.emplace(e.addr, n++);
            }
        }
    }
    auto node = [&](RobEventRef r, Value a) {
        return r.thread == kInitThread ? initNode.at(a) : nodeOf[r.thread][r.index];
    };

    std::vector<RobEdge> edges;
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> adj(n); // (target, edge)
    auto addEdge = [&](RobEventRef from, Value fromAddr, RobEventRef to, Value toAddr,
                       RobEdgeKind kind) {
        const std::size_t u = node(from, fromAddr);
        const std::size_t v = node(to, toAddr);
        if (u != v) { // inside one atomic block
            adj[u].emplace_back(v, edges.size());
            edges.push_back(RobEdge{from, to, fromAddr, kind});
        }
    };
    for (std::size_t t = 0; t < key.events.size(); ++t) {
        const auto& evs = key.events[t];
        for (std::size_t i = 0; i + 1 < evs.size(); ++i) {
            const auto tt = static_cast<std::uint32_t>(t);
            addEdge(RobEventRef{tt, static_cast<std::uint32_t>(i)}, evs[i].addr,
                    RobEventRef{tt, static_cast<std::uint32_t>(i + 1)}, evs[i + 1].addr,
                    RobEdgeKind::Po);
        }
    }
    for (const auto& [a, order] : key.co) {
        RobEventRef prev; // the initial store
        for (RobEventRef cur : order) {
            addEdge(prev, a, cur, a, RobEdgeKind::Co);
            prev = cur;
        }
    }
    for (std::size_t t = 0; t < key.events.size(); ++t) {
        for (std::size_t i = 0; i < key.events[t].size(); ++i) {
            const RobEvent& e = key.events[t][i];
            if (e.store) {
                continue;
            }
            const RobEventRef load{static_cast<std::uint32_t>(t), static_cast<std::uint32_t>(i)};
            addEdge(e.rf, e.addr, load, e.addr, RobEdgeKind::Rf);
            // fr: to every store co-after the source.
            auto it = key.co.find(e.addr);
            if (it == key.co.end()) {
                continue;
            }
            std::size_t k = 0;
            if (e.rf.thread != kInitThread) {
                k = static_cast<std::size_t>(std::find(it->second.begin(), it->second.end(), e.rf) -
                                             it->second.begin()) +
                    1;
            }
            for (; k < it->second.size(); ++k) {
                addEdge(load, e.addr, it->second[k], e.addr, RobEdgeKind::Fr);
            }
        }
    }

    // Iterative DFS; colour 0 white, 1 on the stack, 2 done.
    std::vector<std::uint8_t> colour(n, 0);
    std::vector<std::size_t> parentEdge(n, 0);
    std::vector<std::pair<std::size_t, std::size_t>> stack; // (node, next adjacency entry)
    std::vector<RobEdge> cycle;
    for (std::size_t root = 0; root < n && cycle.empty(); ++root) {
        if (colour[root] != 0) {
            continue;
        }
        colour[root] = 1;
        stack.emplace_back(root, 0);
        while (!stack.empty() && cycle.empty()) {
            auto& [u, next] = stack.back();
            if (next == adj[u].size()) {
                colour[u] = 2;
                stack.pop_back();
                continue;
            }
            const auto [v, edge] = adj[u][next++];
            if (colour[v] == 0) {
                colour[v] = 1;
                parentEdge[v] = edge;
                stack.emplace_back(v, 0);
            } else if (colour[v] == 1) {
                // The back edge u -> v closes the cycle v -> ... -> u -> v.
                cycle.push_back(edges[edge]);
                for (std::size_t w = u; w != v;) {
                    const RobEdge& e = edges[parentEdge[w]];
                    cycle.push_back(e);
                    w = node(e.from, e.addr);
                }
            }
        }
    }
    std::reverse(cycle.begin(), cycle.end());
    // Link the events of one block where the cycle enters and leaves it apart.
    std::vector<RobEdge> chain;
    for (std::size_t i = 0; i < cycle.size(); ++i) {
        chain.push_back(cycle[i]);
        const RobEdge& nextEdge = cycle[(i + 1) % cycle.size()];
        if (cycle[i].to != nextEdge.from) {
            const RobEvent& e = key.events[cycle[i].to.thread][cycle[i].to.index];
            chain.push_back(RobEdge{cycle[i].to, nextEdge.from, e.addr, RobEdgeKind::Atomic});
        }
    }
    return chain;
}

class RobustnessOracle {
  public:
    RobustnessOracle(const Program& p, const RobOptions& o)
        : p_(p), o_(o), stack_(p.maxExprStack) {}

    RobResult run() {
        RobResult res;
        State init;
        for (const Thread& t : p_.threads) {
            init.pcs.push_back(t.initial.value);
            init.regs.emplace_back(t.regCount(), 0);
        }
        init.pending.resize(p_.threads.size());
        init.locks.resize(p_.threads.size(), 0);
        init.events.resize(p_.threads.size());

        std::unordered_map<std::string, std::uint32_t> visited;
        std::vector<Node> nodes;
        std::vector<std::pair<State, std::uint32_t>> dfs; // state, its node
        visited.emplace(encode(init), 0);
        nodes.push_back(Node{});
        dfs.emplace_back(std::move(init), 0);
        std::vector<std::pair<State, RobStep>> next;
        bool capped = false;
        while (!dfs.empty() && !capped) {
            State s = std::move(dfs.back().first);
            const std::uint32_t id = dfs.back().second;
            dfs.pop_back();
            next.clear();
            successors(s, next);
            if (next.empty()) {
                terminal(s, id, nodes, res);
                continue;
            }
            for (auto& [n, step] : next) {
                auto [it, fresh] =
                    visited.emplace(encode(n), static_cast<std::uint32_t>(nodes.size()));
                if (!fresh) {
                    continue;
                }
                if (nodes.size() >= o_.maxStates) {
                    capped = true;
                    break;
                }
                nodes.push_back(Node{id, step});
                dfs.emplace_back(std::move(n), it->second);
            }
        }
        res.states = nodes.size();
        res.ssClasses = res.classes.size();
        if (capped) {
            res.verdict = RobVerdict::Unknown;
            res.reason = "state cap";
        } else {
            res.verdict = res.cycle.empty() ? RobVerdict::Robust : RobVerdict::NotRobust;
        }
        return res;
    }

  private:
    struct State {
        std::vector<std::uint32_t> pcs;
        std::vector<std::vector<Value>> regs;
        std::uint32_t lockHolder = kInitThread; // kInitThread: free
        std::vector<std::uint32_t> locks;       // by thread: lock acquisitions so far
        // Buffered stores by thread, oldest first, as indexes into events.
        // TSO flushes the first; PSO the first of any address.
        std::vector<std::vector<std::uint32_t>> pending;
        std::vector<std::vector<RobEvent>> events;
        std::map<Value, std::vector<RobEventRef>> co;
    };

    struct Node {
        std::uint32_t parent = 0;
        RobStep step;
    };

    static void put(std::string& out, std::int64_t v) {
        char bytes[sizeof v];
        std::memcpy(bytes, &v, sizeof v);
        out.append(bytes, sizeof v);
    }

    static std::string encode(const State& s) {
        std::string out;
        out.reserve(512);
        put(out, s.lockHolder);
        for (std::size_t t = 0; t < s.pcs.size(); ++t) {
            put(out, s.pcs[t]);
            put(out, s.locks[t]);
            for (Value r : s.regs[t]) {
                put(out, r);
            }
            put(out, static_cast<std::int64_t>(s.pending[t].size()));
            for (std::uint32_t i : s.pending[t]) {
                put(out, i);
            }
            put(out, static_cast<std::int64_t>(s.events[t].size()));
            for (const RobEvent& e : s.events[t]) {
                put(out, e.transition);
                put(out, e.store ? 1 : 0);
                put(out, e.addr);
                put(out, e.value);
                put(out, e.rf.thread);
                put(out, e.rf.index);
                put(out, e.block);
            }
        }
        for (const auto& [a, order] : s.co) {
            put(out, a);
            put(out, static_cast<std::int64_t>(order.size()));
            for (RobEventRef r : order) {
                put(out, r.thread);
                put(out, r.index);
            }
        }
        return out;
    }

    void terminal(const State& s, std::uint32_t id, const std::vector<Node>& nodes,
                  RobResult& res) const {
        for (const auto& buf : s.pending) {
            if (!buf.empty()) {
                ++res.stuckWithBuffers;
                return;
            }
        }
        RobKey key{s.events, s.co};
        if (res.classes.count(key) != 0) {
            return;
        }
        std::vector<RobEdge> cycle = hbCycle(key);
        if (!cycle.empty()) {
            ++res.cyclicClasses;
            if (res.cycle.empty()) {
                res.cycle = std::move(cycle);
                res.witness = key;
                for (std::uint32_t n = id; n != 0; n = nodes[n].parent) {
                    res.trace.push_back(nodes[n].step);
                }
                std::reverse(res.trace.begin(), res.trace.end());
            }
        }
        res.classes.insert(std::move(key));
    }

    Value eval(const State& s, std::size_t t, ExprRef e) {
        return evaluate(p_.expr(e), s.regs[t], stack_);
    }

    void successors(const State& s, std::vector<std::pair<State, RobStep>>& out) {
        const bool sc = o_.model == RobModel::SC;
        for (std::size_t t = 0; t < p_.threads.size(); ++t) {
            // While a thread holds the lock, no other thread steps, flushes included.
            if (s.lockHolder != kInitThread && s.lockHolder != t) {
                continue;
            }
            const auto thread = static_cast<std::uint32_t>(t);
            const bool empty = s.pending[t].empty();
            const std::uint32_t block = s.lockHolder == thread ? s.locks[t] : 0;
            for (TransitionId id : p_.threads[t].outgoingOf(StateId(s.pcs[t]))) {
                const Transition& tr = p_.transition(id);
                const Instruction& in = tr.instr;
                RobStep step{thread, false, id.value, 0, 0, 0};
                State n = s;
                switch (in.kind) {
                case InstrKind::Read: {
                    const Value a = eval(s, t, in.addr);
                    // Read from the initial store unless another is found.
                    RobEvent e{id.value, false, a, p_.memory.initialValue(a), RobEventRef{}, block};
                    bool forwarded = false;
                    for (auto it = s.pending[t].rbegin(); it != s.pending[t].rend(); ++it) {
                        if (s.events[t][*it].addr == a) {
                            e.rf = RobEventRef{thread, *it};
                            e.value = s.events[t][*it].value;
                            forwarded = true;
                            break;
                        }
                    }
                    if (!forwarded) {
                        auto c = s.co.find(a);
                        if (c != s.co.end() && !c->second.empty()) {
                            e.rf = c->second.back();
                            e.value = s.events[e.rf.thread][e.rf.index].value;
                        }
                    }
                    n.regs[t][in.reg.index()] = e.value;
                    n.events[t].push_back(e);
                    step.addr = a;
                    step.value = e.value;
                    break;
                }
                case InstrKind::Write: {
                    const Value v = eval(s, t, in.value);
                    const Value a = eval(s, t, in.addr);
                    const auto index = static_cast<std::uint32_t>(n.events[t].size());
                    n.events[t].push_back(RobEvent{id.value, true, a, v, RobEventRef{}, block});
                    if (sc) {
                        n.co[a].push_back(RobEventRef{thread, index});
                    } else {
                        n.pending[t].push_back(index);
                    }
                    step.addr = a;
                    step.value = v;
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
                    if (!empty) {
                        continue;
                    }
                    break;
                case InstrKind::Noop:
                    break;
                case InstrKind::Lock:
                    if (s.lockHolder != kInitThread || !empty) {
                        continue;
                    }
                    n.lockHolder = thread;
                    ++n.locks[t];
                    break;
                case InstrKind::Unlock:
                    if (s.lockHolder != thread || !empty) {
                        continue;
                    }
                    n.lockHolder = kInitThread;
                    break;
                case InstrKind::Atomic: // robustness refuses atomic blocks
                case InstrKind::EndAtomic:
                case InstrKind::LockFor: // and lockfor/unlockfor
                case InstrKind::UnlockFor:
                    throw std::logic_error("robustness oracle: atomic blocks are not supported");
                }
                n.pcs[t] = tr.to.value;
                out.emplace_back(std::move(n), step);
            }
            // Flushes: TSO the oldest buffered store; PSO the oldest of any address.
            const auto& buf = s.pending[t];
            for (std::size_t k = 0; k < buf.size(); ++k) {
                if (o_.model == RobModel::TSO && k > 0) {
                    break;
                }
                const RobEvent& e = s.events[t][buf[k]];
                bool oldest = true;
                for (std::size_t j = 0; j < k && oldest; ++j) {
                    oldest = s.events[t][buf[j]].addr != e.addr;
                }
                if (!oldest) {
                    continue;
                }
                State n = s;
                n.co[e.addr].push_back(RobEventRef{thread, buf[k]});
                n.pending[t].erase(n.pending[t].begin() + static_cast<std::ptrdiff_t>(k));
                out.emplace_back(std::move(n), RobStep{thread, true, 0, buf[k], e.addr, e.value});
            }
        }
    }

    const Program& p_;
    RobOptions o_;
    std::vector<Value> stack_;
};

inline RobResult robustness(const Program& p, const RobOptions& o) {
    return RobustnessOracle(p, o).run();
}

inline RobResult robustness(const Program& p, RobModel m) {
    RobOptions o;
    o.model = m;
    return robustness(p, o);
}

// "t0:e1" for an event, "init[a]" for the initial store of address a.
inline std::string describeEvent(const Program& p, const RobKey& key, RobEventRef r, Value addr) {
    if (r.thread == kInitThread) {
        return "init[" + std::to_string(addr) + "]";
    }
    const RobEvent& e = key.events[r.thread][r.index];
    return p.threads[r.thread].name + ":e" + std::to_string(r.index) + "(" +
           (e.store ? "W " : "R ") + std::to_string(e.addr) + "=" + std::to_string(e.value) + ")";
}

// One line per step, then the cycle.
inline std::string describeWitness(const Program& p, const RobResult& r) {
    std::string out;
    for (const RobStep& s : r.trace) {
        out += p.threads[s.thread].name + ": ";
        if (s.flush) {
            out += "flush e" + std::to_string(s.event) + " [" + std::to_string(s.addr) +
                   "] := " + std::to_string(s.value);
        } else {
            out += printInstruction(p, p.transition(TransitionId(s.transition)));
            const InstrKind k = p.transition(TransitionId(s.transition)).instr.kind;
            if (k == InstrKind::Read || k == InstrKind::Write) {
                out += "  [" + std::to_string(s.addr) + "] " + std::to_string(s.value);
            }
        }
        out += "\n";
    }
    out += "cycle:";
    for (const RobEdge& e : r.cycle) {
        out += " " + describeEvent(p, r.witness, e.from, e.addr) + " -" + robName(e.kind) + "->";
    }
    if (!r.cycle.empty()) {
        out += " " + describeEvent(p, r.witness, r.cycle.front().from, r.cycle.front().addr);
    }
    out += "\n";
    return out;
}

} // namespace tsoreach::test
