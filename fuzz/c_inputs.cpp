// fuzz_c's companion (c_check.hpp), for reproducing and minimising findings:
//   c_inputs print INPUT   the C program and expected translation INPUT decodes to
//   c_inputs check INPUT   fuzz_c's check of INPUT, without libFuzzer
//   c_inputs load FILE.c   the front end's translation of a C file (or its
//                          error) and every engine's answer under SC, TSO, PSO
//   c_inputs random N SEED checks N random inputs (bytes from SEED), prints
//                          how many the front end refused and the answers

#include "c_check.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace tsoreach;

std::string readFile(const char* path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::uint8_t> bytesOf(const std::string& s) {
    return {s.begin(), s.end()};
}

int load(const char* path) {
    LoadedProgram lp;
    try {
        lp = cFrontEnd().load(readFile(path), path, {});
    } catch (const InputError& e) {
        std::cout << path << ":" << e.pos().line << ":" << e.pos().col << ": error: " << e.message()
                  << "\n";
        return 2;
    }
    std::cout << lp.translation;
    const std::optional<Goal> goal = lp.goal ? lp.goal : defaultGoal(lp.program);
    for (reach::MemoryModel m :
         {reach::MemoryModel::SC, reach::MemoryModel::TSO, reach::MemoryModel::PSO}) {
        std::cout << "under " << reach::name(m) << ":\n";
        if (goal) {
            std::cout << fuzz::describeAnswers(
                fuzz::differentialAnswers(lp.program, *goal, m, fuzz::cFuzzLimits()));
        }
    }
    return 0;
}

// "reachable/unreachable/unknown..." of the expected translation under SC,
// TSO and PSO.
std::string expectedVerdicts(const fuzz::CCase& k) {
    const Program p = parseProgram(k.expected, "expected");
    const std::optional<Goal> g = test::goalOfText(p, k.expected);
    std::string out;
    for (reach::MemoryModel m :
         {reach::MemoryModel::SC, reach::MemoryModel::TSO, reach::MemoryModel::PSO}) {
        out +=
            (out.empty() ? "" : "/") +
            std::string(reach::name(fuzz::detail::expectedVerdict(p, g, m, fuzz::cFuzzLimits())));
    }
    return out;
}

int random(int n, unsigned seed) {
    std::mt19937 gen(seed);
    int refused = 0, failures = 0;
    std::map<std::string, int> verdicts; // how often each pattern of expected answers
    for (int i = 0; i < n; ++i) {
        std::vector<std::uint8_t> b(64 + gen() % 192);
        for (std::uint8_t& x : b) {
            x = static_cast<std::uint8_t>(gen());
        }
        const fuzz::CCase k = fuzz::decodeCCase(b);
        refused += k.c.poisonLine != 0 ? 1 : 0;
        const auto start = std::chrono::steady_clock::now();
        try {
            fuzz::checkC(k);
            ++verdicts[expectedVerdicts(k)];
        } catch (const std::exception& e) {
            ++failures;
            const std::string name = "fail-" + std::to_string(seed) + "-" + std::to_string(i);
            std::ofstream(name, std::ios::binary)
                .write(reinterpret_cast<const char*>(b.data()), static_cast<long>(b.size()));
            std::cout << "input " << i << " (" << name << "): " << e.what() << "\n";
        }
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        if (ms > 2000) { // kept, to see what is slow
            const std::string name = "slow-" + std::to_string(seed) + "-" + std::to_string(i);
            std::ofstream(name, std::ios::binary)
                .write(reinterpret_cast<const char*>(b.data()), static_cast<long>(b.size()));
            std::cout << "input " << i << " (" << name << ") took " << static_cast<long>(ms)
                      << " ms\n";
        }
    }
    for (const auto& [v, count] : verdicts) {
        std::cout << "expected SC/TSO/PSO " << v << ": " << count << "\n";
    }
    std::cout << n << " inputs, " << refused << " with a refused construct, " << failures
              << " failures\n";
    return failures == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (argc == 3 && (mode == "print" || mode == "check")) {
        const fuzz::CCase k = fuzz::decodeCCase(bytesOf(readFile(argv[2])));
        if (mode == "print") {
            std::cout << k.c.text << "---- expected (poison line " << k.c.poisonLine << ")\n"
                      << k.expected;
            return 0;
        }
        try {
            fuzz::checkC(k);
        } catch (const std::exception& e) {
            std::cout << e.what() << "\n";
            return 1;
        }
        std::cout << "ok\n";
        return 0;
    }
    if (argc == 3 && mode == "load") {
        return load(argv[2]);
    }
    if (argc == 4 && mode == "random") {
        return random(std::stoi(argv[2]), static_cast<unsigned>(std::stoul(argv[3])));
    }
    std::cerr << "usage: c_inputs print|check INPUT | load FILE.c | random N SEED\n";
    return 2;
}
