// The rf engine: RF-SMC (paper 001, digest 3.7) with the branch-point and
// novelty bookkeeping of Abdulla et al. OOPSLA'19, over maximal executions.
//
// A call gets a node (an execution closed under program order and
// reads-from, with a witness) and extends it to a maximal execution M by an
// SC run; `order` lists M's steps as a trace, the node's first. Each step
// the extension added, at position p of `order`, is a branch point B(p):
// its schedules keep order[<p], take another step at that slot (another
// enabled transition, or the read with another source w) and close under
// po and rf (w's causal past). Schedules of B(p) are proposed by this call
// from M's writes and, while B(p) is pending, by every call explored below
// it that contains order[<p] (its writes may be sources M lacks); each is
// kept if new at B(p) (a digest set seeded with M's own step there) and
// realizable. A call explores B(p) from the last position to the first, so
// calls below B(q) for q >= p still propose to B(p). Explicit stack of
// calls (`frames_`), each with its branch points.
//
// Each class once. The parent of a call is the call owning the branch
// point it came from; a call's node contains its parent's order[<p] plus a
// step at slot p that differs from the parent's in its transition or its
// source (same source: its causal past lies in order[<p], so the digest
// equals the seed and is refused). Two calls D1, D2 with nearest common
// ancestor Z, reached from B(p1), B(p2) of Z: if p1 < p2, D2's node has
// Z's step at slot p1 and D1's node another, so no execution contains
// both; if p1 = p2, their schedules differ at slot p or, with the same
// source, in that source's causal past, which is a closure from the same
// slot and so differs at some slot both have; if D1 is an ancestor of D2,
// D2's node differs from D1's extension at slot p. So the maximal
// executions of two calls are never in the same class, and `redundant`
// (a repeat caught by the class digests) stays 0.
//
// Completeness, as in RF-SMC (OOPSLA'19 and paper 001, Thm 3.3; checked
// here, not re-proved): a maximal execution M' that contains a call's node
// and differs from its extension first at position p can only be explored
// under B(p) (below B(q), q != p, the slot is fixed otherwise), by the
// schedule that takes M''s step there: a transition, proposed by the call
// itself, or a read of w with order[<p] and w's causal past in M', a subset
// of M' and so realizable, proposed once some call below B(q), q >= p,
// holds w with that past. The tests compare counts with a brute-force
// search on random programs. Sources are pruned by coherence before the
// check (sound: such a source is unreadable in every execution). Digests
// are 128-bit: a collision in a novelty set, probability about n^2 / 2^128,
// could drop a schedule.

#include "tsoreach/reach/rf.hpp"

#include "tsoreach/reach/reads_from.hpp"
#include "tsoreach/reach/resource_monitor.hpp"
#include "tsoreach/reach/stateless_explore.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_set>

