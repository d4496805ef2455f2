#include "tsoreach/instrument/extension.hpp"

#include "tsoreach/lang/builder.hpp"

#include <unordered_set>

namespace tsoreach::instrument {

std::vector<LazyOrigin> identityOrigins(const Program& p) {
    std::vector<LazyOrigin> out(p.transitions.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] = {LazyRole::Step, TransitionId(static_cast<std::uint32_t>(i))};
    }
    return out;
}

namespace {

class ExtensionWriter {
  public:
    ExtensionWriter(const Program& r, std::span<const LazyOrigin> origins,
                    std::span<const TransitionId> sigma, ExtensionVariant variant,
                    const std::string& tag, const StopCondition& stop)
        : r_(r), origins_(origins), sigma_(sigma.begin(), sigma.end()), variant_(variant),
          tag_(tag), poll_(stop), b_(r.sourceName + " (extension " + tag + ")", stop) {
        validate();
        t_ = r.transition(sigma_.front()).thread;
        const Thread& th = r.thread(t_);
        names_.insert(th.stateNames.begin(), th.stateNames.end());
        names_.insert(th.regNames.begin(), th.regNames.end());
        for (const MemoryVar& v : r.memory.vars) {
            names_.insert(v.name); // registers may not take a memory name
        }
        b_.setMemory(r.memory);
    }

    Extension run() {
        for (std::size_t i = 0; i < r_.threads.size(); ++i) {
            const ThreadId tid(static_cast<std::uint32_t>(i));
            const Thread& th = r_.thread(tid);
            b_.addThread(th.name, state(tid, th.initial), th.pos);
            if (tid == t_) {
                namePath();
            }
            for (StateId f : th.finals) {
                b_.addFinal(b_.state(state(tid, f)));
                if (tid != t_) {
                    continue;
                }
                for (const StateCopy& c : out_.copies) {
                    if (c.original == state(f)) {
                        b_.addFinal(b_.state(c.copy)); // the default goal's copies
                    }
                }
            }
            for (TransitionId id : th.transitions) {
                if (variant_ == ExtensionVariant::Terminating && id == sigma_.front()) {
                    continue; // removed: the extension's paths stand in for it
                }
                const Transition& tr = r_.transition(id);
                edge(state(tid, tr.from), state(tid, tr.to), b_.copy(r_, tr), origins_[id.index()],
                     tr.pos);
            }
            if (tid == t_) {
                path();
            }
        }
        out_.program = b_.build();
        return std::move(out_);
    }

  private:
    void validate() const {
        if (sigma_.empty()) {
            throw InvalidPath("empty path");
        }
        const ThreadId t = r_.transition(sigma_.front()).thread;
        for (std::size_t i = 0; i < sigma_.size(); ++i) {
            const Transition& tr = r_.transition(sigma_[i]);
            if (tr.thread != t) {
                throw InvalidPath("the path leaves its thread");
            }
            if (i > 0 && r_.transition(sigma_[i - 1]).to != tr.from) {
                throw InvalidPath("the path is not connected");
            }
            const InstrKind k = tr.instr.kind;
            if (k == InstrKind::Mfence || k == InstrKind::Lock || k == InstrKind::Unlock) {
                throw InvalidPath("the path crosses a fence, lock or unlock");
            }
        }
        if (r_.transition(sigma_.front()).instr.kind != InstrKind::Write ||
            r_.transition(sigma_.back()).instr.kind != InstrKind::Read) {
            throw InvalidPath("the path must start with a store and end with a load");
        }
    }

    std::string state(ThreadId t, StateId s) const { return r_.thread(t).stateNames[s.index()]; }
    std::string state(StateId s) const { return r_.thread(t_).stateNames[s.index()]; }

    // A name no state or register of t has.
    std::string fresh(const std::string& base) {
        std::string name = base;
        while (!names_.insert(name).second) {
            name += "'";
        }
        return name;
    }
    std::string freshState() { return fresh("~" + tag_ + "." + std::to_string(counter_++)); }

