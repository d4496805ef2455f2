#pragma once
// A seeded generator of small random programs, as text in the input language,
// for the differential test. Only std::mt19937_64 is used for randomness: its
// output is fixed by the standard, while the distributions are not, so a seed
// gives the same program with every standard library.
//
// Values stay bounded so that the SC state space is finite even with loops:
// constants are 0..2, comparisons give 0 or 1 and every arithmetic result is
// taken `% 3`, so registers, memory and addresses stay within -2..2. Under TSO
// and PSO a thread that stores in a loop still has unbounded buffers.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace tsoreach::test {

class RandomProgram {
  public:
    explicit RandomProgram(std::uint64_t seed) : gen_(seed) {}

    std::string generate() {
        std::string out;
        // Half the programs have branches and loops. A quarter are straight
        // lines whose goal is their last state, where outcomes depend on the
        // interleaving more than on the control flow. A quarter are mutated
        // litmus tests, where outcomes depend on the memory model.
        const std::uint64_t mode = below(4);
        if (mode == 3) {
            litmus(out);
            return out;
        }
        straight_ = mode == 2;
        // Mostly 2 or 3 threads: one thread alone shows no relaxed behaviour.
        const std::uint64_t k = below(8);
        const std::uint64_t threads = k == 0 ? 1 : k < 5 ? 2 : 3;
        for (std::uint64_t t = 0; t < threads; ++t) {
            thread(out, t);
        }
        return out;
    }

    // A program whose threads are acyclic: 2 to 4 threads of 2 to 6
    // transitions in a line, sometimes with a forward branch. Its buffers are
    // bounded, so every search on it is complete.
    // Half of them are mutated litmus tests (2 or 3 threads), sometimes with
    // one more random thread, so that the models often disagree.
    std::string generateAcyclic() {
        std::string out;
        straight_ = true;
        acyclic_ = true;
        if (chance(1, 2)) {
            const std::uint64_t threads = litmus(out);
            if (chance(1, 3)) {
                thread(out, threads);
            }
            return out;
        }
        const std::uint64_t threads = 2 + below(3);
        for (std::uint64_t t = 0; t < threads; ++t) {
            thread(out, t);
        }
        return out;
    }

    // A program for the differential campaign (tests/differential_campaign.cpp):
    // 2 to 4 threads, acyclic or with loops (half each), locks three times as
    // often as in generate(), fences and addresses computed from registers;
    // a fifth are mutated litmus tests. generate() and generateAcyclic() are
    // unchanged by it, so the seeds of the ctest suite keep their programs.
    std::string generateCampaign() {
        std::string out;
        lockOdds_ = 8;
        if (chance(1, 5)) {
            const std::uint64_t threads = litmus(out);
            if (chance(1, 3)) {
                acyclic_ = chance(1, 2);
                straight_ = acyclic_;
                thread(out, threads);
            }
            return out;
        }
        acyclic_ = chance(1, 2);
        straight_ = acyclic_ || chance(1, 4);
        const std::uint64_t threads = 2 + below(3);
        for (std::uint64_t t = 0; t < threads; ++t) {
            thread(out, t);
        }
        return out;
    }

  private:
    // Modulo bias is irrelevant here; determinism is what matters.
    std::uint64_t below(std::uint64_t n) { return gen_() % n; }
    bool chance(std::uint64_t num, std::uint64_t den) { return below(den) < num; }
    std::string num(std::uint64_t n) { return std::to_string(below(n)); }
    std::string reg() { return "r" + num(3); }
    // A register to assign; remembered so that later uses favour it.
    std::string dest() {
        last_ = below(3);
        return "r" + std::to_string(last_);
    }
    // A register to use: mostly the last one assigned, so that checks test
    // what was just read and outcomes depend on the interleaving.
    std::string use() { return chance(2, 3) ? "r" + std::to_string(last_) : reg(); }