namespace tsoreach::reach {

namespace {

// A step of a thread's path; a read also names its write and the value.
struct Step {
    TransitionId id;
    RfSource source;
    Value value = 0;
};

using Paths = std::vector<std::vector<Step>>;
// Per thread, the length of a prefix of its path.
using Lengths = std::vector<std::uint32_t>;

// A thread run along its path.
struct ThreadRun {
    StateId pc;
    std::vector<Value> regs;
    std::vector<RfEvent> events;
    std::vector<Value> written;           // by event: the value a write stores
    std::vector<std::uint32_t> eventStep; // by event: its step in the path
};

// An execution's 128-bit digest: the set of explored classes and the
// novelty sets keep digests, not paths, to stay small.
struct Digest {
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    friend bool operator==(const Digest&, const Digest&) = default;
};

struct DigestHash {
    std::size_t operator()(const Digest& d) const noexcept { return d.a; }
};

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Digests of path prefixes: a thread's chain starts from its index and
// takes one step at a time, so the digest of every prefix of a maximal
// execution is computed once and serves every node cut from it.
Digest startDigest(std::uint32_t t) {
    return Digest{mix(t + 1), mix(t + 0x51ed2701ULL)};
}

Digest extend(Digest d, const Step& s) {
    const std::uint64_t v = (std::uint64_t{s.id.value} << 32) | s.source.index;
    d.a = mix(d.a ^ v) + s.source.thread;
    d.b = mix(d.b + v + 0x9e3779b97f4a7c15ULL) ^ mix(d.b + s.source.thread);
    return d;
}

// An execution's digest from its threads' prefix lengths and digests.
Digest combine(const Lengths& len, const std::vector<Digest>& threads) {
    Digest d{0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL};
    for (std::size_t u = 0; u < len.size(); ++u) {
        d.a = mix(d.a ^ threads[u].a) + len[u];
        d.b = mix(d.b + threads[u].b) ^ mix(d.b + len[u]);
    }
    return d;
}

// A call of the exploration: a realizable execution, closed under program
// order and reads-from, with a witness of its class.
struct Node {
    Paths paths;
    std::vector<RfWitnessStep> witness;
};

// The maximal execution of a call, with what its mutations need.
struct Maximal {
    Paths paths;
    std::vector<ThreadRun> runs;
    // By thread and step: the causal past (program order and reads-from)
    // of the step, as the prefix lengths it includes.
    std::vector<std::vector<Lengths>> past;
    // By thread and prefix length: the events in that prefix, its digest.
    std::vector<std::vector<std::uint32_t>> eventsIn;
    std::vector<std::vector<Digest>> prefix;
    // TSO and PSO. Memory-writes go in program order per channel: per
    // thread (TSO) or per thread and address (PSO). By thread and step: a
    // write's index in its channel; how many writes of each channel are in
    // memory in every execution once the step has run (a remote read comes
    // after its write's memory-write, a fence after its thread's).
    std::map<Value, std::uint32_t> addrIndex; // PSO: the addresses written
    std::vector<std::vector<std::uint32_t>> writeNo;
    std::vector<std::vector<Lengths>> flushed;
};

// A branch point: step k of thread t, added by a call's extension at some
// position of its trace, with `pre` the steps before it there. Its
// schedules keep `pre`, take another step at (t, k) and close under
// program order and reads-from; `tried` holds the digests of those proposed
// (and of the call's own step) for the novelty check.
struct Branch {
    std::uint32_t t = 0;
    std::uint32_t k = 0;
    Lengths pre;
    std::unordered_set<Digest, DigestHash> tried;
    std::vector<Node> pending;
};

// A call on the explicit stack: its branch points by trace position, and
// the one being explored (`cur`; those after it are done).
struct Frame {
    std::vector<Branch> branches;
    std::size_t cur = 0;
};

Lengths lengthsOf(const Paths& paths) {
    Lengths l;
    for (const auto& path : paths) {
        l.push_back(static_cast<std::uint32_t>(path.size()));
    }
    return l;
}

void join(Lengths& into, const Lengths& other) {
    for (std::size_t u = 0; u < into.size(); ++u) {
        into[u] = std::max(into[u], other[u]);
    }
}

class Explorer {
  public:
    Explorer(const Program& p, MemoryModel model, const ExploreOptions& options)
        : p_(p), model_(model), options_(options), monitor_(options.limits), stack_(p.maxExprStack),
          n_(static_cast<std::uint32_t>(p.threads.size())) {}

    ExploreResult run() {
        Node root;
        root.paths.resize(n_);
        if (explore(root)) {
            return finish(true);
        }
        // Depth first: the top call explores its branch points from the
        // last position of its trace to the first, each until no schedule
        // is pending (calls below may still add some).
        while (!frames_.empty() && stop_.empty()) {
            Frame& f = frames_.back();
            while (f.cur > 0 && f.branches[f.cur - 1].pending.empty()) {
                --f.cur;
            }
            if (f.cur == 0) {
                for (const Branch& b : f.branches) {
                    workBytes_ -= bytesOf(b);
                    keyBytes_ -= b.tried.size() * kDigestBytes;
                }
                frames_.pop_back();
                continue;
            }
            if (auto why = limitReason()) {
                stop_ = *why;
                break;
            }
            Branch& b = f.branches[f.cur - 1];
            Node node = std::move(b.pending.back());
            b.pending.pop_back();
            workBytes_ -= bytesOf(node);
            if (explore(node)) {
                return finish(true);
            }
        }
        result_.reason = stop_;
        return finish(stop_.empty());
    }

  private:
    ExploreResult finish(bool complete) {
        result_.complete = complete;
        result_.stats.outcomes = outcomes_.size();
        result_.stats.consistencyChecks = checks_.checks;
        result_.stats.timeSeconds = monitor_.elapsedSeconds();
        return std::move(result_);
    }

    std::optional<std::string> limitReason() {
        const Options& o = options_.limits;
        // Stateless: --max-states bounds the maximal executions explored.
        if (o.maxStates != 0 && result_.stats.events >= o.maxStates) {
            return "state limit of " + std::to_string(o.maxStates) +
                   " reached (--max-states: maximal executions explored)";
        }
        if (monitor_.progressDue()) { // the line is built only when printed
            monitor_.progress("rf", result_.stats.events, "executions");
        }
        return monitor_.exceeded(workBytes_ + keyBytes_);
    }

    Value eval(const ThreadRun& run, ExprRef e) { return evaluate(p_.expr(e), run.regs, stack_); }

