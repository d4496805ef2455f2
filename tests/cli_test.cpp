// The tsoreach binary as a user runs it: exit codes, report shapes, errors.

#include "limit_programs.hpp"
#include "support/cli_fixture.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace tsoreach {
namespace {

using Outcome = test::CliOutcome;

class Cli : public test::CliFixture {
  protected:
    // Runs `args` and expects `unknown` (exit 3) whose reason contains
    // `reason`, within the bound of --timeout `seconds` (given in `args`);
    // with `json`, the same from the JSON report.
    void expectStopped(const std::string& args, double seconds, const std::string& reason,
                       bool json);
    // The same for a run already made, which took `wall` seconds.
    void expectStopped(const Outcome& r, double wall, const std::string& args, double seconds,
                       const std::string& reason, bool json);
    // run(), timed: its wall-clock seconds in `wall`.
    Outcome timedRun(const std::string& args, double& wall);
};

constexpr const char* kSb = R"(# store buffering
thread t0
initial a
final d
transition a b write 1 0
transition b c read r 1
transition c d check == r 0
end
thread t1
initial a
final d
transition a b write 1 1
transition b c read r 0
transition c d check == r 0
end
)";

const char* const kMp = test::kMessagePassing;

// Counts forever; its goal needs r = -1, which takes 2^64 - 1 steps.
constexpr const char* kCounter = R"(thread t
initial a
final done
transition a a local r + r 1
transition a done check == r -1
end
)";

std::string firstLine(const std::string& s) {
    return s.substr(0, s.find('\n'));
}

TEST_F(Cli, VersionAndHelp) {
    Outcome v = run("--version");
    EXPECT_EQ(v.code, 0);
    EXPECT_EQ(firstLine(v.out).rfind("tsoreach ", 0), 0U) << v.out;
    EXPECT_NE(v.out.find("(commit "), std::string::npos) << v.out; // the build's git commit
    Outcome h = run("--help");
    EXPECT_EQ(h.code, 0);
    EXPECT_NE(h.out.find("Exit codes"), std::string::npos);
    EXPECT_NE(h.out.find("10  the property is violated"), std::string::npos);
    Outcome rh = run("reach --help");
    EXPECT_EQ(rh.code, 0);
    EXPECT_NE(rh.out.find("--max-states"), std::string::npos);
    EXPECT_NE(rh.out.find("Exit codes"), std::string::npos);
}

TEST_F(Cli, UnreachableExitsZero) {
    Outcome r = run("reach " + write("sb.txt", kSb) + " --model sc");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "unreachable\n");
    EXPECT_EQ(r.err, "");
}

TEST_F(Cli, ReachablePrintsATraceTableAndExitsTen) {
    Outcome r = run("reach " + write("mp.txt", kMp) + " --model sc --search bfs");
    EXPECT_EQ(r.code, 10) << r.err;
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line, "reachable");
    std::getline(lines, line);
    EXPECT_EQ(line.rfind("step  thread  transition", 0), 0U) << line;
    std::getline(lines, line);
    EXPECT_NE(line.find("w       a -> b"), std::string::npos) << line;
    EXPECT_NE(line.find("write 1 0"), std::string::npos) << line;
    EXPECT_NE(line.find("mem[0] := 1"), std::string::npos) << line;
    int rows = 0;
    while (std::getline(lines, line)) {
        ++rows;
    }
    EXPECT_EQ(rows, 4); // five steps in all
}

TEST_F(Cli, StatsFollowTheVerdict) {
    Outcome r = run("reach " + write("sb.txt", kSb) + " --model sc --stats");
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(firstLine(r.out), "unreachable");
    EXPECT_NE(r.out.find("states:"), std::string::npos);
    EXPECT_NE(r.out.find("transitions:"), std::string::npos);
    EXPECT_NE(r.out.find("peak memory:"), std::string::npos);
}

TEST_F(Cli, JsonReportHasTheDocumentedShape) {
    Outcome r = run("reach " + write("mp.txt", kMp) + " --model sc --json");
    ASSERT_EQ(r.code, 10) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    for (const char* key : {"tool", "version", "schema_version", "command", "file", "model",
                            "engine", "verdict", "goal", "trace", "stats"}) {
        EXPECT_TRUE(j.contains(key)) << key;
    }
    EXPECT_EQ(j["tool"], "tsoreach");
    EXPECT_EQ(j["schema_version"], 1);
    EXPECT_EQ(j["command"], "reach");
    EXPECT_EQ(j["model"], "sc");
    EXPECT_EQ(j["engine"], "explicit");
    EXPECT_EQ(j["verdict"], "reachable");
    EXPECT_FALSE(j.contains("reason"));
    EXPECT_EQ(j["goal"][0]["thread"], "r");
    EXPECT_EQ(j["goal"][0]["states"][0], "d");
    ASSERT_EQ(j["trace"].size(), 5U);
    const auto& first = j["trace"][0];
    EXPECT_EQ(first["step"], 1);
    EXPECT_TRUE(first.contains("thread"));
    EXPECT_TRUE(first.contains("kind"));
    EXPECT_TRUE(first.contains("from"));
    EXPECT_TRUE(first.contains("to"));
    EXPECT_TRUE(first.contains("line"));
    // A read step names its register, address and value.
    bool sawRead = false;
    for (const auto& s : j["trace"]) {
        if (s["kind"] == "read") {
            sawRead = true;
            EXPECT_TRUE(s.contains("reg"));
            EXPECT_TRUE(s.contains("addr"));
            EXPECT_TRUE(s.contains("value"));
        }
        if (s["kind"] == "check") {
            EXPECT_FALSE(s.contains("addr"));
        }
    }
    EXPECT_TRUE(sawRead);
    for (const char* key : {"states", "transitions", "time_s", "peak_rss_mb"}) {
        EXPECT_TRUE(j["stats"].contains(key)) << key;
    }
    EXPECT_GT(j["stats"]["states"].get<int>(), 0);
}

TEST_F(Cli, UnknownExitsThreeWithTheReason) {
    std::string f = write("counter.txt", kCounter);
    Outcome r = run("reach " + f + " --model sc --max-states 100");
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_EQ(firstLine(r.out), "unknown: state limit of 100 reached (--max-states)");
    // Partial statistics even without --stats.
    EXPECT_NE(r.out.find("\n(stopped after 101 states, "), std::string::npos) << r.out;
    Outcome j = run("reach " + f + " --model sc --max-states 100 --json");
    EXPECT_EQ(j.code, 3);
    nlohmann::json doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["verdict"], "unknown");
    EXPECT_NE(doc["reason"].get<std::string>().find("--max-states"), std::string::npos);
    EXPECT_TRUE(doc["trace"].empty());
    Outcome t = run("reach " + f + " --model sc --timeout 0.3");
    EXPECT_EQ(t.code, 3);
    EXPECT_EQ(firstLine(t.out).rfind("unknown: timeout", 0), 0U) << t.out;
}

// Every searching command and engine honours --max-states (a stateless
// engine counts the states it visits) with `unknown`, exit 3, and the reason.
TEST_F(Cli, EveryCommandHonoursMaxStates) {
    std::string sb = write("sb.txt", kSb);
    for (const std::string cmd :
         {"reach --model sc", "reach --model tso --engine explicit",
          "reach --model tso --engine lazy", "reach --model pso", "reach --model tso --engine dpor",
          "reach --model pso --engine rf", "explore --model tso", "explore --model pso --engine rf",
          "robust --model tso", "robust --model pso", "fences --target safety --model pso",
          "fences --target robustness --model tso"}) {
        // rf's unit is a maximal execution: its third reaches the goal.
        const bool rf = cmd.find("rf") != std::string::npos;
        Outcome r = run(cmd.substr(0, cmd.find(' ')) + " " + sb + cmd.substr(cmd.find(' ')) +
                        (rf ? " --max-states 1" : " --max-states 3"));
        EXPECT_EQ(r.code, 3) << cmd << "\n" << r.out << r.err;
        EXPECT_NE(firstLine(r.out).find("--max-states"), std::string::npos) << cmd << "\n" << r.out;
    }
}

// robust and fences run many searches: --timeout bounds the command, not
// each search (16 attacks on an infinite-state program, one job: per
// attack, this took 16 times the limit; the bound leaves room for slow
// sanitizer builds on a loaded machine).
TEST_F(Cli, TimeoutBoundsCommandsOfManySearches) {
    std::string text;
    for (int t = 0; t < 4; ++t) {
        const std::string x = "x" + std::to_string(t % 2);
        const std::string y = "x" + std::to_string((t + 1) % 2);
        text += "thread t" + std::to_string(t) + "\ninitial a\ntransition a b read r " + x +
                "\ntransition b c write + r 1 " + x + "\ntransition c d read s " + y +
                "\ntransition d a write + s 1 " + y + "\nend\n";
    }
    std::string f = write("counters.txt", text);
    for (const std::string cmd : {"robust", "fences --target robustness"}) {
        const auto start = std::chrono::steady_clock::now();
        Outcome r = run(cmd.substr(0, cmd.find(' ')) + " " + f +
                        (cmd.find(' ') == std::string::npos ? "" : cmd.substr(cmd.find(' '))) +
                        " --timeout 1 --jobs 1");
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_EQ(r.code, 3) << cmd << "\n" << r.out << r.err;
        EXPECT_NE(firstLine(r.out).find("timeout after 1 s (--timeout)"), std::string::npos)
            << cmd << "\n"
            << r.out;
        EXPECT_LT(seconds, 8.0) << cmd;
    }
}

// The acceptance bound of --timeout S: S + max(1 s, 10% of S). Sanitizer
// builds get 3 s more for what follows the deadline (the report, freeing
// the search's memory, LeakSanitizer's walk of the heap at exit), all of it
// several times slower there.
double timeoutBound(double seconds) {
    double bound = seconds + std::max(1.0, 0.1 * seconds);
#if defined(__SANITIZE_ADDRESS__)
    bound += 3;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    bound += 3;
#endif
#endif
    return bound;
}

