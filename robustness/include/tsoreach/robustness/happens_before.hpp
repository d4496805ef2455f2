#pragma once
// The happens-before relation of a TSO or PSO trace (paper 004 §4.6, as the
// Shasha-Snir trace): memory events in program order (po); a store and its
// flush are one event; reads-from (rf) from the store whose flush a load
// from memory saw; coherence (co) between successive flushes to an address;
// from-read (fr) from a load to the next flush of its address. A load served
// by its own thread's buffer (an early read) reads a po-earlier store, and
// its fr edge goes to the first store that lands after that one: so every
// execution of one Shasha-Snir class gets the same relation, whichever
// interleaving of it a search found (the dpor engine explores one per
// class). An SC execution's relation is acyclic, so a cycle proves the trace
// is not sequentially consistent.

#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/trace.hpp"

#include <string>
#include <vector>

namespace tsoreach::robustness {

// Atomic: back from an event of a locked block to the previous one of the
// same block, which makes the block one unit (it runs without interruption
// under every model, so any SC execution has it contiguous).
enum class HbEdge { Po, Rf, Co, Fr, Atomic };
std::string_view name(HbEdge e);

struct HbEvent {
    std::size_t step = 0; // 1-based index of the instruction step in the trace
    ThreadId thread;
    bool write = false;
    Value addr = 0;
};

struct HbArc {
    std::size_t from = 0; // event indices
    std::size_t to = 0;
    HbEdge kind = HbEdge::Po;
};

struct HbGraph {
    std::vector<HbEvent> events;
    std::vector<HbArc> arcs;
};

// Needs a trace whose steps record addresses (as replay completes them).
HbGraph happensBefore(const Program& p, const reach::Trace& trace);

// A cycle as arcs, each leading to the next one's source; empty if acyclic.
std::vector<HbArc> findCycle(const HbGraph& g);

} // namespace tsoreach::robustness
