// The HTML format (--html FILE on reach, robust, fences and outcomes): one
// self-contained page a person reads in a browser. A trace is drawn as lanes,
// a column per thread and a row per step, each step with its instruction,
// source line and effect, and under TSO/PSO each thread's store buffer after
// the step. A store that a later load of its thread overtakes (the load
// reads memory while the store waits in the buffer) is orange, the load
// red; so is a PSO flush that overtakes older stores. A robustness witness
// adds its happens-before graph as inline SVG (graphs.hpp), a fence report
// the program's source with the fences placed, an outcomes report a table.
// Explore and replay have no page.

#include "graphs.hpp"
#include "html.hpp"
#include "report.hpp"
#include "report_common.hpp"

#include "tsoreach/lang/printer.hpp"

#include <map>
#include <set>
#include <sstream>
#include <variant>

namespace tsoreach::cli {
namespace {

using detail::BufferedStore;
using detail::BufferView;
using reach::StepKind;
using reach::TraceStep;

std::string esc(std::string_view s) {
    return htmlEscaped(s);
}

// The page's title, its verdict in the colour `tone` ("bad", "good" or
// "unknown") and the facts of the run.
std::string header(const std::string& command, const std::string& file, const std::string& verdict,
                   const std::string& tone,
                   const std::vector<std::pair<std::string, std::string>>& facts) {
    std::string out = "<h1>tsoreach " + esc(command) + ": " + esc(file) + "</h1>\n" +
                      "<p><span class=\"verdict " + tone + "\">" + esc(verdict) + "</span></p>\n" +
                      "<dl class=\"facts\">\n";
    for (const auto& [key, value] : facts) {
        out += "<dt>" + esc(key) + "</dt><dd>" + esc(value) + "</dd>\n";
    }
    return out + "</dl>\n";
}

std::string warningsSection(const std::vector<FileWarning>& ws) {
    if (ws.empty()) {
        return "";
    }
    std::string out = "<h2>Warnings</h2>\n<ul class=\"warnings\">\n";
    for (const FileWarning& w : ws) {
        out += "<li>" +
               esc(w.file + ":" + std::to_string(w.pos.line) + ":" + std::to_string(w.pos.col) +
                   ": " + w.message) +
               "</li>\n";
    }
    return out + "</ul>\n";
}

// What a step's card shows besides its instruction and effect: its class
// (delayed, overtakes, goal) and a sentence saying why.
struct StepMark {
    std::string cls;
    std::string note;
};

// "x=1 (step 4)": a buffered store and its write step.
std::string storeText(const Program& p, const BufferedStore& b) {
    return detail::cellName(p, b.addr) + "=" + std::to_string(b.value) + " (step " +
           std::to_string(b.step + 1) + ")";
}

// What step i overtakes (the stores of its thread still buffered that it
// goes past: a load's to other cells, a PSO flush's older ones), with its
// mark; nothing for other steps.
std::vector<BufferedStore> overtakes(const Program& p, const reach::Trace& t,
                                     const std::vector<BufferView>& buffers, std::size_t i,
                                     StepMark& mark) {
    const TraceStep& s = t.steps[i];
    if (s.kind == StepKind::Flush) {
        std::string older;
        for (const BufferedStore& b : buffers[i].overtaken) {
            older += (older.empty() ? "" : ", ") + storeText(p, b);
        }
        if (!older.empty()) {
            mark = {"overtakes", "overtakes older stores: " + older};
        }
        return buffers[i].overtaken;
    }
    // A load served by its own buffer overtakes nothing (its effect says so).
    if (p.transition(s.transition).instr.kind != InstrKind::Read || !s.addr ||
        s.forwarded.value_or(false) || i == 0) {
        return {};
    }
    std::vector<BufferedStore> passed;
    std::string waiting;
    for (const BufferedStore& b : buffers[i - 1].threads[s.thread.index()]) {
        if (b.addr != *s.addr) {
            passed.push_back(b);
            waiting += (waiting.empty() ? "" : ", ") + storeText(p, b);
        }
    }
    if (!waiting.empty()) {
        mark = {"overtakes", "reads memory while its stores wait: overtakes " + waiting};
    }
    return passed;
}

// The delayed stores and the loads and flushes that overtake them, read off
// the buffers after each step.
std::vector<StepMark> stepMarks(const Program& p, const reach::Trace& t,
                                const std::vector<BufferView>& buffers) {
    std::vector<StepMark> marks(t.steps.size());
    if (buffers.empty()) {
        return marks;
    }
    std::map<std::size_t, std::size_t> flushOf; // write step -> its flush step
    std::vector<std::vector<std::size_t>> overtakenBy(t.steps.size()); // write -> steps
    for (std::size_t i = 0; i < t.steps.size(); ++i) {
        const TraceStep& s = t.steps[i];
        if (s.kind == StepKind::Flush && s.addr && i > 0) {
            for (const BufferedStore& b : buffers[i - 1].threads[s.thread.index()]) {
                if (b.addr == *s.addr) {
                    flushOf[b.step] = i; // the oldest store to its cell
                    break;
                }
            }
        }
        for (const BufferedStore& b : overtakes(p, t, buffers, i, marks[i])) {
            overtakenBy[b.step].push_back(i);
        }
    }
    for (std::size_t w = 0; w < t.steps.size(); ++w) {
        std::string by;
        for (std::size_t l : overtakenBy[w]) {
            by +=
                std::string(by.empty() ? "" : ", ") +
                (t.steps[l].kind == StepKind::Flush ? "the flush of step " : "the load of step ") +
                std::to_string(l + 1);
        }
        if (by.empty()) {
            continue;
        }
        const auto f = flushOf.find(w);
        marks[w] = {"delayed",
                    "delayed: still buffered at " + by +
                        (f == flushOf.end()
                             ? std::string("; never reaches memory in this trace")
                             : "; reaches memory at step " + std::to_string(f->second + 1))};
    }
    return marks;
}

std::string bufferCell(const Program& p, const std::vector<BufferedStore>& buffer,
                       const std::vector<StepMark>& marks) {
    if (buffer.empty()) {
        return "";
    }
    std::string out = "<div class=\"buffer\">buffer:";
    for (const BufferedStore& b : buffer) {
        out += " <span class=\"slot" +
               std::string(marks[b.step].cls == "delayed" ? " delayed" : "") + "\">" +
               esc(detail::cellName(p, b.addr) + "=" + std::to_string(b.value)) + "</span>";
    }
    return out + "</div>";
}

std::string stepCard(const Program& p, const reach::Trace& t, std::size_t i, const StepMark& mark,
                     bool goal) {
    const TraceStep& s = t.steps[i];
    const bool isGoal = goal && i + 1 == t.goalStep;
    std::string cls = "step";
    if (s.kind == StepKind::Flush) {
        cls += " flush";
    }
    if (!mark.cls.empty()) {
        cls += " " + mark.cls;
    }
    if (isGoal) {
        cls += " goal";
    }
    std::string out = "<div class=\"" + cls + "\">";
    if (s.kind == StepKind::Flush) {
        out += "<code>flush</code>";
    } else {
        const Transition& tr = p.transition(s.transition);
        out += "<code>" + esc(printInstruction(p, tr)) + "</code><span class=\"line\">at " +
               placeText(tr.pos) + "</span>";
    }
    if (const std::string what = detail::effect(p, t.model, s); !what.empty()) {
        out += "<div class=\"effect\">" + esc(what) + "</div>";
    }
    std::string note = mark.note;
    if (isGoal) {
        note += std::string(note.empty() ? "" : "; ") + "the goal holds after this step";
    }
    if (!note.empty()) {
        out += "<div class=\"note\">" + esc(note) + "</div>";
    }
    return out + "</div>";
}

// The trace as lanes: a column per thread, a row per step.
// `goal`: mark the goal step (a witness of non-robustness has none).
std::string lanes(const Program& p, const reach::Trace& t, bool goal = true) {
    const std::vector<BufferView> buffers = detail::buffersAfterSteps(p, t);
    const std::vector<StepMark> marks = stepMarks(p, t, buffers);
    std::ostringstream out;
    if (!buffers.empty()) {
        out << "<p class=\"legend\"><span><span class=\"swatch delayed\"></span>delayed "
               "store</span><span><span class=\"swatch overtakes\"></span>load (or PSO flush) "
               "that overtakes it</span><span>buffers after each step, oldest first</span></p>\n";
    }
    out << "<table class=\"lanes\">\n<thead><tr><th>step</th>";
    for (const Thread& th : p.threads) {
        out << "<th>" << esc(th.name) << "</th>";
    }
    out << "</tr></thead>\n<tbody>\n";
    for (std::size_t i = 0; i < t.steps.size(); ++i) {
        out << "<tr"
            << (goal && t.goalStep != 0 && i + 1 > t.goalStep ? " class=\"after-goal\"" : "")
            << "><td class=\"num\">" << i + 1 << "</td>";
        for (std::size_t th = 0; th < p.threads.size(); ++th) {
            out << "<td>";
            if (t.steps[i].thread.index() == th) {
                out << stepCard(p, t, i, marks[i], goal);
            }
            if (!buffers.empty()) {
                out << bufferCell(p, buffers[i].threads[th], marks);
            }
            out << "</td>";
        }
        out << "</tr>\n";
    }
    out << "</tbody>\n</table>\n";
    if (goal && t.goalStep != 0 && t.goalStep < t.steps.size()) {
        out << "<p>The goal holds after step " << t.goalStep
            << "; the grey steps after it flush the stores still buffered.</p>\n";
    }
    return out.str();
}

// The program's source, numbered, with `marked` lines shaded and, before a
// line, the fences placed there.
std::string sourceListing(const std::string& source, const std::set<std::uint32_t>& marked,
                          const std::map<std::uint32_t, std::vector<std::string>>& fences) {
    std::ostringstream out;
    out << "<pre class=\"source\">";
    std::istringstream in(source);
    std::uint32_t n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        if (const auto f = fences.find(n); f != fences.end()) {
            for (const std::string& text : f->second) {
                out << "<span class=\"ln\">+</span><span class=\"fence\">" << esc(text)
                    << "</span>\n";
            }
        }
        out << "<span class=\"ln\">" << n << "</span>";
        if (marked.count(n) != 0) {
            out << "<span class=\"used\">" << esc(line) << "</span>\n";
        } else {
            out << esc(line) << "\n";
        }
    }
    out << "</pre>\n";
    return out.str();
}

std::set<std::uint32_t> linesOf(const Program& p, const reach::Trace& t) {
    std::set<std::uint32_t> lines;
    for (const TraceStep& s : t.steps) {
        if (s.kind == StepKind::Instruction) {
            lines.insert(p.transition(s.transition).pos.line);
        }
    }
    return lines;
}

std::string tone(reach::Verdict v) {
    switch (v) {
    case reach::Verdict::Reachable:
        return "bad";
    case reach::Verdict::Unreachable:
        return "good";
    case reach::Verdict::Unknown:
        break;
    }
    return "unknown";
}

std::string robustWord(robustness::RobustVerdict v) {
    return v == robustness::RobustVerdict::NotRobust ? "not robust" : detail::verdictName(v);
}

std::string tone(robustness::RobustVerdict v) {
    switch (v) {
    case robustness::RobustVerdict::NotRobust:
        return "bad";
    case robustness::RobustVerdict::Robust:
        return "good";
    case robustness::RobustVerdict::Unknown:
        break;
    }
    return "unknown";
}

// The fences, each with the constraints it cuts, as a list; `placed`
// gets, by source line, the marks the listing shows before it.
std::string fenceList(const Program& p, const FenceInfo& info, const robustness::FenceResult& f,
                      std::map<std::uint32_t, std::vector<std::string>>& placed) {
    std::string out = "<ol>\n";
    for (std::size_t i = 0; i < f.fences.size(); ++i) {
        const instrument::FencePosition& pos = f.fences[i];
        const Thread& th = p.thread(pos.thread);
        const std::string& state = th.stateNames[pos.state.index()];
        const FenceSite* site = detail::siteOf(info, pos);
        const SourcePos at = site != nullptr ? site->pos : detail::guardedPos(p, pos);
        out += "<li>" + esc(detail::fenceText(p, info, pos));
        if (i < f.cuts.size() && !f.cuts[i].empty()) {
            out += "<ul>";
            for (std::size_t k : f.cuts[i]) {
                out += "<li>cuts " + esc(f.constraints[k].reason) + "</li>";
            }
            out += "</ul>";
        }
        out += "</li>\n";
        // A mark, not the file's syntax (it may be .rmm or .litmus; a C
        // file's statement is in the list above).
        const std::string what = site != nullptr ? info.fenceStatement : "mfence";
        placed[at.line].push_back(what + "  \u2190 fence " + std::to_string(i + 1) + ": " +
                                  th.name + " at state " + state + ", before the next line");
    }
    return out + "</ol>\n";
}

// What the outcomes add up to: the condition's answer (a litmus test) and
// the comparison with --diff's model, a paragraph a line.
std::string outcomesSummary(const OutcomesReport& r) {
    const reach::OutcomeList& l = r.list;
    std::string text;
    if (r.info.condition != nullptr && l.complete) {
        text = detail::conditionSummary(*r.info.condition, r.info.model, l);
        const std::string marked = " (marked *)";
        if (const std::size_t at = text.find(marked); at != std::string::npos) {
            text.replace(at, marked.size(), " (the highlighted rows)");
        }
    }
    if (r.baseline != nullptr) {
        const std::string base(reach::name(*r.info.diff));
        if (!r.baseline->complete) {
            text += "not compared with " + base + ": " + r.baseline->reason + "\n";
        } else {
            std::size_t fresh = 0;
            for (const reach::Outcome& o : l.outcomes) {
                fresh += o.absentFromBaseline ? 1 : 0;
            }
            text += std::to_string(fresh) + " of " + std::to_string(l.outcomes.size()) +
                    " not under " + base + " (" + std::to_string(r.baseline->outcomes.size()) +
                    " outcomes under " + base + ")\n";
        }
    }
    std::string out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        out += "<p>" + esc(line) + "</p>\n";
    }
    return out;
}

