// Differential test of joined stores (`joinwrite`) and goal terms with
// views (docs/language.md): random small programs with joinwrite groups
// (inside and outside atomic blocks, left open before a fence, reads in
// between) and random goals with views, through the explicit engine (every
// trace replayed by runChecked) and, where it hands them on, the lazy
// engine, under SC, TSO and PSO, against the brute force of
// support/brute_force.hpp. Under PSO a program with a joinwrite must get
// `unknown` from both.
//
// A program's goal is written in its text as "# goal" lines, one term each:
// "# goal t0=q3,t1=q2 | t0@0 == 1 t1@2 != 0" (threads in accepted states,
// "-" for none; after "|" the views: thread@address op value). A text
// without such lines has its final states as goal.
//
// JOINWRITE_COUNT and JOINWRITE_SEED (environment) ask for another campaign
// than the default (scripts/joinwrite_campaign.sh). Each disagreement is
// printed with its seed, its program and the program minimised
// (minimise_program.hpp); joinwriteProgram(seed) regenerates the program.

#include "minimise_program.hpp"
#include "random_program.hpp"
#include "support/brute_force_engine.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/reach/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::Verdict;
using test::BruteVerdict;

constexpr std::uint64_t kDefaultCount = 800;
constexpr std::uint64_t kDefaultSeed = 0x701dc0de;
constexpr int kMaxReported = 5; // failing programs printed (and minimised)
// Buffers of threads with a loop: the brute force allows max(4, writes).
constexpr std::size_t kEngineBufferBound = 6;
// More states: the brute force says unknown and the program is skipped
// (a few programs would otherwise take most of the time).
constexpr std::size_t kBruteStates = 20000;
constexpr MemoryModel kModels[] = {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO};

// Draws from std::mt19937_64 only: its output is fixed by the standard, the
// distributions' is not, so a seed names one program everywhere.
class Draw {
  public:
    explicit Draw(std::uint64_t seed) : gen_(seed) {}
    std::uint64_t below(std::uint64_t n) { return gen_() % n; }
    bool chance(std::uint64_t num, std::uint64_t den) { return below(den) < num; }
    std::string num(std::uint64_t n) { return std::to_string(below(n)); }

  private:
    std::mt19937_64 gen_;
};

// Joins tokens with spaces (a braced list: its draws run left to right).
std::string words(std::initializer_list<std::string> tokens) {
    std::string out;
    for (const std::string& t : tokens) {
        out += out.empty() ? t : " " + t;
    }
    return out;
}

std::string state(std::size_t i) {
    return "q" + std::to_string(i);
}

// Threads of straight lines built from pieces that exercise joined stores:
// groups of 1 to 3 joinwrites closed by a write (or left open, sometimes
// before a fence), with reads between them, inside or outside atomic
// blocks, beside atomic snapshots, locked blocks, reads, writes, fences.
// Values and addresses stay in 0..2 (computed addresses in -2..2).
class JoinProgram {
  public:
    explicit JoinProgram(std::uint64_t seed) : d_(seed) {}

    std::string generate() {
        std::string out;
        const std::uint64_t threads = d_.chance(3, 4) ? 2 : 3;
        for (std::uint64_t t = 0; t < threads; ++t) {
            thread(out, t);
        }
        return out;
    }

  private:
    void thread(std::string& out, std::uint64_t index) {
        std::vector<std::string> body;
        const std::uint64_t limit = 4 + d_.below(4);
        while (body.size() < limit) {
            piece(body);
        }
        const std::size_t n = body.size();
        out += "thread t" + std::to_string(index) + "\ninitial q0\n";
        if (index == 0 || d_.chance(5, 6)) { // else an unconstrained thread
            out += "final " + state(d_.chance(4, 5) ? n : 1 + d_.below(n)) + "\n";
        }
        for (std::size_t i = 0; i < n; ++i) {
            out += words({"transition", state(i), state(i + 1), body[i]}) + "\n";
        }
        if (d_.chance(1, 4)) { // a forward branch
            const std::uint64_t from = d_.below(n);
            const std::uint64_t to = from + 1 + d_.below(n - from);
            out += words({"transition", state(from), state(to), instruction()}) + "\n";
        }
        if (d_.chance(1, 6)) { // a loop back, taken at most once (register c)
            const std::uint64_t from = d_.below(n);
            const std::uint64_t to = from + 1 + d_.below(n - from);
            out += words({"transition", state(to), "l", "local c + c 1"}) + "\n";
            out += words({"transition", "l", state(from), "check < c 2"}) + "\n";
        }
        out += "end\n";
    }

