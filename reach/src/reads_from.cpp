#include "tsoreach/reach/reads_from.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace tsoreach::reach {

namespace {

// The instance, indexed: events get global ids, writes their buffers.
class Indexed {
  public:
    Indexed(const RfInstance& in, MemoryModel model) : in_(in), model_(model) {
        const std::size_t threads = in.threads.size();
        offset_.resize(threads + 1, 0);
        for (std::size_t t = 0; t < threads; ++t) {
            offset_[t + 1] = offset_[t] + static_cast<std::uint32_t>(in.threads[t].size());
        }
        events_ = offset_[threads];
        buffer_.assign(events_, 0);
        position_.assign(events_, 0);
        std::map<std::pair<std::uint32_t, Value>, std::uint32_t> psoBuffer;
        for (std::uint32_t t = 0; t < threads; ++t) {
            const auto& evs = in.threads[t];
            for (std::uint32_t i = 0; i < evs.size(); ++i) {
                addrIndex(evs[i].addr);
                if (evs[i].kind != RfEventKind::Write) {
                    continue;
                }
                std::uint32_t b = t;
                if (model == MemoryModel::PSO) {
                    auto [it, fresh] = psoBuffer.try_emplace(
                        {t, evs[i].addr}, static_cast<std::uint32_t>(buffers_.size()));
                    if (fresh) {
                        buffers_.emplace_back();
                        bufferThread_.push_back(t);
                    }
                    b = it->second;
                } else {
                    while (buffers_.size() <= t) {
                        buffers_.emplace_back();
                        bufferThread_.push_back(static_cast<std::uint32_t>(buffers_.size() - 1));
                    }
                }
                buffer_[id(t, i)] = b;
                position_[id(t, i)] = static_cast<std::uint32_t>(buffers_[b].size());
                buffers_[b].push_back(i);
            }
        }
        eventAddr_.resize(events_);
        for (std::uint32_t t = 0; t < threads; ++t) {
            for (std::uint32_t i = 0; i < in.threads[t].size(); ++i) {
                eventAddr_[id(t, i)] = addrs_.at(in.threads[t][i].addr);
            }
        }
        readers_.resize(events_ + addrs_.size());
        for (std::uint32_t t = 0; t < threads; ++t) {
            const auto& evs = in.threads[t];
            for (std::uint32_t i = 0; i < evs.size(); ++i) {
                if (evs[i].kind == RfEventKind::Read) {
                    readers_[sourceId(evs[i])].push_back({t, i});
                }
            }
        }
    }

