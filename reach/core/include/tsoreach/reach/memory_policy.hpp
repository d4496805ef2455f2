#pragma once
// Memory-model policies: the rules of language.md's table that differ between
// SC, TSO and PSO, in one place for every engine.
//
// A thread's store buffer is a sequence of (address, value) entries, oldest
// first. TSO keeps it in program order (one FIFO). PSO has one FIFO per
// address; we keep its entries grouped by ascending address, each group in
// FIFO order, which is a canonical form of the per-address FIFOs. For both:
//   - a load is served by the newest entry of its address (the last such
//     entry in the sequence), else by memory;
//   - mfence, lock and unlock need the thread's buffer empty;
//   - lockfor/unlockfor ADDR need the entries a store to ADDR would queue
//     behind drained (drainedFor): all of them under TSO, ADDR's under PSO.
// joinsStores: whether a joined write (joinwrite) makes one entry with the
// thread's next store. Under SC a joined write is a write; PSO has no
// semantics for it (engines refuse such programs under PSO).

#include "tsoreach/lang/value.hpp"
#include "tsoreach/reach/model.hpp"

#include <cstddef>

namespace tsoreach::reach {

struct ScPolicy {
    static constexpr MemoryModel model = MemoryModel::SC;
    static constexpr bool buffered = false;
    static constexpr bool joinsStores = false;
};

struct TsoPolicy {
    static constexpr MemoryModel model = MemoryModel::TSO;
    static constexpr bool buffered = true;
    static constexpr bool joinsStores = true;
    // Entry index at which a new store to `addr` enters a buffer whose entry
    // addresses are addrAt(0..len-1): the end of the one FIFO.
    template <class AddrAt> static std::size_t insertAt(std::size_t len, Value, AddrAt&&) {
        return len;
    }
    // Whether entry i may be flushed next: only the oldest one.
    template <class AddrAt> static bool flushable(std::size_t i, AddrAt&&) { return i == 0; }
    // Whether a buffer of len entries holds nothing a store to addr would
    // queue behind: the one FIFO must be empty.
    template <class AddrAt> static bool drainedFor(std::size_t len, Value, AddrAt&&) {
        return len == 0;
    }
};

struct PsoPolicy {
    static constexpr MemoryModel model = MemoryModel::PSO;
    static constexpr bool buffered = true;
    static constexpr bool joinsStores = false;
    // After every entry of an address <= addr: the end of addr's FIFO.
    template <class AddrAt>
    static std::size_t insertAt(std::size_t len, Value addr, AddrAt&& addrAt) {
        std::size_t i = len;
        while (i > 0 && addrAt(i - 1) > addr) {
            --i;
        }
        return i;
    }
    // The oldest entry of each address may be flushed.
    template <class AddrAt> static bool flushable(std::size_t i, AddrAt&& addrAt) {
        return i == 0 || addrAt(i - 1) != addrAt(i);
    }
    // Whether addr's FIFO is empty.
    template <class AddrAt> static bool drainedFor(std::size_t len, Value addr, AddrAt&& addrAt) {
        for (std::size_t i = 0; i < len; ++i) {
            if (static_cast<Value>(addrAt(i)) == addr) {
                return false;
            }
        }
        return true;
    }
};

} // namespace tsoreach::reach