    bool isRead(const Step& s) const { return p_.transition(s.id).instr.kind == InstrKind::Read; }

    ThreadRun initialRun(std::uint32_t t) const {
        ThreadRun run;
        run.pc = p_.threads[t].initial;
        run.regs.assign(p_.threads[t].regCount(), 0);
        return run;
    }

    // Runs step `s` (step k of the thread's path).
    void apply(ThreadRun& run, const Step& s, std::uint32_t k) {
        const Transition& tr = p_.transition(s.id);
        const Instruction& in = tr.instr;
        switch (in.kind) {
        case InstrKind::Read:
            run.events.push_back({RfEventKind::Read, eval(run, in.addr), s.source});
            run.written.push_back(0);
            run.eventStep.push_back(k);
            run.regs[in.reg.index()] = s.value;
            break;
        case InstrKind::Write:
            run.events.push_back({RfEventKind::Write, eval(run, in.addr), {}});
            run.written.push_back(eval(run, in.value));
            run.eventStep.push_back(k);
            break;
        case InstrKind::Mfence:
            run.events.push_back({RfEventKind::Fence, 0, {}});
            run.written.push_back(0);
            run.eventStep.push_back(k);
            break;
        case InstrKind::Local:
            run.regs[in.reg.index()] = eval(run, in.value);
            break;
        case InstrKind::Check:
        case InstrKind::Noop:
        case InstrKind::Lock:
        case InstrKind::Unlock:
        case InstrKind::Atomic: // refused before (statelessUnsupported)
        case InstrKind::EndAtomic:
        case InstrKind::LockFor:
        case InstrKind::UnlockFor:
            break;
        }
        run.pc = tr.to;
    }

    std::vector<ThreadRun> runAll(const Paths& paths) {
        std::vector<ThreadRun> runs;
        for (std::uint32_t t = 0; t < n_; ++t) {
            runs.push_back(initialRun(t));
            for (std::uint32_t k = 0; k < paths[t].size(); ++k) {
                apply(runs.back(), paths[t][k], k);
            }
        }
        return runs;
    }

    // The first transition a thread in `run` can take (a failed check
    // cannot be taken).
    std::optional<TransitionId> firstEnabled(const ThreadRun& run, std::uint32_t t) {
        for (TransitionId id : p_.threads[t].outgoingOf(run.pc)) {
            const Instruction& in = p_.transition(id).instr;
            if (in.kind != InstrKind::Check || eval(run, in.value) != 0) {
                return id;
            }
        }
        return std::nullopt;
    }

    // False when `paths` was remembered already.
    bool remember(std::unordered_set<Digest, DigestHash>& set, const Digest& d) {
        if (!set.insert(d).second) {
            return false;
        }
        keyBytes_ += sizeof(Digest) + 2 * sizeof(void*);
        return true;
    }

    static constexpr std::size_t kDigestBytes = sizeof(Digest) + 2 * sizeof(void*);

    static std::size_t bytesOf(const Branch& b) {
        return sizeof(Branch) + b.pre.size() * sizeof(std::uint32_t);
    }

    static std::size_t bytesOf(const Node& node) {
        std::size_t b = sizeof(Node) + node.witness.size() * sizeof(RfWitnessStep);
        for (const auto& path : node.paths) {
            b += sizeof(path) + path.size() * sizeof(Step);
        }
        return b;
    }

