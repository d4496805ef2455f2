// The differential fuzzer's companion (docs/testing.md):
//
//   differential_inputs seeds DIR             write the seed inputs into DIR
//   differential_inputs print FILE...         the program each input decodes to
//   differential_inputs check MODEL FILE      every answer; exit 1 on a finding
//   differential_inputs minimise MODEL FILE   the finding's program, minimised
//
// FILE is a fuzz input (bytes), or a program text when its name ends in
// .txt (goal: its "# goal" lines, else its final states). `minimise` deletes
// threads, transitions, finals and goal terms while the same two answers
// still differ (or the same engine still throws), and prints the result.

#include "differential.hpp"
#include "minimise_program.hpp"

#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tsoreach::fuzz {
namespace {

// ---- Seeds: classic shapes in the input format -------------------------------

SpecRecord rec(std::uint8_t o, std::uint8_t a = 0, std::uint8_t b = 0) {
    return SpecRecord{o, a, b};
}
// read r0 ADDR, then check == r0 K
SpecRecord loadCheck(std::uint8_t addr, std::uint8_t k) {
    return rec(op::kLoad, static_cast<std::uint8_t>(4 | k << 3), addr);
}
// Address operands (address()): 0 is 0, 1 is 1, 4 is 2.
constexpr std::uint8_t kAddr[] = {0, 1, 4};

SpecThread line(std::vector<SpecRecord> records, bool final = true) {
    SpecThread t;
    t.flags = final ? 0 : 1;
    t.records = std::move(records);
    return t;
}

Spec program(std::vector<SpecThread> threads) {
    Spec s;
    s.threads = std::move(threads);
    s.goal = 1; // the final states
    return s;
}

// Store buffering: each thread writes one address and reads the other's.
Spec storeBuffering(bool fenced) {
    std::vector<SpecThread> threads;
    for (std::uint8_t t = 0; t < 2; ++t) {
        std::vector<SpecRecord> records = {rec(op::kStore, 0, kAddr[t])};
        if (fenced) {
            records.push_back(rec(op::kFence));
        }
        records.push_back(loadCheck(kAddr[1 - t], 0));
        threads.push_back(line(records));
    }
    return program(std::move(threads));
}

std::vector<std::pair<std::string, Spec>> seeds() {
    std::vector<std::pair<std::string, Spec>> out;
    out.emplace_back("sb", storeBuffering(false));
    out.emplace_back("sb-fenced", storeBuffering(true));
    // Message passing: data (0) then flag (1); the reader sees the flag and
    // not the data (only PSO).
    out.emplace_back("mp", program({line({rec(op::kStore, 0, 0), rec(op::kStore, 0, 1)}, false),
                                    line({loadCheck(1, 1), loadCheck(0, 0)})}));
    // Load buffering: never relaxed under these models.
    out.emplace_back("lb", program({line({loadCheck(0, 1), rec(op::kStore, 0, 1)}),
                                    line({loadCheck(1, 1), rec(op::kStore, 0, 0)})}));
    // Two locked increments of address 0 (value % + r0 1 3); then the
    // second thread reads 2.
    const std::vector<SpecRecord> increment = {rec(op::kLock), rec(op::kLoad, 0, 0),
                                               rec(op::kStore, 5, 0), rec(op::kUnlock)};
    std::vector<SpecRecord> checked = increment;
    checked.push_back(loadCheck(0, 2));
    out.emplace_back("lock-increment", program({line(increment), line(checked)}));
    // A counted loop: t0 stores c + 1 at 0 and loops back to the store up
    // to twice (a = 2: guard < c 3); t1 waits to read 2.
    out.emplace_back("loop-counter", program({line({rec(op::kStore, 6, 0), rec(op::kLoop, 2)}),
                                              line({loadCheck(0, 2)})}));
    // Store buffering across a fan of 80 reads and the far address 100
    // (address operand 7: the far address in a wide program).
    Spec wide = program({line({rec(op::kStore, 0, 7), loadCheck(0, 0)}),
                         line({rec(op::kFan, 1, 0), loadCheck(7, 0)})});
    wide.wide = 3;
    wide.width = 20; // 80 addresses
    wide.far = 36;
    out.emplace_back("wide-sb", wide);
    // Store buffering with a goal of two terms: both threads done, or t0
    // past its store.
    Spec terms = storeBuffering(false);
    terms.goal = 0;
    terms.terms = {{0 + 2 * 2, 1 + 2 * 2}, {0}}; // t0=q3,t1=q3 or t0=q1
    out.emplace_back("sb-terms", terms);
    // Store buffering over declared memory that starts at 1 (both loads
    // read 0 by default: here they must read 1, which only the other
    // thread's buffered store of 0 leaves visible).
    Spec initial = program({line({rec(op::kStore, 3, 0), loadCheck(1, 1)}),
                            line({rec(op::kStore, 3, 1), loadCheck(0, 1)})});
    initial.memory = 3;
    initial.init = {1, 1, 0};
    out.emplace_back("sb-initial", initial);
    return out;
}

// ---- Commands ----------------------------------------------------------------

std::string slurp(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read " + file);
    }
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The program text of FILE: itself (.txt) or what the input decodes to.
std::string programOf(const std::string& file) {
    const std::string bytes = slurp(file);
    if (file.size() > 4 && file.ends_with(".txt")) {
        return bytes;
    }
    return decodeDifferential({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()});
}

int writeSeeds(const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    for (const auto& [name, spec] : seeds()) {
        const std::vector<std::uint8_t> bytes = encodeSpec(spec);
        std::ofstream(dir / name, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()),
                   static_cast<std::streamsize>(bytes.size()));
    }
    return 0;
}

