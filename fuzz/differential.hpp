#pragma once
// The differential fuzz targets fuzz_differential_{sc,tso,pso}
// (docs/testing.md): a byte string decodes into a small program, and every
// engine configuration that answers under the target's model must agree
// with every other one and with the brute-force explorer of
// tests/brute_force.hpp. Shared with the tool differential_inputs (seeds,
// printing and minimising inputs) and tests/fuzz_regressions_test.cpp.
//
// The decoder is total: a reader past the end reads 0 and every field is a
// byte taken modulo its range, so every byte string is a program and
// libFuzzer's coverage guides the shapes. A thread is a line of records,
// each a step of litmus-test size (a store, a load and its check, a fence, a
// counted loop, a goal mark, a jump, a fan of addresses...), so that the
// shapes random programs rarely have are a record or two away from the
// seeds: loops back to the source of a store that the goal needs taken,
// goal states with transitions out of them, several final states, locks
// held at the goal, fans of 60 to 130 constant addresses beside computed
// ones, goals of several terms ("# goal" lines, tests/goal_lines.hpp). The
// custom mutator (mutateSpec) inserts, erases and copies whole records.
//
// Values stay bounded so that every program has finitely many SC states:
// constants are 0..2 (in a wide program also the fan's addresses and one
// far address), arithmetic on registers is taken % 3, and the loop counter
// c is bounded by the guards of the loops, the only place it changes.
//
// A quarter of the programs declare their memory (docs/language.md,
// "Memory"): `memory m[3] = {v0, v1, v2}` with initial values 0..2, the
// constant addresses 0..2 written m[0]..m[2], so that every engine runs
// from memory that does not start at 0. The fields come last in the
// format: inputs from before read no declaration, as they did.

#include "goal_lines.hpp"
#include "properties.hpp"
#include "support/brute_force.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/tsoreach/parser.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/lazy/lazy_engine.hpp"
#include "tsoreach/reach/engine.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace tsoreach::fuzz {

// ---- The input format ------------------------------------------------------

// One record: a step of a thread's line, usually one or two transitions.
// `op` says what (see namespace op), `a` and `b` are its operands.
struct SpecRecord {
    std::uint8_t op = 0;
    std::uint8_t a = 0;
    std::uint8_t b = 0;
};

struct SpecThread {
    std::uint8_t flags = 0;          // bit 0 set: the end of the line is not final
    std::vector<SpecRecord> records; // 1 to 10
};

struct Spec {
    std::vector<SpecThread> threads;              // 2 to 4
    std::uint8_t wide = 0;                        // % 4 == 3: a wide program (fan, far address)
    std::uint8_t width = 0;                       // the fan's addresses: see fanWidth
    std::uint8_t far = 0;                         // the far address is 64 + far % 128
    std::uint8_t goal = 0;                        // % 4 == 0: the goal is `terms`, else the finals
    std::vector<std::vector<std::uint8_t>> terms; // 1 to 3 terms of 1 or 2 (thread, state)
    std::uint8_t memory = 0;                      // % 4 == 3: declare m[3] with `init`
    std::array<std::uint8_t, 3> init{};           // m[k] starts at init[k] % 3
};

// Reads fields from bytes; 0 past the end.
class SpecReader {
  public:
    explicit SpecReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
    void field(std::uint8_t& v) { v = pos_ < bytes_.size() ? bytes_[pos_++] : 0; }
    template <class T> void count(std::vector<T>& v, std::size_t lo, std::size_t hi) {
        std::uint8_t b = 0;
        field(b);
        v.resize(lo + b % (hi - lo + 1));
    }

  private:
    std::span<const std::uint8_t> bytes_;
    std::size_t pos_ = 0;
};

// Writes fields as the bytes SpecReader reads back (counts must be in range).
class SpecWriter {
  public:
    void field(const std::uint8_t& v) { bytes.push_back(v); }
    template <class T> void count(const std::vector<T>& v, std::size_t lo, std::size_t) {
        bytes.push_back(static_cast<std::uint8_t>(v.size() - lo));
    }
    std::vector<std::uint8_t> bytes;
};

inline constexpr std::size_t kMaxThreads = 4;
inline constexpr std::size_t kMaxRecords = 10;

