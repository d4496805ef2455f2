#include "tsoreach/reach/rf.hpp"

#include "resource_monitor.hpp"
#include "stateless_explore.hpp"
#include "tsoreach/reach/reads_from.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace tsoreach::reach {

namespace {

// A step of a thread's path; a read also names its write and the value.
struct PathStep {
    TransitionId id;
    RfSource source;
    Value value = 0;
    bool chained = false; // taken by a chain, not chosen (see chain())
};

using Paths = std::vector<std::vector<PathStep>>;

// A thread run along its path.
struct ThreadRun {
    StateId pc;
    std::vector<Value> regs;
    std::vector<RfEvent> events;
    std::vector<Value> written;           // by event: the value a write stores
    std::vector<std::uint32_t> eventStep; // by event: its step in the path
};

class Explorer {
  public:
    Explorer(const Program& p, MemoryModel model, const ExploreOptions& options)
        : p_(p), model_(model), options_(options), monitor_(options.limits),
          stack_(p.maxExprStack) {}

    ExploreResult run() {
        std::vector<Paths> work{Paths(p_.threads.size())};
        for (std::uint32_t t = 0; t < p_.threads.size(); ++t) {
            chain(work.back(), t);
        }
        while (!work.empty()) {
            if (auto why = limitReason()) {
                result_.reason = *why;
                return finish(false);
            }
            Paths node = std::move(work.back());
            work.pop_back();
            workBytes_ -= bytesOf(node);
            ++result_.stats.events;
            const std::vector<ThreadRun> runs = runAll(node);
            if (options_.goal != nullptr && goalHolds(runs)) {
                result_.goalTrace = traceOf(node, runs);
                return finish(true);
            }
            bool extended = false;
            bool finished = true;
            for (std::uint32_t t = 0; t < p_.threads.size(); ++t) {
                const ThreadRun& run = runs[t];
                for (TransitionId id : p_.threads[t].outgoingOf(run.pc)) {
                    finished = false;
                    const Instruction& in = p_.transition(id).instr;
                    if (in.kind == InstrKind::Check && eval(run, in.value) == 0) {
                        continue;
                    }
                    extended = true;
                    if (in.kind != InstrKind::Read) {
                        push(node, runs, t, PathStep{id, {}, 0}, work, false);
                        continue;
                    }
                    const Value addr = eval(run, in.addr);
                    for (const auto& [source, value] : sourcesFor(runs, t, addr)) {
                        push(node, runs, t, PathStep{id, source, value}, work, true);
                    }
                }
            }
            if (!extended) {
                ended(node, runs, finished);
            }
        }
        return finish(true);
    }

  private:
    ExploreResult finish(bool complete) {
        result_.complete = complete && result_.reason.empty();
        result_.stats.outcomes = outcomes_.size();
        result_.stats.consistencyChecks = checks_.checks;
        result_.stats.timeSeconds = monitor_.elapsedSeconds();
        return std::move(result_);
    }

    std::optional<std::string> limitReason() {
        const Options& o = options_.limits;
        if ((o.cancel != nullptr && o.cancel->load(std::memory_order_relaxed)) ||
            (o.cancelAlso != nullptr && o.cancelAlso->load(std::memory_order_relaxed))) {
            return "cancelled";
        }
        // Stateless: --max-states bounds the partial executions expanded.
        if (o.maxStates != 0 && result_.stats.events >= o.maxStates) {
            return "state limit of " + std::to_string(o.maxStates) +
                   " reached (--max-states: partial executions expanded)";
        }
        return monitor_.exceeded(workBytes_);
    }

    Value eval(const ThreadRun& run, ExprRef e) { return evaluate(p_.expr(e), run.regs, stack_); }

    bool goalHolds(const std::vector<ThreadRun>& runs) const {
        std::vector<Value> pcs;
        for (const ThreadRun& r : runs) {
            pcs.push_back(static_cast<Value>(r.pc.index()));
        }
        return options_.goal->satisfiedBy(pcs);
    }

