#pragma once
// Reads-from consistency (paper 001, digest sections 3.2-3.5): given the
// thread events of a partial execution and, for every read, the write it
// reads from, is there an SC / TSO / PSO execution of exactly those events
// in which every read reads from its given write? If so, a witness.
//
// Every write is two-phase: its buffer-write is a thread event, its
// memory-write (flush) a separate event; the instance includes the
// memory-write of every buffer-write. Under SC a thread's next event waits
// until its last write is in memory, so writes are atomic in the witness.

#include "tsoreach/lang/value.hpp"
#include "tsoreach/reach/model.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace tsoreach::reach {

// A write, or the initial value of an address (thread == initialSource).
struct RfSource {
    static constexpr std::uint32_t initialSource = 0xffffffffU;
    std::uint32_t thread = initialSource;
    std::uint32_t index = 0; // of the write among its thread's events
    [[nodiscard]] bool initial() const { return thread == initialSource; }
    friend auto operator<=>(const RfSource&, const RfSource&) = default;
};

enum class RfEventKind : std::uint8_t { Write, Read, Fence };

struct RfEvent {
    RfEventKind kind = RfEventKind::Fence;
    Value addr = 0;
    RfSource source; // reads: the write read from
};

struct RfInstance {
    std::vector<std::vector<RfEvent>> threads; // thread events in program order
};

// A step of a witness: thread `thread`'s event `index` (a thread event), or
// the memory-write of that event (a write).
struct RfWitnessStep {
    std::uint32_t thread = 0;
    std::uint32_t index = 0;
    bool memoryWrite = false;
    friend bool operator==(const RfWitnessStep&, const RfWitnessStep&) = default;
};

struct RfCheckStats {
    std::uint64_t checks = 0;            // instances decided
    std::uint64_t closureRejections = 0; // decided unrealizable by the closure alone
    std::uint64_t searchStates = 0;      // states of the verifiers' searches
};

// A witness, or nullopt when the instance is not realizable under `model`.
// Exact for every model. First the pre-checks: well-formedness and the
// closure (digest 3.5; a cycle proves unrealizability). Then a search:
// - SC and TSO: VerifyTSO (digest 3.3). Thread events run as soon as they
//   may (they never disable anything); the search branches over which
//   memory-write comes next, with a seen set over the abstract state.
// - PSO: VerifyPSO (digest 3.4). The search branches over which thread
//   event comes next (events that need no memory-write first run at once).
//   Memory-writes nobody still reads are flushed as soon as they may be;
//   any other memory-write just before its first remote read or its
//   thread's fence. States are keyed by thread events and
//   fence map, polynomial for a fixed number of threads, where the search
//   it replaced (VerifyTSO with one buffer per thread and address, still
//   in reach/src/reads_from_detail.hpp for cross-checks) was exponential
//   in the number of addresses.
std::optional<std::vector<RfWitnessStep>>
verifyReadsFrom(const RfInstance& instance, MemoryModel model, RfCheckStats* stats = nullptr);

} // namespace tsoreach::reach
