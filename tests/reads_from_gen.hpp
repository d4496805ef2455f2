#pragma once
// Reads-from consistency instances for tests and benchmarks: random PSO
// executions (realizable by construction), random reads-from mutations of
// them, a brute-force search over all SC / TSO / PSO interleavings, and a
// replay of witnesses.

#include "tsoreach/reach/model.hpp"
#include "tsoreach/reach/reads_from.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace tsoreach::test {

using reach::RfEvent;
using reach::RfEventKind;
using reach::RfInstance;
using reach::RfSource;
using reach::RfWitnessStep;

// The semantics of `model` on an instance: one FIFO buffer per thread
// (PSO: per thread and address); under SC a thread waits for its buffer.
class InstanceSim {
  public:
    explicit InstanceSim(const RfInstance& x, reach::MemoryModel model = reach::MemoryModel::PSO)
        : x_(x), model_(model) {}

    struct State {
        std::vector<std::uint32_t> next;               // thread events done
        std::vector<std::deque<std::uint32_t>> buffer; // per thread: event indices
        std::map<Value, RfSource> memory;              // absent: initial
        std::vector<std::vector<RfSource>> read;       // per thread, per event
        friend auto operator<=>(const State&, const State&) = default;
    };

    [[nodiscard]] State initial() const {
        State s;
        s.next.assign(x_.threads.size(), 0);
        s.buffer.resize(x_.threads.size());
        for (const auto& evs : x_.threads) {
            s.read.emplace_back(evs.size());
        }
        return s;
    }

    // Thread t's buffer entry k may reach memory now: the oldest (SC, TSO)
    // or the oldest to its address (PSO).
    [[nodiscard]] bool canFlush(const State& s, std::uint32_t t, std::size_t k) const {
        if (model_ != reach::MemoryModel::PSO) {
            return k == 0;
        }
        const Value addr = x_.threads[t][s.buffer[t][k]].addr;
        for (std::size_t j = 0; j < k; ++j) {
            if (x_.threads[t][s.buffer[t][j]].addr == addr) {
                return false;
            }
        }
        return true;
    }

    // Applies thread t's next event; false when it cannot run now.
    bool threadStep(State& s, std::uint32_t t) const {
        const std::uint32_t i = s.next[t];
        if (i == x_.threads[t].size()) {
            return false;
        }
        if (model_ == reach::MemoryModel::SC && !s.buffer[t].empty()) {
            return false;
        }
        const RfEvent& e = x_.threads[t][i];
        if (e.kind == RfEventKind::Fence && !s.buffer[t].empty()) {
            return false;
        }
        if (e.kind == RfEventKind::Write) {
            s.buffer[t].push_back(i);
        } else if (e.kind == RfEventKind::Read) {
            RfSource src;
            for (std::uint32_t k : s.buffer[t]) {
                if (x_.threads[t][k].addr == e.addr) {
                    src = RfSource{t, k}; // the newest own buffered store wins
                }
            }
            if (src.initial()) {
                auto it = s.memory.find(e.addr);
                if (it != s.memory.end()) {
                    src = it->second;
                }
            }
            s.read[t][i] = src;
        }
        ++s.next[t];
        return true;
    }

    void flush(State& s, std::uint32_t t, std::size_t k) const {
        const std::uint32_t i = s.buffer[t][k];
        s.memory[x_.threads[t][i].addr] = RfSource{t, i};
        s.buffer[t].erase(s.buffer[t].begin() + static_cast<std::ptrdiff_t>(k));
    }

    [[nodiscard]] bool done(const State& s) const {
        for (std::size_t t = 0; t < s.next.size(); ++t) {
            if (s.next[t] != x_.threads[t].size() || !s.buffer[t].empty()) {
                return false;
            }
        }
        return true;
    }

    [[nodiscard]] bool readsAsRequested(const State& s) const {
        for (std::size_t t = 0; t < x_.threads.size(); ++t) {
            for (std::size_t i = 0; i < x_.threads[t].size(); ++i) {
                if (x_.threads[t][i].kind == RfEventKind::Read &&
                    !(s.read[t][i] == x_.threads[t][i].source)) {
                    return false;
                }
            }
        }
        return true;
    }

    // A read that already read differently rules the state out.
    [[nodiscard]] bool consistentSoFar(const State& s) const {
        for (std::size_t t = 0; t < x_.threads.size(); ++t) {
            for (std::size_t i = 0; i < s.next[t]; ++i) {
                if (x_.threads[t][i].kind == RfEventKind::Read &&
                    !(s.read[t][i] == x_.threads[t][i].source)) {
                    return false;
                }
            }
        }
        return true;
    }

    // Some complete interleaving reads as requested (every interleaving,
    // pruned only where a read already read otherwise).
    [[nodiscard]] bool realizable() const {
        std::set<State> seen;
        std::vector<State> stack{initial()};
        while (!stack.empty()) {
            State s = std::move(stack.back());
            stack.pop_back();
            if (!consistentSoFar(s) || !seen.insert(s).second) {
                continue;
            }
            if (done(s)) {
                return true;
            }
            for (std::uint32_t t = 0; t < s.next.size(); ++t) {
                State a = s;
                if (threadStep(a, t)) {
                    stack.push_back(std::move(a));
                }
                for (std::size_t k = 0; k < s.buffer[t].size(); ++k) {
                    if (canFlush(s, t, k)) {
                        State b = s;
                        flush(b, t, k);
                        stack.push_back(std::move(b));
                    }
                }
            }
        }
        return false;
    }