Outcome Cli::timedRun(const std::string& args, double& wall) {
    const auto start = std::chrono::steady_clock::now();
    Outcome r = run(args);
    wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

void Cli::expectStopped(const std::string& args, double seconds, const std::string& reason,
                        bool json) {
    double wall = 0;
    const Outcome r = timedRun(args + (json ? " --json" : ""), wall);
    expectStopped(r, wall, args, seconds, reason, json);
}

void Cli::expectStopped(const Outcome& r, double wall, const std::string& args, double seconds,
                        const std::string& reason, bool json) {
    EXPECT_EQ(r.code, 3) << args << "\n" << r.out << r.err;
    EXPECT_LE(wall, timeoutBound(seconds)) << args;
    if (!json) {
        EXPECT_EQ(firstLine(r.out).rfind("unknown: ", 0), 0U) << args << "\n" << r.out;
        EXPECT_NE(firstLine(r.out).find(reason), std::string::npos) << args << "\n" << r.out;
        return;
    }
    const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << args << "\n" << r.out;
    // reach and robust say `verdict`, fences `outcome`, explore `complete`.
    const bool unknown = doc.value("verdict", "") == "unknown" ||
                         doc.value("outcome", "") == "unknown" ||
                         doc.value("complete", true) == false;
    EXPECT_TRUE(unknown) << args << "\n" << r.out;
    EXPECT_NE(doc.value("reason", "").find(reason), std::string::npos) << args << "\n" << r.out;
}

// --timeout holds in the lazy engine's robustness oracle, whatever the number
// of its attack searches: arbiter 5 takes it over 30 s (110 attacks; each got
// the whole budget before, and arbiter_v1_5 of Cubicle-W answered after 102 s
// for --timeout 5). The oracle has no proof then: unknown, not unreachable.
TEST_F(Cli, TimeoutHoldsInTheLazyOracle) {
    const std::string f = write("arbiter5.txt", test::arbiterProgram(5));
    for (const char* jobs : {"1", "2"}) {
        expectStopped("reach " + f + " --goal c1=cs,c2=cs --probe off --timeout 1 --jobs " + jobs,
                      1, "robustness oracle: timeout after 1 s (--timeout)", jobs[0] == '2');
    }
}

// The lazy engine hands programs with locks (and programs it did not decide
// within --max-iterations, by the same code) to the explicit engine, which
// keeps the same deadline (locked counters: its SC goal check takes 0.06 s,
// the explicit engine under TSO about 20 s).
TEST_F(Cli, TimeoutHoldsInTheExplicitFallback) {
    // t1 is not named in the goal, so it may hold the lock there.
    const std::string f = write("locked.txt", test::lockedCountersProgram(2, 250));
    expectStopped("reach " + f + " --goal t0=bad --timeout 1", 1,
                  "explicit engine (lock held at the goal): timeout after 1 s (--timeout)", false);
    expectStopped("reach " + f + " --goal t0=bad --jobs 1 --timeout 1", 1,
                  "explicit engine (lock held at the goal): timeout after 1 s (--timeout)", true);
}

// robust (attacks and dpor), fences (both targets) and explore (dpor and
// rf) stop at the command's deadline too.
TEST_F(Cli, TimeoutHoldsInRobustFencesAndExplore) {
    const std::string arbiter = write("arbiter5.txt", test::arbiterProgram(5));
    const std::string locked = write("locked.txt", test::lockedCountersProgram(2, 250));
    // Three threads of fenced stores and loads on two cells: robust under
    // PSO, with hundreds of thousands of executions to explore.
    std::string fenced;
    for (int t = 0; t < 3; ++t) {
        fenced += "thread t" + std::to_string(t) + "\ninitial s0\n";
        for (int i = 0; i < 4; ++i) {
            const int a = (t + i) % 2;
            const std::string k = std::to_string(i);
            fenced += "transition s" + k + " f" + k + " write " + std::to_string(t + 1) + " " +
                      std::to_string(a) + "\ntransition f" + k + " g" + k +
                      " mfence\ntransition g" + k + " s" + std::to_string(i + 1) + " read r " +
                      std::to_string(1 - a) + "\n";
        }
        fenced += "end\n";
    }
    const std::string f = write("fenced.txt", fenced);
    const std::string timeout = " --timeout 1";
    const std::string reason = "timeout after 1 s (--timeout)";
    expectStopped("robust " + arbiter + timeout, 1, reason, false);
    expectStopped("robust " + f + " --model pso" + timeout, 1, reason, true);
    expectStopped("fences " + arbiter + " --target robustness" + timeout, 1, reason, true);
    expectStopped("fences " + locked + " --target safety" + timeout, 1, reason, false);
    expectStopped("explore " + f + timeout, 1, reason, false);
    expectStopped("explore " + f + " --engine rf" + timeout, 1, reason, true);
    expectStopped("outcomes " + f + " --engine dpor --model pso" + timeout, 1, reason, false);
    expectStopped("outcomes " + f + " --engine dpor --model pso --json" + timeout, 1, reason, true);
}

// The static passes poll the deadline too: the value-set analysis of a
// large program (15 s here) in the lazy engine, the explicit engine's
// partial-order tables, the robustness check and dpor's PSO flushers.
TEST_F(Cli, TimeoutHoldsInStaticPassesOfLargePrograms) {
    const std::string f = write("large.txt", test::valueSetHeavyProgram(2000, 200));
    expectStopped("reach " + f + " --timeout 1", 1,
                  "value-set analysis: timeout after 1 s (--timeout)", false);
    expectStopped("reach " + f + " --model sc --timeout 1", 1,
                  "preparing the search: timeout after 1 s (--timeout)", true);
    expectStopped("robust " + f + " --timeout 1", 1, "timeout after 1 s (--timeout)", true);
    expectStopped("explore " + f + " --model pso --unroll 1 --timeout 1", 1,
                  "timeout after 1 s (--timeout)", false);
}

// A limit can stop the run before the command has a report (with a deadline
// already past, the check for registers read before they are assigned
// stops): `unknown` and exit 3 all the same, and with --json one JSON
// object rather than the text line (docs/json.md, "Stopped").
TEST_F(Cli, LimitBeforeAnyReportIsUnknownAndJson) {
    const std::string sb = write("sb.txt", kSb);
    const Outcome text = run("reach " + sb + " --timeout 0.000001");
    EXPECT_EQ(text.code, 3) << text.err;
    EXPECT_EQ(text.out, "unknown: timeout after 1e-06 s (--timeout)\n");
    for (const std::string cmd : {"reach", "robust", "explore", "outcomes", "fences"}) {
        const std::string target = cmd == "fences" ? " --target robustness" : "";
        const Outcome j = run(cmd + " " + sb + target + " --timeout 0.000001 --json");
        EXPECT_EQ(j.code, 3) << cmd << "\n" << j.err;
        const nlohmann::json doc = nlohmann::json::parse(j.out, nullptr, false);
        ASSERT_FALSE(doc.is_discarded()) << cmd << "\n" << j.out;
        EXPECT_EQ(doc.size(), 8U) << j.out;
        EXPECT_EQ(doc["tool"], "tsoreach");
        EXPECT_EQ(doc["schema_version"], 1);
        EXPECT_EQ(doc["command"], cmd);
        EXPECT_EQ(doc["file"], sb);
        EXPECT_EQ(doc["verdict"], "unknown");
        EXPECT_EQ(doc["reason"], "timeout after 1e-06 s (--timeout)");
        EXPECT_EQ(doc["warnings"], nlohmann::json::array());
    }
}

// --max-memory holds in the oracle and in the explicit engine, with
// `unknown` and the reason, long before the process could be killed.
TEST_F(Cli, MemoryLimitHoldsInTheOracleAndTheExplicitEngine) {
    // The oracle: a limit just above what the goal check needs (its SC
    // search of arbiter 5 has under 2,000 states), which the oracle's
    // attack searches pass within a second. Sanitizer builds need more
    // memory, so the limit starts from a measured SC run and rises while
    // the goal check still reaches it. One job: the goal check runs before
    // the oracle, not beside it.
    const std::string arbiter = write("arbiter5.txt", test::arbiterProgram(5));
    const Outcome sc =
        run("reach " + arbiter + " --goal c1=cs,c2=cs --model sc --engine explicit --json");
    ASSERT_EQ(sc.code, 0) << sc.out << sc.err;
    const double scMb = nlohmann::json::parse(sc.out)["stats"]["peak_rss_mb"].get<double>();
    bool oracleStopped = false;
    for (int more = 4; more <= 24 && !oracleStopped; more += 4) {
        const std::string limit = std::to_string(static_cast<int>(scMb) + more);
        const std::string args =
            "reach " + arbiter + " --goal c1=cs,c2=cs --jobs 1 --timeout 20 --max-memory " + limit;
        double wall = 0;
        const Outcome r = timedRun(args, wall);
        if (firstLine(r.out) ==
            "unknown: memory limit of " + limit + " MB reached (--max-memory)") {
            continue; // the goal check needed more
        }
        expectStopped(r, wall, args, 20,
                      "robustness oracle: memory limit of " + limit + " MB reached (--max-memory)",
                      false);
        oracleStopped = true;
    }
    EXPECT_TRUE(oracleStopped);
    // The explicit engine, alone and after the lazy loop (locks).
    const std::string locked = write("locked.txt", test::lockedCountersProgram(2, 250));
    expectStopped("reach " + locked + " --engine explicit --timeout 20 --max-memory 100", 20,
                  "memory limit of 100 MB reached (--max-memory)", true);
    const Outcome lazy = run("reach " + locked + " --goal t0=bad --max-memory 100 --json");
    EXPECT_EQ(lazy.code, 3) << lazy.out << lazy.err;
    const nlohmann::json doc = nlohmann::json::parse(lazy.out);
    EXPECT_EQ(doc["reason"], "explicit engine (lock held at the goal): memory limit of 100 MB "
                             "reached (--max-memory)");
    EXPECT_LT(doc["stats"]["peak_rss_mb"].get<double>(), 150.0);
}

TEST_F(Cli, MalformedInputGivesPositionAndExitTwo) {
    std::string f = write("bad.txt", "thread t\ninitial a\ntransition a b jump 3\nend\n");
    Outcome r = run("reach " + f + " --model sc");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind(f + ":3:16: error: unknown instruction 'jump'", 0), 0U) << r.err;
    // With --json the error is a JSON object on stdout too.
    Outcome j = run("reach " + f + " --model sc --json");
    EXPECT_EQ(j.code, 2);
    EXPECT_EQ(j.err.rfind(f + ":3:16: error: unknown instruction 'jump'", 0), 0U) << j.err;
    const nlohmann::json doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["schema_version"], 1);
    EXPECT_EQ(doc["verdict"], "error");
    EXPECT_EQ(doc["error"], "input");
    EXPECT_EQ(doc["file"], f);
    EXPECT_EQ(doc["line"], 3);
    EXPECT_EQ(doc["col"], 16);
    EXPECT_EQ(doc["message"].get<std::string>().rfind("unknown instruction 'jump'", 0), 0U);
    EXPECT_EQ(doc["warnings"], nlohmann::json::array());
    Outcome p = run("print " + f);
    EXPECT_EQ(p.code, 2);
    EXPECT_EQ(p.out, "");
}