    // One call: extend the node to a maximal execution, count its class,
    // propose schedules to its branch points and to the pending ones below
    // it, and push its frame. True when the goal is reached.
    bool explore(const Node& node) {
        ++result_.stats.events;
        Maximal m;
        m.paths = node.paths;
        const Lengths base = lengthsOf(node.paths);
        m.runs = runAll(m.paths);
        Paths& paths = m.paths;
        std::vector<ThreadRun>& runs = m.runs;

        // The steps in the order of a trace (the witness, then the
        // extension), so that a read comes after the write it reads from.
        std::vector<std::pair<std::uint32_t, std::uint32_t>> order;
        std::map<Value, RfSource> memory; // the last memory-write by address
        std::vector<std::uint32_t> emitted(n_, 0);
        for (const RfWitnessStep& w : node.witness) {
            const ThreadRun& run = runs[w.thread];
            if (w.memoryWrite) {
                memory[run.events[w.index].addr] = RfSource{w.thread, w.index};
                continue;
            }
            for (; emitted[w.thread] <= run.eventStep[w.index]; ++emitted[w.thread]) {
                order.emplace_back(w.thread, emitted[w.thread]);
            }
        }
        for (std::uint32_t t = 0; t < n_; ++t) {
            for (; emitted[t] < paths[t].size(); ++emitted[t]) {
                order.emplace_back(t, emitted[t]);
            }
        }

        // Extend: every write of the witness is in memory, so run each
        // thread in turn until it has no enabled transition, with writes
        // going to memory at once (an SC run, valid under every model).
        bool finished = true;
        for (std::uint32_t t = 0; t < n_; ++t) {
            ThreadRun& run = runs[t];
            for (;;) {
                const std::optional<TransitionId> next = firstEnabled(run, t);
                if (!next) {
                    break;
                }
                Step s{*next, {}, 0};
                const Instruction& in = p_.transition(s.id).instr;
                if (in.kind == InstrKind::Read) {
                    const Value addr = eval(run, in.addr);
                    auto it = memory.find(addr);
                    if (it != memory.end()) {
                        s.source = it->second;
                        s.value = runs[it->second.thread].written[it->second.index];
                    } else {
                        s.value = p_.memory.initialValue(addr);
                    }
                }
                const auto k = static_cast<std::uint32_t>(paths[t].size());
                apply(run, s, k);
                paths[t].push_back(s);
                order.emplace_back(t, k);
                if (in.kind == InstrKind::Write) {
                    memory[run.events.back().addr] =
                        RfSource{t, static_cast<std::uint32_t>(run.events.size() - 1)};
                }
            }
            finished = finished && p_.threads[t].outgoingOf(run.pc).empty();
        }

        m.past.resize(n_);
        m.eventsIn.resize(n_);
        for (std::uint32_t t = 0; t < n_; ++t) {
            m.past[t].resize(paths[t].size());
            m.eventsIn[t].assign(paths[t].size() + 1, 0);
            for (std::uint32_t e : runs[t].eventStep) {
                ++m.eventsIn[t][e + 1];
            }
            for (std::uint32_t k = 0; k < paths[t].size(); ++k) {
                m.eventsIn[t][k + 1] += m.eventsIn[t][k];
            }
        }
        for (const auto& [t, k] : order) {
            Lengths v = k > 0 ? m.past[t][k - 1] : Lengths(n_, 0);
            v[t] = k + 1;
            const Step& s = paths[t][k];
            if (isRead(s) && !s.source.initial()) {
                join(v, m.past[s.source.thread][runs[s.source.thread].eventStep[s.source.index]]);
            }
            m.past[t][k] = std::move(v);
        }

        if (model_ != MemoryModel::SC) {
            flushedOrder(m, order);
        }

        m.prefix.resize(n_);
        std::vector<Digest> whole(n_);
        for (std::uint32_t t = 0; t < n_; ++t) {
            m.prefix[t].push_back(startDigest(t));
            for (const Step& s : paths[t]) {
                m.prefix[t].push_back(extend(m.prefix[t].back(), s));
            }
            whole[t] = m.prefix[t].back();
        }
        // Never a repeat (see the top of the file); the digests check it.
        if (remember(classes_, combine(lengthsOf(paths), whole))) {
            ended(paths, runs, finished);
            if (options_.goal != nullptr && goalReached(paths, m.past)) {
                return true;
            }
        } else {
            ++result_.stats.redundant;
        }

        // A branch point per step the extension added, at its position
        // in the trace; the call's own step is tried already.
        Frame frame;
        {
            Lengths pre(n_, 0);
            for (std::size_t pos = 0; pos < order.size(); ++pos) {
                const auto [t, k] = order[pos];
                if (k >= base[t]) {
                    Branch b;
                    b.t = t;
                    b.k = k;
                    b.pre = pre;
                    const Step& x = paths[t][k];
                    b.tried.insert(scheduleOf(m, b, x).second);
                    keyBytes_ += kDigestBytes;
                    frame.branches.push_back(std::move(b));
                }
                pre[t] = k + 1;
            }
        }
        // Mutations: this call proposes schedules to its own branch points
        // and to every branch point of the calls below it that it extends
        // (those up to the one being explored, whose steps before it in
        // their trace it has): another enabled transition or, for a read,
        // another source among its writes.
        std::vector<std::vector<Branch*>> at(n_);
        for (std::uint32_t t = 0; t < n_; ++t) {
            at[t].assign(paths[t].size(), nullptr);
        }
        for (Frame& f : frames_) {
            for (std::size_t i = 0; i < f.cur; ++i) {
                at[f.branches[i].t][f.branches[i].k] = &f.branches[i];
            }
        }
        for (Branch& b : frame.branches) {
            at[b.t][b.k] = &b;
        }
        for (std::uint32_t t = 0; t < n_ && stop_.empty(); ++t) {
            ThreadRun run = initialRun(t);
            for (std::uint32_t k = 0; k < paths[t].size() && stop_.empty(); ++k) {
                if (at[t][k] != nullptr) {
                    mutate(m, *at[t][k], run);
                }
                apply(run, paths[t][k], k);
            }
        }
        frame.cur = frame.branches.size();
        for (const Branch& b : frame.branches) {
            workBytes_ += bytesOf(b);
        }
        frames_.push_back(std::move(frame));
        return false;
    }