// The format, once for both directions: IO is SpecReader (Spec&) or
// SpecWriter (const Spec&).
template <class IO, class S> void visitSpec(IO& io, S& s) {
    io.count(s.threads, 2, kMaxThreads);
    io.field(s.wide);
    io.field(s.width);
    io.field(s.far);
    io.field(s.goal);
    for (auto& t : s.threads) {
        io.field(t.flags);
        io.count(t.records, 1, kMaxRecords);
        for (auto& r : t.records) {
            io.field(r.op);
            io.field(r.a);
            io.field(r.b);
        }
    }
    if (s.goal % 4 == 0) {
        io.count(s.terms, 1, 3);
        for (auto& term : s.terms) {
            io.count(term, 1, 2);
            for (auto& pair : term) {
                io.field(pair);
            }
        }
    }
    io.field(s.memory);
    if (s.memory % 4 == 3) {
        for (auto& v : s.init) {
            io.field(v);
        }
    }
}

inline Spec decodeSpec(std::span<const std::uint8_t> bytes) {
    Spec s;
    SpecReader r(bytes);
    visitSpec(r, s);
    return s;
}

inline std::vector<std::uint8_t> encodeSpec(const Spec& s) {
    SpecWriter w;
    visitSpec(w, s);
    return std::move(w.bytes);
}

// Record kinds (SpecRecord::op % 16). Each continues the thread's line from
// its current state; "L" is the register the thread assigned last.
namespace op {
inline constexpr std::uint8_t kStore = 0; // 0-1: write value(a) address(b)
inline constexpr std::uint8_t kLoad = 2;  // 2-3: read r(a & 3) address(b); a & 4: then
                                          // check == L ((a >> 3) & 3) % 3
inline constexpr std::uint8_t kFence = 4; // mfence
// A counted loop back to the source S of the thread's last store (q0 if
// none): current --local c + c 1--> l --guard--> S, where the guard lets c
// reach B = 1 + (a & 3) % 3, in a form the value analysis can narrow
// (< c B) or not (< * c 1 B, < + c 0 B, ! >= c B: (a >> 2) & 3); the line goes
// on from S (a & 16) or from the current state. With a & 32 the line ends
// with check == c B - 1, so that a goal at its end needs every round.
inline constexpr std::uint8_t kLoop = 5;
inline constexpr std::uint8_t kLocal = 6;   // local r(a & 3) value(b)
inline constexpr std::uint8_t kCheck = 7;   // check condition(a, b)
inline constexpr std::uint8_t kMark = 8;    // the current state is final; the line goes on
inline constexpr std::uint8_t kJump = 9;    // current --noop--> state a % states so far
inline constexpr std::uint8_t kBranch = 10; // the line goes on from state a % states so far
inline constexpr std::uint8_t kLock = 11;   // lock when b % 4 == 0, else noop
inline constexpr std::uint8_t kUnlock = 12; // unlock when b % 4 == 0, else noop
// Wide programs, once: one transition per fan address, read r(a & 3) C
// (b even) or write value(a) C (b odd); else as kLoad / kStore.
inline constexpr std::uint8_t kFan = 13;
inline constexpr std::uint8_t kNoop = 14;  // noop
inline constexpr std::uint8_t kLoad2 = 15; // as kLoad
} // namespace op

// The program text of a spec (with "# goal" lines for a goal of terms).
// Registers r0..r2 hold values in -2..2 (constants, reads, arithmetic % 3),
// the far address or fan addresses; the counter c only grows in loops, and
// their guards bound it by 3. Checks mostly test the register assigned
// last, so that they test what was just read.
class SpecRenderer {
  public:
    explicit SpecRenderer(const Spec& s)
        : s_(s), wide_(s.wide % 4 == 3), width_(fanWidth(s.width)), far_(64 + s.far % 128),
          named_(s.memory % 4 == 3) {}

    // 60 to 130 addresses; half the time next to a word boundary (62 to 65,
    // 126 to 129), where bit sets of addresses change representation.
    static std::uint64_t fanWidth(std::uint8_t b) {
        if ((b & 0x80) == 0) {
            return 60 + b % 71;
        }
        return ((b & 0x40) != 0 ? 128 : 64) - 2 + (b & 3);
    }