TEST_F(Cli, InputAndUsageErrorsExitTwo) {
    std::string sb = write("sb.txt", kSb);
    struct Case {
        std::string args;
        std::string err;
    };
    std::vector<Case> cases = {
        {"reach " + (dir / "missing.txt").string(), "cannot open file"},
        {"reach " + dir.string(), "is a directory"},
        {"reach " + sb + " --buffer-bound 0", "--buffer-bound"},
        {"reach " + sb + " --buffer-bound x", "--buffer-bound"},
        {"replay " + sb, "TRACE"},
        {"replay " + sb + " " + (dir / "missing.json").string(), "cannot open trace file"},
        {"replay " + sb + " " + write("bad.json", "{not json"), "not valid JSON"},
        {"replay " + sb + " " + write("newer.json", R"({"schema_version":2,"trace":[]})"),
         "the report's schema_version 2 is newer than this tsoreach reads (1)"},
        {"replay " + sb + " " + write("badversion.json", R"({"schema_version":"1","trace":[]})"),
         "'schema_version' must be a positive integer"},
        {"replay " + sb + " " + write("nothread.json", R"([{"thread":"zz","kind":"noop"}])"),
         "no thread named 'zz'"},
        {"replay " + sb + " " +
             write("notrans.json", R"([{"thread":"t0","kind":"write","from":"a","to":"c"}])"),
         "has no write transition a -> c"},
        // Line 2^32 + 5 is not line 5, where that write is.
        {"replay " + sb + " " +
             write("bigline.json",
                   R"([{"thread":"t0","kind":"write","from":"a","to":"b","line":4294967301}])"),
         "has no write transition a -> b"},
        {"reach " + sb + " --model arm", "--model"},
        {"reach " + sb + " --search sideways", "--search"},
        {"reach " + sb + " --goal t9=a", "no thread named 't9'"},
        {"reach " + sb + " --goal t0=zz", "goal state 'zz' of thread 't0' (--goal) is not a state"},
        {"reach " + sb + " --goal t0", "expected THREAD=STATE"},
        {"reach " + sb + " --engine nonesuch", "no engine named 'nonesuch'"},
        {"reach " + sb + " --max-states -5", "--max-states"},
        {"reach " + sb + " --max-states 99999999999999999999999", "out of range"},
        {"reach /dev/null", "not a regular file"},
        {"reach " + sb + " --timeout -1", "--timeout"},
        {"reach " + sb + " --frobnicate", "frobnicate"},
        {"reach", "FILE"},
        {"", "subcommand"},
        {"reach " + write("nogoal.txt", "thread t initial a transition a b noop end\n"),
         "no thread declares a 'final' state"},
    };
    for (const Case& c : cases) {
        Outcome r = run(c.args);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
        EXPECT_EQ(r.out, "") << c.args;
        EXPECT_NE(r.err.find(c.err), std::string::npos) << c.args << "\n" << r.err;
        EXPECT_NE(r.err.find("error"), std::string::npos) << c.args << "\n" << r.err;
    }
}

TEST_F(Cli, GoalOptionOverridesFinals) {
    std::string f = write("mp.txt", kMp);
    // w reaching c is reachable; r reaching d with w still at a is not.
    EXPECT_EQ(run("reach " + f + " --model sc --goal w=c").code, 10);
    EXPECT_EQ(run("reach " + f + " --model sc --goal w=a,r=d").code, 0);
    // Several --goal options: reached when any of them is (w=a holds at once).
    Outcome any = run("reach " + f + " --model sc --goal r=d,w=c --goal w=a --json");
    EXPECT_EQ(any.code, 10) << any.err;
    const nlohmann::json j = nlohmann::json::parse(any.out);
    EXPECT_EQ(j["goal_terms"], 2);
    EXPECT_EQ(j["goal_term"], 1);
    EXPECT_EQ(j["goal"].size(), 3U);
    EXPECT_EQ(run("reach " + f + " --model sc --goal w=a,r=d --goal r=d,w=b").code, 0);
    // Under TSO the writes may stay buffered: w at c does not publish them.
    EXPECT_EQ(run("reach " + f + " --model tso --goal w=a,r=d").code, 0);
    EXPECT_EQ(run("reach " + write("nogoal.txt", "thread t initial a transition a b noop end\n") +
                  " --model sc --goal t=b")
                  .code,
              10);
}

TEST_F(Cli, GoalUnreachableInTheControlFlowGraphIsProvedWithoutSearch) {
    // The loop alone would never end the search; the control-flow graph
    // shows that no path of t reaches z.
    std::string f = write("dead.txt", "thread t\ninitial a\nfinal z\ntransition a a local r + r 1\n"
                                      "transition b z noop\nend\n");
    Outcome r = run("reach " + f + " --json");
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.err.find(":1:1: warning: no goal state of thread 't'"), std::string::npos) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["verdict"], "unreachable");
    EXPECT_EQ(j["engine"], "control-flow");
}

// examples/peterson.txt with `final crit` where the state is `cs` (issue 25).
std::string petersonTypo() {
    std::ifstream in(std::string(TSOREACH_SOURCE_DIR) + "/examples/peterson.txt");
    std::stringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    std::size_t n = 0;
    for (std::size_t at = text.find("final cs"); at != std::string::npos;
         at = text.find("final cs", at)) {
        text.replace(at, 8, "final crit");
        ++n;
    }
    EXPECT_EQ(n, 2U);
    return text;
}

// The line where `what` first occurs in `text`.
std::uint32_t lineOf(const std::string& text, const std::string& what) {
    const auto end = text.begin() + static_cast<std::ptrdiff_t>(text.find(what));
    return static_cast<std::uint32_t>(std::count(text.begin(), end, '\n') + 1);
}

std::uint32_t firstFinalLine(const std::string& text) {
    return lineOf(text, "final crit");
}

TEST_F(Cli, AFinalStateNoTransitionMentionsIsAnInputError) {
    const std::string text = petersonTypo();
    const std::string f = write("pet-typo.txt", text);
    const std::string at = f + ":" + std::to_string(firstFinalLine(text)) + ":7: error: ";
    for (const std::string& cmd : {"reach " + f, "reach " + f + " --model sc --engine explicit",
                                   "fences " + f + " --target safety"}) {
        const Outcome r = run(cmd);
        EXPECT_EQ(r.code, 2) << cmd;
        EXPECT_EQ(r.out, "") << cmd;
        EXPECT_EQ(r.err.rfind(at + "final state 'crit' of thread 't0' is not a state of the "
                                   "thread: no transition enters or leaves it (its states: ",
                              0),
                  0U)
            << cmd << "\n"
            << r.err;
        EXPECT_NE(r.err.find("--allow-unreachable-goal"), std::string::npos) << r.err;
    }
    // The JSON form: the error on stdout, the text on stderr.
    const Outcome j = run("reach " + f + " --json");
    EXPECT_EQ(j.code, 2);
    EXPECT_EQ(j.err.rfind(at, 0), 0U) << j.err;
    const nlohmann::json doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["command"], "reach");
    EXPECT_EQ(doc["verdict"], "error");
    EXPECT_EQ(doc["error"], "input");
    EXPECT_EQ(doc["file"], f);
    EXPECT_EQ(doc["line"], firstFinalLine(text));
    EXPECT_EQ(doc["col"], 7);
    EXPECT_EQ(doc["message"].get<std::string>().rfind("final state 'crit' of thread 't0'", 0), 0U);
    EXPECT_TRUE(doc["warnings"].is_array());
    // --allow-unreachable-goal keeps the old answer: unreachable by the
    // control-flow graph, its warnings on stderr and in the JSON report.
    const Outcome allowed = run("reach " + f + " --allow-unreachable-goal --json");
    EXPECT_EQ(allowed.code, 0) << allowed.err;
    const nlohmann::json a = nlohmann::json::parse(allowed.out);
    EXPECT_EQ(a["verdict"], "unreachable");
    EXPECT_EQ(a["engine"], "control-flow");
    ASSERT_EQ(a["warnings"].size(), 2U) << allowed.out;
    EXPECT_NE(a["warnings"][0]["message"].get<std::string>().find("no goal state of thread 't0'"),
              std::string::npos);
    EXPECT_EQ(a["warnings"][0]["file"], f);
    EXPECT_NE(allowed.err.find(": warning: no goal state of thread 't0'"), std::string::npos);
    EXPECT_EQ(run("fences " + f + " --target safety --allow-unreachable-goal").code, 0);
    // Commands that use no goal warn and go on.
    const Outcome robust = run("robust " + f + " --json");
    EXPECT_EQ(robust.code, 10) << robust.err;
    EXPECT_NE(robust.err.find(f + ":" + std::to_string(firstFinalLine(text)) +
                              ":7: warning: final state 'crit' of thread 't0'"),
              std::string::npos)
        << robust.err;
    EXPECT_EQ(nlohmann::json::parse(robust.out)["warnings"].size(), 2U);
}

TEST_F(Cli, AGoalOptionStateNoTransitionMentionsIsAnInputError) {
    const std::string pet = std::string(TSOREACH_SOURCE_DIR) + "/examples/peterson.txt";
    const std::string typo = write("pet-typo.txt", petersonTypo());
    std::string trace = write("t.json", "[]");
    const std::string t0 = ":" + std::to_string(lineOf(petersonTypo(), "thread t0")) + ":1: ";
    // Not a name of the thread at all, and a name only its `final` line
    // uses: the same error, at the thread, in every command with --goal.
    for (const std::string& cmd :
         {"reach " + pet + " --goal t0=crit", "reach " + typo + " --goal t1=cs --goal t0=crit",
          "fences " + pet + " --target safety --goal t0=crit",
          "replay " + typo + " " + trace + " --goal t0=crit"}) {
        const Outcome r = run(cmd);
        EXPECT_EQ(r.code, 2) << cmd;
        EXPECT_EQ(r.out, "") << cmd;
        EXPECT_NE(r.err.find(t0 + "error: goal state 'crit' of thread 't0' (--goal) is not a "
                                  "state of the thread"),
                  std::string::npos)
            << cmd << "\n"
            << r.err;
    }
    // A close name is suggested.
    const Outcome close = run("reach " + pet + " --goal t0=testt,t1=cs");
    EXPECT_EQ(close.code, 2);
    EXPECT_NE(close.err.find("; did you mean 'test'?"), std::string::npos) << close.err;
    // The flag accepts a name the file declares (as before), not one it lacks.
    EXPECT_EQ(run("reach " + typo + " --goal t0=crit --allow-unreachable-goal").code, 0);
    EXPECT_EQ(run("reach " + pet + " --goal t0=crit --allow-unreachable-goal").code, 2);
    // A thread that does not exist stays a usage error, with a suggestion.
    const Outcome thread = run("reach " + pet + " --goal t2=cs");
    EXPECT_EQ(thread.code, 2);
    EXPECT_NE(thread.err.find("tsoreach: error: goal: no thread named 't2' (threads: t0, t1); "
                              "did you mean 't0'?"),
              std::string::npos)
        << thread.err;
}

// A register that one branch assigns and the other does not, read where
// they meet.
constexpr const char* kOnePath = R"(thread t
initial a
final d
transition a b read r 0
transition a b noop
transition b c check == r 0
transition c d write 1 0
end
)";