    void piece(std::vector<std::string>& body) {
        const std::uint64_t k = d_.below(16);
        if (k < 5) {
            group(body);
        } else if (k < 7) {
            body.emplace_back("atomic");
            group(body);
            body.emplace_back("endatomic");
            if (d_.chance(1, 4)) { // the group closed after the block
                body.push_back(words({"write", value(), addr()}));
            }
        } else if (k < 8) { // an atomic snapshot of two cells
            body.emplace_back("atomic");
            body.push_back(words({"read", "r1", addr()}));
            body.push_back(words({"read", "r2", addr()}));
            body.emplace_back("endatomic");
        } else if (k < 9) { // a locked block, sometimes the lock of one address
            const std::string a = d_.num(3);
            const bool one = d_.chance(1, 3);
            body.push_back(one ? "lockfor " + a : "lock");
            body.push_back(d_.chance(1, 2) ? words({"write", value(), a}) : read());
            body.push_back(one ? "unlockfor " + a : "unlock");
        } else {
            body.push_back(instruction());
        }
    }

    // 1 to 3 joined stores, maybe with reads (often of their own cells)
    // between them, closed by a plain write four times in five; an open
    // group is sometimes followed by a fence, which it then blocks.
    void group(std::vector<std::string>& body) {
        for (std::uint64_t n = 1 + d_.below(3); n > 0; --n) {
            const std::string a = addr();
            body.push_back(words({"joinwrite", value(), a}));
            if (d_.chance(1, 3)) {
                body.push_back(d_.chance(1, 2) ? words({"read", reg(), a}) : read());
            }
        }
        if (d_.chance(4, 5)) {
            body.push_back(words({"write", value(), addr()}));
        } else if (d_.chance(1, 2)) {
            body.emplace_back(d_.chance(2, 3) ? "mfence" : "lock");
        }
    }

    std::string instruction() {
        switch (d_.below(8)) {
        case 0:
        case 1:
        case 2:
            return read();
        case 3:
        case 4:
            return words({"write", value(), addr()});
        case 5:
            return words({"check", condition()});
        case 6:
            return "mfence";
        default:
            return words({"local", reg(), words({"%", "+", reg(), "1", "3"})});
        }
    }

    std::string read() { return words({"read", reg(), addr()}); }
    std::string reg() { return "r" + d_.num(3); }
    // Mostly a constant; sometimes computed, and then sometimes a cell no
    // constant of the program names (3 or 4).
    std::string addr() {
        if (d_.chance(7, 8)) {
            return d_.num(3);
        }
        return d_.chance(1, 2) ? words({"%", reg(), "3"}) : words({"+", "3", "%", reg(), "2"});
    }
    std::string value() {
        const std::uint64_t k = d_.below(6);
        return k == 0 ? reg() : std::to_string(1 + k % 2);
    }
    std::string condition() {
        const std::uint64_t k = d_.below(3);
        return k == 0   ? words({"==", reg(), d_.num(3)})
               : k == 1 ? words({"!=", reg(), d_.num(3)})
                        : words({"!", reg()});
    }

    Draw d_;
};

// A program of random_program.hpp (litmus shapes, branches, loops) with
// each write a joinwrite half the time.
std::string joinedRandomProgram(std::uint64_t seed, Draw& d) {
    const std::string text =
        d.chance(2, 3) ? test::randomAcyclicProgram(seed) : test::randomProgram(seed);
    std::istringstream in(text);
    std::string out;
    static const std::regex write("^(transition \\S+ \\S+) write ");
    for (std::string line; std::getline(in, line);) {
        if (std::regex_search(line, write) && d.chance(1, 2)) {
            line = std::regex_replace(line, write, "$1 joinwrite ");
        }
        out += line + "\n";
    }
    return out;
}

const char* const kComparisons[] = {"==", "!=", "<", "<=", ">", ">="};

