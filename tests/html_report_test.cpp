// --html FILE: the page of each subcommand that has one, read as text (what
// a browser shows of it is checked by html_render_test.sh with Chromium).

#include "support/cli_fixture.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tsoreach::test {
namespace {

class Html : public CliFixture {
  protected:
    static std::string example(const std::string& name) {
        return std::string(TSOREACH_SOURCE_DIR) + "/examples/" + name;
    }
    // Runs ARGS with --html into the scratch folder; the page.
    std::string page(const std::string& args, int code, const std::string& env = "") {
        const std::string file = (dir / "page.html").string();
        const CliOutcome o = run(args + " --html " + file, env);
        EXPECT_EQ(o.code, code) << args << "\n" << o.err;
        return slurp(file);
    }
    static bool has(const std::string& text, const std::string& part) {
        return text.find(part) != std::string::npos;
    }
    // One file that loads nothing: no external style, script, image or frame.
    static void selfContained(const std::string& html) {
        EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
        EXPECT_TRUE(has(html, "</html>"));
        for (const char* outside : {"<script", "<link", "<img", "<iframe", " src=\"", "@import",
                                    "url(http", "href=\"http"}) {
            EXPECT_FALSE(has(html, outside)) << outside;
        }
    }
};

// The SB trace: a lane per thread, the buffers after each step, t0's store
// delayed past its load (and the load marked as overtaking it), the goal.
TEST_F(Html, ReachDrawsTheTraceAsLanesWithBuffers) {
    const std::string html = page("reach " + example("sb.txt"), 10);
    selfContained(html);
    EXPECT_TRUE(has(html, "<span class=\"verdict bad\">reachable</span>")) << html;
    EXPECT_TRUE(has(html, "<th>t0</th><th>t1</th>")) << html;
    EXPECT_TRUE(has(html, "<code>write 1 x</code><span class=\"line\">at 19:1</span>")) << html;
    EXPECT_TRUE(has(html, "class=\"step delayed\"")) << html;
    EXPECT_TRUE(has(html, "delayed: still buffered at the load of step 5; reaches memory at "
                          "step 7"))
        << html;
    EXPECT_TRUE(has(html, "overtakes x=1 (step 4)")) << html;
    EXPECT_TRUE(has(html, "buffer: <span class=\"slot delayed\">x=1</span>")) << html;
    EXPECT_TRUE(has(html, "the goal holds after this step")) << html;
    EXPECT_TRUE(has(html, "<span class=\"used\">transition start  stored  write 1 x</span>"))
        << html;
    // Under SC there are no buffers, hence nothing delayed.
    const std::string sc = page("reach " + example("sb-sc-outcome.txt") + " --model sc", 10);
    EXPECT_FALSE(has(sc, "buffer:")) << sc;
    EXPECT_FALSE(has(sc, "class=\"step delayed\"")) << sc;
}

// Under PSO a flush may overtake older stores of its thread.
TEST_F(Html, PsoFlushesThatOvertakeAreMarked) {
    const std::string html = page("reach " + example("2+2w.txt") + " --model pso", 10);
    EXPECT_TRUE(has(html, "overtakes older stores: x=1")) << html;
    // ... and the store it overtakes is the delayed one.
    const std::string mp = page("reach " + example("mp.txt") + " --model pso", 10);
    EXPECT_TRUE(has(mp, "delayed: still buffered at the flush of step 3; reaches memory at "
                        "step 7"))
        << mp;
}

// A witness: the attack, its execution, the cycle as SVG, by Graphviz when
// it is on the PATH and by the built-in layout without it.
TEST_F(Html, RobustShowsTheWitnessAndItsCycle) {
    const std::string builtin = page("robust " + example("peterson.txt"), 10, "PATH=/nonexistent");
    selfContained(builtin);
    EXPECT_TRUE(has(builtin, "<span class=\"verdict bad\">not robust</span>")) << builtin;
    EXPECT_TRUE(has(builtin, "Attack: thread t0 delays")) << builtin;
    EXPECT_TRUE(has(builtin, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"hb\"")) << builtin;
    EXPECT_TRUE(has(builtin, "drawn by the built-in layout (Graphviz dot is not installed)"))
        << builtin;
    EXPECT_TRUE(has(builtin, "[3] t0: write 1 turn (at 28:1)")) << builtin;
    EXPECT_TRUE(has(builtin, "stroke=\"#d62728\"")) << builtin; // the cycle in red
    EXPECT_FALSE(has(builtin, "the goal holds")) << builtin;    // a witness has no goal
    if (std::system("command -v dot >/dev/null 2>&1") == 0) {
        const std::string dot = page("robust " + example("peterson.txt"), 10);
        EXPECT_TRUE(has(dot, "drawn by Graphviz dot")) << dot;
        EXPECT_TRUE(has(dot, "<svg")) << dot;
        EXPECT_FALSE(has(dot, "<?xml")) << dot;
    }
    // No scratch folder for Graphviz: the built-in layout, and the verdict.
    const std::string noTmp = page("robust " + example("peterson.txt"), 10, "TMPDIR=/nonexistent");
    EXPECT_TRUE(has(noTmp, "drawn by the built-in layout (no scratch folder")) << noTmp;
    // PSO: the dpor engine's execution.
    const std::string pso = page("robust " + example("mp.txt") + " --model pso", 10);
    EXPECT_TRUE(has(pso, "whose happens-before relation has a cycle")) << pso;
    EXPECT_TRUE(has(pso, "<svg")) << pso;
    const std::string robust = page("robust " + example("iriw.txt"), 0);
    EXPECT_TRUE(has(robust, "<span class=\"verdict good\">robust</span>")) << robust;
}

// Fences appear in the program text before the line they guard.
TEST_F(Html, FencesArePlacedInTheSource) {
    const std::string html = page("fences " + example("sb.txt") + " --target robustness", 0);
    selfContained(html);
    EXPECT_TRUE(has(html, "2 fences (verified, minimum)")) << html;
    const std::size_t fence = html.find("mfence  \u2190 fence 1: t0 at state stored");
    const std::size_t line20 = html.find("<span class=\"ln\">20</span>");
    ASSERT_NE(fence, std::string::npos) << html;
    EXPECT_LT(html.find("<span class=\"ln\">19</span>"), fence);
    EXPECT_LT(fence, line20);
    EXPECT_TRUE(has(html, "cuts attack: t0 delays")) << html;
    const std::string safety = page("fences " + example("peterson.txt") + " --target safety", 0);
    EXPECT_TRUE(has(safety, "class=\"fence\"")) << safety;
    const std::string impossible =
        page("fences " + example("sb-sc-outcome.txt") + " --target safety", 10);
    EXPECT_TRUE(has(impossible, "SC trace to the goal")) << impossible;
    // Stopped: the set it had is shown as what it is.
    const std::string stopped =
        page("fences " + example("sb.txt") + " --target robustness --max-rounds 1", 3);
    EXPECT_TRUE(has(stopped, "Candidate fences when the search stopped (not verified)")) << stopped;
    EXPECT_FALSE(has(stopped, "<h2>Fences</h2>")) << stopped;
}

TEST_F(Html, OutcomesAreATable) {
    const std::string html = page("outcomes " + example("sb.txt") + " --diff sc", 0);
    selfContained(html);
    EXPECT_TRUE(has(html, "<table class=\"outcomes\">")) << html;
    EXPECT_TRUE(has(html, "<th>under sc</th>")) << html;
    EXPECT_TRUE(has(html, "not reachable")) << html;
    EXPECT_TRUE(has(html, "<p>1 of 1 not under sc (0 outcomes under sc)</p>")) << html;
    const std::string litmus = page("outcomes " + example("litmus/SB.litmus"), 0);
    EXPECT_TRUE(has(litmus, "class=\"positive\"")) << litmus;
    EXPECT_TRUE(has(litmus, "<p>the formula holds in 1 of 4 final states (the highlighted "
                            "rows)</p>\n<p>Allowed</p>"))
        << litmus;
    const std::string allowed = page("reach " + example("litmus/SB.litmus"), 10);
    EXPECT_TRUE(has(allowed, "<span class=\"verdict bad\">Allowed</span>")) << allowed;
    EXPECT_TRUE(has(allowed, "<dt>condition</dt><dd>exists (0:EAX=0 /\\ 1:EAX=0)</dd>")) << allowed;
}

// Names are the user's: anything they hold is escaped.
TEST_F(Html, NamesAreEscaped) {
    const std::string f = write("odd.txt", R"(memory <x>&y
thread t"0<b>
initial a
final c
transition a b write 1 <x>&y
transition b c read r <x>&y
end
)");
    const std::string html = page("reach " + f + " --model pso", 10);
    EXPECT_FALSE(has(html, "<b>")) << html;
    EXPECT_TRUE(has(html, "t&quot;0&lt;b&gt;")) << html;
    EXPECT_TRUE(has(html, "&lt;x&gt;&amp;y")) << html;
    // DOT of a witness too: a thread named t"0\ (robust --dot).
    const std::string sb = write("sb.txt", R"(memory x y
thread t"0\
initial a
final c
transition a b write 1 x
transition b c read r y
end
thread t1
initial a
final c
transition a b write 1 y
transition b c read r x
end
)");
    const std::string dot = (dir / "g.dot").string();
    ASSERT_EQ(run("robust " + sb + " --dot " + dot).code, 10);
    const std::string graph = slurp(dot);
    EXPECT_TRUE(has(graph, "label=\"t\\\"0\\\\\";")) << graph;
    EXPECT_TRUE(has(graph, "[1] t\\\"0\\\\: write 1 x (at 5:1)\\nW x = 1")) << graph;
    if (std::system("command -v dot >/dev/null 2>&1") == 0) {
        EXPECT_EQ(std::system(("dot -Tsvg '" + dot + "' >/dev/null 2>&1").c_str()), 0) << graph;
    }
}

// Where there is no page, or it cannot be written.
TEST_F(Html, RefusedWhereItDoesNotApply) {
    EXPECT_EQ(run("explore " + example("sb.txt") + " --html x.html").code, 2);
    // Checked before the search, which a bad path would otherwise lose.
    const CliOutcome o = run("reach " + example("sb.txt") + " --html /nonexistent/dir/p.html");
    EXPECT_EQ(o.code, 2) << o.err;
    EXPECT_EQ(o.out, "");
    EXPECT_TRUE(has(o.err, "--html: cannot write /nonexistent/dir/p.html")) << o.err;
    for (const char* option : {"--html", "--dot"}) {
        const CliOutcome dash = run("reach " + example("sb.txt") + " " + option + " -");
        EXPECT_EQ(dash.code, 2) << dash.err;
        EXPECT_TRUE(has(dash.err, "standard output carries the report")) << dash.err;
    }
    EXPECT_EQ(
        run("fences " + example("sb.txt") + " --target robustness --apply /nonexistent/f").code, 2);
    // A file that may be written is not left behind by the check.
    const std::string later = (dir / "later.html").string();
    EXPECT_EQ(run("explore " + example("sb.txt") + " --model sc").code, 0);
    EXPECT_EQ(run("reach " + example("sb.txt") + " --html " + later + " --max-states x").code, 2);
    EXPECT_FALSE(std::filesystem::exists(later));
}

} // namespace
} // namespace tsoreach::test