    std::string render() {
        std::vector<Rendered> threads;
        for (const SpecThread& t : s_.threads) {
            threads.push_back(thread(t));
        }
        std::string out;
        if (named_) {
            out += "memory m[3] = {" + num(s_.init[0] % 3) + ", " + num(s_.init[1] % 3) + ", " +
                   num(s_.init[2] % 3) + "}\n";
        }
        if (s_.goal % 4 == 0) {
            for (const auto& term : s_.terms) {
                out += std::string(test::kGoalLine) + goalTerm(threads, term) + "\n";
            }
        } else if (std::all_of(threads.begin(), threads.end(),
                               [](const Rendered& r) { return r.finals.empty(); })) {
            threads[0].finals.push_back(threads[0].end); // some goal
        }
        for (std::size_t i = 0; i < threads.size(); ++i) {
            out += "thread t" + num(i) + "\ninitial q0\n";
            for (std::size_t f : threads[i].finals) {
                out += "final q" + num(f) + "\n";
            }
            out += threads[i].body + "end\n";
        }
        return out;
    }

  private:
    struct Rendered {
        std::string body;                // transition lines
        std::size_t states = 1;          // q0 .. q(states - 1)
        std::size_t end = 0;             // where the line ends
        std::vector<std::size_t> finals; // distinct
    };

    static std::string reg(std::uint8_t b) { return "r" + num(b % 3); }
    static std::string num(std::uint64_t n) { return std::to_string(n); }
    std::string last() const { return "r" + num(last_); }

    // A destination register; remembered as the last one assigned.
    std::string dest(std::uint8_t b) {
        last_ = static_cast<std::uint8_t>((b & 3u) % 3);
        return last();
    }

    std::string value(std::uint8_t b) const {
        switch (b & 7u) {
        case 0:
        case 1:
            return "1";
        case 2:
            return "2";
        case 3:
            return "0";
        case 4:
            return last();
        case 5:
            return "% + " + last() + " 1 3";
        case 6:
            return "+ c 1";
        default:
            return wide_ ? num(far_) : reg(b >> 3);
        }
    }

    // Mostly 0 and 1, as in the litmus tests; then 2, computed addresses,
    // and in wide programs the fan's and the far address. With a memory
    // declaration the constant cells are named and a register address is
    // `+ r 0` (a bare name there must be a variable or an assigned register).
    std::string address(std::uint8_t b) const {
        const std::uint8_t a = b >> 3;
        const auto cell = [&](const char* k) {
            return named_ ? "m[" + std::string(k) + "]" : std::string(k);
        };
        const auto pointer = [&](const std::string& r) { return named_ ? "+ " + r + " 0" : r; };
        switch (b & 7u) {
        case 0:
        case 2:
            return cell("0");
        case 1:
        case 3:
            return cell("1");
        case 4:
            return cell("2");
        case 5:
            return pointer((a & 1u) != 0 ? "c" : reg(a >> 1));
        case 6:
            return "% + " + reg(a) + " " + num(a / 3 % 3) + " 3";
        default:
            if (!wide_) {
                return pointer(reg(a));
            }
            switch (a % 3) {
            case 0:
                return num(far_);
            case 1:
                return num(a * 7u % width_);
            default:
                return "+ " + reg(a >> 2) + " " + num((a & 8u) != 0 ? far_ : width_ - 1);
            }
        }
    }

    std::string condition(std::uint8_t a, std::uint8_t b) const {
        const std::string k = num(b % 3);
        const std::string k2 = num(b / 3 % 3);
        const std::string r = reg(b / 9);
        switch (a & 7u) {
        case 0:
            return "== " + last() + " " + k;
        case 1:
            return "!= " + last() + " " + k;
        case 2:
            return "! " + last();
        case 3:
            return "== c " + k;
        case 4:
            return "&& == " + last() + " " + k + " == c " + k2;
        case 5:
            return "< " + last() + " " + r;
        case 6:
            return "== " + r + " " + k;
        default:
            return "&& == " + last() + " " + k + " != " + r + " " + k2;
        }
    }

