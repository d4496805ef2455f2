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
// libFuzzer's coverage guides the shapes. The format offers directly what
// random programs rarely have: loops back to the source of a store, goal
// states with outgoing transitions, several final states, locks held at the
// goal, fans of 60 to 130 constant addresses beside computed ones, goals of
// several terms ("# goal" lines, tests/goal_lines.hpp), fences.
//
// Values stay bounded so that every program has finitely many SC states:
// constants are 0..2 (in a wide program also the fan's addresses and one
// far address), and all arithmetic is taken % 3.

#include "brute_force.hpp"
#include "goal_lines.hpp"
#include "properties.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/lang/parser.hpp"
#include "tsoreach/lazy/catalog.hpp"
#include "tsoreach/lazy/lazy_engine.hpp"
#include "tsoreach/reach/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace tsoreach::fuzz {

// ---- The input format ------------------------------------------------------

// One transition: how it joins the control states, and its instruction.
struct SpecTransition {
    std::uint8_t control = 0; // % 8: chain, back edge, branch, any edge, side branch
    std::uint8_t state = 0;   // the state a non-chain edge names
    std::uint8_t kind = 0;    // % 32: the instruction
    std::uint8_t x = 0;       // operands
    std::uint8_t y = 0;
};

struct SpecThread {
    std::uint8_t states = 0;           // 2 + states % 7 control states at most
    std::vector<std::uint8_t> finals;  // 0 to 2, each picks a state the thread uses
    std::vector<SpecTransition> steps; // 1 to 8
};

