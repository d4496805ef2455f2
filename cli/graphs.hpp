#pragma once
// The graphs of the reports, as Graphviz DOT text (report_dot.cpp) and as
// inline SVG for the HTML page (graph_svg.cpp): a trace as lanes of steps,
// and the happens-before graph of a robustness witness with its cycle.

#include "tsoreach/lang/program.hpp"
#include "tsoreach/lang/stop.hpp"
#include "tsoreach/reach/trace.hpp"
#include "tsoreach/robustness/happens_before.hpp"

#include <string>
#include <vector>

namespace tsoreach::cli {

// A reachable goal's trace: a cluster per thread with its steps (step,
// instruction, line, effect; the goal step bold), dashed edges from a store
// to its flush, blue rf edges from a read's source.
std::string traceDot(const Program& p, const reach::Trace& t);

// A witness's happens-before graph: every event (step, thread, instruction,
// line, access with its value) and every arc, the cycle's in red.
std::string happensBeforeDot(const Program& p, const reach::Trace& t, const robustness::HbGraph& g,
                             const std::vector<robustness::HbArc>& cycle);

// The two lines that name an event: "[1] t0: write 1 x (line 19)" and
// "W x = 1".
std::vector<std::string> eventLabel(const Program& p, const reach::Trace& t,
                                    const robustness::HbEvent& e);

// Whether `a` is one of the cycle's arcs.
bool onCycle(const robustness::HbArc& a, const std::vector<robustness::HbArc>& cycle);

// The witness graph as an <svg> element: laid out by Graphviz `dot` when it
// is on the PATH (and answers before `stop`'s deadline and within 5 s),
// else by a built-in layout (a column per thread, a row per event). Of a
// graph of more than kMaxDrawnEvents events, only the cycle's events and
// the arcs among them are drawn.
constexpr std::size_t kMaxDrawnEvents = 40;
struct Svg {
    std::string text;
    std::string how;  // "Graphviz dot" or "the built-in layout (why)"
    std::string note; // what part of the graph is drawn; empty: all of it
};
Svg happensBeforeSvg(const Program& p, const reach::Trace& t, const robustness::HbGraph& g,
                     const std::vector<robustness::HbArc>& cycle, const StopCondition& stop);

} // namespace tsoreach::cli