    static std::string guard(std::uint8_t a, std::uint64_t bound) {
        switch (a >> 2 & 3u) {
        case 1:
            return "< * c 1 " + num(bound);
        case 2:
            return "< + c 0 " + num(bound);
        case 3:
            return "! >= c " + num(bound);
        default:
            return "< c " + num(bound);
        }
    }

    // The state of a thread's line while its records are rendered.
    struct Line {
        Rendered out;
        std::size_t cur = 0;
        std::size_t storeSource = 0;             // source of the last store
        std::optional<std::uint64_t> needRounds; // c the end of the line checks

        std::size_t fresh() { return out.states++; }
        // cur --instr--> a new state, which becomes current.
        void step(const std::string& instr) { edge(cur, fresh(), instr); }
        void edge(std::size_t from, std::size_t to, const std::string& instr) {
            out.body += "transition q" + num(from) + " q" + num(to) + " " + instr + "\n";
            cur = to;
        }
    };

    void store(Line& l, std::uint8_t a, std::uint8_t b) {
        l.storeSource = l.cur;
        l.step("write " + value(a) + " " + address(b));
    }

    void load(Line& l, std::uint8_t a, std::uint8_t b) {
        const std::string from = address(b); // before dest: it may use the old value
        l.step("read " + dest(a) + " " + from);
        if ((a & 4u) != 0) {
            l.step("check == " + last() + " " + num((a >> 3 & 3u) % 3));
        }
    }

    void loop(Line& l, std::uint8_t a) {
        const std::uint64_t bound = 1 + (a & 3u) % 3;
        const std::size_t start = l.cur;
        const std::size_t label = l.fresh();
        l.edge(start, label, "local c + c 1");
        l.edge(label, l.storeSource, "check " + guard(a, bound));
        l.cur = (a & 16u) != 0 ? l.storeSource : start;
        if ((a & 32u) != 0) {
            l.needRounds = bound - 1;
        }
    }

    void fan(Line& l, std::uint8_t a, std::uint8_t b) {
        fanned_ = true; // one fan per program keeps the state space small
        const std::string what = (b & 1u) != 0 ? "write " + value(a) : "read " + dest(a);
        const std::size_t from = l.cur;
        const std::size_t to = l.fresh();
        for (std::uint64_t c = 0; c < width_; ++c) {
            l.edge(from, to, what + " " + num(c));
        }
    }

    void record(Line& l, const SpecRecord& r) {
        switch (r.op % 16) {
        case op::kStore:
        case op::kStore + 1:
            store(l, r.a, r.b);
            break;
        case op::kFence:
            l.step("mfence");
            break;
        case op::kLoop:
            loop(l, r.a);
            break;
        case op::kLocal: {
            const std::string v = value(r.b);
            l.step("local " + dest(r.a) + " " + v);
            break;
        }
        case op::kCheck:
            l.step("check " + condition(r.a, r.b));
            break;
        case op::kMark:
            if (std::find(l.out.finals.begin(), l.out.finals.end(), l.cur) == l.out.finals.end()) {
                l.out.finals.push_back(l.cur);
            }
            break;
        case op::kJump:
            l.edge(l.cur, r.a % l.out.states, "noop");
            break;
        case op::kBranch:
            l.cur = r.a % l.out.states;
            break;
        case op::kLock:
        case op::kUnlock: // rare: dpor and rf refuse programs with locks
            l.step(r.b % 4 != 0 ? "noop" : r.op % 16 == op::kLock ? "lock" : "unlock");
            break;
        case op::kFan:
            if (wide_ && !fanned_) {
                fan(l, r.a, r.b);
            } else if ((r.b & 1u) != 0) {
                store(l, r.a, r.b);
            } else {
                load(l, r.a, r.b);
            }
            break;
        case op::kNoop:
            l.step("noop");
            break;
        default:
            load(l, r.a, r.b);
            break;
        }
    }

