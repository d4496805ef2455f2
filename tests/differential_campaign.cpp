// A long differential campaign (scripts/differential.sh, docs/testing.md):
// random programs of random_program.hpp through every engine that applies,
// under every model, against each other and the brute-force explorer of
// brute_force.hpp. Not a ctest test: it runs for as long as asked.
//
//   differential_campaign N [SEED] [--out DIR] [--program-seconds S]
//
// Program i is randomShapesProgram(SEED + i) when SEED + i is 3 modulo 4,
// else randomCampaignProgram(SEED + i); its goal is given by its "# goal"
// lines, else its final states (goal_lines.hpp). Per model the definite
// answers (reachable, unreachable) must agree, and reachability must nest
// SC within TSO within PSO. An engine that throws (a trace that does not
// replay, an internal error) is a finding as well. Every finding is saved
// in DIR as seed-N.txt (the program), seed-N.min.txt (the program after
// greedy deletion of threads, transitions, finals and goal lines, and
// instructions turned into noop, while the finding persists:
// minimise_program.hpp) and seed-N.note (the answers). Exits 1 when there is a finding.

#include "goal_lines.hpp"
#include "minimise_program.hpp"
#include "random_program.hpp"
#include "support/brute_force.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/tsoreach/parser.hpp"
#include "tsoreach/lang/control_flow.hpp"
#include "tsoreach/reach/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace tsoreach {
namespace {

using reach::MemoryModel;
using reach::Verdict;
using Clock = std::chrono::steady_clock;

constexpr MemoryModel kModels[] = {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO};
// Back edges per thread for dpor and rf on cyclic programs; then only their
// positive answers are conclusive (they say unknown otherwise).
constexpr std::size_t kUnroll = 2;

struct Settings {
    std::uint64_t count = 0;
    std::uint64_t firstSeed = 0;
    std::filesystem::path out = "differential-out";
    double programSeconds = 10; // all runs of one program, brute force included
};

// One answer: who gave it and what it was.
struct Answer {
    std::string who; // "explicit dfs por=on live=off", "brute force", ...
    MemoryModel model;
    Verdict verdict = Verdict::Unknown;
    std::string note; // reason of unknown, or what an engine threw
    bool threw = false;
};

struct Check {
    std::vector<Answer> answers;
    std::size_t comparisons = 0; // definite answers compared with another one
    std::vector<std::string> problems;
    bool timedOut = false; // the program's time ran out before every run was made
};

Verdict fromBrute(test::BruteVerdict v) {
    switch (v) {
    case test::BruteVerdict::Reachable:
        return Verdict::Reachable;
    case test::BruteVerdict::Unreachable:
        return Verdict::Unreachable;
    case test::BruteVerdict::Unknown:
        break;
    }
    return Verdict::Unknown;
}

test::BruteModel bruteModel(MemoryModel m) {
    switch (m) {
    case MemoryModel::SC:
        return test::BruteModel::SC;
    case MemoryModel::TSO:
        return test::BruteModel::TSO;
    case MemoryModel::PSO:
        break;
    }
    return test::BruteModel::PSO;
}

// Every run of one model on `p`, as long as `deadline` allows.
void runModel(const Program& p, const Goal& goal, MemoryModel model, Clock::time_point deadline,
              Check& check) {
    const auto left = [&] {
        return std::chrono::duration<double>(deadline - Clock::now()).count();
    };
    if (left() <= 0) {
        check.timedOut = true;
        return;
    }
    {
        test::BruteOptions o;
        o.model = bruteModel(model);
        const test::BruteResult r = test::bruteForce(p, goal, o);
        check.answers.push_back({"brute force", model, fromBrute(r.verdict), r.reason, false});
    }
    const bool cyclic = hasControlCycle(p);
    for (const engines::EngineEntry& info : engines::reachEnginesFor(model)) {
        std::vector<std::pair<std::string, reach::Options>> configs;
        reach::Options base;
        base.maxIterations = 8;
        if (info.name == "explicit") {
            for (const auto& [search, por, live] :
                 {std::tuple{reach::SearchOrder::Dfs, false, false},
                  std::tuple{reach::SearchOrder::Dfs, true, false},
                  std::tuple{reach::SearchOrder::Dfs, false, true},
                  std::tuple{reach::SearchOrder::Dfs, true, true},
                  std::tuple{reach::SearchOrder::Bfs, true, true}}) {
                reach::Options o = base;
                o.search = search;
                o.partialOrder = por;
                o.liveRegisters = live;
                o.mergeStores = por; // por is for SC, store merging for TSO/PSO
                configs.emplace_back("explicit " + std::string(reach::name(search)) +
                                         " por=merge=" + (por ? "on" : "off") +
                                         " live=" + (live ? "on" : "off"),
                                     o);
            }
        } else {
            reach::Options o = base;
            if (cyclic && (info.name == "dpor" || info.name == "rf")) {
                o.unroll = kUnroll;
            }
            configs.emplace_back(std::string(info.name) +
                                     (o.unroll != 0 ? " unroll=" + std::to_string(o.unroll) : ""),
                                 o);
        }
        for (auto& [who, o] : configs) {
            const double seconds = left();
            if (seconds <= 0) {
                check.timedOut = true;
                return;
            }
            o.stop.setTimeout(seconds);
            Answer a{who, model, Verdict::Unknown, "", false};
            try {
                auto engine = info.makeReach(model);
                const reach::Result r = reach::runChecked(*engine, p, goal, o);
                a.verdict = r.verdict;
                a.note = r.reason;
            } catch (const std::exception& e) {
                a.threw = true;
                a.note = e.what();
            }
            check.answers.push_back(std::move(a));
        }
    }
}

// Runs everything on `text` (only `models`), then looks for disagreements.
Check checkProgram(const std::string& text, const std::vector<MemoryModel>& models,
                   double seconds) {
    Check check;
    const Program p = parseProgram(text, "campaign");
    const std::optional<Goal> goal = test::goalOfText(p, text);
    if (!goal) {
        return check;
    }
    const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                          std::chrono::duration<double>(seconds));
    for (MemoryModel m : models) {
        runModel(p, *goal, m, deadline, check);
    }
    std::vector<std::optional<Verdict>> definite(3);
    for (MemoryModel m : models) {
        const Answer* first = nullptr;
        for (const Answer& a : check.answers) {
            if (a.model != m) {
                continue;
            }
            if (a.threw) {
                check.problems.push_back(a.who + " under " + std::string(reach::name(m)) +
                                         " threw: " + a.note);
                continue;
            }
            if (a.verdict == Verdict::Unknown) {
                continue;
            }
            if (first == nullptr) {
                first = &a;
                definite[static_cast<std::size_t>(m)] = a.verdict;
                continue;
            }
            ++check.comparisons;
            if (a.verdict != first->verdict) {
                check.problems.push_back(std::string(reach::name(m)) + ": " + a.who + " says " +
                                         std::string(reach::name(a.verdict)) + ", " + first->who +
                                         " says " + std::string(reach::name(first->verdict)));
            }
        }
    }
    // Reach_SC within Reach_TSO within Reach_PSO.
    for (std::size_t i = 0; i + 1 < 3; ++i) {
        if (definite[i] == Verdict::Reachable && definite[i + 1] == Verdict::Unreachable) {
            check.problems.push_back(std::string(reach::name(kModels[i])) + " reachable but " +
                                     std::string(reach::name(kModels[i + 1])) + " unreachable");
        }
    }
    return check;
}

