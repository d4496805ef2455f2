#include "tsoreach/instrument/extension.hpp"

#include "tsoreach/lang/printer.hpp"

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
                    const std::string& tag)
        : r_(r), origins_(origins), sigma_(sigma.begin(), sigma.end()), variant_(variant),
          tag_(tag) {
        validate();
        t_ = r.transition(sigma_.front()).thread;
        const Thread& th = r.thread(t_);
        names_.insert(th.stateNames.begin(), th.stateNames.end());
        names_.insert(th.regNames.begin(), th.regNames.end());
    }

    Extension run() {
        for (std::size_t i = 0; i < r_.threads.size(); ++i) {
            const ThreadId tid(static_cast<std::uint32_t>(i));
            const Thread& th = r_.thread(tid);
            out_.text += "thread " + th.name + "\ninitial " + state(tid, th.initial) + "\n";
            for (StateId f : th.finals) {
                out_.text += "final " + state(tid, f) + "\n";
            }
            for (TransitionId id : th.transitions) {
                if (variant_ == ExtensionVariant::Terminating && id == sigma_.front()) {
                    continue; // removed: the extension's paths stand in for it
                }
                const Transition& tr = r_.transition(id);
                edge(state(tid, tr.from), state(tid, tr.to), printInstruction(r_, tr),
                     origins_[id.index()]);
            }
            if (tid == t_) {
                path();
            }
            out_.text += "end\n";
        }
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

    void edge(const std::string& from, const std::string& to, const std::string& instr,
              LazyOrigin origin = {}) {
        out_.text += "transition " + from + " " + to + " " + instr + "\n";
        out_.origins.push_back(origin);
    }

    // Instructions from `from` to `to` through fresh states, with origins.
    void chain(const std::string& from, const std::string& to,
               const std::vector<std::pair<std::string, LazyOrigin>>& steps) {
        std::string cur = from;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            std::string next = i + 1 == steps.size() ? to : freshState();
            edge(cur, next, steps[i].first, steps[i].second);
            cur = next;
        }
    }

    using Steps = std::vector<std::pair<std::string, LazyOrigin>>;

    // Re-issues the records first..last (1-based, FIFO) as stores.
    Steps reissue(std::size_t first, std::size_t last) const {
        Steps out;
        for (std::size_t j = first; j <= last; ++j) {
            out.push_back({"write " + vr_[j - 1] + " " + ar_[j - 1], {LazyRole::Land, {}}});
        }
        return out;
    }

    void path() {
        const Thread& th = r_.thread(t_);
        const std::size_t n = sigma_.size();
        std::vector<std::string> qbar(n + 1);
        qbar[0] = state(r_.transition(sigma_[0]).from);
        for (std::size_t i = 1; i <= n; ++i) {
            qbar[i] = freshState();
        }
        std::vector<std::size_t> before(n + 1); // records made before inst_i
        std::size_t count = 0;
        for (std::size_t i = 1; i <= n; ++i) {
            const TransitionId id = sigma_[i - 1];
            const Transition& tr = r_.transition(id);
            const LazyOrigin o = origins_[id.index()];
            before[i] = count;
            switch (tr.instr.kind) {
            case InstrKind::Write: {
                ++count;
                ar_.push_back(fresh("$ar" + tag_ + "_" + std::to_string(count)));
                vr_.push_back(fresh("$vr" + tag_ + "_" + std::to_string(count)));
                // A store of P is issued here; a re-issued store of an earlier
                // extension (Land) stays in the buffer: nothing happens in P.
                LazyOrigin issued;
                if (o.role == LazyRole::Step) {
                    issued = {LazyRole::Issue, o.original};
                } else if (o.role != LazyRole::Land) {
                    throw std::logic_error("a store of an extended program without a store of "
                                           "the original program behind it");
                }
                chain(qbar[i - 1], qbar[i],
                      {{"local " + ar_.back() + " " + printExpr(r_, th, tr.instr.addr), issued},
                       {"local " + vr_.back() + " " + printExpr(r_, th, tr.instr.value), {}}});
                break;
            }
            case InstrKind::Read: {
                // Newest record first: the first match is the buffered value.
                const std::string addr = printExpr(r_, th, tr.instr.addr);
                const std::string reg = th.regNames[tr.instr.reg.index()];
                std::string cur = qbar[i - 1];
                for (std::size_t j = count; j >= 1; --j) {
                    chain(cur, qbar[i],
                          {{"check == " + ar_[j - 1] + " " + addr, {}},
                           {"local " + reg + " " + vr_[j - 1], o}});
                    const std::string next = freshState();
                    edge(cur, next, "check != " + ar_[j - 1] + " " + addr);
                    cur = next;
                }
                edge(cur, qbar[i], "read " + reg + " " + addr, o);
                break;
            }
            default:
                edge(qbar[i - 1], qbar[i], printInstruction(r_, tr), o);
                break;
            }
        }
        // Main exit: every record reaches memory, in order, and t continues
        // after σ's last instruction.
        chain(qbar[n], state(r_.transition(sigma_.back()).to), reissue(1, count));
        if (variant_ != ExtensionVariant::Terminating) {
            return;
        }
        const TransitionId first = sigma_.front();
        for (std::size_t i = 2; i <= n; ++i) {
            const Transition& tr = r_.transition(sigma_[i - 1]);
            // Branch-off exits: t leaves σ at inst_i's source by another
            // transition (not the removed first one), after re-issuing.
            for (TransitionId other : th.outgoingOf(tr.from)) {
                if (other == sigma_[i - 1] || other == first) {
                    continue;
                }
                const Transition& o = r_.transition(other);
                Steps steps = reissue(1, before[i]);
                steps.push_back({printInstruction(r_, o), origins_[other.index()]});
                chain(qbar[i - 1], state(o.to), steps);
            }
            // Early-flush exits: the first store lands before the load, so
            // it was not delayed past it; the load runs on R's own path.
            if (tr.instr.kind == InstrKind::Read) {
                Steps steps = reissue(1, 1);
                steps.push_back({"mfence", {}});
                Steps rest = reissue(2, before[i]);
                steps.insert(steps.end(), rest.begin(), rest.end());
                chain(qbar[i - 1], state(tr.from), steps);
            }
        }
        // ... and out of q̄1: the first store is not delayed at all (the
        // same path as the load's exit when σ's second step is a load).
        if (r_.transition(sigma_[1]).instr.kind != InstrKind::Read) {
            Steps steps = reissue(1, 1);
            steps.push_back({"mfence", {}});
            chain(qbar[1], state(r_.transition(first).to), steps);
        }
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
    std::size_t counter_ = 0;
    Extension out_;
};

} // namespace

Extension extendByPath(const Program& r, std::span<const LazyOrigin> origins,
                       std::span<const TransitionId> sigma, ExtensionVariant variant,
                       const std::string& tag) {
    return ExtensionWriter(r, origins, sigma, variant, tag).run();
}

} // namespace tsoreach::instrument
