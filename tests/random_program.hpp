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
    // a fifth are mutated litmus tests. A quarter start from declared memory
    // (initialMemory). generate() and generateAcyclic() are unchanged by it,
    // so the seeds of the ctest suite keep their programs.
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
            return withMemory(out);
        }
        acyclic_ = chance(1, 2);
        straight_ = acyclic_ || chance(1, 4);
        const std::uint64_t threads = 2 + below(3);
        for (std::uint64_t t = 0; t < threads; ++t) {
            thread(out, t);
        }
        return withMemory(out);
    }

    // `memory m[3] = {a, b, c}` with a, b, c in 0..2: the cells the
    // generators use most start there (the values stay in -2..2).
    std::string initialMemory() {
        std::string out = "memory m[3] = {";
        for (int k = 0; k < 3; ++k) {
            out += (k > 0 ? ", " : "") + num(3);
        }
        return out + "}\n";
    }

    // Programs of the shapes the generators above rarely make, each of
    // which once hid a wrong answer: a loop back to the source of a store
    // (the thread returns to where it stored, and sometimes leaves from
    // there), a goal state with transitions out of it, two final states, a
    // lock held up to a final state, fences, and in a quarter of the random
    // half a fan of 60 to 130 reads of constant addresses in one thread
    // beside addresses computed around a far address. Half are mutated
    // litmus tests with these shapes added (decoratedLitmus), half are 2 to
    // 4 random threads of 2 to 6 transitions in a line plus a loop and
    // branches, of which a quarter have a goal of 2 or 3 terms written as
    // "# goal" lines (goal_lines.hpp). A counter register `c` that only the
    // loops touch bounds every loop, so buffers stay bounded.
    std::string generateShapes() {
        lockOdds_ = 48;
        straight_ = true;
        if (chance(1, 2)) {
            return decoratedLitmus();
        }
        const std::uint64_t k = below(8);
        const std::uint64_t threads = k < 4 ? 2 : k < 7 ? 3 : 4;
        wide_ = chance(1, 4);
        std::uint64_t fanThread = threads; // none
        if (wide_) {
            width_ = 60 + below(71);
            far_ = 64 + below(128);
            fanThread = below(threads);
        }
        std::string body;
        std::vector<std::uint64_t> lengths;
        for (std::uint64_t t = 0; t < threads; ++t) {
            lengths.push_back(shapeThread(body, t, t == fanThread));
        }
        std::string out;
        if (chance(1, 4)) {
            const std::uint64_t terms = 2 + below(2);
            for (std::uint64_t i = 0; i < terms; ++i) {
                std::string term;
                for (std::uint64_t n = 1 + below(2); n > 0; --n) {
                    const std::uint64_t t = below(threads);
                    term += (term.empty() ? "" : ",") + std::string("t") + std::to_string(t) + "=" +
                            state(1 + below(lengths[t]));
                }
                out += "# goal " + term + "\n";
            }
        }
        return out + body;
    }

  private:
    // `program` from declared memory, a quarter of the time (drawn after
    // the program, which stays what it was).
    std::string withMemory(const std::string& program) {
        return chance(1, 4) ? initialMemory() + program : program;
    }

    // A mutated litmus test (where the models differ) with the shapes of
    // generateShapes() added to its threads: a loop back to the source of
    // its first store, sometimes required by the goal (c == 1 at the end);
    // transitions after the final state; a second final state; sometimes
    // one more random thread.
    std::string decoratedLitmus() {
        std::string text;
        const std::uint64_t threads = litmus(text);
        std::istringstream in(text);
        std::string out;
        std::vector<std::string> lines; // the current thread's transitions
        std::string head;               // its "thread" and "initial" lines
        std::uint64_t length = 0;
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("final ", 0) == 0) {
                length = std::stoull(line.substr(7)); // "final qL"
            } else if (line == "end") {
                out += decorate(head, lines, length);
                head.clear();
                lines.clear();
            } else if (line.rfind("transition ", 0) == 0) {
                lines.push_back(line);
            } else {
                head += line + "\n";
            }
        }
        if (chance(1, 3)) {
            shapeThread(out, threads, false);
        }
        return out;
    }

    // One litmus thread (a line q0 .. qL), decorated.
    std::string decorate(const std::string& head, std::vector<std::string> lines,
                         std::uint64_t length) {
        std::uint64_t final = length;
        std::vector<std::string> finals;
        const auto store = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
            return l.find(" write ") != std::string::npos;
        });
        if (store != lines.end() && chance(1, 2)) {
            // q_s --store--> ... q_e --c += 1--> l --c < bound--> q_s. Half the
            // time the loop is the store alone and the line leaves from q_s:
            // the transition out of q_e then starts at q_s instead.
            const auto s = static_cast<std::uint64_t>(store - lines.begin());
            const bool exitAtSource = s + 1 < lines.size() && chance(1, 2);
            const std::uint64_t e = exitAtSource ? s + 1 : s + 1 + below(length - s);
            if (exitAtSource) {
                std::istringstream words(lines[e]);
                std::string keyword;
                std::string from;
                std::string to;
                words >> keyword >> from >> to;
                std::string rest;
                std::getline(words, rest);
                lines[e] = "transition " + state(s) + " " + to + rest;
            }
            const std::uint64_t bound = 2 + below(2);
            lines.push_back(words({"transition", state(e), "l", "local c + c 1"}));
            lines.push_back(
                words({"transition", "l", state(s), "check < c " + std::to_string(bound)}));
            if (chance(1, 2)) { // the goal needs the loop taken as often as it may be
                const std::string times = std::to_string(bound - 1);
                lines.push_back(
                    words({"transition", state(final), state(final + 1), "check == c " + times}));
                ++final;
            }
        }
        std::uint64_t end = final;
        if (chance(1, 3)) { // the goal state is not the end
            last_ = 0;
            for (std::uint64_t n = 1 + below(2); n > 0; --n, ++end) {
                const std::string i = instruction();
                lines.push_back(words({"transition", state(end), state(end + 1), i}));
            }
        }
        finals.push_back(state(final));
        if (final > 1 && chance(1, 6)) {
            finals.push_back(state(1 + below(final - 1)));
        }
        std::string out = head;
        for (const std::string& f : finals) {
            out += "final " + f + "\n";
        }
        for (const std::string& l : lines) {
            out += l + "\n";
        }
        return out + "end\n";
    }

    // One thread of generateShapes(); returns its length L (states q0..qL).
    std::uint64_t shapeThread(std::string& out, std::uint64_t index, bool fan) {
        const std::uint64_t length = 2 + below(5);
        last_ = 0;
        open_ = false;
        checkNext_ = false;
        std::vector<std::string> instr;
        for (std::uint64_t i = 0; i < length; ++i) {
            instr.push_back(instruction());
        }
        std::vector<std::string> extra; // transitions besides the line
        if (chance(1, 2)) {
            // q_s --store--> ... q_e --c += 1--> l --c < 2--> q_s: back to the
            // store's source, at most twice; sometimes q_s also exits past q_e.
            const std::uint64_t s = below(length);
            const std::uint64_t e = s + 1 + below(length - s);
            const std::string v = chance(1, 3) ? "+ c 1" : value();
            instr[s] = words({"write", v, addr()});
            extra.push_back(words({"transition", state(e), "l", "local c + c 1"}));
            extra.push_back(words({"transition", "l", state(s), "check < c 2"}));
            if (chance(1, 3)) {
                const std::string i = instruction();
                extra.push_back(words({"transition", state(s), state(std::min(e + 1, length)), i}));
            }
        }
        // Usually the end of the line is final; a third of the threads stop
        // earlier, so the goal state has a transition out of it.
        std::vector<std::uint64_t> finals = {chance(1, 3) ? 1 + below(length - 1) : length};
        if (chance(1, 4)) {
            const std::uint64_t other = 1 + below(length);
            if (other != finals[0]) {
                finals.push_back(other);
            }
        }
        if (index > 0 && chance(1, 6)) {
            finals.clear(); // an unconstrained thread
        }
        if (!finals.empty() && chance(1, 6)) { // a lock still held at the final state
            const std::uint64_t l = below(finals[0]);
            instr[l] = "lock";
            for (std::uint64_t j = l + 1; j < finals[0]; ++j) {
                if (instr[j] == "lock" || instr[j] == "unlock") {
                    instr[j] = "noop";
                }
            }
        }
        if (chance(1, 4)) {
            instr[below(length)] = "mfence";
        }
        std::uint64_t fanAt = length; // none
        if (fan) {
            fanAt = below(length);
        }
        out += "thread t" + std::to_string(index) + "\ninitial q0\n";
        for (std::uint64_t f : finals) {
            out += "final " + state(f) + "\n";
        }
        for (std::uint64_t i = 0; i < length; ++i) {
            if (i != fanAt) {
                out += words({"transition", state(i), state(i + 1), instr[i]}) + "\n";
                continue;
            }
            // Reads only: a fan of stores multiplies the memories by its width.
            const std::string what = "read " + dest();
            for (std::uint64_t a = 0; a < width_; ++a) {
                out +=
                    words({"transition", state(i), state(i + 1), what, std::to_string(a)}) + "\n";
            }
        }
        for (const std::string& line : extra) {
            out += line + "\n";
        }
        out += "end\n";
        return length;
    }

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
        if (wide_ && chance(1, 3)) { // only generateShapes() sets wide_
            return chance(1, 2) ? words({"+", use(), std::to_string(far_)})
                                : std::to_string(below(width_));
        }
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
    bool wide_ = false;           // generateShapes(): a fan of width_ addresses
    std::uint64_t width_ = 0;     // ... 0 to width_ - 1
    std::uint64_t far_ = 0;       // ... and computed addresses around far_
};

// The program of `seed`, as text.
inline std::string randomProgram(std::uint64_t seed) {
    return RandomProgram(seed).generate();
}

// The campaign program of `seed`, as text.
inline std::string randomCampaignProgram(std::uint64_t seed) {
    return RandomProgram(seed).generateCampaign();
}

// The program of rare shapes of `seed`, as text (goal: goal_lines.hpp).
inline std::string randomShapesProgram(std::uint64_t seed) {
    return RandomProgram(seed).generateShapes();
}

// The acyclic program of `seed`, as text.
inline std::string randomAcyclicProgram(std::uint64_t seed) {
    return RandomProgram(seed).generateAcyclic();
}

// randomAcyclicProgram(seed) from declared memory (RandomProgram::initialMemory).
inline std::string randomAcyclicProgramWithMemory(std::uint64_t seed) {
    RandomProgram g(seed);
    const std::string program = g.generateAcyclic();
    return g.initialMemory() + program;
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