    // Proposes to b the alternatives to its step (`run`: the thread before
    // it) that m offers: other enabled transitions and, for a read, m's
    // writes there that coherence allows. Repeats of b's schedules are
    // refused by the novelty check.
    void mutate(const Maximal& m, Branch& b, const ThreadRun& run) {
        const std::uint32_t t = b.t;
        const std::uint32_t k = b.k;
        const Step& x = m.paths[t][k];
        for (TransitionId id : p_.threads[t].outgoingOf(run.pc)) {
            const Instruction& in = p_.transition(id).instr;
            switch (in.kind) {
            case InstrKind::Check:
                if (id != x.id && eval(run, in.value) != 0) {
                    propose(m, b, Step{id, {}, 0}, std::nullopt);
                }
                continue;
            case InstrKind::Write:
                if (id != x.id) {
                    propose(m, b, Step{id, {}, 0},
                            RfEvent{RfEventKind::Write, eval(run, in.addr), {}});
                }
                continue;
            case InstrKind::Mfence:
                if (id != x.id) {
                    propose(m, b, Step{id, {}, 0}, RfEvent{RfEventKind::Fence, 0, {}});
                }
                continue;
            case InstrKind::Read:
                break;
            default:
                if (id != x.id) {
                    propose(m, b, Step{id, {}, 0}, std::nullopt);
                }
                continue;
            }
            const Value addr = eval(run, in.addr);
            // Its own latest write hides older ones and the initial value.
            std::optional<Step> own;
            for (std::uint32_t i = static_cast<std::uint32_t>(run.events.size()); i-- > 0;) {
                if (run.events[i].kind == RfEventKind::Write && run.events[i].addr == addr) {
                    own = Step{id, RfSource{t, i}, run.written[i]};
                    break;
                }
            }
            // Coherence (CoRR), in every model: a thread's writes to one
            // address reach memory in order, and a thread's reads run in
            // order, so after reading write j of thread u it cannot read an
            // older write of u there, nor the initial value. Such sources
            // are dropped before the consistency check.
            std::vector<std::int64_t> newest(n_, -1);
            for (const RfEvent& e : run.events) {
                if (e.kind == RfEventKind::Read && e.addr == addr && !e.source.initial() &&
                    e.source.thread != t) {
                    newest[e.source.thread] =
                        std::max<std::int64_t>(newest[e.source.thread], e.source.index);
                }
            }
            const bool readOther =
                std::any_of(newest.begin(), newest.end(), [](std::int64_t j) { return j >= 0; });
            std::vector<Step> sources;
            if (own || !readOther) {
                sources.push_back(own ? *own : Step{id, {}, p_.memory.initialValue(addr)});
            }
            for (std::uint32_t u = 0; u < n_; ++u) {
                if (u == t) {
                    continue;
                }
                for (auto i = static_cast<std::uint32_t>(std::max<std::int64_t>(newest[u], 0));
                     i < m.runs[u].events.size(); ++i) {
                    const RfEvent& e = m.runs[u].events[i];
                    // A write that depends on step k cannot be read by it.
                    if (e.kind == RfEventKind::Write && e.addr == addr &&
                        m.past[u][m.runs[u].eventStep[i]][t] <= k) {
                        sources.push_back(Step{id, RfSource{u, i}, m.runs[u].written[i]});
                    }
                }
            }
            for (const Step& s : sources) {
                if (model_ == MemoryModel::SC && overwritten(m, t, k, addr, s.source)) {
                    continue;
                }
                if (model_ != MemoryModel::SC && s.source.thread != t &&
                    flushedOver(m, t, k, addr, s.source)) {
                    continue;
                }
                if (s.id != x.id || s.source != x.source) {
                    propose(m, b, s, RfEvent{RfEventKind::Read, addr, s.source});
                }
                if (!stop_.empty()) {
                    return;
                }
            }
        }
    }

    // The channel of thread v's writes to address a (see Maximal::flushed):
    // under PSO one of threads x addresses, a product that need not fit in
    // 32 bits.
    std::size_t channel(const Maximal& m, std::uint32_t v, Value a) const {
        if (model_ == MemoryModel::TSO) {
            return v;
        }
        return std::size_t{v} * m.addrIndex.size() + m.addrIndex.at(a);
    }

