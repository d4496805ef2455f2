// The mcr engine's exploration (the argument is in mcr.hpp): a stack of
// nodes, each a configuration with its trace; a node runs the default
// schedule, asks the goal query, and pushes the configurations of its
// targets' minimal seeds that were not seen before.

#include "tsoreach/reach/mcr.hpp"

#include "dead_ends.hpp"
#include "encoding.hpp"
#include "machine.hpp"

#include "tsoreach/reach/resource_monitor.hpp"
#include "tsoreach/reach/stateless_explore.hpp"

#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <unordered_set>

namespace tsoreach::reach {

namespace {

using namespace mcr;

struct VectorHash {
    std::size_t operator()(const std::vector<Value>& v) const noexcept {
        std::size_t h = v.size();
        for (Value x : v) {
            h = h * 0x9e3779b97f4a7c15ULL + static_cast<std::size_t>(x) + (h >> 29);
        }
        return h;
    }
};

struct StopNow {
    std::string reason;
};

struct Node {
    std::vector<TraceStep> trace;
    Config config;
    std::vector<std::vector<Value>> paths; // explore: by thread, transitions and values read
};

// What the targets need of a thread before one of its steps.
struct ThreadState {
    StateId pc;
    std::vector<Value> regs;
    bool holds = false; // the thread holds the lock

    ThreadState(const Config& c, std::uint32_t t)
        : pc(c.pc[t]), regs(c.regs[t]), holds(c.holder == static_cast<std::int32_t>(t)) {}
};

// A node's run after its configuration, with each thread's state before
// each of its steps (for the targets) and what the run flushed.
struct Run {
    Suffix suffix;
    std::vector<TraceStep> steps;
    std::vector<std::vector<ThreadState>> before; // by thread: its state before step i
    std::vector<bool> flushed;                    // by write
    Config end;
    bool goal = false; // the run passed a goal configuration (and stopped there)
};

// Interrupts the solver when the stop condition fires. It waits on a
// condition variable, so ending a run does not wait for a poll interval.
class Watchdog {
  public:
    Watchdog(const StopCondition& stop, Solver& solver)
        : thread_([this, stop, &solver](const std::stop_token& token) {
              std::unique_lock lock(mutex_);
              const auto never = [] { return false; };
              while (!wake_.wait_for(lock, token, std::chrono::milliseconds(10), never) &&
                     !token.stop_requested()) {
                  if (stop.cancelled() || stop.limitReason()) {
                      solver.interrupt();
                  }
              }
          }) {}

  private:
    std::mutex mutex_;
    std::condition_variable_any wake_;
    std::jthread thread_; // last: it starts after, and stops before, the members it uses
};

class Explorer {
  public:
    Explorer(const Program& p, MemoryModel model, const ExploreOptions& options)
        : p_(p), model_(model), options_(options), monitor_(options.limits), machine_(p, model),
          solver_(model), n_(static_cast<std::uint32_t>(p.threads.size())) {
        if (options.goal != nullptr) {
            deadEnds_.emplace(machine_, *options.goal);
        }
    }

    ExploreResult run() {
        result_.classes = ExecutionClasses::Values;
        Watchdog watchdog(options_.limits.stop, solver_);
        Node root;
        root.config = machine_.initial();
        root.paths.resize(n_);
        seen_.insert(keyOf(root.config, root.paths));
        stack_.push_back(std::move(root));
        try {
            while (!stack_.empty()) {
                if (std::optional<std::string> why = limitReason()) {
                    return finish(false, *why);
                }
                Node node = std::move(stack_.back());
                stack_.pop_back();
                if (visit(node)) {
                    return finish(true, "");
                }
            }
        } catch (const StopNow& e) {
            return finish(false, e.reason);
        } catch (const SolverGaveUp& e) {
            std::optional<std::string> why = limitReason();
            return finish(false, why ? *why : "the SMT solver gave up: " + e.reason);
        }
        return finish(true, "");
    }

  private:
    ExploreResult finish(bool complete, const std::string& why) {
        result_.complete = complete && !result_.goalTrace ? true : complete;
        result_.reason = why;
        result_.stats.outcomes = outcomes_.size();
        result_.stats.smtQueries = smt_.queries;
        result_.stats.smtSat = smt_.sat;
        result_.stats.smtUnsat = smt_.unsat;
        result_.stats.solverSeconds = smt_.seconds;
        result_.stats.timeSeconds = monitor_.elapsedSeconds();
        return std::move(result_);
    }