// One view " T@A OP V": addresses mostly the program's (0..2), sometimes
// one it never names as a constant.
std::string viewAtom(const Program& p, Draw& d) {
    const std::string t = p.threads[d.below(p.threads.size())].name;
    const std::string a =
        d.chance(5, 6) ? d.num(3) : std::to_string(static_cast<int>(d.below(7)) - 2);
    const std::string op = d.chance(1, 2) ? "==" : kComparisons[d.below(6)];
    return " " + words({t + "@" + a, op, d.num(3)});
}

// "# goal" lines (see the header) for `p`: one to three terms, each
// constraining up to two threads and asking up to three views. Unless
// `mixed`, a goal whose terms ask for views asks one at least in each
// (LockConditionBelongsToTermsWithViews has the case that mixing found).
std::string goalLines(const Program& p, Draw& d, bool mixed) {
    std::vector<std::pair<std::string, std::string>> terms; // (pcs, views)
    bool views = false;
    for (std::uint64_t term = 1 + d.below(d.chance(1, 3) ? 3 : 1); term > 0; --term) {
        std::string pcs;
        for (std::uint64_t n = d.below(3); n > 0; --n) {
            const Thread& t = p.threads[d.below(p.threads.size())];
            const std::string& s = !t.finals.empty() && d.chance(2, 3)
                                       ? t.stateNames[t.finals.front().index()]
                                       : t.stateNames[d.below(t.stateCount())];
            pcs += (pcs.empty() ? "" : ",") + t.name + "=" + s;
        }
        std::string atoms;
        for (std::uint64_t n = d.chance(1, 6) ? 0 : 1 + d.below(3); n > 0; --n) {
            atoms += viewAtom(p, d);
        }
        views = views || !atoms.empty();
        terms.emplace_back(pcs.empty() ? "-" : pcs, atoms);
    }
    std::string out;
    for (auto& [pcs, atoms] : terms) {
        if (views && !mixed && atoms.empty()) {
            atoms = viewAtom(p, d);
        }
        out += "# goal " + pcs + " |" + atoms + "\n";
    }
    return out;
}

// `text` with every joinwrite a plain write.
std::string unjoined(const std::string& text) {
    return std::regex_replace(text, std::regex(" joinwrite "), " write ");
}

// The program of `seed`, its goal lines first. Most are JoinProgram's; a
// quarter come from random_program.hpp. A sixth have their joinwrites made
// writes (views alone, PSO included). Most goals ask for views; a sixth of
// the programs keep their final states as goal. `mixed`: see goalLines.
std::string joinwriteProgram(std::uint64_t seed, bool mixed = false) {
    Draw d(seed);
    std::string text =
        d.chance(1, 4) ? joinedRandomProgram(seed, d) : JoinProgram(d.below(~0ULL)).generate();
    if (d.chance(1, 6)) {
        text = unjoined(text);
    }
    if (d.chance(1, 6)) {
        return text;
    }
    return goalLines(test::parse(text), d, mixed) + text;
}

ThreadId threadNamed(const Program& p, const std::string& name) {
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        if (p.threads[t].name == name) {
            return ThreadId(static_cast<std::uint32_t>(t));
        }
    }
    throw GoalSpecError("no thread '" + name + "'");
}

// Adds the views "T@A OP V ..." to the last term of g.
void addViews(const Program& p, const std::string& text, Goal& g) {
    std::istringstream in(text);
    for (std::string where, op, value; in >> where >> op >> value;) {
        const std::size_t at = where.find('@');
        const std::optional<ExprOp> o = operatorFromSpelling(op);
        if (at == std::string::npos || !o) {
            throw GoalSpecError("bad view '" + where + " " + op + "'");
        }
        g.requireView({threadNamed(p, where.substr(0, at)), std::stoll(where.substr(at + 1)), *o,
                       std::stoll(value)});
    }
}

// The goal of a text (see the header); nullopt when it has none.
std::optional<Goal> goalOf(const Program& p, const std::string& text) {
    std::istringstream in(text);
    std::optional<Goal> g;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("# goal ", 0) != 0) {
            continue;
        }
        const std::size_t bar = line.find(" |");
        const std::string pcs = line.substr(7, bar - 7);
        if (g) {
            g->addTerm();
        } else {
            g.emplace(p);
        }
        if (pcs != "-") {
            const Goal one = parseGoalSpec(p, pcs);
            for (ThreadId t : one.termThreads(0)) {
                g->constrain(t);
                for (StateId s : one.termAcceptedStates(0, t)) {
                    g->accept(t, s);
                }
            }
        }
        addViews(p, bar == std::string::npos ? "" : line.substr(bar + 2), *g);
    }
    return g ? g : defaultGoal(p);
}

