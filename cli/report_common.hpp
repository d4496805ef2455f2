#pragma once
// What the report formats share (report_text.cpp, report_json.cpp): names
// of verdicts and outcomes, step effects, number formats, transitions and
// happens-before cycles as text or JSON.

#include "report.hpp"
#include "tsoreach/instrument/fences.hpp"
#include "tsoreach/lang/condition.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/outcomes.hpp"
#include "tsoreach/reach/trace.hpp"
#include "tsoreach/robustness/fence_synthesis.hpp"
#include "tsoreach/robustness/happens_before.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tsoreach::cli::detail {

std::string kindName(const Program& p, const reach::TraceStep& s);
// What a step did, e.g. "x := 1", "mem[1] := 1" or "r := 0".
std::string effect(const Program& p, reach::MemoryModel model, const reach::TraceStep& s);
// The memory cells an outcomes report shows, in address order: every cell
// the program declares (so `x=0` is shown, as herd shows it) and those not 0
// at the end of some outcome (of the list or its baseline).
std::vector<Value> outcomeCells(const Program& p, const reach::OutcomeList& list,
                                const reach::OutcomeList* baseline);
// herd's answer to a condition whose searched formula (condition.hpp) was
// reachable or not: `word` is Allowed / Forbidden (exists, ~exists: is the
// formula observable) or Ok / No (forall: does it always hold); `line`
// says whether the condition is validated and why.
struct HerdAnswer {
    std::string word;
    bool validated = false;
    std::string line;
};
HerdAnswer herdAnswer(const FinalCondition& c, reach::MemoryModel model, bool reachable);
// Whether a litmus condition's formula holds at an outcome (a cell it does
// not list holds 0).
bool outcomeSatisfies(const FinalCondition& c, const reach::Outcome& o);
// The lines that sum up a condition over a complete list of outcomes: in
// how many the formula holds (final states, not herd's executions), and
// the answer.
std::string conditionSummary(const FinalCondition& c, reach::MemoryModel model,
                             const reach::OutcomeList& l);
// A store waiting in a thread's buffer.
struct BufferedStore {
    Value addr = 0;
    Value value = 0;
    std::size_t step = 0; // the write's step, 0-based
    bool joined = false;  // a joinwrite: one entry with the next store
};
// What the store buffers hold after one step of a TSO or PSO trace.
struct BufferView {
    std::vector<std::vector<BufferedStore>> threads; // by thread, oldest first
    // A flush under PSO: the older stores of its thread, to other cells,
    // that it overtakes (empty otherwise).
    std::vector<BufferedStore> overtaken;
};
// The buffers after each step (empty under SC), read off the trace's writes
// and flushes: a write joins its thread's buffer, a flush leaves with the
// oldest store to its cell.
std::vector<BufferView> buffersAfterSteps(const Program& p, const reach::Trace& trace);
// "t0: x=1 turn=1; t1: flag[1]=1": the non-empty buffers.
std::string describeBuffers(const Program& p, const BufferView& v);
// A cell as reports name it: its declared name, else mem[ADDR].
std::string cellName(const Program& p, Value addr);
// Whether thread t can end in more than one control state (outcomes then
// show where it ended).
bool endsInSeveralStates(const Program& p, std::size_t t);
std::string formatSeconds(double s);
std::string formatMb(double mb);
std::string verdictName(robustness::RobustVerdict v);
// "write 1 0 (line 3, a -> b)"
std::string describeTransition(const Program& p, TransitionId id);
nlohmann::ordered_json transitionJson(const Program& p, TransitionId id);
nlohmann::ordered_json cycleJson(const Program& p, const robustness::HbGraph& graph,
                                 const std::vector<robustness::HbArc>& cycle);
std::string cycleText(const Program& p, const robustness::HbGraph& graph,
                      const std::vector<robustness::HbArc>& cycle);
std::string verdictLine(robustness::RobustVerdict v, const std::string& reason);
std::string outcomeName(robustness::FenceOutcome o);
// The place in the source (a C statement) that holds a fence at `f`; null
// when the source has none (the program model's text).
const FenceSite* siteOf(const FenceInfo& info, const instrument::FencePosition& f);
// What a fence at `f` is: "mfence in t0 at state q (before line 3:1)", or in
// the source's terms "atomic_thread_fence(...); before sb.c:19:5 in t0 (state L18)".
std::string fenceText(const Program& p, const FenceInfo& info, const instrument::FencePosition& f);

// Where the first transition a fence at `f` guards comes from in the source.
SourcePos guardedPos(const Program& p, const instrument::FencePosition& f);
std::string positionName(const Program& p, const instrument::FencePosition& f);

} // namespace tsoreach::cli::detail