    // Joins tokens with spaces. The draws go through a braced list because its
    // elements are evaluated left to right, unlike the operands of a + b or
    // function arguments, whose order would depend on the compiler.
    static std::string words(std::initializer_list<std::string> tokens) {
        std::string out;
        for (const std::string& t : tokens) {
            out += out.empty() ? t : " " + t;
        }
        return out;
    }

    // An address: mostly a constant, sometimes computed from a register.
    std::string addr() {
        if (chance(4, 5)) {
            return num(3);
        }
        return chance(1, 2) ? words({"%", use(), "3"}) : words({"%", "+", use(), num(3), "3"});
    }

    // A stored value.
    std::string value() {
        switch (below(7)) {
        case 0:
            return use();
        case 1:
            return words({"%", "+", use(), "1", "3"});
        case 2:
            return num(3);
        default:
            return std::to_string(1 + below(2)); // non-zero: a store that readers can tell
        }
    }

    // The right-hand side of `local`.
    std::string localExpr() {
        switch (below(7)) {
        case 0:
            return num(3);
        case 1:
            return use();
        case 2:
            return words({"%", "+", use(), num(3), "3"});
        case 3:
            return words({"%", "+", use(), reg(), "3"});
        case 4:
            return words({"%", "-", use(), "1", "3"}); // may go negative: negative addresses too
        case 5:
            return words({"==", use(), num(3)});
        default:
            return words({"%", "*", use(), "2", "3"});
        }
    }

    std::string condition() {
        switch (below(7)) {
        case 0:
        case 1:
            return words({"==", use(), num(3)});
        case 2:
            return words({"!=", use(), num(3)});
        case 3:
            return words({"<", use(), reg()});
        case 4:
            return words({"&&", "==", use(), num(3), "!=", reg(), num(3)});
        default:
            return words({"!", use()});
        }
    }

    std::string instruction() {
        // A lock is rare and usually closed soon by an unlock: a lock never
        // released stops every other thread, an unlock without lock blocks.
        if (open_ && chance(1, 3)) {
            open_ = false;
            return "unlock";
        }
        if (!open_ && chance(1, lockOdds_)) {
            open_ = true;
            return "lock";
        }
        if (chance(1, 48)) {
            return "unlock";
        }
        // Straight lines often test what a read returned right after it.
        if (checkNext_) {
            checkNext_ = false;
            const std::string r = "r" + std::to_string(last_);
            return words({"check", chance(1, 2) ? words({"==", r, num(2)}) : words({"!", r})});
        }
        // Weights: read 3, write 3, local 2, check 2, mfence 1, noop 1; straight
        // lines favour reads and writes: read 5, write 5.
        const std::uint64_t k = straight_ ? below(16) : below(12);
        if (straight_ && k >= 12) {
            if (k < 14) {
                checkNext_ = chance(1, 2);
                const std::string a = addr();
                return words({"read", dest(), a});
            }
            return words({"write", value(), addr()});
        }
        if (k < 3) {
            const std::string a = addr(); // uses registers before the read assigns one
            checkNext_ = straight_ && chance(1, 2);
            return words({"read", dest(), a});
        }
        if (k < 6) {
            return words({"write", value(), addr()});
        }
        if (k < 8) {
            const std::string e = localExpr();
            return words({"local", dest(), e});
        }
        if (k < 10) {
            return words({"check", condition()});
        }
        return k == 10 ? "mfence" : "noop";
    }

    static std::string state(std::uint64_t i) { return "q" + std::to_string(i); }