class HtmlFormat final : public ReportFormat {
  public:
    explicit HtmlFormat(HtmlContext context) : c_(std::move(context)) {}
    [[nodiscard]] std::string_view name() const override { return "html"; }
    [[nodiscard]] std::optional<std::string> reach(const ReachReport& r) const override;
    [[nodiscard]] std::optional<std::string> robust(const RobustReport& r) const override;
    [[nodiscard]] std::optional<std::string> fences(const FencesReport& r) const override;
    [[nodiscard]] std::optional<std::string> outcomes(const OutcomesReport& r) const override;
    [[nodiscard]] std::optional<std::string> explore(const ExploreReport&) const override {
        return std::nullopt;
    }
    [[nodiscard]] std::optional<std::string> replay(const ReplayReport&) const override {
        return std::nullopt;
    }

  private:
    std::string witnessSections(const Program& p, const reach::Trace& t,
                                const robustness::HbGraph& g,
                                const std::vector<robustness::HbArc>& cycle) const;
    std::string source(const std::set<std::uint32_t>& marked,
                       const std::map<std::uint32_t, std::vector<std::string>>& fences = {}) const {
        return "<h2>Program</h2>\n" + sourceListing(c_.source, marked, fences);
    }

    HtmlContext c_;
};

std::optional<std::string> HtmlFormat::reach(const ReachReport& r) const {
    const reach::Result& res = r.result;
    std::string verdict(reach::name(res.verdict));
    if (r.info.condition != nullptr && res.verdict != reach::Verdict::Unknown) {
        verdict = detail::herdAnswer(*r.info.condition, r.info.model,
                                     res.verdict == reach::Verdict::Reachable)
                      .word;
    } else if (res.verdict == reach::Verdict::Unknown) {
        verdict += ": " + res.reason;
    }
    // A litmus test's goal is its condition (the goal's states are those
    // of the checking branches the translation adds).
    const std::pair<std::string, std::string> goal =
        r.info.condition != nullptr
            ? std::pair<std::string, std::string>{"condition", r.info.condition->text}
            : std::pair<std::string, std::string>{"goal", r.goal.describe(r.program)};
    std::string body = header("reach", r.info.file, verdict, tone(res.verdict),
                              {{"model", std::string(reach::name(r.info.model))},
                               {"engine", r.info.engine},
                               goal,
                               {"states", std::to_string(res.stats.states)},
                               {"time", detail::formatSeconds(res.stats.timeSeconds) + " s"}});
    std::set<std::uint32_t> used;
    if (res.trace) {
        body += "<h2>Trace (" + std::to_string(res.trace->steps.size()) + " steps)</h2>\n";
        body += res.trace->steps.empty() ? "<p>The initial state satisfies the goal.</p>\n"
                                         : lanes(r.program, *res.trace);
        used = linesOf(r.program, *res.trace);
    }
    body += source(used) + warningsSection(c_.warnings);
    return htmlPage("tsoreach reach " + r.info.file, body);
}