struct Spec {
    std::vector<SpecThread> threads;              // 2 to 4
    std::uint8_t wide = 0;                        // % 4 == 3: a wide program (fans, far address)
    std::uint8_t width = 0;                       // the fan's addresses: see fanWidth
    std::uint8_t far = 0;                         // the far address is 64 + far % 128
    std::uint8_t goal = 0;                        // % 4 == 0: the goal is `terms`, else the finals
    std::vector<std::vector<std::uint8_t>> terms; // 1 to 3 terms of 1 or 2 (thread, state)
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

// The format, once for both directions: IO is SpecReader (Spec&) or
// SpecWriter (const Spec&).
template <class IO, class S> void visitSpec(IO& io, S& s) {
    io.count(s.threads, 2, 4);
    io.field(s.wide);
    io.field(s.width);
    io.field(s.far);
    io.field(s.goal);
    for (auto& t : s.threads) {
        io.field(t.states);
        io.count(t.finals, 0, 2);
        for (auto& f : t.finals) {
            io.field(f);
        }
        io.count(t.steps, 1, 8);
        for (auto& x : t.steps) {
            io.field(x.control);
            io.field(x.state);
            io.field(x.kind);
            io.field(x.x);
            io.field(x.y);
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

// Instruction kinds (SpecTransition::kind % 32): the first of each range.
// Locks are rare: dpor and rf refuse programs with them.
namespace kind {
inline constexpr std::uint8_t kRead = 0;      // 0-6: read reg(x) addr(y)
inline constexpr std::uint8_t kWrite = 7;     // 7-13: write value(x) addr(y)
inline constexpr std::uint8_t kLocal = 14;    // 14-17: local reg(x) value(y)
inline constexpr std::uint8_t kCheck = 18;    // 18-21: check cond(x, y)
inline constexpr std::uint8_t kFence = 22;    // 22-23: mfence
inline constexpr std::uint8_t kNoop = 24;     // 24-25: noop
inline constexpr std::uint8_t kLock = 26;     // lock when x % 4 == 0, else noop
inline constexpr std::uint8_t kUnlock = 27;   // unlock when x % 4 == 0, else noop
inline constexpr std::uint8_t kFanRead = 28;  // 28-29, wide: read reg(x) from each fan address
inline constexpr std::uint8_t kFanWrite = 30; // 30-31, wide: write value(x) to each fan address
} // namespace kind

// Edge shapes (SpecTransition::control % 8).
namespace edge {
inline constexpr std::uint8_t kChain = 0; // 0-3: current state -> a new one, which becomes current
inline constexpr std::uint8_t kBack = 4;  // current -> state % (current + 1), which becomes current
inline constexpr std::uint8_t kBranch = 5; // an earlier state -> a new one, which becomes current
inline constexpr std::uint8_t kAny = 6;    // (state & 15) -> (state >> 4), both % states
inline constexpr std::uint8_t kSide = 7;   // current -> a new state; current stays
} // namespace edge

// The program text of a spec (with "# goal" lines for a goal of terms).
class SpecRenderer {
  public:
    explicit SpecRenderer(const Spec& s)
        : s_(s), wide_(s.wide % 4 == 3), width_(fanWidth(s.width)), far_(64 + s.far % 128) {}

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
        for (std::size_t i = 0; i < s_.threads.size(); ++i) {
            threads.push_back(thread(s_.threads[i]));
        }
        const bool terms = s_.goal % 4 == 0;
        std::string out;
        if (terms) {
            for (const auto& term : s_.terms) {
                out += std::string(test::kGoalLine) + goalTerm(threads, term) + "\n";
            }
        } else if (std::all_of(threads.begin(), threads.end(),
                               [](const Rendered& r) { return r.finals.empty(); })) {
            threads[0].finals.push_back(threads[0].used.back()); // some goal
        }
        for (std::size_t i = 0; i < threads.size(); ++i) {
            out += "thread t" + std::to_string(i) + "\ninitial q0\n";
            for (std::size_t f : threads[i].finals) {
                out += "final q" + std::to_string(f) + "\n";
            }
            out += threads[i].body + "end\n";
        }
        return out;
    }

  private:
    struct Rendered {
        std::string body;                // transition lines
        std::vector<std::size_t> used;   // states named, ascending
        std::vector<std::size_t> finals; // distinct, among `used`
    };

    static std::string reg(std::uint8_t b) { return "r" + std::to_string(b % 3); }
    static std::string num(std::uint64_t n) { return std::to_string(n); }

    std::string value(std::uint8_t y) const {
        const std::uint8_t a = y >> 3;
        switch (y % 8) {
        case 3:
            return reg(a);
        case 4:
            return "% + " + reg(a) + " 1 3";
        case 5:
            return "% + " + reg(a) + " " + reg(a / 3) + " 3";
        case 6:
            return "== " + reg(a) + " " + num(a / 3 % 3);
        case 7:
            return wide_ ? num(far_) : "% - " + reg(a) + " 1 3";
        default:
            return num(y % 8);
        }
    }

    std::string address(std::uint8_t y) const {
        const std::uint8_t a = y >> 3;
        switch (y % 8) {
        case 3:
            return reg(a);
        case 4:
            return "% + " + reg(a) + " " + num(a / 3 % 3) + " 3";
        case 5:
            return wide_ ? num(a * 7u % width_) : "% " + reg(a) + " 3";
        case 6: // computed, near the top of the fan or at the far address
            return wide_ ? "+ " + reg(a) + " " + num(a / 3 % 2 != 0 ? far_ : width_ - 1)
                         : num(a % 3);
        case 7:
            return wide_ ? num(far_) : reg(a);
        default:
            return num(y % 8);
        }
    }

    static std::string condition(std::uint8_t x, std::uint8_t y) {
        const std::string r = reg(y);
        const std::string c = num(y / 3 % 3);
        switch (x % 6) {
        case 0:
            return "== " + r + " " + c;
        case 1:
            return "!= " + r + " " + c;
        case 2:
            return "< " + r + " " + c;
        case 3:
            return "! " + r;
        case 4:
            return "&& == " + r + " " + c + " != " + reg(y / 9) + " " + num(y / 27 % 3);
        default:
            return "< " + r + " " + reg(y / 9);
        }
    }

    // The transition lines of one spec transition (a fan gives many).
    std::string lines(const std::string& head, const SpecTransition& x) {
        const std::uint8_t k = x.kind % 32;
        const bool fan = k >= kind::kFanRead;
        const bool fanWrite = k >= kind::kFanWrite;
        if (fan && wide_ && !fanned_) {
            fanned_ = true; // one fan per program keeps the state space small
            std::string out;
            for (std::uint64_t c = 0; c < width_; ++c) {
                out += head + (fanWrite ? "write " + value(x.x) : "read " + reg(x.x)) + " " +
                       num(c) + "\n";
            }
            return out;
        }
        if (k < kind::kWrite || (fan && !fanWrite)) {
            return head + "read " + reg(x.x) + " " + address(x.y) + "\n";
        }
        if (k < kind::kLocal || fanWrite) {
            return head + "write " + value(x.x) + " " + address(x.y) + "\n";
        }
        if (k < kind::kCheck) {
            return head + "local " + reg(x.x) + " " + value(x.y) + "\n";
        }
        if (k < kind::kFence) {
            return head + "check " + condition(x.x, x.y) + "\n";
        }
        if (k < kind::kNoop) {
            return head + "mfence\n";
        }
        if (k < kind::kLock) {
            return head + "noop\n";
        }
        if (x.x % 4 != 0) { // rarer still: dpor and rf refuse programs with locks
            return head + "noop\n";
        }
        return head + (k == kind::kLock ? "lock\n" : "unlock\n");
    }

    Rendered thread(const SpecThread& t) {
        const std::size_t n = 2 + t.states % 7;
        std::vector<bool> used(n);
        used[0] = true;
        std::size_t cur = 0;
        std::size_t fresh = 1; // the next state no edge has named yet
        Rendered out;
        for (const SpecTransition& x : t.steps) {
            const auto next = [&] { return fresh < n ? fresh++ : x.state % n; };
            std::size_t from = cur;
            std::size_t to = 0;
            switch (x.control % 8) {
            case edge::kBack:
                to = x.state % (cur + 1);
                cur = to;
                break;
            case edge::kBranch:
                from = x.state % fresh;
                to = next();
                cur = to;
                break;
            case edge::kAny:
                from = (x.state & 15u) % n;
                to = (x.state >> 4) % n;
                break;
            case edge::kSide:
                to = next();
                break;
            default:
                to = next();
                cur = to;
                break;
            }
            used[from] = true;
            used[to] = true;
            out.body += lines("transition q" + num(from) + " q" + num(to) + " ", x);
        }
        for (std::size_t s = 0; s < n; ++s) {
            if (used[s]) {
                out.used.push_back(s);
            }
        }
        for (std::uint8_t f : t.finals) {
            const std::size_t s = goalState(out.used, f);
            if (std::find(out.finals.begin(), out.finals.end(), s) == out.finals.end()) {
                out.finals.push_back(s);
            }
        }
        return out;
    }

    // A state a goal accepts: one the thread names other than its initial
    // state (a goal there holds at once), if there is one.
    static std::size_t goalState(const std::vector<std::size_t>& used, std::size_t pick) {
        return used.size() == 1 ? used[0] : used[1 + pick % (used.size() - 1)];
    }

    // "t1=q2,t0=q3": a thread named twice accepts either state.
    static std::string goalTerm(const std::vector<Rendered>& threads,
                                const std::vector<std::uint8_t>& pairs) {
        std::string out;
        for (std::uint8_t p : pairs) {
            const std::size_t t = p % threads.size();
            const std::size_t s = goalState(threads[t].used, p / threads.size());
            out += (out.empty() ? "" : ",") + std::string("t") + num(t) + "=q" + num(s);
        }
        return out;
    }

    const Spec& s_;
    bool wide_;
    std::uint64_t width_;
    std::uint64_t far_;
    bool fanned_ = false;
};

inline std::string renderSpec(const Spec& s) {
    return SpecRenderer(s).render();
}

// The program text a fuzz input decodes to.
inline std::string decodeDifferential(std::span<const std::uint8_t> bytes) {
    return renderSpec(decodeSpec(bytes));
}

// ---- The check ---------------------------------------------------------------

// Limits that keep one input well under a second in the fuzz build; a limit
// only ever turns an answer into no answer.
struct DifferentialLimits {
    std::size_t bruteStates = 20000;    // brute force: more states, unknown
    std::uint64_t engineStates = 20000; // per engine run
    double seconds = 3;                 // all engine runs on one input
    double runSeconds = 1;              // one engine run
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
    for (const reach::EngineInfo* info : lazy::catalogFor(m)) {
        const auto make = [info, m] { return info->make(m); };
        reach::Options base;
        base.maxIterations = 8;
        if (info->name != "explicit") {
            if (cyclic && (info->name == "dpor" || info->name == "rf")) {
                base.unroll = 2;
            }
            out.push_back({std::string(info->name), make, base});
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
        run.options.timeoutSeconds = std::min(left, lim.runSeconds);
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
