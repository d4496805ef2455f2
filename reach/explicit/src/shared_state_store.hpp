#pragma once
// The parallel search's visited set: one open-addressing table that every
// thread of the search probes and fills, packed states (StateStore's
// encoding) in one arena per thread.
//
// A slot is one 64-bit word: 0 when empty, else the top `tagBits_` bits of
// the state's hash above a reference to its packed bytes (arena, block,
// position, plus one so that no reference is 0). A thread stores a state by
// writing its bytes at the end of its own arena, then claiming an empty slot
// with a compare-and-swap (release); a thread that loads the slot (acquire)
// sees the bytes. When the swap fails, the slot now holds some state: if it
// is this one, the bytes are taken back (nobody can have seen them), else
// the probe goes on. Slots are never cleared, and a state is claimed in the
// first empty slot of its probe sequence, so two threads storing the same
// state meet at the slot one of them claims: a state is stored once.
//
// Growth stops the world: the table grows when the states stored reach 3/4
// of its slots. Threads claim the right to store states in chunks
// (claim()); a thread whose claim would pass the limit asks for growth and
// every thread joins in between two expansions (the search's
// GrowthBarrier); each moves a share of the old slots to the new table
// (again by compare-and-swap: the slots are distinct states), then one
// swaps the tables. A slot's new position comes from its tag while the
// table has at most 2^tagBits_ slots, else from the hash of its bytes.
//
// Arenas: blocks of up to 4 MiB allocated by their thread; the block
// pointers live in a vector sized once, so a reader never sees it move.
// A reader never reads past a stored state: the bytes after it may be the
// ones its arena's thread is writing. So it decodes the state's length
// first (StateStore::packedLength reads only the state's own bytes) and
// compares or unpacks exactly that many.

#include "tsoreach/reach/explicit/huge_array.hpp"
#include "tsoreach/reach/explicit/state_store.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

namespace tsoreach::reach {

// A stored state: arena, block and position (never 0).
using SharedRef = std::uint64_t;

class SharedStateStore {
  public:
    static constexpr unsigned maxArenaBits = 10; // up to 1024 threads
    static constexpr unsigned positionBits = 22; // blocks of up to 4 MiB
    static constexpr unsigned blockBits = 14;    // up to 64 GiB per arena
    static constexpr std::size_t maxBlock = std::size_t{1} << positionBits;

    // One arena per thread; `threads` <= 2^maxArenaBits.
    SharedStateStore(std::size_t threads, unsigned initialBits = 16)
        : tableBits_(initialBits), table_(std::size_t{1} << initialBits, 0) {
        while ((std::size_t{1} << arenaBits_) < threads) {
            ++arenaBits_;
        }
        if (arenaBits_ > maxArenaBits) {
            throw std::length_error("too many threads for one state store");
        }
        refBits_ = positionBits + blockBits + arenaBits_;
        tagBits_ = 64 - refBits_;
        for (std::size_t k = 0; k < threads; ++k) {
            arenas_.push_back(std::make_unique<Arena>());
        }
        resetClaims();
    }

    // What one thread owns: its arena, its claim, its recent states.
    struct alignas(64) Arena {
        Arena() : blocks(std::size_t{1} << blockBits), blockSizes(std::size_t{1} << blockBits) {}
        // Read by every thread that compares or unpacks one of its states;
        // written only when a block is added. Apart from the fields its
        // thread writes at every insertion: sharing a cache line with them
        // made every lookup in another thread's arena a cache miss.
        std::vector<std::unique_ptr<std::uint8_t[]>> blocks; // sized once: never moves
        std::vector<std::size_t> blockSizes;
        alignas(64) std::size_t blockCount = 0;
        std::size_t used = 0;     // in the last block
        std::uint64_t states = 0; // stored by this thread
        std::uint64_t quota = 0;  // states it may still store before it claims more
        // The slots of states met lately, by the low bits of their hash:
        // most duplicates are of a state stored shortly before (diamonds of
        // independent steps), recognised here without a miss into the table.
        std::vector<std::uint64_t> recent = std::vector<std::uint64_t>(4096, 0);
        StateStore::Key scratch;                            // for rehashing from bytes
        alignas(64) std::atomic<std::size_t> blockBytes{0}; // read by every thread's memory check
    };

    [[nodiscard]] Arena& arena(std::size_t k) { return *arenas_[k]; }
    [[nodiscard]] std::size_t arenas() const { return arenas_.size(); }

    [[nodiscard]] std::uint64_t size() const {
        std::uint64_t n = 0;
        for (const auto& a : arenas_) {
            n += a->states;
        }
        return n;
    }