std::string verdictName(Verdict v) {
    return std::string(reach::name(v));
}

Verdict fromBrute(BruteVerdict v) {
    return v == BruteVerdict::Reachable     ? Verdict::Reachable
           : v == BruteVerdict::Unreachable ? Verdict::Unreachable
                                            : Verdict::Unknown;
}

test::BruteResult brute(const Program& p, const Goal& g, MemoryModel m) {
    test::BruteOptions o;
    o.maxStates = kBruteStates;
    o.model = m == MemoryModel::SC    ? test::BruteModel::SC
              : m == MemoryModel::TSO ? test::BruteModel::TSO
                                      : test::BruteModel::PSO;
    return test::bruteForce(p, g, o);
}

// One engine run to compare: the engine and its options.
struct Config {
    std::string engine;
    reach::Options options;
    std::string label;
    bool plain = false; // no reduction: the explicit engine stores the brute force's states
};

std::vector<Config> configs(MemoryModel m, bool handedOn) {
    std::vector<Config> out;
    for (const auto& [order, reduce, live] : {std::tuple{reach::SearchOrder::Dfs, false, false},
                                              std::tuple{reach::SearchOrder::Bfs, false, false},
                                              std::tuple{reach::SearchOrder::Dfs, true, false},
                                              std::tuple{reach::SearchOrder::Dfs, false, true},
                                              std::tuple{reach::SearchOrder::Bfs, true, true}}) {
        Config c{"explicit", {}, "", !reduce && !live};
        c.options.search = order;
        c.options.partialOrder = reduce; // SC
        c.options.mergeStores = reduce;  // TSO, PSO
        c.options.liveRegisters = live;
        c.label = "explicit --search " + std::string(reach::name(order)) +
                  " --por/--merge-stores " + (reduce ? "on" : "off") + " --live " +
                  (live ? "on" : "off");
        out.push_back(c);
    }
    Config parallel{"explicit", {}, "explicit --search-jobs 2", false};
    parallel.options.searchJobs = 2;
    out.push_back(parallel);
    if (m == MemoryModel::TSO && handedOn) { // lazy hands these to the explicit engine
        out.push_back({"lazy", {}, "lazy", false});
    }
    // The brute force's own paths as traces: runChecked replays them, so
    // the replay checker also meets traces the explicit engine did not make.
    Config bruteTraces{"brute-force", {}, "brute-force traces", false};
    bruteTraces.options.maxStates = kBruteStates;
    out.push_back(bruteTraces);
    for (Config& c : out) {
        c.options.bufferBound = kEngineBufferBound;
        c.options.stop.setTimeout(60);
    }
    return out;
}

struct Tally {
    std::map<MemoryModel, int> compared;      // programs with a definite brute-force verdict
    std::map<MemoryModel, int> bruteUnknown;  // ... without one (buffer bound, PSO joinwrite)
    std::map<MemoryModel, int> engineUnknown; // engine runs that said unknown where it need not
    std::map<MemoryModel, int> reachable;     // brute force: reachable
    int runs = 0;
    int joined = 0;                        // programs with a joinwrite
    int views = 0;                         // goals with views
    int joinMatters = 0;                   // reachable under TSO with writes, not with joinwrites
    std::map<std::string, int> unknownWhy; // engineUnknown by engine and reason
};

// Joining only delays stores: the same program with plain writes reaches
// at least as much under TSO (a check of the brute force itself).
void checkAgainstPlainWrites(const Goal& g, const std::string& text, BruteVerdict joined,
                             Tally& tally, std::vector<std::string>& problems) {
    const test::BruteResult w = brute(test::parse(unjoined(text)), g, MemoryModel::TSO);
    if (joined == BruteVerdict::Reachable && w.verdict == BruteVerdict::Unreachable) {
        problems.emplace_back("brute force --model tso: reachable with joinwrites, "
                              "unreachable with writes");
    }
    tally.joinMatters +=
        joined == BruteVerdict::Unreachable && w.verdict == BruteVerdict::Reachable ? 1 : 0;
}

