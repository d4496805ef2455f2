#include "merged_stores.hpp"

#include "tsoreach/lang/expr.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace tsoreach::reach {

StoreOwners::StoreOwners(const Program& p) {
    std::vector<bool> computed(p.threads.size(), false);
    for (const Transition& tr : p.transitions) {
        if (tr.instr.kind != InstrKind::Write) {
            continue;
        }
        const auto t = static_cast<std::int32_t>(tr.thread.index());
        if (auto a = constantValue(p.expr(tr.instr.addr))) {
            constant_.emplace_back(*a, t);
        } else {
            computed[tr.thread.index()] = true;
        }
    }
    for (std::size_t t = 0; t < computed.size(); ++t) {
        if (computed[t]) {
            ++computedWriters_;
            computed_ = static_cast<std::int32_t>(t);
        }
    }
    std::sort(constant_.begin(), constant_.end());
    constant_.erase(std::unique(constant_.begin(), constant_.end()), constant_.end());
    // Several writers of one address: none owns it.
    std::vector<std::pair<Value, std::int32_t>> owners;
    for (const auto& [addr, t] : constant_) {
        if (!owners.empty() && owners.back().first == addr) {
            owners.back().second = none;
        } else {
            owners.emplace_back(addr, t);
        }
    }
    constant_.swap(owners);
}

std::int32_t StoreOwners::owner(Value addr) const {
    if (computedWriters_ > 1) {
        return none;
    }
    auto it = std::lower_bound(constant_.begin(), constant_.end(), std::pair{addr, none});
    const bool listed = it != constant_.end() && it->first == addr;
    if (!listed) {
        return computed_; // none when no thread writes computed addresses
    }
    if (computedWriters_ == 1 && it->second != computed_) {
        return none;
    }
    return it->second;
}

namespace {

// Replays a merged trace on buffers of (address, value, merged) entries,
// writing the full trace.
class Restorer {
  public:
    Restorer(const Program& p, const StoreOwners& owners, MemoryModel model)
        : program_(p), owners_(owners), model_(model), buffers_(p.threads.size()) {}

    void step(const TraceStep& s) {
        const std::size_t t = s.thread.index();
        flushMergedFronts(t);
        if (s.kind == StepKind::Flush) {
            flushKept(t, *s.addr);
            out_.steps.push_back(s);
            return;
        }
        out_.steps.push_back(s);
        const Instruction& in = program_.transition(s.transition).instr;
        switch (in.kind) {
        case InstrKind::Read:
            // A merged store of the address still buffered (behind a store
            // to another address under TSO) serves the read in the full
            // semantics, where the merging one read memory: the same value
            // (its kept twin has reached memory, and only t writes there),
            // another source.
            if (s.addr) {
                out_.steps.back().forwarded =
                    std::any_of(buffers_[t].begin(), buffers_[t].end(),
                                [&](const Entry& e) { return e.addr == *s.addr; });
            }
            break;
        case InstrKind::Write:
            buffers_[t].push_back({*s.addr, *s.value, merges(t, *s.addr, *s.value)});
            break;
        case InstrKind::Lock:
        case InstrKind::Atomic:
        case InstrKind::LockFor:
            holder_ = static_cast<std::int32_t>(t);
            break;
        case InstrKind::Unlock:
        case InstrKind::EndAtomic:
        case InstrKind::UnlockFor:
            holder_ = StoreOwners::none;
            break;
        default:
            break;
        }
    }

    // Flushes what merged stores may still leave (threads the lock allows).
    Trace finish(MemoryModel model, std::size_t goalStep) {
        for (std::size_t t = 0; t < buffers_.size(); ++t) {
            flushMergedFronts(t);
        }
        out_.model = model;
        out_.goalStep = goalStep;
        return std::move(out_);
    }

    [[nodiscard]] std::size_t size() const { return out_.steps.size(); }

  private:
    struct Entry {
        Value addr;
        Value value;
        bool merged;
    };

    // Whether the merging semantics left this store out: the newest store
    // to addr it kept in t's buffer holds v, and only t writes addr.
    bool merges(std::size_t t, Value addr, Value v) const {
        if (owners_.owner(addr) != static_cast<std::int32_t>(t)) {
            return false;
        }
        const std::vector<Entry>& b = buffers_[t];
        for (std::size_t i = b.size(); i-- > 0;) {
            if (b[i].addr == addr && !b[i].merged) {
                return b[i].value == v;
            }
        }
        return false;
    }

    // Whether entry i of t's buffer may leave next.
    [[nodiscard]] bool flushable(const std::vector<Entry>& b, std::size_t i) const {
        if (model_ == MemoryModel::TSO) {
            return i == 0;
        }
        return std::none_of(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(i),
                            [&](const Entry& e) { return e.addr == b[i].addr; });
    }

    void flushMergedFronts(std::size_t t) {
        if (holder_ != StoreOwners::none && holder_ != static_cast<std::int32_t>(t)) {
            return; // the holder runs alone, flushes included
        }
        std::vector<Entry>& b = buffers_[t];
        for (std::size_t i = 0; i < b.size();) {
            if (!b[i].merged || !flushable(b, i)) {
                ++i;
                continue;
            }
            TraceStep f;
            f.kind = StepKind::Flush;
            f.thread = ThreadId(static_cast<std::uint32_t>(t));
            f.addr = b[i].addr;
            f.value = b[i].value;
            out_.steps.push_back(f);
            b.erase(b.begin() + static_cast<std::ptrdiff_t>(i));
            i = 0; // an entry behind it may have become flushable
        }
    }

    // Removes the kept store that a flush of the merged trace takes.
    void flushKept(std::size_t t, Value addr) {
        std::vector<Entry>& b = buffers_[t];
        for (std::size_t i = 0; i < b.size(); ++i) {
            if (b[i].addr == addr || model_ == MemoryModel::TSO) {
                if (b[i].merged || !flushable(b, i)) {
                    break;
                }
                b.erase(b.begin() + static_cast<std::ptrdiff_t>(i));
                return;
            }
        }
        throw std::logic_error("restoring merged stores: a flush without its store in front");
    }

    const Program& program_;
    const StoreOwners& owners_;
    MemoryModel model_;
    std::vector<std::vector<Entry>> buffers_;
    std::int32_t holder_ = StoreOwners::none;
    Trace out_;
};

} // namespace

Trace restoreMergedStores(const Program& p, const StoreOwners& owners, const Trace& merged) {
    Restorer r(p, owners, merged.model);
    std::optional<std::size_t> goalStep;
    for (std::size_t k = 0; k < merged.steps.size(); ++k) {
        if (k == merged.goalStep) {
            goalStep = r.size();
        }
        r.step(merged.steps[k]);
    }
    return r.finish(merged.model, goalStep.value_or(r.size()));
}

} // namespace tsoreach::reach