std::string describe(const Check& c) {
    std::string out;
    for (const std::string& p : c.problems) {
        out += "problem: " + p + "\n";
    }
    for (const Answer& a : c.answers) {
        out += std::string(reach::name(a.model)) + "\t" + a.who + "\t" +
               (a.threw ? "threw" : std::string(reach::name(a.verdict))) +
               (a.note.empty() ? "" : "\t" + a.note) + "\n";
    }
    return out;
}

void save(const std::filesystem::path& file, const std::string& text) {
    std::ofstream(file) << text;
}

int campaign(const Settings& s) {
    const Clock::time_point start = Clock::now();
    std::filesystem::create_directories(s.out);
    std::uint64_t programs = 0;
    std::uint64_t comparisons = 0;
    std::uint64_t disagreements = 0;
    std::uint64_t timedOut = 0;
    std::uint64_t acyclic = 0;
    for (std::uint64_t i = 0; i < s.count; ++i) {
        const std::uint64_t seed = s.firstSeed + i;
        // A quarter of the seeds give programs of the rarer shapes; the
        // others give the programs they gave before those existed.
        const bool shapes = seed % 4 == 3;
        const std::string text =
            shapes ? test::randomShapesProgram(seed) : test::randomCampaignProgram(seed);
        const Check c =
            checkProgram(text, {std::begin(kModels), std::end(kModels)}, s.programSeconds);
        ++programs;
        comparisons += c.comparisons;
        timedOut += c.timedOut ? 1 : 0;
        acyclic += hasControlCycle(parseProgram(text, "campaign")) ? 0 : 1;
        if (!c.problems.empty()) {
            ++disagreements;
            const std::string stem = "seed-" + std::to_string(seed);
            save(s.out / (stem + ".txt"), text);
            std::cout << "differential: seed " << seed << ": " << c.problems.front() << "\n";
            // Minimise on the models the first problem involves: all of them
            // for a nesting violation, else the one it names.
            const std::string minimal =
                test::minimiseProgram(text, [&](const std::string& candidate) {
                    try {
                        const Program q = parseProgram(candidate, "candidate");
                        if (!test::goalOfText(q, candidate)) {
                            return false;
                        }
                    } catch (const std::exception&) { // InputError, GoalSpecError
                        return false;
                    }
                    return !checkProgram(candidate, {std::begin(kModels), std::end(kModels)},
                                         s.programSeconds)
                                .problems.empty();
                });
            save(s.out / (stem + ".min.txt"), minimal);
            const Check m =
                checkProgram(minimal, {std::begin(kModels), std::end(kModels)}, s.programSeconds);
            save(s.out / (stem + ".note"), "seed " + std::to_string(seed) +
                                               (shapes ? " (test::randomShapesProgram)\n\n"
                                                       : " (test::randomCampaignProgram)\n\n") +
                                               "original program:\n" + describe(c) +
                                               "\nminimised program (" + stem + ".min.txt):\n" +
                                               describe(m));
        }
        if ((i + 1) % 100 == 0) {
            const double secs = std::chrono::duration<double>(Clock::now() - start).count();
            std::cerr << "differential: " << programs << " programs, " << disagreements
                      << " disagreements, " << secs << " s\n";
        }
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::cout << "differential: " << programs << " programs (" << acyclic << " acyclic), "
              << comparisons << " comparisons, " << disagreements << " disagreements, " << timedOut
              << " over the time limit, " << seconds << " seconds ("
              << (seconds > 0 ? static_cast<double>(programs) / seconds : 0.0)
              << " programs/s), seeds " << s.firstSeed << ".." << s.firstSeed + s.count
              << ", findings in " << s.out.string() << "\n";
    return disagreements == 0 ? 0 : 1;
}

int usage() {
    std::cerr << "usage: differential_campaign N [SEED] [--out DIR] [--program-seconds S]\n";
    return 2;
}

} // namespace
} // namespace tsoreach

int main(int argc, char** argv) {
    tsoreach::Settings s;
    std::vector<std::string> positional;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--out" || a == "--program-seconds") && i + 1 < argc) {
            const std::string v = argv[++i];
            if (a == "--out") {
                s.out = v;
            } else {
                s.programSeconds = std::strtod(v.c_str(), nullptr);
            }
        } else if (!a.empty() && a[0] != '-') {
            positional.push_back(a);
        } else {
            return tsoreach::usage();
        }
    }
    if (positional.empty() || positional.size() > 2) {
        return tsoreach::usage();
    }
    s.count = std::strtoull(positional[0].c_str(), nullptr, 10);
    if (positional.size() == 2) {
        s.firstSeed = std::strtoull(positional[1].c_str(), nullptr, 10);
    }
    try {
        return tsoreach::campaign(s);
    } catch (const std::exception& e) {
        std::cerr << "differential_campaign: " << e.what() << "\n";
        return 2;
    }
}