    // New transitions are placed at the transition of σ they stand for.
    void edge(const std::string& from, const std::string& to, const Instr& instr,
              LazyOrigin origin = {}, SourcePos pos = {}) {
        const StateId f = b_.state(from);
        const StateId t = b_.state(to);
        b_.addTransition(f, t, instr, pos.line != 0 ? pos : here_);
        out_.origins.push_back(origin);
    }

    using Steps = std::vector<std::pair<Instr, LazyOrigin>>;

    // Instructions from `from` to `to` through fresh states, with origins.
    void chain(const std::string& from, const std::string& to, const Steps& steps) {
        std::string cur = from;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            std::string next = i + 1 == steps.size() ? to : freshState();
            edge(cur, next, steps[i].first, steps[i].second);
            cur = next;
        }
    }

    Expr reg(const std::string& name) { return Expr::reg(b_.reg(name)); }
    Expr addrOf(const Transition& tr) { return b_.copy(r_, r_.thread(t_), tr.instr.addr); }

    // Re-issues the records first..last (1-based, FIFO) as stores.
    Steps reissue(std::size_t first, std::size_t last) {
        Steps out;
        for (std::size_t j = first; j <= last; ++j) {
            out.push_back({Instr::write(reg(vr_[j - 1]), reg(ar_[j - 1])), {LazyRole::Land, {}}});
        }
        return out;
    }

    // Names q̄0..q̄n; q̄i (i >= 1) stands for dst(inst_i) with σ's stores
    // so far still buffered, so a goal that accepts dst(inst_i) accepts q̄i.
    void namePath() {
        const std::size_t n = sigma_.size();
        qbar_.assign(n + 1, "");
        qbar_[0] = state(r_.transition(sigma_[0]).from);
        for (std::size_t i = 1; i <= n; ++i) {
            qbar_[i] = freshState();
            out_.copies.push_back({t_, qbar_[i], state(r_.transition(sigma_[i - 1]).to)});
        }
    }

    void path() {
        const std::size_t n = sigma_.size();
        const std::vector<std::string>& qbar = qbar_;
        storesUpTo_.assign(n + 1, 0);
        std::size_t stores = 0;
        for (std::size_t i = 1; i <= n; ++i) {
            poll_.throwIfStopped();
            const TransitionId id = sigma_[i - 1];
            const Transition& tr = r_.transition(id);
            const LazyOrigin o = origins_[id.index()];
            here_ = tr.pos;
            switch (tr.instr.kind) {
            case InstrKind::Write: {
                ++stores;
                ar_.push_back(fresh("$ar" + tag_ + "_" + std::to_string(stores)));
                vr_.push_back(fresh("$vr" + tag_ + "_" + std::to_string(stores)));
                // A store of P is issued here; a re-issued store of an earlier
                // extension (Land) stays in the buffer: nothing happens in P.
                LazyOrigin issued;
                if (o.role == LazyRole::Step) {
                    issued = {LazyRole::Issue, o.original};
                } else if (o.role != LazyRole::Land) {
                    throw std::logic_error("a store of an extended program without a store of "
                                           "the original program behind it");
                }
                chain(
                    qbar[i - 1], qbar[i],
                    {{Instr::local(b_.reg(ar_.back()), addrOf(tr).unnamed()), issued},
                     {Instr::local(b_.reg(vr_.back()), b_.copy(r_, r_.thread(t_), tr.instr.value)),
                      {}}});
                break;
            }
            case InstrKind::Read: {
                // Newest record first: the first match is the buffered value.
                const Expr addr = addrOf(tr);
                const Expr value = addr.unnamed(); // the address compared with the records
                const RegId target = b_.reg(r_.thread(t_).regNames[tr.instr.reg.index()]);
                std::string cur = qbar[i - 1];
                for (std::size_t j = stores; j >= 1; --j) {
                    chain(cur, qbar[i],
                          {{Instr::check(Expr::apply(ExprOp::Eq, reg(ar_[j - 1]), value)), {}},
                           {Instr::local(target, reg(vr_[j - 1])), o}});
                    const std::string next = freshState();
                    edge(cur, next, Instr::check(Expr::apply(ExprOp::Ne, reg(ar_[j - 1]), value)));
                    cur = next;
                }
                edge(cur, qbar[i], Instr::read(target, addr), o);
                break;
            }
            default:
                edge(qbar[i - 1], qbar[i], b_.copy(r_, tr), o);
                break;
            }
            storesUpTo_[i] = stores;
        }
        const StateId last = r_.transition(sigma_.back()).to;
        here_ = r_.transition(sigma_.back()).pos;
        // Main exit: every record joins the buffer, in order, and t
        // continues after σ's last instruction.
        chain(qbar[n], state(last), reissue(1, count(n)));
        if (variant_ != ExtensionVariant::Terminating) {
            return;
        }
        // inst_1 is removed, so every step R's t can take while inst_1's
        // store is buffered needs an exit at every q̄i, and its flush one at
        // q̄1 and after every load: t's other steps neither see nor are seen,
        // so a flush after them is one before them (docs/lazy-extension.md,
        // cases B and F).
        for (std::size_t i = 1; i < n; ++i) {
            poll_.throwIfStopped();
            here_ = r_.transition(sigma_[i - 1]).pos;
            branchOffs(i);
            if (i == 1 || r_.transition(sigma_[i - 1]).instr.kind == InstrKind::Read) {
                flushFirst(i);
            }
        }
    }