    void flushedOrder(Maximal& m,
                      const std::vector<std::pair<std::uint32_t, std::uint32_t>>& order) const {
        for (std::uint32_t t = 0; t < n_; ++t) {
            for (const RfEvent& e : m.runs[t].events) {
                if (e.kind == RfEventKind::Write) {
                    m.addrIndex.emplace(e.addr, static_cast<std::uint32_t>(m.addrIndex.size()));
                }
            }
        }
        const std::size_t channels = model_ == MemoryModel::TSO ? n_ : n_ * m.addrIndex.size();
        m.writeNo.resize(n_);
        m.flushed.resize(n_);
        for (std::uint32_t t = 0; t < n_; ++t) {
            m.writeNo[t].assign(m.paths[t].size(), 0);
            Lengths count(channels, 0);
            for (std::uint32_t i = 0; i < m.runs[t].events.size(); ++i) {
                const RfEvent& e = m.runs[t].events[i];
                if (e.kind == RfEventKind::Write) {
                    m.writeNo[t][m.runs[t].eventStep[i]] = count[channel(m, t, e.addr)]++;
                }
            }
            m.flushed[t].resize(m.paths[t].size());
        }
        for (const auto& [t, k] : order) {
            Lengths v = k > 0 ? m.flushed[t][k - 1] : Lengths(channels, 0);
            const Step& s = m.paths[t][k];
            const InstrKind kind = p_.transition(s.id).instr.kind;
            if (kind == InstrKind::Read && !s.source.initial() && s.source.thread != t) {
                const std::uint32_t u = s.source.thread;
                const std::uint32_t q = m.runs[u].eventStep[s.source.index];
                join(v, m.flushed[u][q]);
                const std::size_t c = channel(m, u, m.runs[u].events[s.source.index].addr);
                v[c] = std::max(v[c], m.writeNo[u][q] + 1);
            } else if (kind == InstrKind::Mfence) {
                const ThreadRun& run = m.runs[t];
                for (std::uint32_t i = 0; i < run.events.size() && run.eventStep[i] < k; ++i) {
                    if (run.events[i].kind == RfEventKind::Write) {
                        const std::size_t c = channel(m, t, run.events[i].addr);
                        v[c] = std::max(v[c], m.writeNo[t][run.eventStep[i]] + 1);
                    }
                }
            }
            m.flushed[t][k] = std::move(v);
        }
    }

    // Under TSO and PSO, whether a write w to `addr` other than `source` (a
    // write of another thread, or the initial value) is in memory before
    // step k of thread t in every execution, and after the source's
    // memory-write: then step k, reading memory, cannot read `source`.
    bool flushedOver(const Maximal& m, std::uint32_t t, std::uint32_t k, Value addr,
                     const RfSource& source) const {
        if (k == 0 || !m.addrIndex.contains(addr)) {
            return false;
        }
        const Lengths& before = m.flushed[t][k - 1];
        std::size_t sourceChannel = 0;
        std::uint32_t sourceStep = 0;
        if (!source.initial()) {
            sourceChannel = channel(m, source.thread, addr);
            sourceStep = m.runs[source.thread].eventStep[source.index];
        }
        for (std::uint32_t v = 0; v < n_; ++v) {
            const ThreadRun& run = m.runs[v];
            const std::size_t c = channel(m, v, addr);
            for (std::uint32_t i = 0; i < run.events.size(); ++i) {
                if (run.events[i].kind != RfEventKind::Write || run.events[i].addr != addr) {
                    continue;
                }
                const std::uint32_t q = run.eventStep[i];
                if (m.writeNo[v][q] >= before[c]) {
                    break; // this write and v's later ones there may be buffered
                }
                if (RfSource{v, i} == source) {
                    continue;
                }
                // w's memory-write comes after those counted in
                // flushed[v][q] and after v's earlier writes there.
                if (source.initial() ||
                    (v == source.thread
                         ? q > sourceStep
                         : m.flushed[v][q][sourceChannel] > m.writeNo[source.thread][sourceStep])) {
                    return true;
                }
            }
        }
        return false;
    }

    // Under SC, whether a write w to `addr` other than `source` lies between
    // them in the causal order (po and rf, which SC's total order extends):
    // source before w (the initial value is before every write) and w
    // before step k of thread t. Then step k cannot read from `source`.
    bool overwritten(const Maximal& m, std::uint32_t t, std::uint32_t k, Value addr,
                     const RfSource& source) const {
        if (k == 0) {
            return false;
        }
        const Lengths& before = m.past[t][k - 1];
        std::uint32_t sourceStep = 0;
        if (!source.initial()) {
            sourceStep = m.runs[source.thread].eventStep[source.index];
        }
        for (std::uint32_t v = 0; v < n_; ++v) {
            const ThreadRun& run = m.runs[v];
            for (std::uint32_t i = 0; i < run.events.size(); ++i) {
                const std::uint32_t q = run.eventStep[i];
                if (q >= before[v]) {
                    break; // not before step k, nor are later ones
                }
                if (run.events[i].kind != RfEventKind::Write || run.events[i].addr != addr ||
                    RfSource{v, i} == source) {
                    continue;
                }
                if (source.initial() || m.past[v][q][source.thread] > sourceStep) {
                    return true;
                }
            }
        }
        return false;
    }