// A complete search without reductions stores the brute force's states,
// except that the engine skips the control state between an unlock and an
// mfence after it (explicit_engine.cpp): with fences, at most as many.
void checkStates(const Program& p, const Config& c, const reach::Result& r,
                 const test::BruteResult& b, const std::string& model,
                 std::vector<std::string>& problems) {
    if (!c.plain || r.verdict != Verdict::Unreachable) {
        return;
    }
    const bool fences =
        std::any_of(p.transitions.begin(), p.transitions.end(),
                    [](const Transition& t) { return t.instr.kind == InstrKind::Mfence; });
    if (fences ? r.stats.states > b.states : r.stats.states != b.states) {
        problems.push_back(c.label + model + ": " + std::to_string(r.stats.states) +
                           " states stored, the brute force found " + std::to_string(b.states));
    }
}

// Runs every configuration on p under m and compares with the brute
// force's result b; under PSO a program with a joinwrite must be refused.
void checkEngines(const Program& p, const Goal& g, MemoryModel m, const test::BruteResult& b,
                  Tally& tally, std::vector<std::string>& problems) {
    const bool joined = firstJoinedWrite(p) != nullptr;
    const bool refused = joined && m == MemoryModel::PSO;
    const Verdict want = fromBrute(b.verdict);
    const std::string model = " --model " + std::string(reach::name(m));
    for (const Config& c : configs(m, joined || g.hasViews())) {
        ++tally.runs;
        std::unique_ptr<reach::Engine> engine = c.engine == "brute-force"
                                                    ? std::make_unique<test::BruteForceEngine>(m)
                                                    : engines::makeReachEngine(c.engine, m);
        reach::Result r;
        try {
            r = reach::runChecked(*engine, p, g, c.options);
        } catch (const std::exception& e) {
            problems.push_back(c.label + model + " threw: " + e.what());
            continue;
        }
        if (r.verdict == want) {
            checkStates(p, c, r, b, model, problems);
            continue;
        }
        if (r.verdict == Verdict::Unknown && !refused && hasControlCycle(p)) {
            ++tally.engineUnknown[m]; // its buffer bound may stop it earlier
            ++tally.unknownWhy[c.engine + ": " + r.reason.substr(0, 60)];
            continue;
        }
        problems.push_back(c.label + model + ": " + verdictName(r.verdict) + " (" + r.reason +
                           "), brute force: " + verdictName(want) + " (" + b.reason + ")");
    }
}

// Compares the engines' answers with the brute force's under m; appends
// every disagreement to `problems`.
void checkModel(const Program& p, const Goal& g, const std::string& text, MemoryModel m,
                Tally& tally, std::vector<std::string>& problems) {
    const bool joined = firstJoinedWrite(p) != nullptr;
    const test::BruteResult b = brute(p, g, m);
    if (b.verdict == BruteVerdict::Unknown) {
        ++tally.bruteUnknown[m];
        if (!joined || m != MemoryModel::PSO) {
            return; // beyond the brute force's buffer bound
        }
    } else {
        ++tally.compared[m];
        tally.reachable[m] += b.verdict == BruteVerdict::Reachable ? 1 : 0;
    }
    if (m == MemoryModel::TSO && joined) {
        checkAgainstPlainWrites(g, text, b.verdict, tally, problems);
    }
    checkEngines(p, g, m, b, tally, problems);
}

// The disagreements on one program text (none for a text that does not
// parse or has no goal: the minimiser's candidates).
std::vector<std::string> disagreements(const std::string& text, Tally& tally) {
    std::optional<Program> p;
    std::optional<Goal> g;
    try {
        p.emplace(test::parse(text));
        g = goalOf(*p, text);
    } catch (const std::exception&) {
        return {};
    }
    if (!g) {
        return {};
    }
    std::vector<std::string> problems;
    for (MemoryModel m : kModels) {
        checkModel(*p, *g, text, m, tally, problems);
    }
    return problems;
}

std::uint64_t fromEnvironment(const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? std::stoull(v, nullptr, 0) : fallback;
}

// Prints a failing program, minimised, with its disagreements.
std::string report(std::uint64_t seed, bool mixed, const std::string& text,
                   const std::vector<std::string>& problems) {
    Tally scratch;
    const std::string small = test::minimiseProgram(
        text, [&](const std::string& t) { return !disagreements(t, scratch).empty(); });
    std::string out = "seed " + std::to_string(seed) + " (joinwriteProgram(" +
                      std::to_string(seed) + (mixed ? ", true" : "") + ")):\n" + text +
                      "minimised:\n" + small;
    for (const std::string& s : disagreements(small, scratch)) {
        out += "  minimised: " + s + "\n";
    }
    for (const std::string& s : problems) {
        out += "  " + s + "\n";
    }
    return out;
}