    // A key made by StateStore::packKey, matched with the arena's recent
    // states; its table slot is prefetched otherwise.
    void prepare(const Arena& a, StateStore::Key& key) const {
        key.recentSlot = static_cast<std::uint32_t>(key.hash) & (a.recent.size() - 1);
        const std::uint64_t r = a.recent[key.recentSlot];
        key.recentHit = r != 0 && tagOf(r) == tagOfHash(key.hash);
        if (!key.recentHit) {
            __builtin_prefetch(&table_[homeOf(key.hash)]);
        }
    }

    // Prefetches the bytes of the first stored state whose tag matches.
    void prefetchCandidate(const StateStore::Key& key) const {
        if (key.recentHit) {
            return;
        }
        const std::uint64_t tag = tagOfHash(key.hash);
        const std::size_t mask = table_.size() - 1;
        for (std::size_t slot = homeOf(key.hash);; slot = (slot + 1) & mask) {
            const std::uint64_t v = load(slot);
            if (v == 0) {
                return;
            }
            if (tagOf(v) == tag) {
                __builtin_prefetch(bytesOf(v & refMask()));
                return;
            }
        }
    }

    // True when the thread may store one more state now; false when the
    // table must grow first (growthWanted() is then true).
    bool claim(Arena& a) {
        if (a.quota > 0) {
            return true;
        }
        const std::uint64_t before = claimed_.fetch_add(chunk_);
        if (before + chunk_ > limit_) {
            growthWanted_.store(true);
            return false;
        }
        a.quota = chunk_;
        return true;
    }

    [[nodiscard]] bool growthWanted() const {
        return growthWanted_.load(std::memory_order_relaxed);
    }

    // Stores the key's state unless it is there; true when it was new, with
    // its reference in `ref`. Precondition: claim(a) returned true.
    bool insert(Arena& a, std::size_t arenaIndex, const StateStore::Key& key, SharedRef& ref) {
        std::uint64_t& recent = a.recent[key.recentSlot];
        const std::uint64_t tag = tagOfHash(key.hash);
        if (key.recentHit && tagOf(recent) == tag && equals(recent & refMask(), key)) {
            return false;
        }
        const std::size_t mask = table_.size() - 1;
        SharedRef mine = 0; // bytes written, not yet published
        for (std::size_t slot = homeOf(key.hash);; slot = (slot + 1) & mask) {
            std::uint64_t v = load(slot);
            if (v == 0) {
                if (mine == 0) {
                    mine = append(a, arenaIndex, key.bytes());
                }
                const std::uint64_t desired = (tag << refBits_) | mine;
                if (std::atomic_ref<std::uint64_t>(table_[slot])
                        .compare_exchange_strong(v, desired, std::memory_order_acq_rel,
                                                 std::memory_order_acquire)) {
                    recent = desired;
                    ++a.states;
                    --a.quota;
                    ref = mine;
                    return true;
                }
            }
            if (tagOf(v) == tag && equals(v & refMask(), key)) {
                if (mine != 0) {
                    a.used -= key.size; // nobody saw them
                }
                recent = v;
                return false;
            }
        }
    }

    // Unpacks state `ref` as StateStore::get does.
    void get(SharedRef ref, std::vector<StateWord>& out, StateStore::Key& packed) const {
        const std::uint8_t* p = bytesOf(ref);
        StateStore::unpackBytes(p, StateStore::packedLength(p), out, &packed);
    }

    // Growth, by every thread of the search at once (see the header): one
    // calls beginGrowth(), then each moves its part, then one calls
    // finishGrowth(). Nothing else touches the store meanwhile.
    void beginGrowth() {
        if (tableBits_ >= 40) {
            throw std::length_error("the shared state table cannot grow beyond 2^40 slots");
        }
        next_ = HugeArray<std::uint64_t>(table_.size() * 2, 0);
    }

    void moveToGrown(std::size_t part, std::size_t parts, Arena& a) {
        const std::size_t n = table_.size();
        const std::size_t from = n * part / parts;
        const std::size_t to = n * (part + 1) / parts;
        const std::size_t mask = next_.size() - 1;
        const unsigned bits = tableBits_ + 1;
        for (std::size_t k = from; k < to; ++k) {
            const std::uint64_t v = table_[k];
            if (v == 0) {
                continue;
            }
            std::size_t slot = 0;
            if (bits <= tagBits_) {
                slot = static_cast<std::size_t>(tagOf(v) >> (tagBits_ - bits));
            } else {
                StateStore::keyOfPacked(bytesOf(v & refMask()), a.scratch);
                slot = static_cast<std::size_t>(a.scratch.hash >> (64 - bits));
            }
            for (;; slot = (slot + 1) & mask) {
                std::uint64_t empty = 0;
                if (std::atomic_ref<std::uint64_t>(next_[slot])
                        .compare_exchange_strong(empty, v, std::memory_order_relaxed)) {
                    break;
                }
            }
        }
    }