    // A schedule of branch point b with `step` at its slot: the prefix
    // lengths it keeps besides that step (b.pre and the causal past of a
    // remote source) and its digest.
    std::pair<Lengths, Digest> scheduleOf(const Maximal& m, const Branch& b,
                                          const Step& step) const {
        Lengths keep = b.pre;
        if (isRead(step) && !step.source.initial() && step.source.thread != b.t) {
            const std::uint32_t u = step.source.thread;
            join(keep, m.past[u][m.runs[u].eventStep[step.source.index]]);
        }
        Lengths len = keep;
        len[b.t] = b.k + 1;
        std::vector<Digest> digest;
        for (std::uint32_t u = 0; u < n_; ++u) {
            digest.push_back(u == b.t ? extend(m.prefix[b.t][b.k], step) : m.prefix[u][keep[u]]);
        }
        return {std::move(keep), combine(len, digest)};
    }

    // The schedule of a mutation (`event`: the new step's, if it has one):
    // kept if new at b (the novelty check) and realizable.
    void propose(const Maximal& m, Branch& b, const Step& step,
                 const std::optional<RfEvent>& event) {
        const auto [keep, digest] = scheduleOf(m, b, step);
        if (!b.tried.insert(digest).second) {
            return;
        }
        keyBytes_ += kDigestBytes;
        if (auto why = limitReason()) {
            stop_ = *why;
            return;
        }
        RfInstance instance;
        for (std::uint32_t u = 0; u < n_; ++u) {
            const auto& events = m.runs[u].events;
            instance.threads.emplace_back(events.begin(), events.begin() + m.eventsIn[u][keep[u]]);
        }
        if (event) {
            instance.threads[b.t].push_back(*event);
        }
        std::optional<std::vector<RfWitnessStep>> witness =
            verifyReadsFrom(instance, model_, &checks_);
        if (!witness) {
            return;
        }
        Node child;
        child.paths.resize(n_);
        for (std::uint32_t u = 0; u < n_; ++u) {
            child.paths[u].assign(m.paths[u].begin(), m.paths[u].begin() + keep[u]);
        }
        child.paths[b.t].push_back(step);
        child.witness = std::move(*witness);
        workBytes_ += bytesOf(child);
        b.pending.push_back(std::move(child));
    }

    static RfInstance instanceOf(const std::vector<ThreadRun>& runs) {
        RfInstance x;
        for (const ThreadRun& r : runs) {
            x.threads.push_back(r.events);
        }
        return x;
    }

    void ended(const Paths& paths, const std::vector<ThreadRun>& runs, bool finished) {
        if (finished) {
            ++result_.stats.executions;
            std::vector<Value> regs;
            for (const ThreadRun& r : runs) {
                regs.insert(regs.end(), r.regs.begin(), r.regs.end());
            }
            outcomes_.insert(std::move(regs));
        } else {
            ++result_.stats.blocked;
        }
        if (options_.onExecution) {
            options_.onExecution(traceOf(paths, runs), !finished);
        }
    }

    // A reachable goal holds at some prefix of a maximal execution that is
    // closed under program order and reads-from (the witness restricted to
    // it is a witness). Per term, the least such prefix whose constrained
    // threads are in accepted states: raise each thread to its next
    // accepted length until the closure adds nothing.
    bool goalReached(const Paths& paths, const std::vector<std::vector<Lengths>>& past) {
        const Goal& goal = *options_.goal;
        std::vector<std::vector<StateId>> pcAt(n_);
        for (std::uint32_t t = 0; t < n_; ++t) {
            pcAt[t].push_back(p_.threads[t].initial);
            for (const Step& s : paths[t]) {
                pcAt[t].push_back(p_.transition(s.id).to);
            }
        }
        for (std::size_t term = 0; term < goal.termCount(); ++term) {
            auto nextAccepted = [&](std::uint32_t t, std::uint32_t from) {
                std::uint32_t l = from;
                while (l < pcAt[t].size() && goal.termConstrains(term, ThreadId(t)) &&
                       !goal.termAccepts(term, ThreadId(t), pcAt[t][l])) {
                    ++l;
                }
                return l;
            };
            Lengths cut(n_, 0);
            bool possible = true;
            for (bool changed = true; changed && possible;) {
                changed = false;
                Lengths closure = cut;
                for (std::uint32_t u = 0; u < n_; ++u) {
                    if (cut[u] > 0) {
                        join(closure, past[u][cut[u] - 1]);
                    }
                }
                for (std::uint32_t u = 0; u < n_ && possible; ++u) {
                    const std::uint32_t l = nextAccepted(u, closure[u]);
                    possible = l < pcAt[u].size();
                    changed = changed || l != cut[u];
                    cut[u] = l;
                }
            }
            if (possible) {
                Paths prefix(n_);
                for (std::uint32_t u = 0; u < n_; ++u) {
                    prefix[u].assign(paths[u].begin(), paths[u].begin() + cut[u]);
                }
                result_.goalTrace = traceOf(prefix, runAll(prefix));
                return true;
            }
        }
        return false;
    }