    ThreadRun runThread(std::uint32_t t, const std::vector<PathStep>& path) {
        const Thread& th = p_.threads[t];
        ThreadRun run;
        run.pc = th.initial;
        run.regs.assign(th.regCount(), 0);
        for (std::uint32_t k = 0; k < path.size(); ++k) {
            const Transition& tr = p_.transition(path[k].id);
            const Instruction& in = tr.instr;
            switch (in.kind) {
            case InstrKind::Read:
                run.events.push_back({RfEventKind::Read, eval(run, in.addr), path[k].source});
                run.written.push_back(0);
                run.eventStep.push_back(k);
                run.regs[in.reg.index()] = path[k].value;
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
                break;
            }
            run.pc = tr.to;
        }
        return run;
    }

    std::vector<ThreadRun> runAll(const Paths& node) {
        std::vector<ThreadRun> runs;
        for (std::uint32_t t = 0; t < node.size(); ++t) {
            runs.push_back(runThread(t, node[t]));
        }
        return runs;
    }

    // The writes a read of `addr` by thread t may read from, with their
    // values: its own latest write there if it has one (an older one, or
    // the initial value, would be hidden by it), else the initial value;
    // and every write there of another thread.
    std::vector<std::pair<RfSource, Value>> sourcesFor(const std::vector<ThreadRun>& runs,
                                                       std::uint32_t t, Value addr) const {
        std::vector<std::pair<RfSource, Value>> out;
        const ThreadRun& own = runs[t];
        bool ownWrite = false;
        for (std::uint32_t i = static_cast<std::uint32_t>(own.events.size()); i-- > 0;) {
            if (own.events[i].kind == RfEventKind::Write && own.events[i].addr == addr) {
                out.push_back({RfSource{t, i}, own.written[i]});
                ownWrite = true;
                break;
            }
        }
        if (!ownWrite) {
            out.push_back({RfSource{}, 0}); // memory starts at 0
        }
        for (std::uint32_t u = 0; u < runs.size(); ++u) {
            if (u == t) {
                continue;
            }
            for (std::uint32_t i = 0; i < runs[u].events.size(); ++i) {
                if (runs[u].events[i].kind == RfEventKind::Write &&
                    runs[u].events[i].addr == addr) {
                    out.push_back({RfSource{u, i}, runs[u].written[i]});
                }
            }
        }
        return out;
    }

    static std::size_t bytesOf(const Paths& node) {
        std::size_t b = sizeof(Paths);
        for (const auto& path : node) {
            b += sizeof(path) + path.size() * sizeof(PathStep);
        }
        return b;
    }

    // Chain compression: while thread t has exactly one transition it can
    // take, a local step (local, check, noop) that no other thread can
    // observe or influence, and t is not in a state the goal constrains, the
    // step is taken at once. A chain is a function of the thread's state, so
    // a node's last chunk per thread (a chosen step and its chain) is
    // removed as a whole, and canonical parents stay unique.
    void chain(Paths& node, std::uint32_t t) {
        const Goal* goal = options_.goal;
        ThreadRun run = runThread(t, node[t]);
        for (;;) {
            if (goal != nullptr && goal->constrains(ThreadId(t)) &&
                goal->acceptedBySomeTerm(ThreadId(t), run.pc)) {
                return;
            }
            std::optional<TransitionId> only;
            for (TransitionId id : p_.threads[t].outgoingOf(run.pc)) {
                const Instruction& in = p_.transition(id).instr;
                if (in.kind == InstrKind::Check && eval(run, in.value) == 0) {
                    continue;
                }
                if (only) {
                    return; // a choice
                }
                only = id;
            }
            if (!only) {
                return;
            }
            const Instruction& in = p_.transition(*only).instr;
            if (in.kind != InstrKind::Local && in.kind != InstrKind::Check &&
                in.kind != InstrKind::Noop) {
                return;
            }
            if (in.kind == InstrKind::Local) {
                run.regs[in.reg.index()] = eval(run, in.value);
            }
            run.pc = p_.transition(*only).to;
            node[t].push_back(PathStep{*only, {}, 0, true});
        }
    }