// The two sides of a finding: who disagrees with whom, or who threw.
struct Finding {
    std::string who;
    std::string other; // empty: `who` threw
};

std::optional<Finding> findingOf(const std::vector<DifferentialAnswer>& answers) {
    const auto definite = [](const DifferentialAnswer& a) {
        return a.verdict != reach::Verdict::Unknown;
    };
    const DifferentialAnswer& brute = answers.front();
    for (const DifferentialAnswer& a : answers) {
        if (!definite(a)) {
            continue;
        }
        for (const DifferentialAnswer& b : answers) {
            // Against the brute force when it answered, else any pair.
            if ((!definite(brute) || &b == &brute) && definite(b) && b.verdict != a.verdict) {
                return Finding{a.who, b.who};
            }
        }
    }
    return std::nullopt;
}

// The finding on `text` under `m`, running only `only` when given.
std::optional<Finding> findingOn(const std::string& text, reach::MemoryModel m,
                                 const std::optional<Finding>& only) {
    Program p;
    std::optional<Goal> goal;
    try {
        p = parseProgram(text, "candidate");
        goal = test::goalOfText(p, text);
    } catch (const std::exception&) {
        return std::nullopt; // a candidate that does not parse, or names a deleted state
    }
    if (!goal) {
        return std::nullopt;
    }
    AnswerFilter select;
    if (only) {
        select = [&](const std::string& who) {
            return who == only->who || who == only->other || who == "brute force";
        };
    }
    try {
        return findingOf(differentialAnswers(p, *goal, m, {}, select));
    } catch (const PropertyViolation& e) {
        const std::string what = e.what();
        return Finding{what.substr(0, what.find(" under ")), ""};
    }
}

int check(reach::MemoryModel m, const std::string& file) {
    const std::string text = programOf(file);
    const Program p = parseProgram(text, file);
    const std::optional<Goal> goal = test::goalOfText(p, text);
    if (!goal) {
        std::cout << "no goal\n";
        return 0;
    }
    try {
        const std::vector<DifferentialAnswer> answers = differentialAnswers(p, *goal, m, {});
        std::cout << text << "answers under " << reach::name(m) << ":\n"
                  << describeAnswers(answers);
        const std::string problem = firstDisagreement(answers);
        if (!problem.empty()) {
            std::cout << "FINDING: " << problem << "\n";
            return 1;
        }
    } catch (const PropertyViolation& e) {
        std::cout << text << "FINDING: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

int minimise(reach::MemoryModel m, const std::string& file) {
    const std::string text = programOf(file);
    const std::optional<Finding> original = findingOn(text, m, std::nullopt);
    if (!original) {
        std::cerr << "differential_inputs: no finding under " << reach::name(m) << "\n";
        return 1;
    }
    const auto same = [&](const std::string& candidate) {
        const std::optional<Finding> f = findingOn(candidate, m, original);
        return f && f->who == original->who && f->other == original->other;
    };
    const std::string minimal = test::minimiseProgram(text, same);
    std::cout << "# " << reach::name(m) << ": " << original->who
              << (original->other.empty() ? " throws" : " disagrees with " + original->other)
              << "\n"
              << minimal;
    return 0;
}

int usage() {
    std::cerr << "usage: differential_inputs seeds DIR | print FILE... | check MODEL FILE | "
                 "minimise MODEL FILE\n";
    return 2;
}

int run(const std::vector<std::string>& args) {
    if (args.size() == 2 && args[0] == "seeds") {
        return writeSeeds(args[1]);
    }
    if (args.size() >= 2 && args[0] == "print") {
        for (std::size_t i = 1; i < args.size(); ++i) {
            std::cout << (args.size() > 2 ? "# " + args[i] + "\n" : "") << programOf(args[i]);
        }
        return 0;
    }
    if (args.size() != 3 || (args[0] != "check" && args[0] != "minimise")) {
        return usage();
    }
    const std::optional<reach::MemoryModel> m = reach::memoryModelFromName(args[1]);
    if (!m) {
        return usage();
    }
    return args[0] == "check" ? check(*m, args[2]) : minimise(*m, args[2]);
}

} // namespace
} // namespace tsoreach::fuzz

int main(int argc, char** argv) {
    try {
        return tsoreach::fuzz::run(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const std::exception& e) {
        std::cerr << "differential_inputs: " << e.what() << "\n";
        return 2;
    }
}