TEST_F(Cli, ARegisterReadBeforeItIsAssignedIsAWarningInEveryReport) {
    const std::string f = write("onepath.txt", kOnePath);
    const std::string warning =
        f + ":6:1: warning: register 'r' may be read before it is assigned: some path from the "
            "initial state 'a' reaches this transition without assigning it (registers start at 0)";
    const Outcome r = run("reach " + f + " --model sc");
    EXPECT_EQ(r.code, 10) << r.err;
    EXPECT_EQ(r.err, warning + "\n");
    const std::string trace = write("trace.json", run("reach " + f + " --model sc --json").out);
    for (const std::string& cmd :
         {"reach " + f + " --json", "robust " + f + " --json", "explore " + f + " --json",
          "fences " + f + " --target safety --json", "fences " + f + " --target robustness --json",
          "replay " + f + " " + trace + " --json"}) {
        const Outcome j = run(cmd);
        EXPECT_NE(j.code, 2) << cmd << "\n" << j.err;
        EXPECT_EQ(j.err, warning + "\n") << cmd;
        const nlohmann::json doc = nlohmann::json::parse(j.out);
        ASSERT_EQ(doc["warnings"].size(), 1U) << cmd;
        EXPECT_EQ(doc["warnings"][0],
                  nlohmann::json({{"file", f},
                                  {"line", 6},
                                  {"col", 1},
                                  {"message", warning.substr(warning.find("register"))}}))
            << cmd;
    }
    // print warns too; a program without mistakes has an empty list.
    EXPECT_EQ(run("print " + f).err, warning + "\n");
    const std::string sb = write("sb.txt", kSb);
    for (const std::string& cmd :
         {"reach " + sb + " --json", "robust " + sb + " --json", "explore " + sb + " --json"}) {
        const Outcome j = run(cmd);
        EXPECT_EQ(j.err, "") << cmd;
        EXPECT_EQ(nlohmann::json::parse(j.out)["warnings"], nlohmann::json::array()) << cmd;
    }
}

TEST_F(Cli, UsageErrorsWithJsonAreJsonToo) {
    const std::string sb = write("sb.txt", kSb);
    for (const std::string& args :
         {"reach " + sb + " --json --frobnicate", "reach " + sb + " --json --model arm",
          "reach " + sb + " --json --engine nonesuch", "robust " + sb + " --json --all-wrong"}) {
        const Outcome r = run(args);
        EXPECT_EQ(r.code, 2) << args;
        EXPECT_NE(r.err.find("tsoreach: error: "), std::string::npos) << args;
        const nlohmann::json doc = nlohmann::json::parse(r.out);
        EXPECT_EQ(doc["verdict"], "error") << args;
        EXPECT_EQ(doc["error"], "usage") << args;
        EXPECT_EQ(doc["line"], 0) << args;
        EXPECT_EQ(doc["command"], args.substr(0, args.find(' '))) << args;
        EXPECT_EQ(doc["file"], sb) << args;
        EXPECT_FALSE(doc["message"].get<std::string>().empty()) << args;
    }
    // A file that cannot be read: an input error without a position.
    const Outcome missing = run("explore " + (dir / "none.txt").string() + " --json");
    EXPECT_EQ(missing.code, 2);
    const nlohmann::json doc = nlohmann::json::parse(missing.out);
    EXPECT_EQ(doc["error"], "input");
    EXPECT_EQ(doc["line"], 0);
}

TEST_F(Cli, WriteErrorsAreReported) {
    if (!std::filesystem::exists("/dev/full")) {
        GTEST_SKIP() << "no /dev/full";
    }
    std::string sb = write("sb.txt", kSb);
    int status = std::system(
        (std::string("'") + TSOREACH_BINARY + "' reach " + sb + " >/dev/full 2>/dev/null").c_str());
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2);
}

TEST_F(Cli, NonUtf8FileNamesStillGiveValidJson) {
    std::string f = write("bad\xff.txt", kSb);
    Outcome r = run("reach '" + f + "' --json");
    EXPECT_EQ(r.code, 10) << r.err;
    EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;
}

TEST_F(Cli, PrintIsCanonicalAndReparses) {
    std::string f = write("messy.txt", "# c\nthread   t0 # name\n transition a b   write + r 1\t0\n"
                                       "initial a final b end\n");
    Outcome r = run("print " + f);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "thread t0\ninitial a\nfinal b\ntransition a b write + r 1 0\nend\n");
    Outcome again = run("print " + write("printed.txt", r.out));
    EXPECT_EQ(again.out, r.out);
}

TEST_F(Cli, DefaultModelIsTso) {
    Outcome r = run("reach " + write("sb.txt", kSb) + " --json");
    EXPECT_EQ(r.code, 10);
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["model"], "tso");
    EXPECT_EQ(j["buffer_bound"], 4);
}

TEST_F(Cli, LazyIsTheTsoDefaultAndReportsItsLoop) {
    const std::string sb = write("sb.txt", kSb);
    // The loop alone (--probe off: a small explicit search decides SB first).
    Outcome r = run("reach " + sb + " --json --jobs 1 --probe off");
    ASSERT_EQ(r.code, 10) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["engine"], "lazy");
    EXPECT_EQ(j["stats"]["iterations"], 2);
    EXPECT_EQ(j["stats"]["sc_queries"], 2);
    EXPECT_GE(j["stats"]["oracle_queries"], 1);
    EXPECT_EQ(j["stats"]["extensions"], 1);
    EXPECT_GT(j["stats"]["largest_program"]["states"], 8);
    // The trace is a TSO trace of the program itself: it replays.
    Outcome replay = run("replay " + sb + " " + write("r.json", r.out));
    EXPECT_EQ(replay.code, 0) << replay.out << replay.err;
    Outcome progress = run("reach " + sb + " --progress --probe off");
    EXPECT_EQ(progress.code, 10);
    EXPECT_NE(progress.err.find("round 1: program"), std::string::npos) << progress.err;
    // With the probes, SB is decided before the loop; its trace replays too.
    Outcome probed = run("reach " + sb + " --json --progress");
    ASSERT_EQ(probed.code, 10) << probed.err;
    EXPECT_EQ(nlohmann::json::parse(probed.out)["stats"]["iterations"], 0);
    EXPECT_NE(probed.err.find("explicit probe: reachable"), std::string::npos) << probed.err;
    EXPECT_EQ(run("replay " + sb + " " + write("p.json", probed.out)).code, 0);
    // Two jobs may run ahead.
    Outcome stats = run("reach " + sb + " --stats --jobs 1 --probe off");
    EXPECT_NE(stats.out.find("iterations:   2"), std::string::npos) << stats.out;
    // SB with fences is robust: proved in the first round.
    Outcome fenced = run("reach " + write("f.txt", R"(thread t0 initial a final d
transition a b write 1 0 transition b m mfence transition m c read r 1
transition c d check == r 0 end
thread t1 initial a final d
transition a b write 1 1 transition b m mfence transition m c read r 0
transition c d check == r 0 end)") +
                         " --json --probe off");
    EXPECT_EQ(fenced.code, 0) << fenced.err;
    EXPECT_EQ(nlohmann::json::parse(fenced.out)["stats"]["iterations"], 1);
    EXPECT_EQ(run("reach " + sb + " --max-iterations 0").code, 2);
}

TEST_F(Cli, ReductionSwitchesChangeStatesNotVerdicts) {
    // Two threads counting privately, then meeting on x: partial-order
    // reduction runs the private parts one thread at a time.
    const std::string p = write("p.txt", R"(
thread a initial s final z
transition s u local r 1
transition u v local r + r 1
transition v w write r 0
transition w z read q 1
end
thread b initial s final z
transition s u local r 5
transition u v local r + r 1
transition v w write r 1
transition w z read q 0
end)");
    auto states = [&](const std::string& flags) {
        Outcome r = run("reach " + p + " --model sc --json " + flags);
        EXPECT_EQ(r.code, 10) << flags << r.err;
        nlohmann::json j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["reductions"]["por"], flags.find("--por off") == std::string::npos);
        EXPECT_GT(j["stats"]["bytes_per_state"], 0.0);
        return j["stats"]["states"].get<std::uint64_t>();
    };
    const std::uint64_t none = states("--por off --live off --search bfs");
    const std::uint64_t both = states("--search bfs");
    EXPECT_LT(both, none);
    EXPECT_LT(states("--por on --live off --search bfs"), none);
    Outcome text = run("reach " + p + " --model sc --stats");
    EXPECT_NE(text.out.find("bytes/state:"), std::string::npos) << text.out;
    EXPECT_EQ(run("reach " + p + " --por maybe").code, 2);
}

TEST_F(Cli, SaveProgramsWritesEachExtension) {
    const std::string sb = write("sb.txt", kSb);
    const std::filesystem::path out = dir / "rounds";
    std::filesystem::create_directories(out);
    // One job: the oracle does not run ahead of the goal check.
    Outcome r = run("reach " + sb + " --jobs 1 --probe off --save-programs " + out.string());
    ASSERT_EQ(r.code, 10) << r.err;
    // One extension: the program of round 2, which parses and whose goal
    // SC reaches.
    ASSERT_TRUE(std::filesystem::exists(out / "round-2.txt"));
    EXPECT_FALSE(std::filesystem::exists(out / "round-3.txt"));
    Outcome sc = run("reach " + (out / "round-2.txt").string() + " --model sc");
    EXPECT_EQ(sc.code, 10) << sc.out << sc.err;
    EXPECT_EQ(run("reach " + sb + " --save-programs " + (dir / "missing").string()).code, 2);
    // A file that cannot be written is the user's problem: exit 2, no report.
    const std::filesystem::path blocked = dir / "blocked";
    std::filesystem::create_directories(blocked / "round-2.txt");
    Outcome w = run("reach " + sb + " --jobs 1 --probe off --save-programs " + blocked.string());
    EXPECT_EQ(w.code, 2) << w.out << w.err;
    EXPECT_EQ(w.out, "");
    EXPECT_NE(w.err.find("cannot write"), std::string::npos) << w.err;
}

TEST_F(Cli, InstrumentPrintsTheExtension) {
    const std::string sb = write("sb.txt", kSb);
    Outcome r = run("instrument " + sb + " --path 5,6");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("~x1."), std::string::npos) << r.out; // the buffered path
    EXPECT_EQ(r.out.find("transition a b write 1 0"), std::string::npos)
        << "the terminating variant removes the delayed store's transition\n"
        << r.out;
    // The printed program is a program: it parses, and under SC it reaches
    // what SB reaches under TSO.
    EXPECT_EQ(run("reach --model sc " + write("x.txt", r.out)).code, 10);
    Outcome trencher = run("instrument " + sb + " --path 5,6 --variant trencher");
    ASSERT_EQ(trencher.code, 0) << trencher.err;
    EXPECT_NE(trencher.out.find("transition a b write 1 0"), std::string::npos);
    Outcome bad = run("instrument " + sb + " --path 6,7");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("must start with a store"), std::string::npos) << bad.err;
    EXPECT_EQ(run("instrument " + sb + " --path 99").code, 2);
}