    // Each partial execution has one canonical parent: it without the last
    // step of the highest thread whose last step no read depends on (a
    // prefix of a witness is a witness, so the parent is realisable too).
    // A child is kept only from its canonical parent, so every partial
    // execution, hence every class, is reached exactly once with no set of
    // visited ones: the exploration is stateless. Child = node plus `step`
    // of thread t; t's new step is always removable, so the child is
    // canonical iff no higher thread's last step is.
    bool canonical(const Paths& node, const std::vector<ThreadRun>& runs, std::uint32_t t,
                   const PathStep& step) const {
        for (std::uint32_t u = t + 1; u < node.size(); ++u) {
            if (node[u].empty()) {
                continue;
            }
            // The head of u's last chunk: its last chosen step.
            auto head = std::find_if(node[u].rbegin(), node[u].rend(),
                                     [](const PathStep& s) { return !s.chained; });
            if (head == node[u].rend()) {
                continue; // only the chain from the initial state: nothing to remove
            }
            if (p_.transition(head->id).instr.kind != InstrKind::Write) {
                return false;
            }
            const RfSource last{u, static_cast<std::uint32_t>(runs[u].events.size() - 1)};
            bool read = step.source == last;
            for (const ThreadRun& r : runs) {
                for (const RfEvent& e : r.events) {
                    read = read || (e.kind == RfEventKind::Read && e.source == last);
                }
            }
            if (!read) {
                return false;
            }
        }
        return true;
    }

    void push(const Paths& node, const std::vector<ThreadRun>& runs, std::uint32_t t,
              const PathStep& step, std::vector<Paths>& work, bool check) {
        if (!canonical(node, runs, t, step)) {
            ++result_.stats.redundant;
            return;
        }
        Paths child = node;
        child[t].push_back(step);
        chain(child, t);
        if (check && !verifyReadsFrom(instanceOf(runAll(child)), model_, &checks_)) {
            return;
        }
        workBytes_ += bytesOf(child);
        work.push_back(std::move(child));
    }

    static RfInstance instanceOf(const std::vector<ThreadRun>& runs) {
        RfInstance x;
        for (const ThreadRun& r : runs) {
            x.threads.push_back(r.events);
        }
        return x;
    }

    void ended(const Paths& node, const std::vector<ThreadRun>& runs, bool finished) {
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
            options_.onExecution(traceOf(node, runs), !finished);
        }
    }

    // A witness of the node's class as a trace: each thread's steps between
    // its events run just before the next event; under SC a write runs
    // where its memory-write is (the thread waits in between anyway).
    Trace traceOf(const Paths& node, const std::vector<ThreadRun>& runs) {
        const std::optional<std::vector<RfWitnessStep>> witness =
            verifyReadsFrom(instanceOf(runs), model_, &checks_);
        if (!witness) {
            throw std::logic_error("rf: an explored partial execution has no witness");
        }
        Trace trace;
        trace.model = model_;
        std::vector<std::uint32_t> emitted(node.size(), 0);
        auto emitUpTo = [&](std::uint32_t t, std::uint32_t end) {
            for (; emitted[t] < end; ++emitted[t]) {
                TraceStep s;
                s.thread = ThreadId(t);
                s.transition = node[t][emitted[t]].id;
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
        for (std::uint32_t t = 0; t < node.size(); ++t) {
            emitUpTo(t, static_cast<std::uint32_t>(node[t].size()));
        }
        trace.goalStep = trace.steps.size();
        return trace;
    }

    const Program& p_;
    MemoryModel model_;
    const ExploreOptions& options_;
    ResourceMonitor monitor_;
    std::vector<Value> stack_;
    std::size_t workBytes_ = 0; // of the nodes waiting on the stack
    RfCheckStats checks_;
    std::set<std::vector<Value>> outcomes_;
    ExploreResult result_;
};

} // namespace

std::optional<std::string> rfUnsupported(const Program& p, std::size_t unroll) {
    return statelessUnsupported(p, unroll, "rf");
}

ExploreResult rfExplore(const Program& p, MemoryModel model, const ExploreOptions& options) {
    if (std::optional<std::string> why = rfUnsupported(p, options.unroll)) {
        ExploreResult r;
        r.reason = *why;
        return r;
    }
    return exploreUnrolled(p, options, [&](const Program& q, const ExploreOptions& o) {
        return Explorer(q, model, o).run();
    });
}

Result RfEngine::run(const Program& program, const Goal& goal, const Options& options) {
    ExploreOptions o;
    o.limits = options;
    o.goal = &goal;
    o.unroll = options.unroll;
    return answerOf(program, goal, rfExplore(program, model_, o), "rf");
}

} // namespace tsoreach::reach