std::string HtmlFormat::witnessSections(const Program& p, const reach::Trace& t,
                                        const robustness::HbGraph& g,
                                        const std::vector<robustness::HbArc>& cycle) const {
    std::string out = "<h2>Execution (" + std::to_string(t.steps.size()) + " steps)</h2>\n" +
                      lanes(p, t, false) + "<h2>Happens-before cycle</h2>\n<p class=\"mono\">" +
                      esc(detail::cycleText(p, g, cycle)) + "</p>\n";
    const Svg svg = happensBeforeSvg(p, t, g, cycle, c_.stop);
    return out + "<div class=\"graph\">" + svg.text +
           "</div>\n<p>Events in boxes (step, thread, instruction, line, access); the cycle in "
           "red" +
           (svg.note.empty() ? "" : "; shown: " + esc(svg.note)) + "; drawn by " + esc(svg.how) +
           ".</p>\n";
}

std::optional<std::string> HtmlFormat::robust(const RobustReport& r) const {
    std::string body;
    std::set<std::uint32_t> used;
    if (const auto* a = std::get_if<robustness::RobustnessResult>(&r.outcome)) {
        std::string verdict = robustWord(a->verdict);
        if (a->verdict == robustness::RobustVerdict::Unknown) {
            verdict += ": " + a->reason;
        }
        body =
            header("robust", r.file, verdict, tone(a->verdict),
                   {{"model", r.model},
                    {"engine", r.engine},
                    {"attacks",
                     std::to_string(a->checked) + " of " + std::to_string(a->attacks) +
                         " checked, " + std::to_string(a->witnesses.size()) + " feasible" +
                         (a->undecided == 0 ? std::string()
                                            : ", " + std::to_string(a->undecided) + " undecided")},
                    {"SC searches",
                     std::to_string(a->scQueries) + ", " + std::to_string(a->scStates) + " states"},
                    {"time", detail::formatSeconds(r.seconds) + " s"}});
        for (const robustness::Witness& w : a->witnesses) {
            body += "<h2>Attack: thread " + esc(r.program.thread(w.attack.thread).name) +
                    " delays " + esc(detail::describeTransition(r.program, w.attack.store)) +
                    " past " + esc(detail::describeTransition(r.program, w.attack.load)) +
                    "</h2>\n" + witnessSections(r.program, w.trace, w.graph, w.cycle);
            const std::set<std::uint32_t> lines = linesOf(r.program, w.trace);
            used.insert(lines.begin(), lines.end());
        }
    } else {
        const auto& e = std::get<robustness::ExploredRobustness>(r.outcome);
        std::string verdict = robustWord(e.verdict);
        if (e.verdict == robustness::RobustVerdict::Unknown) {
            verdict += ": " + e.reason;
        }
        body = header("robust", r.file, verdict, tone(e.verdict),
                      {{"model", r.model},
                       {"engine", r.engine},
                       {"executions checked", std::to_string(e.executions)},
                       {"time", detail::formatSeconds(e.seconds) + " s"}});
        if (e.verdict == robustness::RobustVerdict::NotRobust) {
            body += "<h2>An execution under " + esc(r.model) +
                    " whose happens-before relation has a cycle</h2>\n" +
                    witnessSections(r.program, e.trace, e.graph, e.cycle);
            used = linesOf(r.program, e.trace);
        }
    }
    body += source(used) + warningsSection(c_.warnings);
    return htmlPage("tsoreach robust " + r.file, body);
}