TEST_F(Cli, TsoTraceShowsDelayedStoresAndFlushes) {
    Outcome r =
        run("reach " + write("sb.txt", kSb) + " --model tso --engine explicit --search bfs");
    EXPECT_EQ(r.code, 10) << r.err;
    EXPECT_NE(r.out.find("buffer += mem[0] := 1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("r := 0 (mem[1])"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("flush"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(the goal holds after step 6; steps 7-8 flush"), std::string::npos)
        << r.out;
    Outcome j = run("reach " + write("sb2.txt", kSb) +
                    " --model tso --engine explicit --search bfs --json");
    nlohmann::json doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["goal_step"], 6);
    ASSERT_EQ(doc["trace"].size(), 8U);
    EXPECT_EQ(doc["trace"][1]["source"], "memory");
    EXPECT_EQ(doc["trace"][7]["kind"], "flush");
    EXPECT_TRUE(doc["trace"][7].contains("addr"));
    EXPECT_TRUE(doc["trace"][7].contains("value"));
    EXPECT_FALSE(doc["trace"][7].contains("from"));
}

TEST_F(Cli, ModelsOrderTheVerdicts) {
    std::string sb = write("sb.txt", kSb);
    EXPECT_EQ(run("reach " + sb + " --model sc").code, 0);
    EXPECT_EQ(run("reach " + sb + " --model tso").code, 10);
    EXPECT_EQ(run("reach " + sb + " --model pso").code, 10);
    // Message passing with the weak outcome as goal: data still 0 after the flag.
    std::string weak = test::kMessagePassing;
    weak.replace(weak.find("== x 1"), 6, "== x 0");
    std::string mp = write("mp.txt", weak);
    EXPECT_EQ(run("reach " + mp + " --model sc").code, 0);
    EXPECT_EQ(run("reach " + mp + " --model tso").code, 0);
    EXPECT_EQ(run("reach " + mp + " --model pso").code, 10);
}

TEST_F(Cli, BufferBoundMakesANegativeAnswerUnknown) {
    // A thread that stores forever and never fences: its buffer is unbounded
    // (1 and 2 in turn: equal stores in a row would merge, --merge-stores).
    std::string f = write("loop.txt", R"(thread t initial a final b
transition a c write 1 0
transition c a write 2 0
transition a b check == 1 2
end
)");
    Outcome r = run("reach " + f + " --model tso --engine explicit --buffer-bound 2");
    EXPECT_EQ(r.code, 3);
    EXPECT_EQ(firstLine(r.out).rfind("unknown: buffer bound 2 reached (--buffer-bound)", 0), 0U)
        << r.out;
    EXPECT_EQ(run("reach " + f + " --model sc").code, 0);
    // The lazy engine needs no bound: the program has no load, so it is
    // robust, and SC's answer is TSO's.
    Outcome lazy = run("reach " + f + " --model tso");
    EXPECT_EQ(lazy.code, 0) << lazy.out << lazy.err;
}

TEST_F(Cli, ReplayAcceptsOwnTracesAndRejectsTamperedOnes) {
    std::string sb = write("sb.txt", kSb);
    Outcome r = run("reach " + sb + " --model tso --engine explicit --search bfs --json");
    ASSERT_EQ(r.code, 10);
    std::string report = write("sb.json", r.out);
    Outcome ok = run("replay " + sb + " " + report);
    EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
    EXPECT_EQ(firstLine(ok.out).rfind("valid: the trace replays under tso", 0), 0U) << ok.out;
    // The same steps are not an SC execution.
    Outcome sc = run("replay " + sb + " " + report + " --model sc");
    EXPECT_EQ(sc.code, 10);
    EXPECT_EQ(firstLine(sc.out).rfind("invalid: at step 5:", 0), 0U) << sc.out;
    // A load that claims its own buffer served it.
    nlohmann::json doc = nlohmann::json::parse(r.out);
    doc["trace"][1]["source"] = "buffer";
    Outcome bad = run("replay " + sb + " " + write("bad.json", doc.dump()) + " --json");
    EXPECT_EQ(bad.code, 10);
    nlohmann::json out = nlohmann::json::parse(bad.out);
    EXPECT_EQ(out["verdict"], "invalid");
    EXPECT_EQ(out["failed_step"], 2);
    // A bare array of steps, without values, is checked as far as it goes.
    nlohmann::json bare = nlohmann::json::array();
    const nlohmann::json original = nlohmann::json::parse(r.out);
    for (auto step : original["trace"]) {
        step.erase("value");
        bare.push_back(step);
    }
    Outcome lenient = run("replay " + sb + " " + write("bare.json", bare.dump()));
    EXPECT_EQ(lenient.code, 0) << lenient.out << lenient.err;
}

TEST_F(Cli, RobustReportsAWitnessForStoreBuffering) {
    std::string sb = write("sb.txt", kSb);
    Outcome r = run("robust " + sb);
    EXPECT_EQ(r.code, 10) << r.err;
    EXPECT_EQ(firstLine(r.out), "not robust");
    EXPECT_NE(r.out.find("attack: thread t0 delays 'write 1 0'"), std::string::npos) << r.out;
    Outcome j = run("robust " + sb + " --json --all");
    ASSERT_EQ(j.code, 10) << j.err;
    nlohmann::json doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["command"], "robust");
    EXPECT_EQ(doc["verdict"], "not-robust");
    EXPECT_EQ(doc["attacks"]["total"], 2);
    EXPECT_EQ(doc["attacks"]["feasible"], 2); // each thread can attack
    EXPECT_EQ(doc["attacks"]["undecided"], 0);
    EXPECT_GE(doc["stats"]["sc_queries"], 2);
    EXPECT_GT(doc["stats"]["sc_states"], 0);
    const auto& w = doc["witnesses"][0];
    EXPECT_EQ(w["store"]["instruction"], "write 1 0");
    EXPECT_EQ(w["load"]["instruction"], "read r 1");
    // The witness is a TSO trace: it replays, and the delayed store lands last.
    nlohmann::json report = {{"model", "tso"}, {"trace", w["trace"]}};
    Outcome replay = run("replay " + sb + " " + write("w.json", report.dump()) + " --goal t0=c");
    EXPECT_EQ(replay.code, 0) << replay.out << replay.err;
    EXPECT_EQ(w["trace"].back()["kind"], "flush");
    EXPECT_EQ(w["trace"].back()["thread"], "t0");
    // Each search order finds a witness; --print-attack shows the
    // instrumented program of one attack, a program of its own.
    for (const char* order : {"dfs", "bfs", "auto"}) {
        EXPECT_EQ(run("robust " + sb + " --search " + order).code, 10) << order;
    }
    Outcome printed = run("robust " + sb + " --print-attack 1");
    EXPECT_EQ(printed.code, 0) << printed.err;
    EXPECT_NE(printed.out.find("final success"), std::string::npos) << printed.out;
    EXPECT_EQ(run("reach --model sc " + write("a1.txt", printed.out)).code, 10);
    Outcome tooFar = run("robust " + sb + " --print-attack 3");
    EXPECT_EQ(tooFar.code, 2);
    EXPECT_NE(tooFar.err.find("the program has 2 attacks"), std::string::npos) << tooFar.err;
    // The DOT graph, cycle in red.
    const std::filesystem::path dot = dir / "g.dot";
    EXPECT_EQ(run("robust " + sb + " --dot " + dot.string()).code, 10);
    const std::string text = slurp(dot);
    EXPECT_NE(text.find("digraph"), std::string::npos);
    EXPECT_NE(text.find("[label=\"fr\", color=red"), std::string::npos) << text;
}

TEST_F(Cli, RobustProvesFencedProgramsRobust) {
    Outcome r = run("robust " + write("sbf.txt", R"(thread t0 initial a
transition a b write 1 0
transition b c mfence
transition c d read r 1
end
thread t1 initial a
transition a b write 1 1
transition b c mfence
transition c d read r 0
end
)"));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(firstLine(r.out), "robust");
    // PSO robustness is decided by dpor: MP is robust against TSO, not PSO.
    const std::string mp = write("mp.txt", kMp);
    EXPECT_EQ(run("robust " + mp).code, 0);
    Outcome pso = run("robust " + mp + " --model pso --json");
    EXPECT_EQ(pso.code, 10) << pso.err;
    nlohmann::json doc = nlohmann::json::parse(pso.out);
    EXPECT_EQ(doc["engine"], "dpor");
    EXPECT_EQ(doc["verdict"], "not-robust");
    EXPECT_FALSE(doc["witnesses"][0]["cycle"].empty());
    EXPECT_EQ(run("robust " + write("x.txt", kSb) + " --model pso").code, 10);
    EXPECT_EQ(run("robust " + mp + " --engine dpor").code, 0);
    EXPECT_EQ(run("robust " + mp + " --model sc").code, 2);
    EXPECT_EQ(run("robust " + mp + " --model pso --engine attacks").code, 2);
    Outcome locks = run("robust " + write("l.txt", "thread t initial a transition a b lock "
                                                   "transition b c unlock transition c d write 1 0 "
                                                   "transition d e read r 1 end\n"));
    EXPECT_EQ(locks.code, 0) << locks.err; // one thread alone is always robust
    // Computed addresses are fine when they take a bounded set of values...
    Outcome computed = run("robust " + write("c.txt", "thread t initial a transition a b "
                                                      "write 1 r transition b c read s 1 end\n"));
    EXPECT_EQ(computed.code, 0) << computed.err;
    // ... and give "unknown", with the position, when they do not.
    Outcome unbounded =
        run("robust " + write("u.txt", "thread t initial a transition a a local r + r 1 "
                                       "transition a b write 1 r transition b c read s 1 end\n"));
    EXPECT_EQ(unbounded.code, 3) << unbounded.err;
    EXPECT_NE(unbounded.out.find("u.txt:1:49: the address of this access can take more than"),
              std::string::npos)
        << unbounded.out;
}

TEST_F(Cli, FencesReportVerifiedMinimumSetsAndApplyThem) {
    const std::string sb = write("sb.txt", kSb);
    // Robustness: one fence per thread, after its store.
    Outcome j = run("fences " + sb + " --target robustness --json --apply " +
                    (dir / "fenced.txt").string());
    ASSERT_EQ(j.code, 0) << j.err;
    nlohmann::json doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["command"], "fences");
    EXPECT_EQ(doc["target"], "robustness");
    EXPECT_EQ(doc["model"], "tso");
    EXPECT_EQ(doc["outcome"], "found");
    EXPECT_EQ(doc["count"], 2);
    EXPECT_EQ(doc["verified"], true);
    EXPECT_EQ(doc["optimal"], true);
    ASSERT_EQ(doc["fences"].size(), 2U);
    for (const auto& f : doc["fences"]) {
        EXPECT_EQ(f["state"], "b");
        EXPECT_EQ(f["line"], f["thread"] == "t0" ? 6 : 13) << f;
        EXPECT_FALSE(f["cuts"].empty());
    }
    EXPECT_GE(doc["stats"]["rounds"], 1);
    EXPECT_GE(doc["stats"]["checks"], 1);
    EXPECT_TRUE(doc["stats"].contains("time_s"));
    // The applied program is robust, and its goal unreachable under TSO.
    const std::string fenced = (dir / "fenced.txt").string();
    EXPECT_EQ(run("robust " + fenced).code, 0);
    EXPECT_EQ(run("reach " + fenced + " --model tso").code, 0);
    // Safety, under TSO and under PSO: the same two fences.
    for (const char* model : {"tso", "pso"}) {
        const std::string out = (dir / (std::string(model) + ".txt")).string();
        Outcome s = run("fences " + sb + " --target safety --model " + model + " --apply " + out);
        EXPECT_EQ(s.code, 0) << model << s.err;
        EXPECT_EQ(firstLine(s.out),
                  std::string("2 fences for safety under ") + model + " (verified, minimum):")
            << s.out;
        EXPECT_EQ(run("reach " + out + " --model " + model).code, 0) << model;
    }
    // Message passing needs none under TSO.
    Outcome mp = run("fences " + write("mp.txt", kMp) + " --target robustness --json");
    EXPECT_EQ(mp.code, 0) << mp.err;
    EXPECT_EQ(nlohmann::json::parse(mp.out)["count"], 0);
}