// The brute force itself on the hand-checked programs of joinwrite_test.cpp.
TEST(JoinWriteBruteForce, KnownAnswers) {
    const auto verdicts = [](const std::string& text) {
        const Program p = test::parse(text);
        const Goal g = *goalOf(p, text);
        std::vector<BruteVerdict> out;
        for (MemoryModel m : kModels) {
            out.push_back(brute(p, g, m).verdict);
        }
        return out;
    };
    using V = std::vector<BruteVerdict>;
    const BruteVerdict R = BruteVerdict::Reachable;
    const BruteVerdict U = BruteVerdict::Unreachable;
    const BruteVerdict N = BruteVerdict::Unknown;
    const std::string observer = "thread b initial s transition s t atomic\n"
                                 "transition t u read r 0 transition u v read q 1\n"
                                 "transition v w endatomic\n"
                                 "transition w f check && == r 1 == q 0 final f end\n";
    // A group reaches memory at once: b never sees x written without y.
    EXPECT_EQ(verdicts("thread a initial s transition s t atomic\n"
                       "transition t u joinwrite 1 0 transition u v write 1 1\n"
                       "transition v w endatomic end\n" +
                       observer),
              (V{U, U, N}));
    EXPECT_EQ(verdicts("thread a initial s transition s t atomic\n"
                       "transition t u write 1 0 transition u v write 1 1\n"
                       "transition v w endatomic end\n" +
                       observer),
              (V{U, R, R}));
    // A joined store waits for its partner: a fence after it never passes.
    EXPECT_EQ(verdicts("thread a initial s transition s t joinwrite 1 0\n"
                       "transition t f mfence final f end\n"),
              (V{R, U, N}));
    // The thread reads its own joined store before it reaches memory.
    EXPECT_EQ(verdicts("thread a initial s transition s t joinwrite 2 0\n"
                       "transition t u read r 0 transition u f check == r 2 final f end\n"),
              (V{R, R, N}));
    // Views: a sees its buffered x = 1 while b sees memory's 0 (TSO, PSO).
    EXPECT_EQ(verdicts("# goal - | a@0 == 1 b@0 == 0\n"
                       "thread a initial s transition s t write 1 0 end\n"
                       "thread b initial s transition s t noop end\n"),
              (V{U, R, R}));
    // ... not inside a locked block, whose half-written state nobody sees.
    EXPECT_EQ(verdicts("# goal - | a@0 == 1 a@1 != 1\n"
                       "thread a initial s transition s t lock transition t u write 1 0\n"
                       "transition u v write 1 1 transition v w unlock end\n"),
              (V{U, U, U}));
    // An open group stays in the buffer: b sees 0 where a sees 1.
    EXPECT_EQ(verdicts("# goal a=t | a@0 == 1 b@0 == 0 a@5 < 1\n"
                       "thread a initial s transition s t joinwrite 1 0 end\n"
                       "thread b initial s transition s t noop end\n"),
              (V{U, R, N}));
}

// Programs aimed at corners: each must draw no disagreement.
TEST(JoinWriteRandom, DirectedCases) {
    const char* const texts[] = {
        // Views of a cell no constant names (3), written through a group.
        "# goal a=v | a@3 == 1 b@3 == 0\n"
        "thread a initial s transition s t local r 3\n"
        "transition t u joinwrite 1 r transition u v write 2 0 end\n"
        "thread b initial s transition s t noop end\n",
        "# goal b=t | b@3 == 1 a@0 == 2\n"
        "thread a initial s transition s t local r 3\n"
        "transition t u joinwrite 1 r transition u v write 2 0 end\n"
        "thread b initial s transition s t noop end\n",
        // A negative address.
        "# goal - | a@-1 == 2 b@-1 == 0\n"
        "thread a initial s transition s t local r - 0 1\n"
        "transition t u joinwrite 2 r transition u v write 1 r end\n"
        "thread b initial s transition s t noop end\n",
        // Inside an atomic block the views are not looked at.
        "# goal a=u | a@0 == 1\n"
        "thread a initial s transition s t atomic transition t u joinwrite 1 0\n"
        "transition u v write 1 1 transition v w endatomic end\n",
    };
    for (const char* text : texts) {
        Tally tally;
        const std::vector<std::string> problems = disagreements(text, tally);
        std::string all;
        for (const std::string& s : problems) {
            all += "  " + s + "\n";
        }
        EXPECT_TRUE(problems.empty()) << text << all;
    }
}

