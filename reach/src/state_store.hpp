#pragma once
// The visited set of the explicit engines. A state (a vector of words) is
// stored packed: a length, then every word as a zigzag varint, so the small
// values of control states, registers and memory take one byte each. Packed
// states sit back to back in fixed-size blocks (growing never copies them)
// and are found through an open-addressing table whose slots hold an index
// and the top 32 bits of the state's hash: probes and growth never touch the
// packed bytes of other states. Per stored state: its bytes, an 8-byte
// offset and 11 to 21 bytes of table; no allocation per state.

#include "chunked_vector.hpp"
#include "huge_array.hpp"
#include "tsoreach/lang/value.hpp"

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace tsoreach::reach {

using StateWord = Value;
using StateIndex = std::uint32_t;

class StateStore {
  public:
    static constexpr StateIndex maxStates = 0xfffffffeU;

    StateStore() : table_(std::size_t{1} << initialBits, Slot{}) {}

    [[nodiscard]] std::size_t size() const { return offsets_.size(); }

    // Unpacks state i into `out`.
    void get(StateIndex i, std::vector<StateWord>& out) const {
        const std::uint8_t* p = at(offsets_[i]);
        std::uint64_t n = 0;
        p = readVarint(p, n);
        out.resize(n);
        for (std::uint64_t k = 0; k < n; ++k) {
            std::uint64_t z = 0;
            p = readVarint(p, z);
            out[k] = static_cast<StateWord>((z >> 1) ^ (~(z & 1) + 1));
        }
    }

    // A state packed and hashed, ready to insert. Making keys for all the
    // successors of a state before inserting them lets their table probes
    // (cache misses on large tables) overlap.
    struct Key {
        // Only grows, so packing never zero-fills; the packed state is the
        // first `size` bytes.
        std::vector<std::uint8_t> buffer;
        std::size_t size = 0;
        std::uint32_t tag = 0;
        [[nodiscard]] std::span<const std::uint8_t> bytes() const { return {buffer.data(), size}; }
    };

    void makeKey(std::span<const StateWord> s, Key& key) const {
        pack(s, key);
        key.tag = static_cast<std::uint32_t>(hashBytes(key.bytes()) >> 32);
        __builtin_prefetch(&table_[key.tag >> shift_]);
    }

    // Index of the key's state, and whether it was new. Precondition:
    // size() < maxStates, and no insertion since the key was made grew the
    // table in a way that matters (keys hold no slot, so any is fine).
    std::pair<StateIndex, bool> insert(const Key& key) {
        const std::size_t mask = table_.size() - 1;
        for (std::size_t slot = key.tag >> shift_;; slot = (slot + 1) & mask) {
            const Slot entry = table_[slot];
            if (entry.index == empty) {
                const auto idx = static_cast<StateIndex>(offsets_.size());
                table_[slot] = Slot{idx, key.tag};
                offsets_.push_back(append(key.bytes()));
                if (offsets_.size() * 4 > table_.size() * 3) {
                    grow();
                }
                return {idx, true};
            }
            if (entry.tag == key.tag && packedEquals(entry.index, key.bytes())) {
                return {entry.index, false};
            }
        }
    }

    std::pair<StateIndex, bool> insert(std::span<const StateWord> s) {
        makeKey(s, scratch_);
        return insert(scratch_);
    }

    // Bytes held by the store (for statistics and memory limits).
    [[nodiscard]] std::size_t bytes() const {
        return blocks_.size() * blockSize + offsets_.bytes() + table_.size() * sizeof(Slot);
    }

    // Bytes resident once the table next grows: the old and the new table
    // briefly coexist, so memory limits look ahead by one growth.
    [[nodiscard]] std::size_t bytesAtNextGrowth() const {
        return bytes() + 2 * table_.size() * sizeof(Slot) + blockSize;
    }

    // Frees every state without allocating, so that it can run when memory
    // has run out. The store is unusable afterwards.
    void release() noexcept {
        std::vector<std::unique_ptr<std::uint8_t[]>>().swap(blocks_);
        offsets_.release();
        table_.release();
    }

  private:
    static constexpr StateIndex empty = 0xffffffffU;
    static constexpr unsigned initialBits = 16;
    struct Slot {
        StateIndex index = empty;
        std::uint32_t tag = 0; // top 32 bits of the hash; its top bits pick the slot
    };
    static constexpr unsigned blockBits = 22; // 4 MiB blocks
    static constexpr std::size_t blockSize = std::size_t{1} << blockBits;

    static std::uint64_t hashBytes(std::span<const std::uint8_t> b) {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ b.size();
        std::size_t i = 0;
        for (; i + 8 <= b.size(); i += 8) {
            std::uint64_t w = 0;
            std::memcpy(&w, b.data() + i, 8);
            h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
            h ^= h >> 31;
        }
        std::uint64_t tail = 0;
        std::memcpy(&tail, b.data() + i, b.size() - i);
        h = (h ^ tail) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
        return h;
    }

    static const std::uint8_t* readVarint(const std::uint8_t* p, std::uint64_t& v) {
        v = 0;
        for (unsigned shift = 0;; shift += 7) {
            const std::uint8_t b = *p++;
            v |= static_cast<std::uint64_t>(b & 0x7fU) << shift;
            if ((b & 0x80U) == 0) {
                return p;
            }
        }
    }

    static std::uint8_t* putVarint(std::uint8_t* out, std::uint64_t v) {
        while (v >= 0x80U) {
            *out++ = static_cast<std::uint8_t>(v | 0x80U);
            v >>= 7;
        }
        *out++ = static_cast<std::uint8_t>(v);
        return out;
    }

    static void pack(std::span<const StateWord> s, Key& key) {
        // A varint of 64 bits takes at most 10 bytes.
        const std::size_t most = 10 * (s.size() + 1);
        if (key.buffer.size() < most) {
            key.buffer.resize(most);
        }
        std::uint8_t* out = putVarint(key.buffer.data(), s.size());
        for (StateWord w : s) {
            const auto u = static_cast<std::uint64_t>(w);
            const std::uint64_t z = (u << 1) ^ (w < 0 ? ~std::uint64_t{0} : 0);
            if (z < 0x80U) { // the common case: one byte
                *out++ = static_cast<std::uint8_t>(z);
            } else {
                out = putVarint(out, z);
            }
        }
        key.size = static_cast<std::size_t>(out - key.buffer.data());
    }

    [[nodiscard]] const std::uint8_t* at(std::uint64_t offset) const {
        return blocks_[offset >> blockBits].get() + (offset & (blockSize - 1));
    }

    // Length of the packed state that starts at p.
    [[nodiscard]] static std::size_t packedLength(const std::uint8_t* p) {
        const std::uint8_t* q = p;
        std::uint64_t n = 0;
        q = readVarint(q, n);
        for (std::uint64_t k = 0; k < n; ++k) {
            while ((*q++ & 0x80U) != 0) {
            }
        }
        return static_cast<std::size_t>(q - p);
    }

    [[nodiscard]] bool packedEquals(StateIndex idx, std::span<const std::uint8_t> b) const {
        const std::uint8_t* p = at(offsets_[idx]);
        // Equal prefixes of two valid encodings end at the same place, so
        // comparing b's bytes suffices.
        return std::memcmp(p, b.data(), b.size()) == 0 && packedLength(p) == b.size();
    }

    std::uint64_t append(std::span<const std::uint8_t> b) {
        if (b.size() > blockSize) {
            throw std::length_error("a state needs more than 4 MiB packed");
        }
        if (blocks_.empty() || used_ + b.size() > blockSize) {
            blocks_.push_back(std::make_unique_for_overwrite<std::uint8_t[]>(blockSize));
            used_ = 0;
        }
        const std::uint64_t offset = ((blocks_.size() - 1) << blockBits) | used_;
        std::memcpy(blocks_.back().get() + used_, b.data(), b.size());
        used_ += b.size();
        return offset;
    }

    void grow() {
        if (shift_ == 0) {
            throw std::length_error("the state table cannot grow beyond 2^32 slots");
        }
        HugeArray<Slot> bigger(table_.size() * 2, Slot{});
        --shift_;
        const std::size_t mask = bigger.size() - 1;
        for (std::size_t k = 0; k < table_.size(); ++k) {
            const Slot& e = table_[k];
            if (e.index == empty) {
                continue;
            }
            std::size_t slot = e.tag >> shift_;
            while (bigger[slot].index != empty) {
                slot = (slot + 1) & mask;
            }
            bigger[slot] = e;
        }
        table_.swap(bigger);
    }

    std::vector<std::unique_ptr<std::uint8_t[]>> blocks_;
    std::size_t used_ = 0; // bytes used in the last block
    ChunkedVector<std::uint64_t> offsets_;
    HugeArray<Slot> table_;
    unsigned shift_ = 32 - initialBits; // slot = tag >> shift_
    Key scratch_;
};

} // namespace tsoreach::reach
