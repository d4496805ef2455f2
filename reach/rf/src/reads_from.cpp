#include "tsoreach/reach/reads_from.hpp"

#include "tsoreach/reach/reads_from_detail.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace tsoreach::reach {

namespace {

// The instance, indexed: events get global ids, writes their buffers.
class Indexed {
  public:
    Indexed(const RfInstance& in, MemoryModel model) : in_(in), model_(model) {
        const std::size_t threads = in.threads.size();
        // Event ids are 32 bits, and the closure has two nodes per event.
        std::size_t total = 0;
        for (const auto& evs : in.threads) {
            total += evs.size();
        }
        if (total >= (std::size_t{1} << 31) || threads >= RfSource::initialSource) {
            throw std::length_error("a reads-from instance with 2^31 events or more");
        }
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

// A partial trace of a search: thread events by thread, memory-writes by
// buffer (FIFO), memory's source per address, and the steps so far; with
// the predicates both searches share (digest 3.3 and 3.4).
struct Node {
    std::vector<std::uint32_t> executed; // thread events, by thread
    std::vector<std::uint32_t> flushed;  // memory-writes, by buffer
    std::vector<std::uint32_t> last;     // by address: source id in memory
    std::vector<RfWitnessStep> steps;
};

class Machine {
  public:
    explicit Machine(const Indexed& x) : x_(x) {}

    [[nodiscard]] Node root() const {
        Node root;
        root.executed.assign(x_.in_.threads.size(), 0);
        root.flushed.assign(x_.buffers_.size(), 0);
        root.last.resize(x_.addrs_.size());
        for (const auto& [a, k] : x_.addrs_) {
            root.last[k] = x_.events_ + k; // the initial value
        }
        return root;
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

    // Buffer b's oldest write has happened and is not in memory yet.
    [[nodiscard]] bool pendingIn(const Node& n, std::uint32_t b) const {
        return n.flushed[b] < x_.buffers_[b].size() &&
               x_.buffers_[b][n.flushed[b]] < n.executed[x_.bufferThread_[b]];
    }

    // Thread t has an executed write whose memory-write has not happened.
    [[nodiscard]] bool pending(const Node& n, std::uint32_t t) const {
        for (std::uint32_t b = 0; b < x_.buffers_.size(); ++b) {
            if (x_.bufferThread_[b] == t && pendingIn(n, b)) {
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

    // The memory-write of buffer b's oldest write may happen (digest 3.3,
    // rule 2): its buffer-write happened, its address is not held, and
    // no remote reader would see an own older write instead.
    [[nodiscard]] bool memoryWriteExecutable(const Node& n, std::uint32_t b) const {
        if (!pendingIn(n, b)) {
            return false;
        }
        const std::uint32_t t = x_.bufferThread_[b];
        const std::uint32_t i = x_.buffers_[b][n.flushed[b]];
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

    void flush(Node& n, std::uint32_t b) const {
        const std::uint32_t t = x_.bufferThread_[b];
        const std::uint32_t i = x_.buffers_[b][n.flushed[b]++];
        n.last[x_.eventAddr_[x_.id(t, i)]] = x_.id(t, i);
        n.steps.push_back({t, i, true});
    }

    void execute(Node& n, std::uint32_t t) const { n.steps.push_back({t, n.executed[t]++, false}); }

  protected:
    const Indexed& x_;
};

// The search of digest 3.3 (VerifyTSO), for SC and TSO; with one buffer
// per thread and address it also decides PSO, but it enumerates the lower
// sets of k*d buffers (kept to cross-check VerifyPSO).
class Search : Machine {
  public:
    // Gives up (setting *gaveUp) after `budget` states; 0: no limit.
    explicit Search(const Indexed& x, std::uint64_t budget = 0, bool* gaveUp = nullptr)
        : Machine(x), budget_(budget), gaveUp_(gaveUp) {}

    std::optional<std::vector<RfWitnessStep>> run(RfCheckStats* stats) {
        std::vector<Node> stack{root()};
        std::set<std::vector<std::uint32_t>> seen;
        for (std::uint64_t states = 0; !stack.empty(); ++states) {
            if (budget_ != 0 && states == budget_) {
                *gaveUp_ = true;
                return std::nullopt;
            }
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
                flush(child, b);
                if (seen.insert(key(child)).second) {
                    stack.push_back(std::move(child));
                }
            }
        }
        return std::nullopt;
    }

  private:
    static std::vector<std::uint32_t> key(const Node& n) {
        std::vector<std::uint32_t> k = n.executed;
        k.insert(k.end(), n.flushed.begin(), n.flushed.end());
        k.insert(k.end(), n.last.begin(), n.last.end());
        return k;
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

    // Executes thread events while any may be: none ever disables another.
    void saturate(Node& n) const {
        for (bool changed = true; changed;) {
            changed = false;
            for (std::uint32_t t = 0; t < n.executed.size(); ++t) {
                while (threadEventExecutable(n, t)) {
                    execute(n, t);
                    changed = true;
                }
            }
        }
    }

    std::uint64_t budget_;
    bool* gaveUp_;
};

// VerifyPSO (digest 3.4): the search branches over thread events only.
// Memory-writes nobody still reads (spurious) are flushed as soon as they
// may be, a remote read's write just before the read, and a thread's
// pending writes just before its fence. States are told apart by their
// thread events and fence map, which is all that tells the futures of two
// such traces apart: the held addresses (and their holders) follow from
// the thread events, and the spurious writes stuck behind a held address
// matter only by delaying their thread's next fence.
class PsoSearch : Machine {
  public:
    explicit PsoSearch(const Indexed& x) : Machine(x) {
        const auto& threads = x.in_.threads;
        fenceAhead_.resize(threads.size());
        threadBuffers_.resize(threads.size());
        for (std::uint32_t t = 0; t < threads.size(); ++t) {
            auto& ahead = fenceAhead_[t];
            ahead.assign(threads[t].size() + 1, false);
            for (std::size_t i = threads[t].size(); i-- > 0;) {
                ahead[i] = ahead[i + 1] || threads[t][i].kind == RfEventKind::Fence;
            }
        }
        for (std::uint32_t b = 0; b < x.buffers_.size(); ++b) {
            threadBuffers_[x.bufferThread_[b]].push_back(b);
        }
    }

    std::optional<std::vector<RfWitnessStep>> run(RfCheckStats* stats) {
        std::vector<Node> stack{root()};
        std::set<std::vector<std::uint32_t>> seen{key(stack.back())};
        while (!stack.empty()) {
            Node n = std::move(stack.back());
            stack.pop_back();
            settle(n);
            if (stats != nullptr) {
                ++stats->searchStates;
            }
            if (done(n)) {
                return std::move(n.steps);
            }
            // Copies only for threads that may step; the last one takes n.
            std::vector<std::uint32_t> movers;
            for (std::uint32_t t = 0; t < n.executed.size(); ++t) {
                if (mayStep(n, t)) {
                    movers.push_back(t);
                }
            }
            for (std::size_t m = 0; m < movers.size(); ++m) {
                Node child = m + 1 == movers.size() ? std::move(n) : n;
                if (step(child, movers[m]) && seen.insert(key(child)).second) {
                    stack.push_back(std::move(child));
                }
            }
        }
        return std::nullopt;
    }

  private:
    // Its buffer-write happened and no read still to come reads from it.
    [[nodiscard]] bool spurious(const Node& n, std::uint32_t b) const {
        if (!pendingIn(n, b)) {
            return false;
        }
        const std::uint32_t t = x_.bufferThread_[b];
        for (const auto& [u, j] : x_.readers_[x_.id(t, x_.buffers_[b][n.flushed[b]])]) {
            if (n.executed[u] <= j) {
                return false;
            }
        }
        return true;
    }

    // Flushing a spurious write never hurts: it holds nothing, and only
    // helps other memory-writes' rule 2 (b).
    void flushSpurious(Node& n) const {
        for (bool changed = true; changed;) {
            changed = false;
            for (std::uint32_t b = 0; b < x_.buffers_.size(); ++b) {
                while (spurious(n, b) && memoryWriteExecutable(n, b)) {
                    flush(n, b);
                    changed = true;
                }
            }
        }
    }

    // Thread t's next event needs no memory-write first: a read of its own
    // write, of the initial value or of a write in memory, or a fence over
    // empty buffers.
    [[nodiscard]] bool ready(const Node& n, std::uint32_t t) const {
        const std::uint32_t i = n.executed[t];
        const auto& evs = x_.in_.threads[t];
        if (i == evs.size()) {
            return false;
        }
        const RfEvent& e = evs[i];
        switch (e.kind) {
        case RfEventKind::Write:
            return false;
        case RfEventKind::Fence:
            return !pending(n, t);
        case RfEventKind::Read:
            return !x_.remote(t, e) || e.source.initial() ||
                   isFlushed(n, e.source.thread, e.source.index);
        }
        return false;
    }

    // Flushes spurious writes and runs ready events while any may. A
    // witness can run a ready event at once (it reads the same write then:
    // memory or the buffer cannot change to it later; a fence has no
    // effect), and doing so changes nothing for other events, so the
    // search need not branch over them. The fence map of the result is no
    // larger (digest 3.4, lemmas 4.2 and 4.3). Buffer-writes are not
    // ready: a write stuck behind a held address may or may not be
    // better off later.
    void settle(Node& n) const {
        for (bool changed = true; changed;) {
            flushSpurious(n);
            changed = false;
            for (std::uint32_t t = 0; t < n.executed.size(); ++t) {
                while (ready(n, t)) {
                    execute(n, t);
                    changed = true;
                }
            }
        }
    }

    // A cheap necessary condition for step(n, t).
    [[nodiscard]] bool mayStep(const Node& n, std::uint32_t t) const {
        const std::uint32_t i = n.executed[t];
        const auto& evs = x_.in_.threads[t];
        if (i == evs.size()) {
            return false;
        }
        const RfEvent& e = evs[i];
        if (e.kind == RfEventKind::Read && x_.remote(t, e) && !e.source.initial() &&
            !isFlushed(n, e.source.thread, e.source.index)) {
            const std::uint32_t b = x_.buffer_[x_.id(e.source.thread, e.source.index)];
            return x_.buffers_[b][n.flushed[b]] == e.source.index && memoryWriteExecutable(n, b);
        }
        if (e.kind == RfEventKind::Fence) {
            for (const std::uint32_t b : threadBuffers_[t]) {
                if (pendingIn(n, b) && !memoryWriteExecutable(n, b)) {
                    return false;
                }
            }
        }
        return true;
    }

    // Thread t's next event, with the memory-writes it needs first; false
    // when it cannot run.
    bool step(Node& n, std::uint32_t t) const {
        const std::uint32_t i = n.executed[t];
        const auto& evs = x_.in_.threads[t];
        if (i == evs.size()) {
            return false;
        }
        const RfEvent& e = evs[i];
        if (e.kind == RfEventKind::Read && x_.remote(t, e) && !e.source.initial() &&
            !isFlushed(n, e.source.thread, e.source.index)) {
            // Just in time: any earlier would only hold the address longer.
            const std::uint32_t b = x_.buffer_[x_.id(e.source.thread, e.source.index)];
            if (x_.buffers_[b][n.flushed[b]] != e.source.index || !memoryWriteExecutable(n, b)) {
                return false;
            }
            flush(n, b);
        } else if (e.kind == RfEventKind::Fence) {
            for (const std::uint32_t b : threadBuffers_[t]) {
                while (pendingIn(n, b)) {
                    if (!memoryWriteExecutable(n, b)) {
                        return false;
                    }
                    flush(n, b);
                }
            }
        }
        execute(n, t);
        return true;
    }

    // Thread events, then the fence map: entry (t, u) is one past the
    // index of u's latest read still to come that t's next fence waits
    // for, as the read's source holds an address t has a pending write to.
    [[nodiscard]] std::vector<std::uint32_t> key(const Node& n) const {
        const std::size_t k = n.executed.size();
        std::vector<std::uint32_t> key = n.executed;
        key.resize(k + k * k, 0);
        for (std::uint32_t t = 0; t < k; ++t) {
            if (!fenceAhead_[t][n.executed[t]]) {
                continue;
            }
            for (const std::uint32_t b : threadBuffers_[t]) {
                if (!pendingIn(n, b)) {
                    continue;
                }
                const std::uint32_t holder =
                    n.last[x_.eventAddr_[x_.id(t, x_.buffers_[b][n.flushed[b]])]];
                for (const auto& [u, j] : x_.readers_[holder]) {
                    if (u != t && n.executed[u] <= j) {
                        auto& entry = key[k + t * k + u];
                        entry = std::max(entry, j + 1);
                    }
                }
            }
        }
        return key;
    }

    std::vector<std::vector<bool>> fenceAhead_;             // by thread, event: a fence at or after
    std::vector<std::vector<std::uint32_t>> threadBuffers_; // by thread: its buffers
};

// The well-formedness and closure pre-checks; false proves the instance
// unrealizable.
bool preChecksPass(const Indexed& x, RfCheckStats* stats) {
    if (stats != nullptr) {
        ++stats->checks;
    }
    if (x.wellFormed() && Closure(x).acyclic()) {
        return true;
    }
    if (stats != nullptr) {
        ++stats->closureRejections;
    }
    return false;
}

} // namespace

std::optional<std::vector<RfWitnessStep>> verifyReadsFrom(const RfInstance& instance,
                                                          MemoryModel model, RfCheckStats* stats) {
    const Indexed x(instance, model);
    if (!preChecksPass(x, stats)) {
        return std::nullopt;
    }
    if (model == MemoryModel::PSO) {
        return PsoSearch(x).run(stats);
    }
    return Search(x).run(stats);
}

namespace detail {

std::optional<std::vector<RfWitnessStep>> verifyReadsFromPsoPerBuffer(const RfInstance& instance,
                                                                      RfCheckStats* stats,
                                                                      std::uint64_t stateBudget,
                                                                      bool* gaveUp) {
    const Indexed x(instance, MemoryModel::PSO);
    if (gaveUp != nullptr) {
        *gaveUp = false;
    }
    if (!preChecksPass(x, stats)) {
        return std::nullopt;
    }
    return Search(x, gaveUp != nullptr ? stateBudget : 0, gaveUp).run(stats);
}

} // namespace detail
} // namespace tsoreach::reach
