#pragma once
// Store merging (TSO/PSO, --merge-stores): a thread t that stores v to an
// address a that no other thread writes, while the newest store to a in its
// own buffer already holds v, does not buffer the store again. A program
// that keeps storing the same value (a coordinator's status loop) then has
// a finite state space where the buffers otherwise grow up to the bound.
//
// Why reachability is the same. Call a buffered store (a, v) of t redundant
// when the store to a before it in t's buffer holds v, or there is none and
// memory holds v at a. Let F be a state of the full semantics and D the
// state with some redundant stores taken out of t's buffer (pcs, registers,
// lock and memory equal). Since only t writes a, memory at a changes only
// when t flushes a store to a, so a redundant store stays redundant until
// it is flushed, and flushing it changes nothing. Then each step of F is
// matched by D: a redundant flush by no step; any other flush by the same
// flush (the entries before it in its FIFO, missing in D, are redundant);
// a read by the same read (a redundant store holds the value of the store
// or memory it hides); a store by the same store, or, when D merges it,
// by none (the new store of F is redundant); mfence, lock and the rest
// need a drained buffer, which D's, a part of F's, is too. Conversely
// each step of D is matched by F after F flushes the redundant stores in
// its way, which it may do whenever t may move (the same lock condition).
// So the same control states are reachable. A buffer bound only ever
// blocks F sooner: a search of D that never hit the bound saw every state
// D can reach, and reaches the goal iff F can.
//
// Traces of D do not replay on the full semantics; restoreMergedStores
// turns one into a trace of F by the matching above: it puts the merged
// stores back and flushes each as soon as it reaches the front of its
// FIFO. Until then (under TSO, behind a store to another address) a read
// of its address is served by it in F, where D's read went to memory: the
// same value, since its kept twin has flushed and only t writes there, so
// the restored read only says it came from the buffer.

#include "tsoreach/lang/program.hpp"
#include "tsoreach/reach/model.hpp"
#include "tsoreach/reach/trace.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace tsoreach::reach {

// The thread, if any, that is the only one whose writes can reach an
// address, from the program text: constant addresses by their writers,
// and every address by the threads that write computed addresses.
class StoreOwners {
  public:
    static constexpr std::int32_t none = -1;

    explicit StoreOwners(const Program& p);

    // The only thread that may write addr, or none.
    [[nodiscard]] std::int32_t owner(Value addr) const;

  private:
    // Sorted by address: the one constant-address writer, or none for
    // several. Threads that write computed addresses count for every address.
    std::vector<std::pair<Value, std::int32_t>> constant_;
    std::int32_t computed_ = none; // the one computed-address writer
    std::size_t computedWriters_ = 0;
};

// The trace of the full semantics that matches `merged`, a trace of the
// semantics that merged stores by `owners` under `model` (TSO or PSO).
Trace restoreMergedStores(const Program& p, const StoreOwners& owners, const Trace& merged);

} // namespace tsoreach::reach