    // A mostly straight line of control states with some branches, jumps and
    // loops back; the final state is usually the last one, but any state
    // (possibly unreachable) may be chosen.
    void thread(std::string& out, std::uint64_t index) {
        // 1 to 6 transitions, biased towards more: longer threads interleave
        // more. (max is symmetric, so the order of the two draws is no matter.)
        const std::uint64_t transitions =
            acyclic_ ? 2 + below(5) : 1 + std::max(below(6), below(6));
        const std::uint64_t states = straight_ ? transitions + 1 : 2 + below(transitions);
        out += "thread t" + std::to_string(index) + "\n";
        last_ = 0;
        open_ = false;
        checkNext_ = false;
        out += "initial q0\n";
        const std::uint64_t finalState = straight_ || chance(3, 4) ? states - 1 : below(states);
        out += "final " + state(finalState) + "\n";
        if (!straight_ && chance(1, 8)) {
            out += "final " + state(below(states)) + "\n";
        }
        for (std::uint64_t i = 0; i < transitions; ++i) {
            std::uint64_t from = i;
            std::uint64_t to = i + 1;
            if (!straight_) {
                from = i < states - 1 ? i : below(states);
                if (chance(1, 5)) {
                    from = below(std::min(i + 1, states)); // a branch from an earlier state
                }
                to = chance(3, 4) ? std::min(from + 1, states - 1) : below(states);
            }
            const std::string instr = instruction();
            out += words({"transition", state(from), state(to), instr}) + "\n";
        }
        if (acyclic_ && chance(1, 3)) { // a forward branch skips part of the line
            const std::uint64_t from = below(transitions);
            const std::uint64_t to = from + 1 + below(transitions - from);
            const std::string instr = instruction();
            out += words({"transition", state(from), state(to), instr}) + "\n";
        }
        out += "end\n";
    }

    // One access of a litmus test: a store of `value`, or a load into
    // register r<i> that is checked (when `checked`) to have read `value`.
    struct Access {
        bool write = false;
        std::uint64_t addr = 0;
        std::uint64_t value = 0;
        bool checked = true;
        bool rmw = false; // a locked read-modify-write of addr instead
    };

    static Access store(std::uint64_t addr) { return Access{true, addr, 1, false}; }
    static Access load(std::uint64_t addr, std::uint64_t expect) {
        return Access{false, addr, expect, true};
    }
    static Access rmw(std::uint64_t addr) { return Access{true, addr, 1, false, true}; }