    // Runs a witness; empty when it is a complete execution that reads as
    // requested, else what is wrong.
    [[nodiscard]] std::string check(const std::vector<RfWitnessStep>& w) const {
        State s = initial();
        for (const RfWitnessStep& step : w) {
            if (step.thread >= s.next.size()) {
                return "no such thread";
            }
            if (!step.memoryWrite) {
                if (s.next[step.thread] != step.index || !threadStep(s, step.thread)) {
                    return "thread event cannot run";
                }
                continue;
            }
            const auto& buf = s.buffer[step.thread];
            const auto it = std::find(buf.begin(), buf.end(), step.index);
            if (it == buf.end()) {
                return "memory-write of a store not buffered";
            }
            const auto k = static_cast<std::size_t>(it - buf.begin());
            if (!canFlush(s, step.thread, k)) {
                return "memory-write out of buffer order";
            }
            flush(s, step.thread, k);
        }
        if (!done(s)) {
            return "witness incomplete";
        }
        return readsAsRequested(s) ? "" : "witness reads differently";
    }

    // Runs one random complete PSO execution and sets every read's source
    // to what it read: a realizable instance.
    void randomExecution(RfInstance& out, std::mt19937_64& rng) const {
        State s = initial();
        while (!done(s)) {
            // Choices: thread steps, then flushes, picked uniformly.
            std::vector<std::pair<std::uint32_t, std::int64_t>> moves;
            for (std::uint32_t t = 0; t < s.next.size(); ++t) {
                State a = s;
                if (threadStep(a, t)) {
                    moves.emplace_back(t, -1);
                }
                for (std::size_t k = 0; k < s.buffer[t].size(); ++k) {
                    if (canFlush(s, t, k)) {
                        moves.emplace_back(t, static_cast<std::int64_t>(k));
                    }
                }
            }
            const auto [t, k] = moves[rng() % moves.size()];
            if (k < 0) {
                threadStep(s, t);
            } else {
                flush(s, t, static_cast<std::size_t>(k));
            }
        }
        for (std::size_t t = 0; t < out.threads.size(); ++t) {
            for (std::size_t i = 0; i < out.threads[t].size(); ++i) {
                if (out.threads[t][i].kind == RfEventKind::Read) {
                    out.threads[t][i].source = s.read[t][i];
                }
            }
        }
    }

  private:
    const RfInstance& x_;
    reach::MemoryModel model_;
};

struct GenOptions {
    std::size_t minThreads = 2, maxThreads = 4;
    std::size_t maxEvents = 5; // per thread, at least 1
    std::size_t maxAddrs = 3;  // at least 1
    unsigned fencePercent = 10, writePercent = 40;
};

// Random thread events without sources.
inline RfInstance randomShape(std::mt19937_64& rng, const GenOptions& o) {
    RfInstance x;
    const std::size_t threads = o.minThreads + rng() % (o.maxThreads - o.minThreads + 1);
    const std::size_t addrs = 1 + rng() % o.maxAddrs;
    x.threads.resize(threads);
    for (auto& evs : x.threads) {
        const std::size_t n = 1 + rng() % o.maxEvents;
        for (std::size_t i = 0; i < n; ++i) {
            RfEvent e;
            const auto roll = rng() % 100;
            e.kind = roll < o.fencePercent                    ? RfEventKind::Fence
                     : roll < o.fencePercent + o.writePercent ? RfEventKind::Write
                                                              : RfEventKind::Read;
            e.addr = e.kind == RfEventKind::Fence ? 0 : static_cast<Value>(rng() % addrs);
            evs.push_back(e);
        }
    }
    return x;
}

// The sources a read of `addr` could name: the initial value and every write there.
inline std::vector<RfSource> sourcesOf(const RfInstance& x, Value addr) {
    std::vector<RfSource> options{RfSource{}};
    for (std::uint32_t u = 0; u < x.threads.size(); ++u) {
        for (std::uint32_t k = 0; k < x.threads[u].size(); ++k) {
            if (x.threads[u][k].kind == RfEventKind::Write && x.threads[u][k].addr == addr) {
                options.push_back(RfSource{u, k});
            }
        }
    }
    return options;
}

// A random execution's reads-from, then `mutations` reads (if any) given
// another source at random: realizable without mutations, often not with.
inline RfInstance randomInstance(std::mt19937_64& rng, const GenOptions& o, unsigned mutations) {
    RfInstance x = randomShape(rng, o);
    InstanceSim(x).randomExecution(x, rng);
    std::vector<std::pair<std::size_t, std::size_t>> reads;
    for (std::size_t t = 0; t < x.threads.size(); ++t) {
        for (std::size_t i = 0; i < x.threads[t].size(); ++i) {
            if (x.threads[t][i].kind == RfEventKind::Read) {
                reads.emplace_back(t, i);
            }
        }
    }
    for (unsigned m = 0; m < mutations && !reads.empty(); ++m) {
        const auto [t, i] = reads[rng() % reads.size()];
        auto options = sourcesOf(x, x.threads[t][i].addr);
        std::erase(options, x.threads[t][i].source);
        if (!options.empty()) {
            x.threads[t][i].source = options[rng() % options.size()];
        }
    }
    return x;
}

inline bool hasFence(const RfInstance& x) {
    for (const auto& evs : x.threads) {
        for (const RfEvent& e : evs) {
            if (e.kind == RfEventKind::Fence) {
                return true;
            }
        }
    }
    return false;
}

} // namespace tsoreach::test
