// Named memory as a user sees it (docs/language.md, "Memory"): traces, JSON,
// happens-before cycles, DOT graphs, fence reports and `print` name the
// cells a program declares, and keep numbers for the others; a replayed
// JSON trace of a named program replays.

#include "support/cli_fixture.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace tsoreach {
namespace {

using Outcome = test::CliOutcome;
using NamesCli = test::CliFixture;

// SB over named cells, plus a store to a cell no variable holds.
constexpr const char* kSb = R"(memory x y = 0 pad flag[2] = {0, 1}
thread t0
initial a
final d
transition a b write 1 x
transition b c read r flag[+ r 1]
transition c d check == r 1
transition d e write 1 9
end
thread t1
initial a
final c
transition a b write 1 flag[1]
transition b c read s x
end
)";

bool has(const std::string& text, const std::string& what) {
    return text.find(what) != std::string::npos;
}

TEST_F(NamesCli, TracesNameTheCells) {
    const std::string f = write("sb.txt", kSb);
    const Outcome r = run("reach " + f + " --model tso --engine explicit --search bfs");
    ASSERT_EQ(r.code, 10) << r.err;
    EXPECT_TRUE(has(r.out, "buffer += x := 1")) << r.out;
    EXPECT_TRUE(has(r.out, "r := 1 (flag[1])")) << r.out;
    EXPECT_TRUE(has(r.out, "read r flag[+ r 1]")) << r.out;
    EXPECT_TRUE(has(r.out, "s := 0 (x)")) << r.out;
    EXPECT_FALSE(has(r.out, "mem[")) << r.out;
    // A cell no variable holds keeps its number.
    const Outcome sc = run("reach " + f + " --model sc --goal t0=e");
    ASSERT_EQ(sc.code, 10) << sc.err;
    EXPECT_TRUE(has(sc.out, "mem[9] := 1")) << sc.out;
}

TEST_F(NamesCli, JsonStepsHaveVarBesideAddr) {
    const std::string f = write("sb.txt", kSb);
    const Outcome r = run("reach " + f + " --model tso --json");
    ASSERT_EQ(r.code, 10) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    bool sawFlag = false;
    for (const nlohmann::json& step : doc["trace"]) {
        if (!step.contains("addr")) {
            EXPECT_FALSE(step.contains("var"));
            continue;
        }
        ASSERT_TRUE(step.contains("var")) << step;
        const std::int64_t addr = step["addr"];
        EXPECT_EQ(step["var"], addr == 0 ? "x" : addr == 4 ? "flag[1]" : "?") << step;
        sawFlag = sawFlag || step["var"] == "flag[1]";
    }
    EXPECT_TRUE(sawFlag) << r.out;
    // The report replays as it is.
    const std::string trace = write("trace.json", r.out);
    EXPECT_EQ(run("replay " + f + " " + trace).code, 0);
}

TEST_F(NamesCli, CyclesAndDotGraphsNameTheCells) {
    const std::string f = write("sb.txt", R"(memory x y
thread t0
initial a
transition a b write 1 x
transition b c read r y
end
thread t1
initial a
transition a b write 1 y
transition b c read s x
end
)");
    const Outcome r = run("robust " + f);
    ASSERT_EQ(r.code, 10) << r.err;
    EXPECT_TRUE(has(r.out, "W x -")) << r.out;
    EXPECT_TRUE(has(r.out, "R y -")) << r.out;
    const Outcome pso = run("robust " + f + " --model pso --json");
    ASSERT_EQ(pso.code, 10) << pso.err;
    const nlohmann::json doc = nlohmann::json::parse(pso.out);
    for (const nlohmann::json& e : doc["witnesses"][0]["cycle"]) {
        EXPECT_EQ(e["var"], e["addr"] == 0 ? "x" : "y") << e;
    }
    const std::filesystem::path dot = dir / "g.dot";
    ASSERT_EQ(run("robust " + f + " --dot " + dot.string()).code, 10);
    const std::string graph = slurp(dot);
    EXPECT_TRUE(has(graph, "W x = 1\"")) << graph;
    EXPECT_FALSE(has(graph, "mem[")) << graph;
}

// A Memorax test's trace names its variables, a process-local one by the
// process whose copy it is.
TEST_F(NamesCli, RmmTracesNameTheCells) {
    const std::string f = write("sb.rmm", R"(forbidden DONE DONE
data
  x = 0 : [0:1]
process(2)
data
  y = 1 : [0:1]
registers
  $r = 0 : [0:1]
text
  write: y[my] := 0;
  read: $r := y[0];
  assume: $r = 1;
  DONE: nop
)");
    const Outcome r = run("reach " + f + " --model tso --engine explicit");
    ASSERT_EQ(r.code, 10) << r.err;
    EXPECT_TRUE(has(r.out, "write 0 y[0]")) << r.out;
    EXPECT_TRUE(has(r.out, "buffer += y[1] := 0")) << r.out;
    EXPECT_TRUE(has(r.out, "$r := 1 (y[1])")) << r.out;
    EXPECT_FALSE(has(r.out, "mem[")) << r.out;
    EXPECT_EQ(run("reach " + f + " --model sc").code, 0);
}

TEST_F(NamesCli, FenceReportsAndPrintNameTheCells) {
    const std::string f = write("sb.txt", R"(memory x y
thread t0
initial a
final c
transition a b write 1 x
transition b c read r y
end
thread t1
initial a
final c
transition a b write 1 y
transition b c read s x
end
)");
    const std::filesystem::path fenced = dir / "fenced.txt";
    const Outcome r = run("fences " + f + " --target robustness --apply " + fenced.string());
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    EXPECT_TRUE(has(r.out, "past 'read r y'")) << r.out;
    const std::string program = slurp(fenced);
    EXPECT_TRUE(has(program, "\nmemory x y\n")) << program;
    EXPECT_TRUE(has(program, "write 1 x\n")) << program;
    EXPECT_EQ(run("robust " + fenced.string()).code, 0);
    const Outcome printed = run("print " + f);
    ASSERT_EQ(printed.code, 0) << printed.err;
    EXPECT_EQ(printed.out.rfind("memory x y\n", 0), 0U) << printed.out;
    EXPECT_TRUE(has(printed.out, "transition a b write 1 x\n")) << printed.out;
}

} // namespace
} // namespace tsoreach