// fences --apply on a C file writes C (docs/c.md, "Fences"): peterson.c's
// fence goes into its loop's condition, in the lock function both threads
// inline, once; the written file is read back and checked before it is
// written, and on its own it is unreachable under TSO.
TEST_F(Cli, FencesApplyWritesTheFencedCFile) {
    const std::string pet = std::string(TSOREACH_SOURCE_DIR) + "/examples/c/peterson.c";
    const std::string out = (dir / "peterson-fenced.c").string();
    const Outcome f = run("fences " + pet + " --target safety --model tso --apply " + out);
    ASSERT_EQ(f.code, 0) << f.out << f.err;
    EXPECT_NE(f.out.find("atomic_thread_fence(memory_order_seq_cst); before " + pet + ":25:12"),
              std::string::npos)
        << f.out;
    EXPECT_NE(f.out.find("wrote " + out + " and checked it"), std::string::npos) << f.out;
    const std::string text = slurp(out);
    const std::string fenced = "while ((atomic_thread_fence(memory_order_seq_cst), ";
    ASSERT_NE(text.find(fenced), std::string::npos) << text;
    EXPECT_EQ(text.find(fenced, text.find(fenced) + 1), std::string::npos) << text;
    EXPECT_EQ(run("reach " + out + " --model tso").code, 0);
    EXPECT_EQ(run("reach " + pet + " --model tso").code, 10);
    const Outcome j = run("fences " + pet + " --target safety --model tso --json");
    ASSERT_EQ(j.code, 0) << j.err;
    const auto doc = nlohmann::json::parse(j.out);
    ASSERT_FALSE(doc["fences"].empty());
    EXPECT_EQ(doc["fences"][0]["insert"]["line"], 25);
    EXPECT_EQ(doc["fences"][0]["insert"]["col"], 12);
}

// A store and a load in one C statement: a fence between them has no place
// in C, so no fence set C can write helps (exit 10, not a crash).
TEST_F(Cli, FencesInsideAStatementHaveNoPlaceInC) {
    const std::string sb = write("sb-comma.c", R"(#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
int r0, r1;
void *t0(void *a) {
    (atomic_store_explicit(&x, 1, memory_order_relaxed), r0 = atomic_load_explicit(&y, memory_order_relaxed));
    return NULL;
}
void *t1(void *a) {
    (atomic_store_explicit(&y, 1, memory_order_relaxed), r1 = atomic_load_explicit(&x, memory_order_relaxed));
    return NULL;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, t0, NULL);
    pthread_create(&b, NULL, t1, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(!(r0 == 0 && r1 == 0));
    return 0;
}
)");
    const Outcome f =
        run("fences " + sb + " --target safety --model tso --apply " + (dir / "never.c").string());
    EXPECT_EQ(f.code, 10) << f.out << f.err;
    EXPECT_NE(f.out.find("no fence at the places the source can hold one"), std::string::npos)
        << f.out;
    EXPECT_FALSE(std::filesystem::exists(dir / "never.c"));
    EXPECT_EQ(run("fences " + sb + " --target safety --model tso --goal t0=end --apply " +
                  (dir / "never.c").string())
                  .code,
              2);
}

TEST_F(Cli, FencesSayWhenNoFenceCanHelpAndRefuseWhatTheyCannotDo) {
    // The goal is reachable under SC: exit 10 with the SC trace.
    const std::string both = write("both.txt", R"(thread t0 initial a final b
transition a b write 1 0
end
thread t1 initial a final b
transition a b read r 0
end
)");
    Outcome impossible = run("fences " + both + " --target safety");
    EXPECT_EQ(impossible.code, 10) << impossible.err;
    EXPECT_EQ(firstLine(impossible.out),
              "no fence set helps: the goal is reachable under SC, so no fence set prevents it");
    Outcome json = run("fences " + both + " --target safety --json");
    EXPECT_EQ(json.code, 10);
    EXPECT_EQ(nlohmann::json::parse(json.out)["outcome"], "impossible");
    // No PSO robustness check exists: a usage error, not a wrong answer.
    const std::string sb = write("sb.txt", kSb);
    Outcome pso = run("fences " + sb + " --target robustness --model pso");
    EXPECT_EQ(pso.code, 2);
    EXPECT_NE(pso.err.find("--model tso only"), std::string::npos) << pso.err;
    EXPECT_TRUE(pso.out.empty());
    EXPECT_EQ(run("fences " + sb + " --target robustness --goal t0=d").code, 2);
    EXPECT_EQ(run("fences " + sb + " --target safety --model sc").code, 2);
    EXPECT_EQ(run("fences " + sb + " --target nonsense").code, 2);
    // A limit that stops a check: unknown, exit 3, with the reason.
    Outcome limited = run("fences " + sb + " --target safety --max-states 3");
    EXPECT_EQ(limited.code, 3) << limited.out << limited.err;
    EXPECT_NE(limited.out.find("unknown"), std::string::npos) << limited.out;
}

TEST_F(Cli, OutcomesListsFinalStatesAndWhatScLacks) {
    const std::string sb = write("sb.txt", "thread p initial a transition a b write 1 0 "
                                           "transition b c read r 1 end\n"
                                           "thread q initial a transition a b write 1 1 "
                                           "transition b c read s 0 end\n");
    Outcome tso = run("outcomes " + sb + " --model tso --diff sc");
    ASSERT_EQ(tso.code, 0) << tso.out << tso.err;
    EXPECT_EQ(firstLine(tso.out), "outcomes under tso (explicit): 4");
    EXPECT_NE(tso.out.find("p: r=0  q: s=0  | mem[0]=1 mem[1]=1  not under sc"), std::string::npos)
        << tso.out;
    EXPECT_NE(tso.out.find("1 of 4 not under sc (3 outcomes under sc)"), std::string::npos)
        << tso.out;
    for (const char* engine : {"explicit", "dpor"}) {
        Outcome j = run("outcomes " + sb + " --model pso --diff sc --json --engine " + engine);
        ASSERT_EQ(j.code, 0) << engine << j.err;
        const nlohmann::json doc = nlohmann::json::parse(j.out);
        EXPECT_EQ(doc["command"], "outcomes");
        EXPECT_EQ(doc["engine"], engine);
        ASSERT_EQ(doc["outcomes"].size(), 4U) << j.out;
        EXPECT_EQ(doc["diff"]["outcomes"], 3);
        int fresh = 0;
        for (const auto& o : doc["outcomes"]) {
            fresh += o["new"].get<bool>() ? 1 : 0;
            EXPECT_EQ(o.contains("executions"), std::string(engine) == "dpor");
            EXPECT_EQ(o["memory"].size(), 2U);
        }
        EXPECT_EQ(fresh, 1) << j.out;
    }
    // rf cannot list outcomes (a reads-from class leaves the final memory
    // open); cyclic programs need --unroll.
    EXPECT_EQ(run("outcomes " + sb + " --engine rf").code, 2);
    Outcome cyclic = run("outcomes " + write("c.txt", kCounter));
    EXPECT_EQ(cyclic.code, 3);
    EXPECT_EQ(firstLine(cyclic.out).rfind("unknown: ", 0), 0U) << cyclic.out;
    EXPECT_NE(cyclic.out.find("--unroll"), std::string::npos) << cyclic.out;
    EXPECT_EQ(run("outcomes " + sb + " --diff arm").code, 2);
    // With --unroll both engines list the outcomes within the bound (dpor
    // was refused as cyclic: the row's check did not see --unroll).
    const std::string loop = write("loop.txt", "thread t\ninitial a\nfinal done\n"
                                               "transition a b read r 0\n"
                                               "transition b a write + r 1 0\n"
                                               "transition b done check == r 1\nend\n");
    for (const char* engine : {"explicit", "dpor"}) {
        Outcome bounded = run("outcomes " + loop + " --unroll 2 --engine " + engine);
        EXPECT_EQ(bounded.code, 3) << bounded.out;
        EXPECT_NE(bounded.out.find("unrolled 2 times"), std::string::npos) << bounded.out;
        EXPECT_NE(bounded.out.find("t: r=1  | mem[0]=1"), std::string::npos) << bounded.out;
    }
}

// --progress: every searching engine and subcommand prints a line within
// 1.5 s of a long search (counters 3 9 of bench/gen_counters.py: 3 M states
// under SC).
TEST_F(Cli, ProgressOnLongSearches) {
    std::string text;
    for (int t = 0; t < 3; ++t) {
        const std::string own = std::to_string(t + 1);
        text += "thread c" + std::to_string(t) + "\ninitial a\nfinal bad\n" +
                "transition a b read r " + own + "\ntransition b c write % + r 1 9 " + own +
                "\ntransition c d read s 0\ntransition d a write % + s 1 9 0\n" +
                "transition d bad check == s 9\nend\n";
    }
    const std::string f = write("counters.txt", text);
    const std::pair<std::string, std::string> runs[] = {
        {"reach " + f + " --model sc --engine explicit --jobs 1", "explicit: 1."},
        {"reach " + f + " --model sc --engine explicit --jobs 2", "explicit: 1."},
        {"explore " + f + " --model sc --engine dpor --unroll 4", "dpor: 1."},
        {"explore " + f + " --model sc --engine rf --unroll 4", "rf: 1."},
        // Tasks of many searches: their own line, or their search's.
        {"robust " + f, "robust: 1."},
        {"robust " + f + " --model pso --unroll 4", "dpor: 1."},
        {"outcomes " + f + " --model sc --engine dpor --unroll 4", "dpor: 1."},
        {"fences " + f + " --target robustness", "fences: 1."},
        {"fences " + f + " --target safety", "fences: 1."},
    };
    for (const auto& [args, line] : runs) {
        Outcome o = run(args + " --progress --timeout 1.5");
        EXPECT_NE(o.err.find(line), std::string::npos) << args << "\n" << o.err;
        EXPECT_EQ(o.err.find("reports none"), std::string::npos) << args << "\n" << o.err;
        EXPECT_NE(o.err.find("finished in"), std::string::npos) << args << "\n" << o.err;
    }
}

