#pragma once
// A backward node (docs/backward.md): a cube over `procs` distinct
// processes, with a variable per regular or const cell of each process, the
// weak-memory events of the transitions after the node's instant, the order
// their instants must have (a transitively closed relation that must stay
// acyclic) and value literals.

#include "values.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace tsoreach::backward {

inline constexpr std::int32_t kUnsatisfied = -1;
// A read that took a write no longer kept in the node (docs/backward.md, "Forgetting").
inline constexpr std::int32_t kResolved = -2;
// A cell whose value no equality forces (Node::keys).
inline constexpr std::int64_t kFree = INT64_MIN;

// One weak cell a read or write event accesses: `weak` is the cell's index
// in the model, `index` the process indexing an array (-1 for a variable).
struct Access {
    std::uint32_t weak = 0;
    std::int32_t index = -1;
    std::uint32_t var = 0;
    // Reads: the event whose write this read takes, or kUnsatisfied (a write
    // before the node's instant, or the initial value).
    std::int32_t source = kUnsatisfied;
    bool notInit = false;     // reads: the source is a write, not the initial value
    bool ownExcluded = false; // reads: no write of the reader before the node can be it
    bool memory = false;      // reads: took `source` from memory, not from its own buffer
    // Reads: writes that reached memory before the read, so a source it takes
    // from memory reached it after them (docs/backward.md, "Later sources").
    std::vector<std::uint32_t> after;
    [[nodiscard]] bool sameCell(const Access& o) const {
        return weak == o.weak && index == o.index;
    }
};

[[nodiscard]] inline Access makeAccess(std::uint32_t weak, std::int32_t index, std::uint32_t var) {
    Access a;
    a.weak = weak;
    a.index = index;
    a.var = var;
    return a;
}

// The events of one transition. An `instant` event has the transition's own
// instant (it reads, fences, or is a locked read-modify-write, whose writes
// reach memory at that instant); otherwise it is a write entry, whose instant
// is when it leaves the store buffer.
struct Event {
    std::uint32_t proc = 0;
    bool instant = false;
    bool fenced = false; // the process's buffer is empty at this instant
    std::vector<Access> reads;
    std::vector<Access> writes;
};

struct Node {
    std::uint32_t procs = 0;
    std::vector<VarType> types;
    std::vector<std::uint32_t> locals; // procs x model locals: the cell's variable
    std::vector<Lit> lits;
    std::vector<Event> events;
    std::vector<std::vector<bool>> before; // before[a][b]: a's instant precedes b's
    std::vector<Term> forced; // forcedValues of lits, filled when the node is kept or tested
    std::vector<std::size_t> eventsOf; // events per process, filled with `forced`
    // Filled with `forced`, for covering: per process and local, the
    // constant the cell is forced to (or kFree), and all those pairs
    // (local, constant) sorted, with repeats.
    std::vector<std::int64_t> keys;
    std::vector<std::pair<std::size_t, std::int64_t>> keyBag;
    // How this node was reached from the bad cube (reported as the path).
    std::int64_t parent = -1;
    std::uint32_t transition = 0;
    std::vector<std::uint32_t> args;
};

} // namespace tsoreach::backward