    // Random instructions rarely line up into the shapes where SC, TSO and
    // PSO differ (about one program in a hundred), so litmus programs start
    // from a classic shape and mutate it: fences, locked blocks, flipped
    // expectations, unchecked loads, other values, noise instructions.
    // Returns the number of threads written.
    std::uint64_t litmus(std::string& out) {
        const std::uint64_t x = below(2);
        const std::uint64_t y = 1 - x;
        const std::uint64_t z = 2;
        std::vector<std::vector<Access>> shape;
        switch (below(7)) {
        case 0: // SB: relaxed under TSO
            shape = {{store(x), load(y, 0)}, {store(y), load(x, 0)}};
            break;
        case 1: // MP: relaxed under PSO
            shape = {{store(x), store(y)}, {load(y, 1), load(x, 0)}};
            break;
        case 2: // LB: never relaxed here
            shape = {{load(x, 1), store(y)}, {load(y, 1), store(x)}};
            break;
        case 3: // SB over three threads
            shape = {{store(x), load(y, 0)}, {store(y), load(z, 0)}, {store(z), load(x, 0)}};
            break;
        case 4: // WRC: stores are atomic in all three models
            shape = {{store(x)}, {load(x, 1), store(y)}, {load(y, 1), load(x, 0)}};
            break;
        case 5: // a locked read-modify-write, then SB or an unrelated load
            shape = {{rmw(x), load(y, 0)}, {store(y), load(chance(1, 2) ? x : z, 0)}};
            break;
        default: // SB reading its own store first: forwarding
            shape = {{store(x), load(x, 1), load(y, 0)}, {store(y), load(y, 1), load(x, 0)}};
            break;
        }
        for (std::size_t t = 0; t < shape.size(); ++t) {
            std::vector<std::string> body;
            std::uint64_t regIndex = 0;
            for (Access& a : shape[t]) {
                if (chance(1, 10)) {
                    a.value = a.write ? 2 : 1 - a.value;
                }
                if (!a.write && chance(1, 10)) {
                    a.checked = false;
                }
                if (a.rmw) {
                    const std::string r = "r" + std::to_string(regIndex++ % 3);
                    body.emplace_back("lock");
                    body.push_back(words({"read", r, std::to_string(a.addr)}));
                    body.push_back(words({"write", words({"+", r, "1"}), std::to_string(a.addr)}));
                    body.emplace_back("unlock");
                    continue;
                }
                if (a.write) {
                    body.push_back(
                        words({"write", std::to_string(a.value), std::to_string(a.addr)}));
                    continue;
                }
                const std::string r = "r" + std::to_string(regIndex++ % 3);
                body.push_back(words({"read", r, std::to_string(a.addr)}));
                if (a.checked) {
                    body.push_back(
                        words({"check", a.value == 0 ? words({"!", r}) : words({"==", r, "1"})}));
                }
            }
            if (chance(1, 5)) {
                body.insert(body.begin() + static_cast<std::ptrdiff_t>(1 + below(body.size())),
                            "mfence");
            }
            if (chance(1, 8)) {
                static const char* const kNoise[] = {"noop", "local r2 1", "read r2 2",
                                                     "write 1 2"};
                const std::string noise = kNoise[below(4)];
                body.insert(body.begin() + static_cast<std::ptrdiff_t>(below(body.size() + 1)),
                            noise);
            }
            const bool nested = std::any_of(shape[t].begin(), shape[t].end(),
                                            [](const Access& a) { return a.rmw; });
            if (!nested && chance(1, 10)) { // a locked block orders like a fence
                body.insert(body.begin(), "lock");
                body.emplace_back("unlock");
            }
            body.resize(std::min<std::size_t>(body.size(), 6)); // at most 6 transitions
            out +=
                "thread t" + std::to_string(t) + "\ninitial q0\nfinal " + state(body.size()) + "\n";
            for (std::size_t i = 0; i < body.size(); ++i) {
                out += words({"transition", state(i), state(i + 1), body[i]}) + "\n";
            }
            out += "end\n";
        }
        return shape.size();
    }

    std::mt19937_64 gen_;
    std::uint64_t last_ = 0;      // register last assigned in the current thread
    bool straight_ = false;       // this program's threads are straight lines
    bool acyclic_ = false;        // ... of 2 to 6 transitions, with forward branches
    bool checkNext_ = false;      // the next instruction checks the register just read
    bool open_ = false;           // the current thread emitted a lock not yet unlocked
    std::uint64_t lockOdds_ = 24; // a lock is one instruction in lockOdds_
};

// The program of `seed`, as text.
inline std::string randomProgram(std::uint64_t seed) {
    return RandomProgram(seed).generate();
}

// The campaign program of `seed`, as text.
inline std::string randomCampaignProgram(std::uint64_t seed) {
    return RandomProgram(seed).generateCampaign();
}

// The acyclic program of `seed`, as text.
inline std::string randomAcyclicProgram(std::uint64_t seed) {
    return RandomProgram(seed).generateAcyclic();
}

// A random acyclic program made check-free and deterministic: every check
// becomes a noop and only the first transition out of each state stays.
// Then every execution completes, and its classes are exactly the (rf, co)
// pairs (with a choice between transitions, paths that differ only in
// local steps would be one pair but two executions).
inline std::string randomCheckFreeProgram(std::uint64_t seed) {
    const std::string text =
        std::regex_replace(randomAcyclicProgram(seed), std::regex("check [^\n]*"), "noop");
    std::istringstream in(text);
    std::string out;
    std::set<std::string> left; // states with an outgoing transition, this thread
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("thread", 0) == 0) {
            left.clear();
        }
        if (line.rfind("transition ", 0) == 0) {
            std::istringstream words(line.substr(11));
            std::string from;
            words >> from;
            if (!left.insert(from).second) {
                continue;
            }
        }
        out += line + "\n";
    }
    return out;
}

} // namespace tsoreach::test