    Rendered thread(const SpecThread& t) {
        Line l;
        last_ = 0;
        for (const SpecRecord& r : t.records) {
            record(l, r);
        }
        if (l.needRounds) {
            l.step("check == c " + num(*l.needRounds));
        }
        l.out.end = l.cur;
        const bool final = (t.flags & 1u) == 0 && l.cur != 0;
        if (final &&
            std::find(l.out.finals.begin(), l.out.finals.end(), l.cur) == l.out.finals.end()) {
            l.out.finals.push_back(l.cur);
        }
        return l.out;
    }

    // "t1=q2,t0=q3": a thread named twice accepts either state; never q0
    // when there is another (a goal there holds at once).
    static std::string goalTerm(const std::vector<Rendered>& threads,
                                const std::vector<std::uint8_t>& pairs) {
        std::string out;
        for (std::uint8_t p : pairs) {
            const std::size_t t = p % threads.size();
            const std::size_t n = threads[t].states;
            const std::size_t s = n == 1 ? 0 : 1 + p / threads.size() % (n - 1);
            out += (out.empty() ? "" : ",") + std::string("t") + num(t) + "=q" + num(s);
        }
        return out;
    }

    const Spec& s_;
    bool wide_;
    std::uint64_t width_;
    std::uint64_t far_;
    bool named_; // the memory is declared
    bool fanned_ = false;
    std::uint8_t last_ = 0; // the register the current thread assigned last
};

inline std::string renderSpec(const Spec& s) {
    return SpecRenderer(s).render();
}

// The program text a fuzz input decodes to.
inline std::string decodeDifferential(std::span<const std::uint8_t> bytes) {
    return renderSpec(decodeSpec(bytes));
}

// ---- Structure-aware mutation ------------------------------------------------

// libFuzzer's own mutations insert and erase bytes anywhere, which shifts
// every record after the spot; these keep the records whole: a random
// field, a record inserted (random or copied from any thread), erased or
// overwritten, a thread copied or erased, the header or a goal term changed.
// `random` gives uniformly distributed 32-bit values (std::minstd_rand's
// range is enough: only `random() % n` for small n is used).
template <class Random> void mutateSpec(Spec& s, Random& random) {
    const auto below = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
    const auto byte = [&] { return static_cast<std::uint8_t>(random()); };
    const auto anyRecord = [&] {
        const SpecThread& from = s.threads[below(s.threads.size())];
        if (below(2) == 0) {
            return SpecRecord{byte(), byte(), byte()};
        }
        return from.records[below(from.records.size())];
    };
    SpecThread& t = s.threads[below(s.threads.size())];
    const auto at = [&](std::size_t extra) {
        return t.records.begin() + static_cast<std::ptrdiff_t>(below(t.records.size() + extra));
    };
    switch (below(8)) {
    case 0: // a field of a record
    case 1: {
        SpecRecord& r = *at(0);
        std::uint8_t* fields[] = {&r.op, &r.a, &r.b};
        std::uint8_t& f = *fields[below(3)];
        f = below(2) == 0 ? byte() : static_cast<std::uint8_t>(f ^ (1u << below(8)));
        break;
    }
    case 2: // insert a record
        if (t.records.size() < kMaxRecords) {
            t.records.insert(at(1), anyRecord());
            break;
        }
        [[fallthrough]];
    case 3: // erase a record
        if (t.records.size() > 1) {
            t.records.erase(at(0));
            break;
        }
        [[fallthrough]];
    case 4: // overwrite a record
        *at(0) = anyRecord();
        break;
    case 5: // copy or erase a thread
        if (s.threads.size() < kMaxThreads && below(2) == 0) {
            s.threads.insert(
                s.threads.begin() + static_cast<std::ptrdiff_t>(below(s.threads.size() + 1)), t);
        } else if (s.threads.size() > 2) {
            s.threads.erase(s.threads.begin() +
                            static_cast<std::ptrdiff_t>(below(s.threads.size())));
        }
        break;
    case 6:
        t.flags = byte();
        break;
    default: { // the program's header, memory and goal terms
        std::uint8_t* fields[] = {&s.wide,   &s.width,   &s.far,     &s.goal,
                                  &s.memory, &s.init[0], &s.init[1], &s.init[2]};
        const std::size_t f = below(9);
        if (f < 8) {
            *fields[f] = byte();
        } else if (s.goal % 4 == 0) {
            if (s.terms.empty() || (s.terms.size() < 3 && below(2) == 0)) {
                s.terms.push_back({byte()});
            } else {
                std::vector<std::uint8_t>& term = s.terms[below(s.terms.size())];
                if (term.size() < 2 && below(2) == 0) {
                    term.push_back(byte());
                } else {
                    term[below(term.size())] = byte();
                }
            }
        }
        break;
    }
    }
}