// An option of another engine's row is read but changes nothing for the
// engine chosen: the command says so on stderr and still answers.
TEST_F(Cli, OptionsOfOtherEnginesAreNamedAsUnused) {
    const std::string sb = TSOREACH_SOURCE_DIR "/examples/sb.txt";
    Outcome o = run("reach " + sb + " --model tso --engine mcr --por off");
    EXPECT_EQ(o.code, 10);
    EXPECT_NE(o.err.find("warning: --por is an option of explicit; engine 'mcr' does not use it"),
              std::string::npos)
        << o.err;
    o = run("reach " + sb + " --model sc --engine explicit --unroll 2");
    EXPECT_NE(o.err.find("--unroll is an option of dpor, rf, mcr; engine 'explicit' does not use"),
              std::string::npos)
        << o.err;
    for (const std::string& args :
         {"reach " + sb + " --model sc --engine dpor --unroll 2",
          "reach " + sb + " --model sc --por off", "outcomes " + sb + " --model sc --unroll 2"}) {
        o = run(args);
        EXPECT_EQ(o.err.find("does not use"), std::string::npos) << args << "\n" << o.err;
    }
}

// Traces for people: the shortest trace when a small breadth-first search
// finds it, the same on every run and for every --jobs; --trace full keeps
// the deciding engine's.
TEST_F(Cli, TracesAreShortAndTheSameEveryTime) {
    const std::string pet = std::string(TSOREACH_SOURCE_DIR) + "/examples/peterson.txt";
    const auto steps = [](const std::string& out) {
        std::size_t n = 0;
        std::istringstream in(out);
        for (std::string line; std::getline(in, line);) {
            n += line.size() > 4 && line[3] == ' ' && std::isdigit(line[2]) != 0 ? 1 : 0;
        }
        return n;
    };
    Outcome tso = run("reach " + pet);
    ASSERT_EQ(tso.code, 10) << tso.err;
    EXPECT_LE(steps(tso.out), 15U) << tso.out;
    Outcome full = run("reach " + pet + " --trace full");
    EXPECT_GE(steps(full.out), steps(tso.out)) << full.out;
    for (const char* jobs : {"1", "2"}) {
        EXPECT_EQ(run("reach " + pet + " --engine explicit --jobs " + jobs).out,
                  run("reach " + pet + " --engine explicit --jobs 1").out);
    }
    const std::string sb = std::string(TSOREACH_SOURCE_DIR) + "/examples/sb.txt";
    const std::string first = run("reach " + sb).out;
    for (int i = 0; i < 41; ++i) {
        ASSERT_EQ(run("reach " + sb).out, first) << "run " << i + 2;
    }
    // The README shows that trace.
    std::ifstream readme(std::string(TSOREACH_SOURCE_DIR) + "/README.md");
    std::stringstream text;
    text << readme.rdbuf();
    EXPECT_NE(text.str().find(first), std::string::npos) << first;
}

// Under TSO and PSO a trace shows the buffers after each step, and a PSO
// flush says which older stores it overtakes; JSON alike.
TEST_F(Cli, TracesShowTheBuffers) {
    const std::string w = std::string(TSOREACH_SOURCE_DIR) + "/examples/2+2w.txt";
    Outcome pso = run("reach " + w + " --model pso");
    ASSERT_EQ(pso.code, 10) << pso.err;
    EXPECT_NE(pso.out.find("buffers (oldest first)"), std::string::npos) << pso.out;
    EXPECT_NE(pso.out.find("y := 2 (overtakes x=1)  w0: x=1"), std::string::npos) << pso.out;
    const nlohmann::json j = nlohmann::json::parse(run("reach " + w + " --model pso --json").out);
    bool overtakes = false;
    for (const auto& step : j["trace"]) {
        ASSERT_TRUE(step.contains("buffers")) << step;
        overtakes = overtakes || step.contains("overtakes");
    }
    EXPECT_TRUE(overtakes) << j["trace"];
    EXPECT_EQ(j["trace"][0U]["buffers"]["w0"][0U]["var"], "x");
    Outcome sc = run("reach " + std::string(TSOREACH_SOURCE_DIR) + "/examples/mp.txt --model sc");
    EXPECT_EQ(sc.out.find("buffers"), std::string::npos) << sc.out; // SC has none
}

// reach --dot: the trace as a graph, a lane per thread, labels escaped (a
// thread named t"0); Graphviz reads it when it is installed.
TEST_F(Cli, ReachDrawsItsTrace) {
    const std::string sb = std::string(TSOREACH_SOURCE_DIR) + "/examples/sb.txt";
    const std::string dot = (dir / "sb.dot").string();
    EXPECT_EQ(run("reach " + sb + " --dot " + dot).code, 10);
    const std::string graph = slurp(dot);
    EXPECT_NE(graph.find("subgraph cluster_1"), std::string::npos) << graph;
    EXPECT_NE(graph.find("[label=\"1: write 1 y (at 27:1)\\nbuffer += y := 1\"]"),
              std::string::npos)
        << graph;
    EXPECT_NE(graph.find("s1 -> s8 [style=dashed]"), std::string::npos) << graph; // its flush
    const std::string quoted = write("q.txt", "thread t\"0\ninitial a\nfinal c\n"
                                              "transition a b write 1 0\ntransition b c read r 0\n"
                                              "end\n");
    const std::string qdot = (dir / "q.dot").string();
    EXPECT_EQ(run("reach " + quoted + " --dot " + qdot).code, 10);
    EXPECT_NE(slurp(qdot).find("label=\"t\\\"0\""), std::string::npos) << slurp(qdot);
    EXPECT_NE(slurp(qdot).find("[color=blue, constraint=false, label=\"rf\"]"), std::string::npos);
    // Unreachable: no graph is written.
    const std::string none = (dir / "none.dot").string();
    EXPECT_EQ(run("reach " + sb + " --model sc --dot " + none).code, 0);
    EXPECT_FALSE(std::filesystem::exists(none));
    if (std::system("command -v dot >/dev/null 2>&1") != 0) {
        GTEST_SKIP() << "Graphviz (dot) is not installed: the graphs were not rendered";
    }
    for (const std::string& f : {dot, qdot}) {
        EXPECT_EQ(std::system(("dot -Tsvg '" + f + "' >/dev/null").c_str()), 0) << f;
    }
}

// `-` reads the program from standard input; messages call it <stdin>.
TEST_F(Cli, ProgramFromStandardInput) {
    const std::string sb = std::string(TSOREACH_SOURCE_DIR) + "/examples/sb.txt";
    Outcome tso = run("reach - --model tso < " + sb);
    EXPECT_EQ(tso.code, 10) << tso.err;
    EXPECT_EQ(firstLine(tso.out), "reachable");
    const std::string litmus = std::string(TSOREACH_SOURCE_DIR) + "/examples/litmus/SB.litmus";
    EXPECT_EQ(firstLine(run("reach - --input-format litmus < " + litmus).out), "Allowed");
    Outcome bad =
        run("reach - < " + write("bad.txt", "thread t initial a transition a b foo end\n"));
    EXPECT_EQ(bad.code, 2);
    EXPECT_EQ(bad.err.rfind("<stdin>:1:35: error: unknown instruction 'foo'", 0), 0U) << bad.err;
}

// herd litmus tests: reach answers as herd does, outcomes lists the final
// states by name with the condition's counts, print gives a program that
// reach answers the same way, replay takes reach's trace.
TEST_F(Cli, LitmusTestsAnswerAsHerdDoes) {
    const std::string sb = std::string(TSOREACH_SOURCE_DIR) + "/examples/litmus/SB.litmus";
    Outcome sc = run("reach " + sb + " --model sc");
    EXPECT_EQ(sc.code, 0) << sc.out << sc.err;
    EXPECT_EQ(firstLine(sc.out), "Forbidden");
    Outcome tso = run("reach " + sb + " --model tso");
    EXPECT_EQ(tso.code, 10) << tso.out << tso.err;
    EXPECT_EQ(firstLine(tso.out), "Allowed");
    EXPECT_NE(tso.out.find("Ok, exists (0:EAX=0 /\\ 1:EAX=0) under tso"), std::string::npos)
        << tso.out;
    EXPECT_NE(tso.out.find("EAX := 0 (y)"), std::string::npos) << tso.out;
    const nlohmann::json j = nlohmann::json::parse(run("reach " + sb + " --json").out);
    EXPECT_EQ(j["condition"]["answer"], "Allowed");
    EXPECT_EQ(j["condition"]["validated"], true);
    // The JSON trace replays on the litmus file.
    const std::string trace = write("sb-trace.json", run("reach " + sb + " --json").out);
    Outcome replay = run("replay " + sb + " " + trace);
    EXPECT_EQ(replay.code, 0) << replay.out << replay.err;
    // forall: Ok / No.
    const std::string forall =
        std::string(TSOREACH_SOURCE_DIR) + "/examples/litmus/MP-forall.litmus";
    EXPECT_EQ(firstLine(run("reach " + forall + " --model tso").out), "Ok");
    Outcome no = run("reach " + forall + " --model pso");
    EXPECT_EQ(no.code, 10);
    EXPECT_EQ(firstLine(no.out), "No");
    // print: the goal program, which reach answers alike.
    const std::string printed = write("sb-printed.txt", run("print " + sb).out);
    EXPECT_EQ(run("reach " + printed + " --model sc").code, 0);
    EXPECT_EQ(run("reach " + printed + " --model tso").code, 10);
    // Another extension with --input-format litmus.
    std::ifstream in(sb);
    std::stringstream text;
    text << in.rdbuf();
    const std::string other = write("sb.test", text.str());
    EXPECT_EQ(firstLine(run("reach " + other + " --input-format litmus").out), "Allowed");
}

// --goal cannot replace a condition; an unsatisfiable condition still
// prints as a program with a goal, which reach answers alike.
TEST_F(Cli, LitmusGoalIsTheCondition) {
    const std::string mp = std::string(TSOREACH_SOURCE_DIR) + "/examples/litmus/MP.litmus";
    Outcome goal = run("reach " + mp + " --goal P0=done,P1=done");
    EXPECT_EQ(goal.code, 2);
    EXPECT_TRUE(goal.out.empty()) << goal.out;
    EXPECT_NE(goal.err.find("--goal cannot replace a litmus test's condition"), std::string::npos)
        << goal.err;
    const std::string never = write("never.litmus", "X86 N\n{ x=0; }\n P0 ;\n MOV EAX,[x] ;\n"
                                                    "exists (0:EAX=1 /\\ 0:EAX=2)\n");
    Outcome direct = run("reach " + never);
    EXPECT_EQ(direct.code, 0) << direct.out << direct.err;
    EXPECT_EQ(firstLine(direct.out), "Forbidden");
    EXPECT_TRUE(direct.err.empty()) << direct.err; // no control-flow warning
    const std::string printed = write("never.txt", run("print " + never).out);
    EXPECT_EQ(run("reach " + printed).code, 0);
}