std::optional<std::string> HtmlFormat::fences(const FencesReport& r) const {
    const robustness::FenceResult& f = r.result;
    std::string verdict;
    std::string colour = "unknown";
    switch (f.outcome) {
    case robustness::FenceOutcome::Found:
        verdict = f.fences.empty() ? "no fences needed"
                                   : std::to_string(f.fences.size()) + " fence" +
                                         (f.fences.size() == 1 ? "" : "s") + " (verified" +
                                         (f.optimal ? ", minimum)" : ", not proved minimum)");
        colour = "good";
        break;
    case robustness::FenceOutcome::Impossible:
        verdict = "no fence set helps: " + f.reason;
        colour = "bad";
        break;
    case robustness::FenceOutcome::Unknown:
        verdict = "unknown: " + f.reason;
        break;
    }
    std::string body = header(
        "fences", r.info.file, verdict, colour,
        {{"target", r.info.target},
         {"model", r.info.model},
         {"engine", r.info.engine},
         {"work", std::to_string(f.rounds) + " rounds, " + std::to_string(f.constraints.size()) +
                      " constraints, " + std::to_string(f.checks) + " checks, " +
                      std::to_string(f.scStates) + " states"},
         {"time", detail::formatSeconds(r.info.seconds) + " s"}});
    const bool verified = f.outcome == robustness::FenceOutcome::Found;
    std::map<std::uint32_t, std::vector<std::string>> placed;
    if (f.outcome != robustness::FenceOutcome::Impossible && !f.fences.empty()) {
        // An unknown answer may come with the set the search had when it
        // stopped: shown, but as what it is.
        body += verified ? "<h2>Fences</h2>\n"
                         : "<h2>Candidate fences when the search stopped (not verified)</h2>\n";
        body += fenceList(r.program, r.info, f, placed);
    }
    if (f.outcome == robustness::FenceOutcome::Impossible && !f.scTrace.steps.empty()) {
        body += "<h2>SC trace to the goal</h2>\n" + lanes(r.program, f.scTrace);
    }
    const std::string with = verified ? ", with the fences (green)"
                                      : ", with the candidate fences (green, not verified)";
    body += "<h2>Program" + (placed.empty() ? std::string() : with) + "</h2>\n" +
            sourceListing(c_.source, {}, placed);
    if (verified && !f.fencedText.empty() && !f.fences.empty()) {
        body += "<details><summary>The fenced program as tsoreach prints it</summary>\n"
                "<pre class=\"mono\">" +
                esc(f.fencedText) + "</pre></details>\n";
    }
    body += warningsSection(c_.warnings);
    return htmlPage("tsoreach fences " + r.info.file, body);
}