    // Stores among inst_1..inst_i.
    std::size_t count(std::size_t i) const { return storesUpTo_[i]; }

    // Case B: at dst(inst_i), t takes a transition other than inst_{i+1}.
    // The records join the buffer in order, then t takes it; the removed
    // inst_1 is taken by entering the extension again at its source.
    void branchOffs(std::size_t i) {
        const StateId here = r_.transition(sigma_[i - 1]).to;
        const TransitionId first = sigma_.front();
        for (TransitionId other : r_.thread(t_).outgoingOf(here)) {
            if (other == sigma_[i]) {
                continue;
            }
            Steps steps = reissue(1, count(i));
            if (other == first) {
                chain(qbar_[i], state(here), steps); // here = src(inst_1): a cycle came back
                continue;
            }
            const Transition& o = r_.transition(other);
            steps.push_back({b_.copy(r_, o), origins_[other.index()]});
            chain(qbar_[i], state(o.to), steps);
        }
    }

    // Case F: inst_1's store, the oldest of the records, reaches memory
    // while t is at dst(inst_i); the younger records join the buffer and
    // t is back at dst(inst_i) in R's control flow.
    void flushFirst(std::size_t i) {
        Steps steps = reissue(1, 1);
        steps.push_back({Instr::plain(InstrKind::Mfence), {}});
        Steps rest = reissue(2, count(i));
        steps.insert(steps.end(), rest.begin(), rest.end());
        chain(qbar_[i], state(r_.transition(sigma_[i - 1]).to), steps);
    }

    const Program& r_;
    std::span<const LazyOrigin> origins_;
    std::vector<TransitionId> sigma_;
    ExtensionVariant variant_;
    std::string tag_;
    ThreadId t_;
    std::unordered_set<std::string> names_; // of t's states and registers, and new ones
    std::vector<std::string> ar_;           // record j-1: address register
    std::vector<std::string> vr_;           // record j-1: value register
    std::vector<std::string> qbar_;         // q̄0..q̄n
    std::vector<std::size_t> storesUpTo_;   // [i]: stores among inst_1..inst_i
    std::size_t counter_ = 0;
    StopPoll poll_;
    ProgramBuilder b_;
    SourcePos here_; // of the transition of σ being extended
    Extension out_;
};

} // namespace

Extension extendByPath(const Program& r, std::span<const LazyOrigin> origins,
                       std::span<const TransitionId> sigma, ExtensionVariant variant,
                       const std::string& tag, const StopCondition& stop) {
    return ExtensionWriter(r, origins, sigma, variant, tag, stop).run();
}

} // namespace tsoreach::instrument