TEST_F(Cli, LitmusOutcomesListFinalStatesByName) {
    const std::string sb = std::string(TSOREACH_SOURCE_DIR) + "/examples/litmus/SB.litmus";
    Outcome sc = run("outcomes " + sb + " --model sc");
    ASSERT_EQ(sc.code, 0) << sc.err;
    EXPECT_EQ(firstLine(sc.out), "outcomes under sc (explicit): 3");
    EXPECT_NE(sc.out.find("P0: EAX=0  P1: EAX=1  | x=1 y=1"), std::string::npos) << sc.out;
    EXPECT_NE(sc.out.find("the formula holds in 0 of 3 final states"), std::string::npos) << sc.out;
    Outcome tso = run("outcomes " + sb + " --model tso --diff sc");
    ASSERT_EQ(tso.code, 0) << tso.err;
    EXPECT_EQ(firstLine(tso.out), "outcomes under tso (explicit): 4");
    EXPECT_NE(tso.out.find("* P0: EAX=0  P1: EAX=0  | x=1 y=1  not under sc"), std::string::npos)
        << tso.out;
    EXPECT_NE(tso.out.find("1 of 4 not under sc"), std::string::npos) << tso.out;
    const nlohmann::json j =
        nlohmann::json::parse(run("outcomes " + sb + " --model tso --json").out);
    EXPECT_EQ(j["condition"]["positive"], 1);
    EXPECT_EQ(j["condition"]["negative"], 3);
    EXPECT_EQ(j["condition"]["answer"], "Allowed");
}

TEST_F(Cli, LitmusErrorsArePositionedAndJson) {
    const std::string bad =
        write("bad.litmus", "X86 T\n{ x=0; }\n P0 ;\n JMP L0 ;\nexists (x=1)\n");
    Outcome text = run("reach " + bad);
    EXPECT_EQ(text.code, 2);
    EXPECT_TRUE(text.out.empty()) << text.out;
    EXPECT_NE(text.err.find("bad.litmus:4:2: error: instruction 'JMP L0' is not supported"),
              std::string::npos)
        << text.err;
    Outcome j = run("reach " + bad + " --json");
    EXPECT_EQ(j.code, 2);
    const nlohmann::json doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["verdict"], "error");
    EXPECT_EQ(doc["line"], 4);
}

// Outcomes name the cells a program declares, show every declared cell (even
// one that stays at its initial value) and start from the declared values.
TEST_F(Cli, OutcomesNameDeclaredCells) {
    const std::string f = write("named.txt", "memory x y = 5 z\n"
                                             "thread p initial a transition a b write 1 x "
                                             "transition b c read r y end\n");
    Outcome text = run("outcomes " + f);
    ASSERT_EQ(text.code, 0) << text.out << text.err;
    EXPECT_NE(text.out.find("p: r=5  | x=1 y=5 z=0"), std::string::npos) << text.out;
    Outcome j = run("outcomes " + f + " --json");
    ASSERT_EQ(j.code, 0) << j.err;
    const nlohmann::json doc = nlohmann::json::parse(j.out);
    ASSERT_EQ(doc["outcomes"].size(), 1U) << j.out;
    const auto& memory = doc["outcomes"][0U]["memory"];
    ASSERT_EQ(memory.size(), 3U) << j.out;
    EXPECT_EQ(memory[1U]["var"], "y");
    EXPECT_EQ(memory[1U]["value"], 5);
    // An undeclared cell has an address and no name.
    Outcome plain = run("outcomes " +
                        write("plain.txt", "thread p initial a transition a b "
                                           "write 1 3 end\n") +
                        " --json");
    ASSERT_EQ(plain.code, 0) << plain.err;
    const nlohmann::json plainDoc = nlohmann::json::parse(plain.out);
    const nlohmann::json& cell = plainDoc["outcomes"][0U]["memory"][0U];
    EXPECT_EQ(cell["addr"], 3);
    EXPECT_FALSE(cell.contains("var")) << plain.out;
}

TEST_F(Cli, ExploreCountsExecutionClassesWithDpor) {
    // Store buffering without its checks: 3 classes under SC, 4 under TSO/PSO.
    const std::string sb = write("sb.txt", "thread p initial a transition a b write 1 0 "
                                           "transition b c read r 1 end\n"
                                           "thread q initial a transition a b write 1 1 "
                                           "transition b c read s 0 end\n");
    const std::pair<const char*, int> expected[] = {{"sc", 3}, {"tso", 4}, {"pso", 4}};
    for (const auto& [model, count] : expected) {
        Outcome r = run("explore " + sb + " --model " + model + " --json");
        ASSERT_EQ(r.code, 0) << model << r.err;
        nlohmann::json doc = nlohmann::json::parse(r.out);
        EXPECT_EQ(doc["command"], "explore");
        EXPECT_EQ(doc["model"], model);
        EXPECT_EQ(doc["engine"], "dpor");
        EXPECT_EQ(doc["complete"], true);
        EXPECT_EQ(doc["stats"]["executions"], count) << model;
        EXPECT_EQ(doc["stats"]["blocked"], 0);
        EXPECT_EQ(doc["stats"]["outcomes"], count) << model; // each class its own r, s
        EXPECT_TRUE(doc["stats"].contains("redundant"));
    }
    Outcome traces = run("explore " + sb + " --model tso --print-traces");
    EXPECT_EQ(traces.code, 0);
    EXPECT_NE(traces.out.find("execution 4:"), std::string::npos) << traces.out;
    EXPECT_EQ(traces.out.find("execution 5:"), std::string::npos) << traces.out;
    // The dpor engine answers reachability too, with a replayed trace.
    const std::string sbGoal = write("sbg.txt", kSb);
    EXPECT_EQ(run("reach " + sbGoal + " --model tso --engine dpor").code, 10);
    EXPECT_EQ(run("reach " + sbGoal + " --model sc --engine dpor").code, 0);
    // Cyclic programs: unknown with the reason, never a wrong count.
    Outcome cyclic = run("explore " + write("c.txt", kCounter));
    EXPECT_EQ(cyclic.code, 3);
    EXPECT_NE(cyclic.out.find("control-flow cycle"), std::string::npos) << cyclic.out;
    EXPECT_EQ(run("explore " + sb + " --model arm").code, 2);
}

TEST_F(Cli, ExploreCountsReadsFromClassesWithRf) {
    // 2+2W: no reads, so one reads-from class in every model (dpor: 3 or 4).
    const std::string w22 = write("w22.txt", "thread p initial a transition a b write 1 0 "
                                             "transition b c write 2 1 end\n"
                                             "thread q initial a transition a b write 1 1 "
                                             "transition b c write 2 0 end\n");
    const std::string sb = write("sb.txt", "thread p initial a transition a b write 1 0 "
                                           "transition b c read r 1 end\n"
                                           "thread q initial a transition a b write 1 1 "
                                           "transition b c read s 0 end\n");
    for (const char* model : {"sc", "tso", "pso"}) {
        Outcome r = run("explore " + w22 + " --model " + model + " --engine rf --json");
        ASSERT_EQ(r.code, 0) << model << r.err;
        nlohmann::json doc = nlohmann::json::parse(r.out);
        EXPECT_EQ(doc["engine"], "rf");
        EXPECT_EQ(doc["complete"], true);
        EXPECT_EQ(doc["stats"]["executions"], 1) << model;
        EXPECT_EQ(doc["stats"]["consistency_checks"], 0) << model;
        Outcome s = run("explore " + sb + " --model " + model + " --engine rf --json");
        ASSERT_EQ(s.code, 0) << model << s.err;
        doc = nlohmann::json::parse(s.out);
        EXPECT_EQ(doc["stats"]["executions"], std::string(model) == "sc" ? 3 : 4) << model;
        EXPECT_GT(doc["stats"]["consistency_checks"], 0) << model;
    }
    Outcome text = run("explore " + sb + " --model tso --engine rf --print-traces");
    EXPECT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("execution 4:"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("execution 5:"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("consistency checks:"), std::string::npos) << text.out;
    // Reachability with a replayed trace, and the same verdicts as dpor.
    const std::string sbGoal = write("sbg.txt", kSb);
    Outcome tso = run("reach " + sbGoal + " --model tso --engine rf");
    EXPECT_EQ(tso.code, 10) << tso.out << tso.err;
    EXPECT_NE(tso.out.find("flush"), std::string::npos) << tso.out;
    EXPECT_EQ(run("reach " + sbGoal + " --model sc --engine rf").code, 0);
    EXPECT_EQ(run("reach " + sbGoal + " --model pso --engine rf").code, 10);
    // Cyclic: unknown with the reason; with --unroll a bounded answer.
    Outcome cyclic = run("explore " + write("c.txt", kCounter) + " --engine rf");
    EXPECT_EQ(cyclic.code, 3);
    EXPECT_NE(cyclic.out.find("control-flow cycle"), std::string::npos) << cyclic.out;
    Outcome unrolled = run("explore " + write("c2.txt", kCounter) + " --engine rf --unroll 2");
    EXPECT_EQ(unrolled.code, 3) << unrolled.out;
    EXPECT_NE(unrolled.out.find("unrolled 2 times"), std::string::npos) << unrolled.out;
    EXPECT_EQ(run("explore " + sb + " --engine nope").code, 2);
}

} // namespace
} // namespace tsoreach

namespace tsoreach {
namespace {

// Ctrl-C stops a search with `unknown` and its statistics, exit code 3.
TEST_F(Cli, InterruptGivesUnknownWithStatistics) {
    const std::string f = write("counter.txt", kCounter);
    for (const char* model : {"sc", "tso", "pso"}) {
        // --foreground: otherwise timeout signals the child and its process
        // group, two SIGINTs, and the second one kills (SA_RESETHAND).
        const std::string cmd = std::string("timeout --foreground --preserve-status -s INT 1 '") +
                                TSOREACH_BINARY + "' reach '" + f + "' --stats --model " + model +
                                " >'" + (dir / "stdout").string() + "' 2>'" +
                                (dir / "stderr").string() + "'";
        const int status = std::system(cmd.c_str());
        ASSERT_TRUE(WIFEXITED(status)) << model;
        EXPECT_EQ(WEXITSTATUS(status), 3) << model;
        std::ifstream in(dir / "stdout");
        const std::string out((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
        EXPECT_EQ(out.rfind("unknown: interrupted (SIGINT)", 0), 0U) << out;
        EXPECT_NE(out.find("states:"), std::string::npos) << out;
    }
}

// Without --max-memory the search has a limit (a share of the available
// memory), named in the help.
TEST_F(Cli, DefaultMemoryLimitIsDocumented) {
    for (const char* cmd : {"reach", "robust", "fences", "explore"}) {
        Outcome h = run(std::string(cmd) + " --help");
        EXPECT_NE(h.out.find("default: 80% of the memory available"), std::string::npos) << cmd;
    }
}

} // namespace
} // namespace tsoreach