// ---- The check ---------------------------------------------------------------

// Limits that keep one input well under a second in the fuzz build; a limit
// only ever turns an answer into no answer.
struct DifferentialLimits {
    std::size_t bruteStates = 10000;    // brute force: more states, unknown
    std::uint64_t engineStates = 10000; // per engine run
    double seconds = 2;                 // all engine runs on one input
    double runSeconds = 0.5;            // one engine run
};

struct DifferentialAnswer {
    std::string who; // "brute force", "explicit dfs por=on live=off", "lazy", ...
    reach::Verdict verdict = reach::Verdict::Unknown;
    std::string note;   // the reason of an unknown
    double seconds = 0; // how long it took
};

namespace detail {

inline reach::Verdict fromBrute(test::BruteVerdict v) {
    switch (v) {
    case test::BruteVerdict::Reachable:
        return reach::Verdict::Reachable;
    case test::BruteVerdict::Unreachable:
        return reach::Verdict::Unreachable;
    case test::BruteVerdict::Unknown:
        break;
    }
    return reach::Verdict::Unknown;
}

inline test::BruteModel bruteModel(reach::MemoryModel m) {
    switch (m) {
    case reach::MemoryModel::SC:
        return test::BruteModel::SC;
    case reach::MemoryModel::TSO:
        return test::BruteModel::TSO;
    case reach::MemoryModel::PSO:
        break;
    }
    return test::BruteModel::PSO;
}

struct EngineRun {
    std::string who;
    std::function<std::unique_ptr<reach::Engine>()> make;
    reach::Options options;
};

// Every engine configuration under `m`: explicit with each reduction on and
// off (POR only exists under SC), DFS and BFS; lazy and Trencher's variant
// of it under TSO; dpor and rf, unrolled on cyclic programs (where only
// their positive answers are conclusive; they say unknown otherwise).
inline std::vector<EngineRun> engineRuns(const Program& p, reach::MemoryModel m) {
    std::vector<EngineRun> out;
    const bool cyclic = hasControlCycle(p);
    for (const engines::EngineEntry& info : engines::reachEnginesFor(m)) {
        const auto make = [factory = info.makeReach, m] { return factory(m); };
        reach::Options base;
        base.maxIterations = 8;
        if (info.name != "explicit") {
            if (cyclic && (info.name == "dpor" || info.name == "rf")) {
                base.unroll = 2;
            }
            out.push_back({std::string(info.name), make, base});
            continue;
        }
        using reach::SearchOrder;
        std::vector<std::tuple<SearchOrder, bool, bool>> configs = {{SearchOrder::Dfs, true, false},
                                                                    {SearchOrder::Dfs, true, true},
                                                                    {SearchOrder::Bfs, true, true}};
        if (m == reach::MemoryModel::SC) {
            configs.insert(configs.end(), {{SearchOrder::Dfs, false, false},
                                           {SearchOrder::Dfs, false, true},
                                           {SearchOrder::Bfs, false, false}});
        }
        for (const auto& [search, por, live] : configs) {
            reach::Options o = base;
            o.search = search;
            o.partialOrder = por;
            o.liveRegisters = live;
            std::string who = "explicit " + std::string(reach::name(search));
            who += m == reach::MemoryModel::SC ? std::string(" por=") + (por ? "on" : "off") : "";
            who += std::string(" live=") + (live ? "on" : "off");
            out.push_back({who, make, o});
        }
    }
    if (m == reach::MemoryModel::TSO) {
        reach::Options o;
        o.maxIterations = 8;
        out.push_back({"lazy-trencher",
                       [] {
                           return std::make_unique<lazy::LazyEngine>(
                               instrument::ExtensionVariant::Trencher);
                       },
                       o});
    }
    return out;
}

} // namespace detail