    // Cheap necessary conditions (digest 3.2): a read's write accesses its
    // address; a local one is the thread's last write there before the
    // read; an initial value is not read after an own write there.
    [[nodiscard]] bool wellFormed() const {
        for (std::uint32_t t = 0; t < in_.threads.size(); ++t) {
            const auto& evs = in_.threads[t];
            for (std::uint32_t i = 0; i < evs.size(); ++i) {
                if (evs[i].kind != RfEventKind::Read) {
                    continue;
                }
                const RfSource& s = evs[i].source;
                if (!s.initial()) {
                    if (s.thread >= in_.threads.size() || s.index >= in_.threads[s.thread].size()) {
                        return false;
                    }
                    const RfEvent& w = in_.threads[s.thread][s.index];
                    if (w.kind != RfEventKind::Write || w.addr != evs[i].addr) {
                        return false;
                    }
                    if (s.thread == t && s.index > i) {
                        return false;
                    }
                }
                if (!s.initial() && s.thread != t) {
                    continue; // own older writes must reach memory first: the search
                }
                // No own write there between the source (or the start) and r.
                const std::uint32_t from = s.initial() ? 0 : s.index + 1;
                for (std::uint32_t k = from; k < i; ++k) {
                    if (evs[k].kind == RfEventKind::Write && evs[k].addr == evs[i].addr) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    [[nodiscard]] std::uint32_t id(std::uint32_t t, std::uint32_t i) const {
        return offset_[t] + i;
    }
    [[nodiscard]] std::uint32_t sourceId(const RfEvent& read) const {
        return read.source.initial() ? events_ + addrs_.at(read.addr)
                                     : id(read.source.thread, read.source.index);
    }
    [[nodiscard]] bool remote(std::uint32_t t, const RfEvent& read) const {
        return read.source.initial() || read.source.thread != t;
    }

    const RfInstance& in_;
    MemoryModel model_;
    std::vector<std::uint32_t> offset_;
    std::uint32_t events_ = 0;
    std::map<Value, std::uint32_t> addrs_;
    std::vector<std::vector<std::uint32_t>> buffers_; // event indices of its thread's writes
    std::vector<std::uint32_t> bufferThread_;
    std::vector<std::uint32_t> buffer_, position_; // by write id
    std::vector<std::uint32_t> eventAddr_;         // by event id: its address's index
    // By source id (writes, then initial values by address): the reads of it.
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> readers_;

  private:
    void addrIndex(Value a) { addrs_.try_emplace(a, static_cast<std::uint32_t>(addrs_.size())); }
};

// The closure of digest 3.5 over thread events and memory-writes: a cycle
// proves the instance unrealizable. Rules 2 and 3 are applied to remote
// reads only, since a read served by its own buffer ignores memory.
class Closure {
  public:
    explicit Closure(const Indexed& x) : x_(x), n_(2 * x.events_), words_((n_ + 63) / 64) {
        reach_.assign(n_, std::vector<std::uint64_t>(words_, 0));
    }

    // False when the order has a cycle.
    bool acyclic() {
        addProgramOrder();
        addReadsFromRules();
        for (bool changed = true; changed;) {
            close();
            for (std::uint32_t v = 0; v < n_; ++v) {
                if (has(v, v)) {
                    return false;
                }
            }
            changed = applyRules();
        }
        return true;
    }

  private:
    [[nodiscard]] std::uint32_t memory(std::uint32_t write) const { return x_.events_ + write; }
    void edge(std::uint32_t a, std::uint32_t b) {
        reach_[a][b / 64] |= std::uint64_t{1} << (b % 64);
    }
    [[nodiscard]] bool has(std::uint32_t a, std::uint32_t b) const {
        return (reach_[a][b / 64] >> (b % 64) & 1U) != 0;
    }

    void addProgramOrder() {
        const auto& threads = x_.in_.threads;
        for (std::uint32_t t = 0; t < threads.size(); ++t) {
            const auto& evs = threads[t];
            std::map<std::uint32_t, std::uint32_t> newest;
            for (std::uint32_t i = 0; i < evs.size(); ++i) {
                const std::uint32_t e = x_.id(t, i);
                if (i > 0) {
                    edge(e - 1, e);
                }
                if (x_.model_ == MemoryModel::SC && i > 0 &&
                    evs[i - 1].kind == RfEventKind::Write) {
                    edge(memory(e - 1), e); // atomic writes
                }
                if (evs[i].kind == RfEventKind::Write) {
                    edge(e, memory(e));
                    auto [it, fresh] = newest.try_emplace(x_.buffer_[e], e);
                    if (!fresh) {
                        edge(memory(it->second), memory(e)); // FIFO buffer
                        it->second = e;
                    }
                } else if (evs[i].kind == RfEventKind::Fence) {
                    for (const auto& [b, w] : newest) {
                        edge(memory(w), e);
                    }
                }
            }
        }
    }

    // Rules 1 (i), 1 (ii), and the initial value's rule 3.
    void addReadsFromRules() {
        const auto& threads = x_.in_.threads;
        for (std::uint32_t u = 0; u < threads.size(); ++u) {
            for (std::uint32_t j = 0; j < threads[u].size(); ++j) {
                const RfEvent& r = threads[u][j];
                if (r.kind != RfEventKind::Read || !x_.remote(u, r)) {
                    continue;
                }
                const std::uint32_t re = x_.id(u, j);
                if (r.source.initial()) {
                    // Every write to the address reaches memory after r.
                    forEachWrite(r.addr, [&](std::uint32_t w) { edge(re, memory(w)); });
                    continue;
                }
                const std::uint32_t w = x_.id(r.source.thread, r.source.index);
                edge(memory(w), re);
                for (std::uint32_t k = 0; k < j; ++k) {
                    if (threads[u][k].kind == RfEventKind::Write && threads[u][k].addr == r.addr) {
                        edge(memory(x_.id(u, k)), memory(w));
                    }
                }
            }
        }
    }

    template <class F> void forEachWrite(Value addr, F f) const {
        const auto& threads = x_.in_.threads;
        for (std::uint32_t t = 0; t < threads.size(); ++t) {
            for (std::uint32_t i = 0; i < threads[t].size(); ++i) {
                if (threads[t][i].kind == RfEventKind::Write && threads[t][i].addr == addr) {
                    f(x_.id(t, i));
                }
            }
        }
    }

    // Rules 2 and 3; true when an edge was added.
    bool applyRules() {
        bool changed = false;
        const auto& threads = x_.in_.threads;
        for (std::uint32_t u = 0; u < threads.size(); ++u) {
            for (std::uint32_t j = 0; j < threads[u].size(); ++j) {
                const RfEvent& r = threads[u][j];
                if (r.kind != RfEventKind::Read || !x_.remote(u, r) || r.source.initial()) {
                    continue;
                }
                const std::uint32_t re = x_.id(u, j);
                const std::uint32_t wm = memory(x_.id(r.source.thread, r.source.index));
                forEachWrite(r.addr, [&](std::uint32_t other) {
                    const std::uint32_t om = memory(other);
                    if (om == wm) {
                        return;
                    }
                    if (has(om, re) && !has(om, wm)) {
                        edge(om, wm);
                        changed = true;
                    }
                    if (has(wm, om) && !has(re, om)) {
                        edge(re, om);
                        changed = true;
                    }
                });
            }
        }
        return changed;
    }

    void close() {
        for (std::uint32_t k = 0; k < n_; ++k) {
            for (std::uint32_t i = 0; i < n_; ++i) {
                if (has(i, k)) {
                    for (std::size_t w = 0; w < words_; ++w) {
                        reach_[i][w] |= reach_[k][w];
                    }
                }
            }
        }
    }

    const Indexed& x_;
    std::uint32_t n_;
    std::size_t words_;
    std::vector<std::vector<std::uint64_t>> reach_;
};

// The search of digest 3.3, for every model.
class Search {
  public:
    explicit Search(const Indexed& x) : x_(x) {}

    std::optional<std::vector<RfWitnessStep>> run(RfCheckStats* stats) {
        const std::size_t threads = x_.in_.threads.size();
        Node root;
        root.executed.assign(threads, 0);
        root.flushed.assign(x_.buffers_.size(), 0);
        root.last.resize(x_.addrs_.size());
        for (const auto& [a, k] : x_.addrs_) {
            root.last[k] = x_.events_ + k; // the initial value
        }
        std::vector<Node> stack{std::move(root)};
        std::set<std::vector<std::uint32_t>> seen;
        while (!stack.empty()) {
            Node n = std::move(stack.back());
            stack.pop_back();
            saturate(n);
            if (stats != nullptr) {
                ++stats->searchStates;
            }
            if (done(n)) {
                return std::move(n.steps);
            }
            for (std::uint32_t b = 0; b < x_.buffers_.size(); ++b) {
                if (!memoryWriteExecutable(n, b)) {
                    continue;
                }
                Node child = n;
                const std::uint32_t t = x_.bufferThread_[b];
                const std::uint32_t i = x_.buffers_[b][child.flushed[b]++];
                child.last[x_.eventAddr_[x_.id(t, i)]] = x_.id(t, i);
                child.steps.push_back({t, i, true});
                if (seen.insert(key(child)).second) {
                    stack.push_back(std::move(child));
                }
            }
        }
        return std::nullopt;
    }

  private:
    struct Node {
        std::vector<std::uint32_t> executed; // thread events, by thread
        std::vector<std::uint32_t> flushed;  // memory-writes, by buffer
        std::vector<std::uint32_t> last;     // by address: source id in memory
        std::vector<RfWitnessStep> steps;
    };

    static std::vector<std::uint32_t> key(const Node& n) {
        std::vector<std::uint32_t> k = n.executed;
        k.insert(k.end(), n.flushed.begin(), n.flushed.end());
        k.insert(k.end(), n.last.begin(), n.last.end());
        return k;
    }

    [[nodiscard]] bool done(const Node& n) const {
        for (std::size_t t = 0; t < n.executed.size(); ++t) {
            if (n.executed[t] != x_.in_.threads[t].size()) {
                return false;
            }
        }
        for (std::size_t b = 0; b < n.flushed.size(); ++b) {
            if (n.flushed[b] != x_.buffers_[b].size()) {
                return false;
            }
        }
        return true;
    }

    [[nodiscard]] bool isFlushed(const Node& n, std::uint32_t t, std::uint32_t i) const {
        const std::uint32_t w = x_.id(t, i);
        return n.flushed[x_.buffer_[w]] > x_.position_[w];
    }

    // Thread t has an executed write whose memory-write has not happened.
    [[nodiscard]] bool pending(const Node& n, std::uint32_t t) const {
        for (std::uint32_t b = 0; b < x_.buffers_.size(); ++b) {
            if (x_.bufferThread_[b] == t && n.flushed[b] < x_.buffers_[b].size() &&
                x_.buffers_[b][n.flushed[b]] < n.executed[t]) {
                return true;
            }
        }
        return false;
    }

    // Memory holds a value that a read still to come must see.
    [[nodiscard]] bool held(const Node& n, std::uint32_t addrIndex) const {
        for (const auto& [u, j] : x_.readers_[n.last[addrIndex]]) {
            if (n.executed[u] <= j) {
                return true;
            }
        }
        return false;
    }

    [[nodiscard]] bool threadEventExecutable(const Node& n, std::uint32_t t) const {
        const std::uint32_t i = n.executed[t];
        const auto& evs = x_.in_.threads[t];
        if (i == evs.size()) {
            return false;
        }
        if (x_.model_ == MemoryModel::SC && pending(n, t)) {
            return false; // SC: a write reaches memory before the thread goes on
        }
        const RfEvent& e = evs[i];
        switch (e.kind) {
        case RfEventKind::Write:
            return true;
        case RfEventKind::Fence:
            return !pending(n, t);
        case RfEventKind::Read:
            if (!x_.remote(t, e) || e.source.initial()) {
                return true; // own write: buffer or (held) memory; initial: held
            }
            return isFlushed(n, e.source.thread, e.source.index);
        }
        return false;
    }

    [[nodiscard]] bool memoryWriteExecutable(const Node& n, std::uint32_t b) const {
        const auto& buf = x_.buffers_[b];
        if (n.flushed[b] == buf.size()) {
            return false;
        }
        const std::uint32_t t = x_.bufferThread_[b];
        const std::uint32_t i = buf[n.flushed[b]];
        if (i >= n.executed[t]) {
            return false; // its buffer-write has not happened
        }
        const Value addr = x_.in_.threads[t][i].addr;
        if (held(n, x_.eventAddr_[x_.id(t, i)])) {
            return false;
        }
        // A remote reader's own older writes there must already be in
        // memory, or it would read them instead (rule 2 (b)).
        for (const auto& [u, j] : x_.readers_[x_.id(t, i)]) {
            if (u == t) {
                continue;
            }
            const auto& evs = x_.in_.threads[u];
            for (std::uint32_t k = 0; k < j; ++k) {
                if (evs[k].kind == RfEventKind::Write && evs[k].addr == addr &&
                    (k >= n.executed[u] || !isFlushed(n, u, k))) {
                    return false;
                }
            }
        }
        return true;
    }

    // Executes thread events while any may be: none ever disables another.
    void saturate(Node& n) const {
        for (bool changed = true; changed;) {
            changed = false;
            for (std::uint32_t t = 0; t < n.executed.size(); ++t) {
                while (threadEventExecutable(n, t)) {
                    n.steps.push_back({t, n.executed[t]++, false});
                    changed = true;
                }
            }
        }
    }

    const Indexed& x_;
};

} // namespace

std::optional<std::vector<RfWitnessStep>> verifyReadsFrom(const RfInstance& instance,
                                                          MemoryModel model, RfCheckStats* stats) {
    if (stats != nullptr) {
        ++stats->checks;
    }
    const Indexed x(instance, model);
    if (!x.wellFormed()) {
        if (stats != nullptr) {
            ++stats->closureRejections;
        }
        return std::nullopt;
    }
    if (!Closure(x).acyclic()) {
        if (stats != nullptr) {
            ++stats->closureRejections;
        }
        return std::nullopt;
    }
    return Search(x).run(stats);
}

} // namespace tsoreach::reach