    std::optional<std::string> limitReason() {
        const Options& o = options_.limits;
        if (o.maxStates != 0 && result_.stats.events >= o.maxStates) {
            return "state limit of " + std::to_string(o.maxStates) +
                   " reached (--max-states: maximal executions explored)";
        }
        if (monitor_.progressDue()) {
            monitor_.progress("mcr", result_.stats.events, "executions",
                              std::to_string(smt_.queries) + " SMT queries, " +
                                  std::to_string(stack_.size()) + " waiting");
        }
        return monitor_.exceeded(bytes_);
    }

    std::vector<Value> keyOf(const Config& c, const std::vector<std::vector<Value>>& paths) const {
        std::vector<Value> k = c.key();
        if (options_.goal == nullptr) { // explore: every path, so every vector, is found
            for (const auto& path : paths) {
                k.push_back(static_cast<Value>(path.size()));
                k.insert(k.end(), path.begin(), path.end());
            }
        }
        return k;
    }

    bool goalHolds(const Config& c) const {
        if (options_.goal == nullptr) {
            return false;
        }
        std::vector<std::uint32_t> pcs;
        for (StateId s : c.pc) {
            pcs.push_back(s.value);
        }
        return options_.goal->satisfiedBy(pcs);
    }
    bool visit(const Node& node);
    Run runFrom(const Node& node);
    [[nodiscard]] std::optional<std::pair<std::uint32_t, TransitionId>>
    next(const Config& c, bool acquire, bool blocking) const;
    [[nodiscard]] bool blocksItself(const Config& c, std::uint32_t t, TransitionId id) const;
    bool step(Config& c, Run& r);
    void stepThread(Config& c, Run& r, std::uint32_t t, TransitionId id);
    Trace traceOf(const std::vector<TraceStep>& a, const std::vector<TraceStep>& b) const;
    bool goalPossible(const Run& run) const;
    void ended(const Node& node, const Run& run);
    std::vector<Target> targetsOf(const Node& node, const Run& run) const;
    bool targetDead(const Run& run, const Target& x) const;
    void alternatives(const Node& node, const Run& run, std::uint32_t t, std::uint32_t pos,
                      std::vector<Target>& out) const;
    void lockFirst(const Run& run, std::vector<Target>& out) const;
    std::optional<Config> child(const Node& node, const Problem& p,
                                const std::vector<SeedItem>& seed);
    Config replay(const Config& from, const Problem& p, const std::vector<SeedItem>& seed,
                  std::vector<TraceStep>* trace, std::vector<std::vector<Value>>* paths) const;
    std::vector<Value> candidates(const Node& node, const Run& run, Value addr) const;

