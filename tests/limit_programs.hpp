#pragma once
// Generated programs that keep one phase of a command busy for long, for the
// tests of --timeout and --max-memory (cli_test.cpp, stop_test.cpp). The
// sizes in the comments were measured on the shared 2-core machine.

#include <string>

namespace tsoreach::test {

// An arbiter thread polls the request cells 1..n in turn; it grants a
// request by clearing the cell and waits for the client's "done" (cell 0)
// before it clears that and moves on. Client i requests, waits for the
// grant, enters `cs` and signals done. Goal (with --goal c1=cs,c2=cs): two
// clients in `cs` at once. Its SC goal check is tiny (n = 5: under 2,000
// states), its robustness oracle is not (n = 5: over 50 million states
// over its attacks, more than 30 s).
inline std::string arbiterProgram(int n) {
    std::string out = "thread arb\ninitial p1\n";
    for (int i = 1; i <= n; ++i) {
        const std::string k = std::to_string(i);
        const std::string next = "p" + std::to_string(i < n ? i + 1 : 1);
        out += "transition p" + k + " q" + k + " read r " + k + "\n";
        out += "transition q" + k + " " + next + " check == r 0\n";
        out += "transition q" + k + " g" + k + " check != r 0\n";
        out += "transition g" + k + " w" + k + " write 0 " + k + "\n";
        out += "transition w" + k + " v" + k + " read d 0\n";
        out += "transition v" + k + " w" + k + " check == d 0\n";
        out += "transition v" + k + " x" + k + " check != d 0\n";
        out += "transition x" + k + " " + next + " write 0 0\n";
    }
    out += "end\n";
    for (int i = 1; i <= n; ++i) {
        const std::string k = std::to_string(i);
        out += "thread c" + k + "\ninitial a\ntransition a b write 1 " + k +
               "\ntransition b c read r " + k +
               "\ntransition c b check != r 0\ntransition c cs check == r 0\n"
               "transition cs a write 1 0\nend\n";
    }
    return out;
}

// n threads that take and release the lock once, then count to k in a
// register, storing each value to a cell of their own; the goal (every
// thread past `check == c -1`, which never holds) is unreachable, and the
// value analysis cannot tell (c takes more than 64 values). The lazy
// engine's oracle finds no attack that another thread could close, so the
// program is robust at once, and with a lock the explicit TSO engine
// decides: n = 2, k = 250 takes its SC goal check 0.06 s and the explicit
// engine under TSO about 20 s (14 million states, 1.1 GB).
inline std::string lockedCountersProgram(int n, int k) {
    std::string out;
    for (int t = 0; t < n; ++t) {
        out += "thread t" + std::to_string(t) +
               "\ninitial a\nfinal bad\ntransition a b lock\ntransition b c unlock\n"
               "transition c d local c + c 1\ntransition d e write c " +
               std::to_string(t + 1) + "\ntransition e c check < c " + std::to_string(k) +
               "\ntransition e f check >= c " + std::to_string(k) +
               "\ntransition f bad check == c -1\nend\n";
    }
    return out;
}

// A thread that runs around a loop of m steps, step i adding 1 to register
// i mod r, and stores 1 at the address register 0 holds; a second thread
// stores 1 at the address it reads from cell 1 (its `c` is the goal, which
// is reachable). Every turn of the loop adds one value to each
// register's set, so the value-set analysis needs 64 turns of m steps over
// r registers: m = 2000, r = 200 takes it 15 s.
inline std::string valueSetHeavyProgram(int m, int r) {
    std::string out = "thread t\ninitial s0\n";
    for (int i = 0; i < m; ++i) {
        const std::string next = "s" + std::to_string(i + 1 < m ? i + 1 : 0);
        out += "transition s" + std::to_string(i) + " " + next + " local r" +
               std::to_string(i % r) + " + r" + std::to_string((i + 1) % r) + " 1\n";
    }
    out += "transition s0 w write 1 r0\nend\n";
    out += "thread u\ninitial a\nfinal c\ntransition a b read x 1\ntransition b c write 1 x\nend\n";
    return out;
}

} // namespace tsoreach::test