std::optional<std::string> HtmlFormat::outcomes(const OutcomesReport& r) const {
    const reach::OutcomeList& l = r.list;
    const Program& p = r.program;
    const std::vector<Value> cells = detail::outcomeCells(p, l, r.baseline);
    std::string verdict = std::to_string(l.outcomes.size()) +
                          (l.outcomes.size() == 1 ? " outcome" : " outcomes") +
                          (l.complete ? "" : " (unknown: " + l.reason + ")");
    std::string body =
        header("outcomes", r.info.file, verdict, l.complete ? "good" : "unknown",
               {{"model", std::string(reach::name(r.info.model))}, {"engine", r.info.engine}});
    body += "<h2>Final states</h2>\n<table class=\"outcomes\">\n<tr><th>#</th>";
    for (std::size_t t = 0; t < p.threads.size(); ++t) {
        body += "<th>" + esc(p.threads[t].name) + "</th>";
    }
    for (Value c : cells) {
        body += "<th>" + esc(detail::cellName(p, c)) + "</th>";
    }
    body += r.baseline != nullptr ? "<th>under " + esc(reach::name(*r.info.diff)) + "</th>" : "";
    body += "</tr>\n";
    for (std::size_t i = 0; i < l.outcomes.size(); ++i) {
        const reach::Outcome& o = l.outcomes[i];
        const bool positive =
            r.info.condition != nullptr && detail::outcomeSatisfies(*r.info.condition, o);
        body += std::string("<tr") + (positive ? " class=\"positive\"" : "") + "><td>" +
                std::to_string(i + 1) + "</td>";
        for (std::size_t t = 0; t < p.threads.size(); ++t) {
            const Thread& th = p.threads[t];
            std::string regs = detail::endsInSeveralStates(p, t)
                                   ? "@" + th.stateNames[o.pc[t].index()]
                                   : std::string();
            for (std::size_t k = 0; k < th.regCount(); ++k) {
                regs +=
                    (regs.empty() ? "" : " ") + th.regNames[k] + "=" + std::to_string(o.regs[t][k]);
            }
            body += "<td class=\"mono\">" + esc(regs) + "</td>";
        }
        for (Value c : cells) {
            const auto it = o.memory.find(c);
            body += "<td class=\"mono\">" + std::to_string(it == o.memory.end() ? 0 : it->second) +
                    "</td>";
        }
        if (r.baseline != nullptr) {
            body += o.absentFromBaseline ? "<td class=\"new\">not reachable</td>" : "<td>yes</td>";
        }
        body += "</tr>\n";
    }
    body += "</table>\n";
    body += outcomesSummary(r);
    body += source({}) + warningsSection(c_.warnings);
    return htmlPage("tsoreach outcomes " + r.info.file, body);
}

} // namespace

std::unique_ptr<ReportFormat> htmlFormat(HtmlContext context) {
    return std::make_unique<HtmlFormat>(std::move(context));
}

} // namespace tsoreach::cli