    // A witness of the execution's class as a trace: each thread's steps
    // between its events run just before the next event; under SC a write
    // runs where its memory-write is (the thread waits in between anyway).
    Trace traceOf(const Paths& paths, const std::vector<ThreadRun>& runs) {
        const std::optional<std::vector<RfWitnessStep>> witness =
            verifyReadsFrom(instanceOf(runs), model_, &checks_);
        if (!witness) {
            throw std::logic_error("rf: an explored execution has no witness");
        }
        Trace trace;
        trace.model = model_;
        std::vector<std::uint32_t> emitted(paths.size(), 0);
        auto emitUpTo = [&](std::uint32_t t, std::uint32_t end) {
            for (; emitted[t] < end; ++emitted[t]) {
                TraceStep s;
                s.thread = ThreadId(t);
                s.transition = paths[t][emitted[t]].id;
                trace.steps.push_back(s);
            }
        };
        for (const RfWitnessStep& w : *witness) {
            const ThreadRun& run = runs[w.thread];
            const std::uint32_t step = run.eventStep[w.index];
            const bool scWrite =
                model_ == MemoryModel::SC && run.events[w.index].kind == RfEventKind::Write;
            if (!w.memoryWrite) {
                emitUpTo(w.thread, scWrite ? step : step + 1);
            } else if (scWrite) {
                emitUpTo(w.thread, step + 1);
            } else {
                TraceStep s;
                s.kind = StepKind::Flush;
                s.thread = ThreadId(w.thread);
                s.addr = run.events[w.index].addr;
                s.value = run.written[w.index];
                trace.steps.push_back(s);
            }
        }
        for (std::uint32_t t = 0; t < paths.size(); ++t) {
            emitUpTo(t, static_cast<std::uint32_t>(paths[t].size()));
        }
        trace.goalStep = trace.steps.size();
        return trace;
    }

    const Program& p_;
    MemoryModel model_;
    const ExploreOptions& options_;
    ResourceMonitor monitor_;
    std::vector<Value> stack_;
    std::uint32_t n_;
    std::string stop_;                               // why the exploration stopped early
    std::size_t workBytes_ = 0;                      // of the nodes waiting on the stack
    std::size_t keyBytes_ = 0;                       // of the remembered nodes and classes
    std::unordered_set<Digest, DigestHash> classes_; // explored maximal executions
    std::vector<Frame> frames_;                      // the explicit stack of calls
    RfCheckStats checks_;
    std::set<std::vector<Value>> outcomes_;
    ExploreResult result_;
};

} // namespace

std::optional<std::string> rfUnsupported(const Program& p, std::size_t unroll) {
    return statelessUnsupported(p, unroll, "rf");
}

namespace {

ExploreResult exploreByReadsFrom(const Program& p, MemoryModel model,
                                 const ExploreOptions& options) {
    if (std::optional<std::string> why = rfUnsupported(p, options.limits.unroll)) {
        ExploreResult r;
        r.reason = *why;
        return r;
    }
    try {
        return exploreUnrolled(p, options, [&](const Program& q, const ExploreOptions& o) {
            return Explorer(q, model, o).run();
        });
    } catch (const Stopped& e) { // in the unrolling
        ExploreResult r;
        r.reason = e.what();
        return r;
    }
}

} // namespace

ExploreResult rfExplore(const Program& p, MemoryModel model, const ExploreOptions& options) {
    ExploreResult r = exploreByReadsFrom(p, model, options);
    r.classes = ExecutionClasses::ReadsFrom;
    return r;
}

Result RfEngine::run(const Program& program, const Goal& goal, const Options& options) {
    ExploreOptions o;
    o.limits = options;
    o.goal = &goal;
    return answerOf(program, goal, rfExplore(program, model_, o), "rf");
}

} // namespace tsoreach::reach