// language.md: a term with views holds only where no thread holds the
// lock; a term without views is not so restricted. Here the term without
// views holds once a has taken the lock (reachable under every model), the
// term with views never. The explicit engine and the replay checker once
// applied the lock condition to every term of a goal with views anywhere.
TEST(JoinWriteRandom, LockConditionBelongsToTermsWithViews) {
    const std::string text = "# goal a=t | \n# goal - | a@0 == 5\n"
                             "thread a initial s transition s t lock end\n";
    Tally tally;
    const std::vector<std::string> problems = disagreements(text, tally);
    std::string all;
    for (const std::string& s : problems) {
        all += "  " + s + "\n";
    }
    EXPECT_TRUE(problems.empty()) << text << all;
}

TEST(JoinWriteRandom, DeterministicAndParses) {
    EXPECT_EQ(joinwriteProgram(11), joinwriteProgram(11));
    int joined = 0;
    int views = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const std::string text = joinwriteProgram(seed);
        const Program p = test::parse(text);
        const std::optional<Goal> g = goalOf(p, text);
        ASSERT_TRUE(g.has_value()) << text;
        joined += firstJoinedWrite(p) != nullptr ? 1 : 0;
        views += g->hasViews() ? 1 : 0;
    }
    EXPECT_GE(joined, 130);
    EXPECT_GE(views, 120);
}

TEST(JoinWriteRandom, ExplicitEngineAgreesWithBruteForce) {
    const std::uint64_t count = fromEnvironment("JOINWRITE_COUNT", kDefaultCount);
    const std::uint64_t first = fromEnvironment("JOINWRITE_SEED", kDefaultSeed);
    const bool mixed = fromEnvironment("JOINWRITE_MIXED_TERMS", 1) != 0;
    const auto start = std::chrono::steady_clock::now();
    Tally tally;
    int failing = 0;
    std::string failingSeeds;
    for (std::uint64_t seed = first; seed < first + count; ++seed) {
        const std::string text = joinwriteProgram(seed, mixed);
        const std::vector<std::string> problems = disagreements(text, tally);
        const Program p = test::parse(text);
        tally.joined += firstJoinedWrite(p) != nullptr ? 1 : 0;
        tally.views += goalOf(p, text)->hasViews() ? 1 : 0;
        if (problems.empty()) {
            continue;
        }
        failingSeeds += " " + std::to_string(seed);
        if (++failing <= kMaxReported) {
            ADD_FAILURE() << report(seed, mixed, text, problems);
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "[ joinwrite ] " << count << " programs from seed " << first << " in " << seconds
              << " s: " << tally.joined << " with joinwrite, " << tally.views
              << " goals with views, " << tally.runs << " engine runs, " << failing
              << " failing programs, " << tally.joinMatters
              << " TSO-unreachable only thanks to joinwrite\n";
    for (MemoryModel m : kModels) {
        std::cout << "[ joinwrite ] " << reach::name(m) << ": " << tally.compared[m]
                  << " compared (" << tally.reachable[m] << " reachable), " << tally.bruteUnknown[m]
                  << " brute-force unknown, " << tally.engineUnknown[m] << " engine unknown\n";
    }
    for (const auto& [why, n] : tally.unknownWhy) {
        std::cout << "[ joinwrite ] " << n << " unknown from " << why << "\n";
    }
    EXPECT_EQ(failing, 0) << "failing seeds:" << failingSeeds;
    // The programs must exercise both sides of both constructs.
    EXPECT_GE(tally.compared[MemoryModel::TSO], static_cast<int>(count) * 3 / 4);
    EXPECT_GE(tally.reachable[MemoryModel::TSO], static_cast<int>(count) / 5);
    EXPECT_LE(tally.reachable[MemoryModel::TSO], static_cast<int>(count) * 4 / 5);
    EXPECT_GE(tally.joinMatters, static_cast<int>(count) / 50);
}

} // namespace
} // namespace tsoreach