    void finishGrowth() {
        table_.swap(next_);
        next_ = HugeArray<std::uint64_t>();
        ++tableBits_;
        resetClaims(); // the recent slots stay right: a slot's value does not move
    }

    // Bytes held (tables and arenas) and what the next growth adds.
    [[nodiscard]] std::size_t bytes() const {
        std::size_t b = table_.size() * sizeof(std::uint64_t);
        for (const auto& a : arenas_) {
            b += a->blockBytes.load(std::memory_order_relaxed) +
                 a->recent.size() * sizeof(std::uint64_t);
        }
        return b;
    }
    [[nodiscard]] std::size_t bytesAtNextGrowth() const {
        return bytes() + 2 * table_.size() * sizeof(std::uint64_t) + arenas_.size() * maxBlock;
    }

  private:
    [[nodiscard]] std::uint64_t load(std::size_t slot) const {
        // atomic_ref<const T> is C++26; the slot is only read here.
        return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(table_[slot]))
            .load(std::memory_order_acquire);
    }
    [[nodiscard]] std::uint64_t refMask() const { return (std::uint64_t{1} << refBits_) - 1; }
    [[nodiscard]] std::uint64_t tagOf(std::uint64_t slot) const { return slot >> refBits_; }
    [[nodiscard]] std::uint64_t tagOfHash(std::uint64_t hash) const {
        return hash >> (64 - tagBits_);
    }
    [[nodiscard]] std::size_t homeOf(std::uint64_t hash) const {
        return static_cast<std::size_t>(hash >> (64 - tableBits_));
    }

    // A reference is 1 + (block << positionBits | position) << arenaBits_ | arena.
    [[nodiscard]] const std::uint8_t* bytesOf(SharedRef ref) const {
        const std::uint64_t r = ref - 1;
        const Arena& a = *arenas_[r & ((std::uint64_t{1} << arenaBits_) - 1)];
        const std::uint64_t place = r >> arenaBits_;
        return a.blocks[place >> positionBits].get() + (place & (maxBlock - 1));
    }

    // Equal states have equal packed bytes.
    [[nodiscard]] bool equals(SharedRef ref, const StateStore::Key& key) const {
        const std::uint8_t* p = bytesOf(ref);
        return StateStore::packedLength(p) == key.size &&
               std::memcmp(p, key.buffer.data(), key.size) == 0;
    }

    SharedRef append(Arena& a, std::size_t arenaIndex, std::span<const std::uint8_t> b) const {
        if (b.size() > maxBlock) {
            throw std::length_error("a state needs more than 4 MiB packed");
        }
        if (a.blockCount == 0 || a.used + b.size() > a.blockSizes[a.blockCount - 1]) {
            if (a.blockCount == a.blocks.size()) {
                throw std::length_error("a thread's part of the shared state store is full");
            }
            const std::size_t size =
                std::max(a.blockCount == 0 ? std::size_t{1} << 16
                                           : std::min(2 * a.blockSizes[a.blockCount - 1], maxBlock),
                         b.size());
            // Zeroed: equality tests may read past the last state stored.
            a.blocks[a.blockCount] = std::make_unique<std::uint8_t[]>(size);
            a.blockSizes[a.blockCount] = size;
            ++a.blockCount;
            a.blockBytes.fetch_add(size, std::memory_order_relaxed);
            a.used = 0;
        }
        const std::uint64_t place = ((a.blockCount - 1) << positionBits) | a.used;
        std::memcpy(a.blocks[a.blockCount - 1].get() + a.used, b.data(), b.size());
        a.used += b.size();
        return ((place << arenaBits_) | arenaIndex) + 1;
    }

    // Claims restart from the states stored: 3/4 of the slots may be
    // filled, in chunks small enough that the threads' unused chunks leave
    // room.
    void resetClaims() {
        limit_ = table_.size() / 4 * 3;
        chunk_ = std::max<std::uint64_t>(1, table_.size() / (32 * arenas_.size()));
        for (auto& a : arenas_) {
            a->quota = 0;
        }
        claimed_.store(size());
        growthWanted_.store(false);
    }

    unsigned arenaBits_ = 0;
    unsigned refBits_ = 0;
    unsigned tagBits_ = 0;
    unsigned tableBits_;
    HugeArray<std::uint64_t> table_; // read and written through atomic_ref
    HugeArray<std::uint64_t> next_;  // the grown table, while growing
    std::vector<std::unique_ptr<Arena>> arenas_;
    std::uint64_t limit_ = 0;
    std::uint64_t chunk_ = 1;
    alignas(64) std::atomic<std::uint64_t> claimed_{0};
    alignas(64) std::atomic<bool> growthWanted_{false};
};

} // namespace tsoreach::reach