// Who answers: every run, or those `select` names (the minimiser runs two).
using AnswerFilter = std::function<bool(const std::string& who)>;

// The brute force's answer, then every engine run's, as time allows.
// Throws PropertyViolation when an engine throws anything but InputError
// (a trace that does not replay is a reach::TraceReplayError).
inline std::vector<DifferentialAnswer> differentialAnswers(const Program& p, const Goal& g,
                                                           reach::MemoryModel m,
                                                           const DifferentialLimits& lim,
                                                           const AnswerFilter& select = {}) {
    using Clock = std::chrono::steady_clock;
    std::vector<DifferentialAnswer> out;
    if (!select || select("brute force")) {
        test::BruteOptions o;
        o.model = detail::bruteModel(m);
        o.maxStates = lim.bruteStates;
        const Clock::time_point start = Clock::now();
        const test::BruteResult r = test::bruteForce(p, g, o);
        out.push_back({"brute force", detail::fromBrute(r.verdict), r.reason,
                       std::chrono::duration<double>(Clock::now() - start).count()});
    }
    const Clock::time_point deadline =
        Clock::now() +
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(lim.seconds));
    for (detail::EngineRun& run : detail::engineRuns(p, m)) {
        if (select && !select(run.who)) {
            continue;
        }
        const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
        if (left <= 0) {
            break;
        }
        run.options.stop.setTimeout(std::min(left, lim.runSeconds));
        run.options.maxStates = lim.engineStates;
        const Clock::time_point start = Clock::now();
        try {
            const std::unique_ptr<reach::Engine> engine = run.make();
            const reach::Result r = reach::runChecked(*engine, p, g, run.options);
            out.push_back({run.who, r.verdict, r.reason,
                           std::chrono::duration<double>(Clock::now() - start).count()});
        } catch (const InputError& e) {
            out.push_back({run.who, reach::Verdict::Unknown, std::string("input: ") + e.what()});
        } catch (const std::exception& e) {
            throw PropertyViolation(run.who + " under " + std::string(reach::name(m)) +
                                    " threw: " + e.what());
        }
    }
    return out;
}

inline std::string describeAnswers(const std::vector<DifferentialAnswer>& answers) {
    std::string out;
    for (const DifferentialAnswer& a : answers) {
        out += "  " + a.who + ": " + std::string(reach::name(a.verdict)) +
               (a.note.empty() ? "" : " (" + a.note + ")") + ", " +
               std::to_string(static_cast<long>(a.seconds * 1000)) + " ms\n";
    }
    return out;
}

// The first two definite answers that differ, as "A says X, B says Y", or "".
inline std::string firstDisagreement(const std::vector<DifferentialAnswer>& answers) {
    const DifferentialAnswer* first = nullptr;
    for (const DifferentialAnswer& a : answers) {
        if (a.verdict == reach::Verdict::Unknown) {
            continue;
        }
        if (first == nullptr) {
            first = &a;
        } else if (a.verdict != first->verdict) {
            return a.who + " says " + std::string(reach::name(a.verdict)) + ", " + first->who +
                   " says " + std::string(reach::name(first->verdict));
        }
    }
    return "";
}

// Runs every engine on the program `text` (goal: its "# goal" lines, else
// its final states) under `m` and throws PropertyViolation, with the program
// and every answer, when two definite answers differ or an engine throws.
// A text that does not parse throws its InputError.
inline void checkDifferential(const std::string& text, reach::MemoryModel m,
                              const DifferentialLimits& lim = {}) {
    const Program p = parseProgram(text, "differential");
    const std::optional<Goal> goal = test::goalOfText(p, text);
    if (!goal) {
        return;
    }
    std::vector<DifferentialAnswer> answers;
    try {
        answers = differentialAnswers(p, *goal, m, lim);
    } catch (const PropertyViolation& e) {
        throw PropertyViolation(std::string(e.what()) + "\nprogram:\n" + text);
    }
    const std::string problem = firstDisagreement(answers);
    if (!problem.empty()) {
        throw PropertyViolation("under " + std::string(reach::name(m)) + ": " + problem +
                                "\nprogram:\n" + text + "answers:\n" + describeAnswers(answers));
    }
}

} // namespace tsoreach::fuzz