    const Program& p_;
    MemoryModel model_;
    const ExploreOptions& options_;
    ResourceMonitor monitor_;
    Machine machine_;
    Solver solver_;
    std::optional<DeadEnds> deadEnds_; // reach: configurations no goal is reachable from
    std::uint32_t n_;
    std::vector<Node> stack_;
    std::unordered_set<std::vector<Value>, VectorHash> seen_;    // configurations of nodes
    std::unordered_set<std::vector<Value>, VectorHash> vectors_; // explored value vectors
    std::set<std::vector<Value>> outcomes_;
    std::size_t bytes_ = 0;
    SmtStats smt_;
    ExploreResult result_;
};

TraceStep traceStep(std::uint32_t t, TransitionId id, InstrKind kind, const Effect& e) {
    TraceStep s;
    s.thread = ThreadId(t);
    s.transition = id;
    if (kind == InstrKind::Read) {
        s.addr = e.addr;
        s.value = e.value;
        s.forwarded = e.forwarded;
    } else if (kind == InstrKind::Write) {
        s.addr = e.addr;
        s.value = e.value;
    } else if (kind == InstrKind::Local) {
        s.value = e.value;
    }
    return s;
}

TraceStep flushStep(std::uint32_t t, const Effect& e) {
    TraceStep s;
    s.kind = StepKind::Flush;
    s.thread = ThreadId(t);
    s.addr = e.addr;
    s.value = e.value;
    return s;
}

Run Explorer::runFrom(const Node& node) {
    Run r;
    Config c = node.config;
    Suffix& s = r.suffix;
    s.steps.resize(n_);
    s.wrote.resize(n_);
    r.before.resize(n_);
    for (std::uint32_t t = 0; t < n_; ++t) { // C's buffered writes come first
        for (BufferEntry& b : c.buffers[t]) {
            b.write = static_cast<std::uint32_t>(s.writes.size());
            s.wrote[t].push_back(b.write);
            s.writes.push_back({t, b.addr, b.value, -1});
        }
    }
    r.flushed.assign(s.writes.size(), false);
    bool reached = goalHolds(c);
    while (!reached && step(c, r)) {
        reached = goalHolds(c);
    }
    r.goal = reached;
    for (std::uint32_t t = 0; t < n_; ++t) {
        r.before[t].emplace_back(c, t);
    }
    r.end = std::move(c);
    return r;
}

// The step the default schedule takes for a thread: its first enabled
// transition, if it does (`acquire`) or does not take the lock and, for
// one that does not, blocks its thread for good (`blocking`) or not.
std::optional<std::pair<std::uint32_t, TransitionId>> Explorer::next(const Config& c, bool acquire,
                                                                     bool blocking) const {
    for (std::uint32_t t = 0; t < n_; ++t) {
        const std::optional<TransitionId> id = machine_.firstEnabled(c, t);
        if (id && takesLock(p_.transition(*id).instr.kind) == acquire &&
            (acquire || blocksItself(c, t, *id) == blocking)) {
            return std::pair{t, *id};
        }
    }
    return std::nullopt;
}

// After step id (a read or local: only they change registers) thread t can
// only take checks its registers fail, so it never moves again.
bool Explorer::blocksItself(const Config& c, std::uint32_t t, TransitionId id) const {
    const Instruction& in = p_.transition(id).instr;
    if (in.kind != InstrKind::Read && in.kind != InstrKind::Local) {
        return false;
    }
    Config after = c;
    machine_.step(after, t, id, 0);
    return machine_.blocked(t, after.pc[t], after.regs[t]);
}

// Thread t takes transition id in the run.
void Explorer::stepThread(Config& c, Run& r, std::uint32_t t, TransitionId id) {
    Suffix& s = r.suffix;
    r.before[t].emplace_back(c, t);
    const auto w = static_cast<std::uint32_t>(s.writes.size());
    const Instruction& in = p_.transition(id).instr;
    Event ev{t, id, in.kind};
    ev.hasAddr = isLockForEdge(in.kind) && model_ == MemoryModel::PSO;
    const Effect e = machine_.step(c, t, id, w);
    ev.addr = e.addr;
    ev.value = e.value;
    const auto idx = static_cast<std::uint32_t>(s.events.size());
    if (in.kind == InstrKind::Write) {
        ev.write = static_cast<std::int32_t>(w);
        s.writes.push_back({t, e.addr, e.value, static_cast<std::int32_t>(idx)});
        s.wrote[t].push_back(w);
        r.flushed.push_back(model_ == MemoryModel::SC);
    }
    s.events.push_back(ev);
    s.steps[t].push_back(idx);
    r.steps.push_back(traceStep(t, id, in.kind, e));
}

// One step of the default schedule: the lowest thread's step that does not
// take the lock nor block its own thread for good, else the lowest thread's
// flush, else the lowest thread's step that blocks it (a read of a value
// the thread's checks reject, e.g. a join's done flag read as 0: the other
// steps and flushes may still change that value), else the lowest
// thread's lock. A lock taken last freezes the other threads after all
// their steps and flushes, so the run holds more events and fewer need a
// seed (completeness holds for any maximal run). False when nothing is
// enabled.
bool Explorer::step(Config& c, Run& r) {
    if (const auto chosen = next(c, false, false)) {
        stepThread(c, r, chosen->first, chosen->second);
        return true;
    }
    for (std::uint32_t t = 0; t < n_; ++t) {
        if (machine_.canFlush(c, t, std::nullopt)) {
            const std::optional<Value> addr = model_ == MemoryModel::PSO
                                                  ? std::optional<Value>(c.buffers[t].front().addr)
                                                  : std::nullopt;
            const Effect e = machine_.flush(c, t, addr);
            r.flushed[e.write] = true;
            r.steps.push_back(flushStep(t, e));
            return true;
        }
    }
    for (const bool acquire : {false, true}) {
        if (const auto chosen = next(c, acquire, true)) {
            stepThread(c, r, chosen->first, chosen->second);
            return true;
        }
    }
    return false;
}

bool Explorer::visit(const Node& node) {
    const Run run = runFrom(node);
    ++result_.stats.events;
    if (run.goal) {
        result_.goalTrace = traceOf(node.trace, run.steps);
        return true;
    }
    ended(node, run);
    if (options_.goal != nullptr && goalPossible(run)) {
        const Problem p = problemFor(run.suffix, nullptr);
        if (auto seed = solver_.goalSeed(machine_, node.config, p, *options_.goal, smt_)) {
            std::vector<TraceStep> steps;
            replay(node.config, p, *seed, &steps, nullptr);
            result_.goalTrace = traceOf(node.trace, steps);
            return true;
        }
    }
    for (const Target& target : targetsOf(node, run)) {
        if (targetDead(run, target)) {
            continue;
        }
        const Problem p = problemFor(run.suffix, &target);
        solver_.enumerate(
            machine_, node.config, p, target,
            [&](const std::vector<SeedItem>& seed) { return child(node, p, seed); }, smt_);
    }
    return false;
}

Trace Explorer::traceOf(const std::vector<TraceStep>& a, const std::vector<TraceStep>& b) const {
    Trace t;
    t.model = model_;
    t.steps = a;
    t.steps.insert(t.steps.end(), b.begin(), b.end());
    t.goalStep = t.steps.size();
    return t;
}

// Some goal term could hold after some prefix of each thread's steps.
bool Explorer::goalPossible(const Run& run) const {
    const Goal& goal = *options_.goal;
    for (std::size_t term = 0; term < goal.termCount(); ++term) {
        bool possible = true;
        for (ThreadId t : goal.termThreads(term)) {
            bool some = false;
            for (const ThreadState& at : run.before[t.index()]) {
                some = some || goal.termAccepts(term, t, at.pc);
            }
            possible = possible && some;
        }
        if (possible) {
            return true;
        }
    }
    return false;
}

void Explorer::ended(const Node& node, const Run& run) {
    std::vector<Value> vector;
    bool finished = true;
    for (std::uint32_t t = 0; t < n_; ++t) {
        vector.push_back(-1);
        vector.insert(vector.end(), node.paths[t].begin(), node.paths[t].end());
        for (std::uint32_t e : run.suffix.steps[t]) {
            const Event& ev = run.suffix.events[e];
            vector.push_back(ev.tr.value);
            if (ev.kind == InstrKind::Read) {
                vector.push_back(ev.value);
            }
        }
        finished = finished && p_.threads[t].outgoingOf(run.end.pc[t]).empty() &&
                   run.end.buffers[t].empty();
    }
    if (!vectors_.insert(std::move(vector)).second) {
        ++result_.stats.redundant;
    } else if (finished) {
        ++result_.stats.executions;
        std::vector<Value> regs;
        for (const auto& r : run.end.regs) {
            regs.insert(regs.end(), r.begin(), r.end());
        }
        outcomes_.insert(std::move(regs));
    } else {
        ++result_.stats.blocked;
    }
    if (options_.onExecution) {
        options_.onExecution(traceOf(node.trace, run.steps), !finished);
    }
}

std::vector<Value> Explorer::candidates(const Node& node, const Run& run, Value addr) const {
    std::set<Value> vs{machine_.memoryAt(node.config, addr)};
    for (const Write& w : run.suffix.writes) {
        if (w.addr == addr) {
            vs.insert(w.value);
        }
    }
    return {vs.begin(), vs.end()};
}

// Another transition of thread t in state `at` (before its step pos), if
// the thread's own state allows it.
void Explorer::alternatives(const Node& node, const Run& run, std::uint32_t t, std::uint32_t pos,
                            std::vector<Target>& out) const {
    const ThreadState& at = run.before[t][pos];
    const auto& steps = run.suffix.steps[t];
    const bool hasTaken = pos < steps.size();
    const TransitionId taken = hasTaken ? run.suffix.events[steps[pos]].tr : TransitionId();
    const bool holds = at.holds;
    for (TransitionId id : p_.threads[t].outgoingOf(at.pc)) {
        const Instruction& in = p_.transition(id).instr;
        if ((hasTaken && id == taken) ||
            (in.kind == InstrKind::Check && machine_.eval(at.regs, in.value) == 0) ||
            (takesLock(in.kind) && holds) || (releasesLock(in.kind) && !holds)) {
            continue;
        }
        Target x = Target::at(TargetKind::NewStep, t, pos);
        x.event = Event{t, id, in.kind};
        if (accessesMemory(in.kind) || isLockForEdge(in.kind)) {
            x.event.addr = machine_.eval(at.regs, in.addr);
            x.event.hasAddr = isLockForEdge(in.kind) && model_ == MemoryModel::PSO;
        }
        if (in.kind == InstrKind::Write) {
            x.event.value = machine_.eval(at.regs, in.value);
        }
        if (in.kind != InstrKind::Read) {
            out.push_back(x);
            continue;
        }
        for (Value v : candidates(node, run, x.event.addr)) {
            x.event.value = v;
            x.value = v;
            out.push_back(x);
        }
    }
}

std::vector<Target> Explorer::targetsOf(const Node& node, const Run& run) const {
    std::vector<Target> out;
    const Suffix& s = run.suffix;
    for (std::uint32_t t = 0; t < n_; ++t) {
        const auto m = static_cast<std::uint32_t>(s.steps[t].size());
        for (std::uint32_t i = 0; i <= m; ++i) {
            if (i < m && s.events[s.steps[t][i]].kind == InstrKind::Read) {
                const Event& r = s.events[s.steps[t][i]];
                for (Value v : candidates(node, run, r.addr)) {
                    if (v != r.value) {
                        Target x = Target::at(TargetKind::NewValue, t, i);
                        x.value = v;
                        out.push_back(x);
                    }
                }
            }
            alternatives(node, run, t, i, out);
        }
    }
    for (std::uint32_t w = 0; w < s.writes.size(); ++w) {
        if (!run.flushed[w]) {
            Target x = Target::at(TargetKind::Flush, 0, 0);
            x.write = w;
            out.push_back(x);
        }
    }
    if (options_.goal == nullptr) { // only for maximal runs' values: the goal query covers goals
        lockFirst(run, out);
    }
    return out;
}

// Reach: every configuration a seed of x reaches is dead, by the state of
// x's thread after x (its transition's target state, its registers then),
// which does not depend on the seed. Its seeds need not be asked for.
bool Explorer::targetDead(const Run& run, const Target& x) const {
    if (!deadEnds_ || (x.kind != TargetKind::NewValue && x.kind != TargetKind::NewStep)) {
        return false;
    }
    const TransitionId id = x.kind == TargetKind::NewStep
                                ? x.event.tr
                                : run.suffix.events[run.suffix.steps[x.thread][x.pos]].tr;
    const Transition& tr = p_.transition(id);
    std::vector<Value> regs = run.before[x.thread][x.pos].regs;
    if (tr.instr.kind == InstrKind::Read) {
        regs[tr.instr.reg.index()] = x.value;
    } else if (tr.instr.kind == InstrKind::Local) {
        regs[tr.instr.reg.index()] =
            machine_.eval(run.before[x.thread][x.pos].regs, tr.instr.value);
    }
    return deadEnds_->deadWith(x.thread, tr.to, regs);
}

// A lock the run never releases, taken before another thread's step.
void Explorer::lockFirst(const Run& run, std::vector<Target>& out) const {
    const Suffix& s = run.suffix;
    for (std::uint32_t h = 0; h < n_; ++h) {
        std::int64_t open = -1;
        for (std::uint32_t e : s.steps[h]) {
            if (takesLock(s.events[e].kind)) {
                open = e;
            } else if (releasesLock(s.events[e].kind)) {
                open = -1;
            }
        }
        for (std::uint32_t t = 0; t < n_ && open >= 0; ++t) {
            for (std::uint32_t i = 0; t != h && i < s.steps[t].size(); ++i) {
                Target x = Target::at(TargetKind::LockFirst, t, i);
                x.lock = static_cast<std::uint32_t>(open);
                out.push_back(x);
            }
        }
    }
}

std::optional<Config> Explorer::child(const Node& node, const Problem& p,
                                      const std::vector<SeedItem>& seed) {
    if (std::optional<std::string> why = limitReason()) {
        throw StopNow{*why};
    }
    Node c;
    c.trace = node.trace;
    c.paths = node.paths;
    c.config = replay(node.config, p, seed, &c.trace, &c.paths);
    Config reached = c.config;
    const bool dead = deadEnds_ && deadEnds_->dead(c.config);
    if (seen_.insert(keyOf(c.config, c.paths)).second && !dead) {
        bytes_ += 64 * (c.trace.size() + 4) + 16 * c.config.key().size();
        stack_.push_back(std::move(c));
    }
    return reached;
}

Config Explorer::replay(const Config& from, const Problem& p, const std::vector<SeedItem>& seed,
                        std::vector<TraceStep>* trace,
                        std::vector<std::vector<Value>>* paths) const {
    Config c = from;
    for (const SeedItem& item : seed) {
        const std::uint32_t t = item.thread;
        if (item.flush) {
            const Write& w = p.writes[item.index];
            const std::optional<Value> addr =
                model_ == MemoryModel::PSO ? std::optional<Value>(w.addr) : std::nullopt;
            if (!machine_.canFlush(c, t, addr)) {
                throw std::logic_error("mcr: a seed flushes an empty buffer");
            }
            const Effect e = machine_.flush(c, t, addr);
            if (e.addr != w.addr || e.value != w.value) {
                throw std::logic_error("mcr: a seed flushes another store");
            }
            trace->push_back(flushStep(t, e));
            continue;
        }
        const Event& ev = p.events[item.index];
        if (c.pc[t] != p_.transition(ev.tr).from || !machine_.enabled(c, t, ev.tr)) {
            throw std::logic_error("mcr: a seed takes a disabled step");
        }
        const Effect e = machine_.step(c, t, ev.tr, 0);
        if ((ev.kind == InstrKind::Read || ev.kind == InstrKind::Write) &&
            (e.addr != ev.addr || e.value != ev.value)) {
            throw std::logic_error("mcr: a seed's access does not give the value solved for");
        }
        trace->push_back(traceStep(t, ev.tr, ev.kind, e));
        if (paths != nullptr) {
            (*paths)[t].push_back(ev.tr.value);
            if (ev.kind == InstrKind::Read) {
                (*paths)[t].push_back(e.value);
            }
        }
    }
    return c;
}

} // namespace

} // namespace tsoreach::reach

namespace tsoreach::reach {

std::optional<std::string> mcrUnsupported(const Program& p, std::size_t unroll) {
    if (firstJoinedWrite(p) != nullptr) {
        return "the mcr engine does not support joined stores (joinwrite) yet";
    }
    if (unroll == 0 && hasControlCycle(p)) {
        return "the mcr engine explores acyclic programs, and this program has a control-flow "
               "cycle: bound the loops with --unroll K";
    }
    return std::nullopt;
}

ExploreResult mcrExplore(const Program& p, MemoryModel model, const ExploreOptions& options) {
    if (std::optional<std::string> why = mcrUnsupported(p, options.limits.unroll)) {
        ExploreResult r;
        r.classes = ExecutionClasses::Values;
        r.reason = *why;
        return r;
    }
    try {
        ExploreResult r =
            exploreUnrolled(p, options, [&](const Program& q, const ExploreOptions& o) {
                return Explorer(q, model, o).run();
            });
        r.classes = ExecutionClasses::Values;
        return r;
    } catch (const Stopped& e) { // in the unrolling
        ExploreResult r;
        r.classes = ExecutionClasses::Values;
        r.reason = e.what();
        return r;
    }
}

Result McrEngine::run(const Program& program, const Goal& goal, const Options& options) {
    ExploreOptions o;
    o.limits = options;
    o.goal = &goal;
    return answerOf(program, goal, mcrExplore(program, model_, o), "mcr");
}

} // namespace tsoreach::reach
