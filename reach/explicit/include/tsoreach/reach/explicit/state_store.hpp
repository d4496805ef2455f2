#pragma once
// The visited set of the explicit engines. A state (a vector of words) is
// stored packed: a length, then every word as a zigzag varint, so the small
// values of control states, registers and memory take one byte each. Packed
// states sit back to back in blocks (doubling up to 4 MiB; growing never
// copies them)
// and are found through an open-addressing table whose slots hold the top
// 32 bits of the state's hash and where its packed bytes start: probes and
// growth never touch the packed bytes of other states. The successors of a
// state usually differ from it in a few words, and are packed by patching
// its packed bytes (makeKey with a parent). Per stored state:
// its bytes, an 8-byte offset and 16 to 32 bytes of table; no allocation
// per state.

#include "chunked_vector.hpp"
#include "huge_array.hpp"
#include "tsoreach/lang/value.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tsoreach::reach {

using StateWord = Value;
using StateIndex = std::uint32_t;

class StateStore {
  public:
    // The most states a store holds: below the table's largest size of
    // 2^32 slots at its load factor of 3/4, so the table never needs to
    // grow past it (grow() cannot fail), and below the 32 bits of a
    // StateIndex with room for the search's "no parent" (all ones).
    static constexpr StateIndex maxStates = 3U << 30;
    static constexpr std::size_t maxBlock = std::size_t{1} << 22; // 4 MiB

    // The search's store starts small, a table of 2^12 slots, a 64 KiB
    // block (doubling up to 4 MiB) and 4096 recent states: most searches of
    // the lazy loop and the robustness oracle are tiny, and a store that
    // zeroed 4 MiB and filled 2^16 slots at once cost 2 ms of page faults
    // each (as long as a whole run on a small file).
    explicit StateStore(unsigned initialBits = 12, std::size_t firstBlock = std::size_t{1} << 16,
                        std::size_t recentSize = 4096)
        : table_(std::size_t{1} << initialBits, Slot{}), recent_(recentSize),
          shift_(32 - initialBits), firstBlock_(std::min(firstBlock, maxBlock)) {
        static_assert(std::uint64_t{maxStates} * 4 <= (std::uint64_t{1} << 32) * 3);
    }

    [[nodiscard]] std::size_t size() const { return offsets_.size(); }

    // A state packed and hashed, ready to insert. Making keys for all the
    // successors of a state before inserting them lets their table probes
    // (cache misses on large tables) overlap.
    struct Key {
        // Only grows, so packing never zero-fills; the packed state is the
        // first `size` bytes.
        std::vector<std::uint8_t> buffer;
        std::size_t size = 0;
        std::uint64_t hash = 0; // of the packed bytes; tag is its top half
        std::uint32_t tag = 0;
        std::uint32_t recentSlot = 0;
        bool recentHit = false; // recent_[recentSlot] has the same tag
        bool small = false;     // every word took one byte
        [[nodiscard]] std::span<const std::uint8_t> bytes() const { return {buffer.data(), size}; }

        // Room for a state of n words: a varint of 64 bits takes at most
        // 10 bytes; then 8 zero bytes. (At least 48 bytes and the packed
        // size plus 8 rounded up to 16, for the copies of whole words.)
        void reserveFor(std::size_t n) {
            const std::size_t most = std::max<std::size_t>(10 * (n + 1) + 8, 48);
            if (buffer.size() < most) {
                buffer.resize(most);
            }
        }
    };

    void makeKey(std::span<const StateWord> s, Key& key) const {
        packKey(s, key);
        finishKey(key);
    }

    // makeKey without this store: the key is packed and hashed but not yet
    // matched with a store's recent states; prepare() does that.
    static void packKey(std::span<const StateWord> s, Key& key) {
        pack(s, key);
        setHash(key, hashBytes(key.bytes()));
    }

    // makeKey for a state s that differs from the one packed in `parent`
    // in at most the words `changed`: when both take one byte a word, the
    // parent's bytes with the changed words rewritten are s's. States of up
    // to 32 packed bytes are patched and hashed in registers (bytes just
    // stored one by one would stall the hash's word loads).
    [[gnu::always_inline]] void makeKey(std::span<const StateWord> s, Key& key, const Key& parent,
                                        std::span<const std::uint32_t> changed) const {
        packKey(s, key, parent, changed);
        finishKey(key);
    }

    // packKey for a state s that differs from `parent` in at most `changed`.
    [[gnu::always_inline]] static void packKey(std::span<const StateWord> s, Key& key,
                                               const Key& parent,
                                               std::span<const std::uint32_t> changed) {
        constexpr std::size_t most = 32;
        // A one-byte count (n < 128) and one byte per word.
        if (!parent.small || parent.size != s.size() + 1 || parent.size > most) {
            packKey(s, key);
            return;
        }
        // The packed bytes and the zeros after them (see reserveFor).
        std::uint64_t words[most / 8 + 1];
        std::memcpy(words, parent.buffer.data(), sizeof words);
        for (std::uint32_t w : changed) {
            const StateWord v = s[w];
            if (static_cast<std::uint64_t>(v) + 64U >= 128U) {
                packKey(s, key);
                return;
            }
            const std::size_t at = 1 + std::size_t{w};
            const unsigned shift = 8 * (at % 8);
            words[at / 8] =
                (words[at / 8] & ~(std::uint64_t{0xff} << shift)) | ((zigzag(v) & 0xffU) << shift);
        }
        if (key.buffer.size() < sizeof words) {
            key.reserveFor(s.size());
        }
        std::memcpy(key.buffer.data(), words, sizeof words);
        key.size = parent.size;
        key.small = true;
        setHash(key, hashWith(key.size, [&](std::size_t i) { return words[i / 8]; }));
    }

    // Matches a key made by packKey with this store's recent states (and
    // prefetches its slot), so that insert() may take it.
    void prepare(Key& key) const { finishKey(key); }

    // A key made from bytes packed elsewhere (another thread's packKey):
    // `bytes` followed by 8 zero bytes, and their hash.
    static void keyFromBytes(std::span<const std::uint8_t> bytes, std::uint64_t hash, Key& key) {
        if (key.buffer.size() < bytes.size() + 8) {
            key.buffer.resize(bytes.size() + 8);
        }
        std::memcpy(key.buffer.data(), bytes.data(), bytes.size());
        std::memset(key.buffer.data() + bytes.size(), 0, 8);
        key.size = bytes.size();
        key.small = false; // not known; only matters to patching
        setHash(key, hash);
    }

    // Unpacks state i into `out`.
    void get(StateIndex i, std::vector<StateWord>& out) const { unpack(i, out, nullptr); }

    // Unpacks state i into `out` and copies its packed form into `packed`
    // when every word takes one byte (else packed.small is false): the
    // successors of the state are then packed by patching those bytes.
    void get(StateIndex i, std::vector<StateWord>& out, Key& packed) const {
        unpack(i, out, &packed);
    }

    // Prefetches the packed bytes of the first stored state whose tag
    // matches the key's: called for all successors before any insertion,
    // so that the misses into packed states overlap too.
    void prefetchCandidate(const Key& key) const {
        if (key.recentHit) {
            return;
        }
        const std::size_t mask = table_.size() - 1;
        for (std::size_t slot = key.tag >> shift_;; slot = (slot + 1) & mask) {
            const Slot entry = table_[slot];
            if (entry.isEmpty()) {
                return;
            }
            if (entry.tag == key.tag) {
                __builtin_prefetch(at(entry.offset()));
                return;
            }
        }
    }

    // Stores the key's state unless it is there already; true when it was
    // new (its index is then size() - 1). Precondition: size() < maxStates.
    // (Keys hold no slot, so insertions since a key was made do not matter.)
    [[gnu::always_inline]] bool insert(const Key& key) {
        Slot& recent = recent_[key.recentSlot];
        if (key.recentHit && recent.tag == key.tag && packedEquals(recent.offset(), key.bytes())) {
            return false;
        }
        const std::size_t mask = table_.size() - 1;
        for (std::size_t slot = key.tag >> shift_;; slot = (slot + 1) & mask) {
            const Slot entry = table_[slot];
            if (entry.isEmpty()) {
                const std::uint64_t offset = append(key.bytes());
                table_[slot] = Slot::of(key.tag, offset);
                recent = table_[slot];
                offsets_.push_back(offset);
                if (offsets_.size() * 4 > table_.size() * 3) {
                    grow();
                }
                return true;
            }
            if (entry.tag == key.tag && packedEquals(entry.offset(), key.bytes())) {
                return false;
            }
        }
    }

    bool insert(std::span<const StateWord> s) {
        makeKey(s, scratch_);
        return insert(scratch_);
    }

    // The codec, for stores that keep packed states elsewhere (the parallel
    // search's shared store). Unpacks the state packed at `start`, with
    // `room` readable bytes from there, as get() does.
    static void unpackBytes(const std::uint8_t* start, std::size_t room,
                            std::vector<StateWord>& out, Key* packed) {
        std::uint64_t n = 0;
        const std::uint8_t* p = readVarint(start, n);
        out.resize(n);
        // The common case: n one-byte words (the n bytes after the count
        // are then all within this state).
        if (unpackSmall(p, n, room - static_cast<std::size_t>(p - start), out.data())) {
            if (packed != nullptr) {
                const std::size_t size = static_cast<std::size_t>(p - start) + n;
                packed->reserveFor(n);
                if (size <= 32 && room >= 32) {
                    std::memcpy(packed->buffer.data(), start, 32); // no call
                } else {
                    std::memcpy(packed->buffer.data(), start, size);
                }
                std::memset(packed->buffer.data() + size, 0, 8);
                packed->size = size;
                packed->small = true;
            }
            return;
        }
        if (packed != nullptr) {
            packed->small = false;
        }
        for (std::uint64_t k = 0; k < n; ++k) {
            std::uint64_t z = 0;
            p = readVarint(p, z);
            out[k] = unzigzag(z);
        }
    }

    // The length in bytes of the state packed at `start`.
    static std::size_t packedLength(const std::uint8_t* start) {
        std::uint64_t n = 0;
        const std::uint8_t* p = readVarint(start, n);
        for (std::uint64_t k = 0; k < n; ++k) {
            while ((*p++ & 0x80U) != 0) {
            }
        }
        return static_cast<std::size_t>(p - start);
    }

    // The key of the state packed at `start` (its bytes copied, hashed).
    static void keyOfPacked(const std::uint8_t* start, Key& key) {
        const std::size_t size = packedLength(start);
        keyFromBytes({start, size}, 0, key);
        setHash(key, hashBytes(key.bytes()));
    }

    // Bytes held by the store (for statistics and memory limits).
    [[nodiscard]] std::size_t bytes() const {
        return blockBytes_ + offsets_.bytes() + table_.size() * sizeof(Slot) +
               recent_.size() * sizeof(Slot);
    }

    // Bytes resident once the table next grows: the old and the new table
    // briefly coexist, so memory limits look ahead by one growth.
    [[nodiscard]] std::size_t bytesAtNextGrowth() const {
        return bytes() + 2 * table_.size() * sizeof(Slot) + maxBlock;
    }

    // Frees every state without allocating, so that it can run when memory
    // has run out. The store is unusable afterwards.
    void release() noexcept {
        std::vector<std::unique_ptr<std::uint8_t[]>>().swap(blocks_);
        std::vector<std::size_t>().swap(blockSizes_);
        offsets_.release();
        table_.release();
    }

  private:
    static void setHash(Key& key, std::uint64_t h) {
        key.hash = h;
        key.tag = static_cast<std::uint32_t>(h >> 32);
    }

    [[gnu::always_inline]] void finishKey(Key& key) const {
        key.recentSlot = static_cast<std::uint32_t>(key.hash) & (recent_.size() - 1);
        const Slot& recent = recent_[key.recentSlot];
        key.recentHit = !recent.isEmpty() && recent.tag == key.tag;
        if (!key.recentHit) {
            __builtin_prefetch(&table_[key.tag >> shift_]);
        }
    }

    void unpack(StateIndex i, std::vector<StateWord>& out, Key* packed) const {
        const std::uint64_t offset = offsets_[i];
        unpackBytes(at(offset), roomAt(offset), out, packed);
    }

    static constexpr std::uint32_t emptyHigh = 0xffffffffU; // no offset is that large
    // 12 bytes: no state index, because only a new state's index is ever
    // needed, and the offset of the packed state, so that a duplicate is
    // recognised with one cache miss into the packed bytes, not two.
    struct Slot {
        std::uint32_t tag = 0; // top 32 bits of the hash; its top bits pick the slot
        std::uint32_t offsetLow = 0;
        std::uint32_t offsetHigh = emptyHigh;

        static Slot of(std::uint32_t tag, std::uint64_t offset) {
            return {tag, static_cast<std::uint32_t>(offset),
                    static_cast<std::uint32_t>(offset >> 32)};
        }
        [[nodiscard]] bool isEmpty() const { return offsetHigh == emptyHigh; }
        [[nodiscard]] std::uint64_t offset() const {
            return (std::uint64_t{offsetHigh} << 32) | offsetLow;
        }
    };

    static std::uint64_t hashBytes(std::span<const std::uint8_t> b) {
        return hashWith(b.size(), [&](std::size_t i) {
            std::uint64_t w = 0;
            std::memcpy(&w, b.data() + i, 8);
            return w;
        });
    }

    // The hash of `size` packed bytes whose 8 bytes from offset i (a
    // multiple of 8) are load(i), with zeros after the last byte.
    template <class Load> static std::uint64_t hashWith(std::size_t size, Load load) {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ size;
        std::size_t i = 0;
        for (; i + 8 <= size; i += 8) {
            h = (h ^ load(i)) * 0xbf58476d1ce4e5b9ULL;
            h ^= h >> 31;
        }
        // The bytes after the state are zeros up to a multiple of 8 (see
        // pack), so the tail is one load, not a byte copy that stalls it.
        const std::uint64_t tail = load(i);
        h = (h ^ tail) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdULL;
        h ^= h >> 33;
        return h;
    }

    static std::uint64_t zigzag(StateWord w) {
        return (static_cast<std::uint64_t>(w) << 1) ^
               static_cast<std::uint64_t>(w >> 63); // arithmetic shift
    }
    static StateWord unzigzag(std::uint64_t z) {
        return static_cast<StateWord>((z >> 1) ^ (~(z & 1) + 1));
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

    // Writes every word of s as the one byte of its zigzag varint, and
    // returns true when that is its encoding: when every word is in
    // [-64, 63]. Otherwise the bytes written are meaningless.
    static bool packSmall(std::span<const StateWord> s, std::uint8_t* out) {
        std::uint64_t large = 0; // OR of w + 64: below 128 iff every w is in range
        std::size_t k = 0;
#if defined(__SSE2__)
        // Eight words at a time. For a word in range the low 32 bits hold
        // its value, so zigzag on 32-bit lanes gives its byte; two
        // saturating packs gather the eight bytes.
        const __m128i bias = _mm_set1_epi64x(64);
        __m128i acc = _mm_setzero_si128();
        auto zigzagPair = [&](const StateWord* w2) {
            const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w2));
            acc = _mm_or_si128(acc, _mm_add_epi64(w, bias));
            const __m128i z = _mm_xor_si128(_mm_add_epi32(w, w), _mm_srai_epi32(w, 31));
            return _mm_shuffle_epi32(z, _MM_SHUFFLE(3, 3, 2, 0)); // low halves first
        };
        for (; k + 8 <= s.size(); k += 8) {
            const __m128i a =
                _mm_unpacklo_epi64(zigzagPair(s.data() + k), zigzagPair(s.data() + k + 2));
            const __m128i b =
                _mm_unpacklo_epi64(zigzagPair(s.data() + k + 4), zigzagPair(s.data() + k + 6));
            const __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(a, b), _mm_setzero_si128());
            _mm_storel_epi64(reinterpret_cast<__m128i*>(out + k), bytes);
        }
        large = static_cast<std::uint64_t>(_mm_cvtsi128_si64(acc)) |
                static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(acc, acc)));
#endif
        for (; k < s.size(); ++k) {
            large |= static_cast<std::uint64_t>(s[k]) + 64U;
            out[k] = static_cast<std::uint8_t>(zigzag(s[k]));
        }
        return large < 128U;
    }

    // Decodes n words packed one byte each from p into out, unless some
    // byte has its high bit set (a longer varint): then returns false.
    // `room` bytes from p on lie within the block.
    static bool unpackSmall(const std::uint8_t* p, std::size_t n, std::size_t room,
                            StateWord* out) {
        std::size_t k = 0;
#if defined(__SSE2__)
        // Eight bytes at a time (within the state): zero-extended to 16
        // bits, unzigzagged there, then sign-extended to 64.
        const __m128i zero = _mm_setzero_si128();
        const __m128i one = _mm_set1_epi16(1);
        const std::size_t whole = std::min(n, room) / 8 * 8;
        for (; k < whole; k += 8) {
            const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + k));
            if (_mm_movemask_epi8(b) != 0) {
                return false;
            }
            const __m128i x = _mm_unpacklo_epi8(b, zero);
            const __m128i v =
                _mm_xor_si128(_mm_srli_epi16(x, 1), _mm_sub_epi16(zero, _mm_and_si128(x, one)));
            const __m128i lo = _mm_srai_epi32(_mm_unpacklo_epi16(v, v), 16);
            const __m128i hi = _mm_srai_epi32(_mm_unpackhi_epi16(v, v), 16);
            const __m128i loSign = _mm_srai_epi32(lo, 31);
            const __m128i hiSign = _mm_srai_epi32(hi, 31);
            auto* w = reinterpret_cast<__m128i*>(out + k);
            _mm_storeu_si128(w, _mm_unpacklo_epi32(lo, loSign));
            _mm_storeu_si128(w + 1, _mm_unpackhi_epi32(lo, loSign));
            _mm_storeu_si128(w + 2, _mm_unpacklo_epi32(hi, hiSign));
            _mm_storeu_si128(w + 3, _mm_unpackhi_epi32(hi, hiSign));
        }
#else
        (void)room;
#endif
        std::uint8_t high = 0;
        for (std::size_t j = k; j < n; ++j) {
            high |= p[j];
        }
        if ((high & 0x80U) != 0) {
            return false;
        }
        for (; k < n; ++k) {
            out[k] = unzigzag(p[k]);
        }
        return true;
    }

    static void pack(std::span<const StateWord> s, Key& key) {
        key.reserveFor(s.size());
        std::uint8_t* out = putVarint(key.buffer.data(), s.size());
        // The common case, every word in [-64, 63]: one byte each.
        key.small = packSmall(s, out);
        if (key.small) {
            out += s.size();
            key.size = static_cast<std::size_t>(out - key.buffer.data());
            std::memset(out, 0, 8);
            return;
        }
        for (StateWord w : s) {
            const std::uint64_t z = zigzag(w);
            if (z < 0x80U) { // the common case: one byte
                *out++ = static_cast<std::uint8_t>(z);
            } else {
                out = putVarint(out, z);
            }
        }
        key.size = static_cast<std::size_t>(out - key.buffer.data());
        std::memset(out, 0, 8);
    }

    [[nodiscard]] const std::uint8_t* at(std::uint64_t offset) const {
        return blocks_[offset >> 32].get() + (offset & 0xffffffffU);
    }

    // Bytes from `offset` to the end of its block.
    [[nodiscard]] std::size_t roomAt(std::uint64_t offset) const {
        return blockSizes_[offset >> 32] - (offset & 0xffffffffU);
    }

    [[nodiscard]] bool packedEquals(std::uint64_t offset, std::span<const std::uint8_t> b) const {
        // A stored state lies within its block, so one that would run past
        // the block's end is longer than b's.
        if (roomAt(offset) < b.size()) {
            return false;
        }
        // If the stored bytes start with all of b, decoding them reads b's
        // count and b's words and ends where b ends: the states are equal.
        // (The bytes after a shorter stored state are those of the next
        // state or zeros, never outside the block.)
        return std::memcmp(at(offset), b.data(), b.size()) == 0;
    }

    std::uint64_t append(std::span<const std::uint8_t> b) {
        if (b.size() > maxBlock) {
            throw std::length_error("a state needs more than 4 MiB packed");
        }
        if (blocks_.empty() || used_ + b.size() > blockSizes_.back()) {
            const std::size_t size =
                std::max(blocks_.empty() ? firstBlock_ : std::min(2 * blockSizes_.back(), maxBlock),
                         b.size());
            // Zeroed: equality tests may read past the last state stored.
            blocks_.push_back(std::make_unique<std::uint8_t[]>(size));
            blockSizes_.push_back(size);
            blockBytes_ += size;
            used_ = 0;
        }
        // Block number, then the position in the block (blocks are at most
        // 4 MiB, and a number of all ones would mean an empty slot).
        const std::uint64_t offset = ((blocks_.size() - 1) << 32) | used_;
        std::memcpy(blocks_.back().get() + used_, b.data(), b.size());
        used_ += b.size();
        return offset;
    }

    [[gnu::noinline]] void grow() {
        if (shift_ == 0) {
            throw std::length_error("the state table cannot grow beyond 2^32 slots");
        }
        HugeArray<Slot> bigger(table_.size() * 2, Slot{});
        --shift_;
        const std::size_t mask = bigger.size() - 1;
        for (std::size_t k = 0; k < table_.size(); ++k) {
            const Slot& e = table_[k];
            if (e.isEmpty()) {
                continue;
            }
            std::size_t slot = e.tag >> shift_;
            while (!bigger[slot].isEmpty()) {
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
    // The states stored last, by the low bits of their hash: most duplicates
    // in a search are of a state stored shortly before (diamonds of
    // independent steps), and this small table answers them from the cache,
    // without a miss into the large one.
    std::vector<Slot> recent_; // a power of two
    unsigned shift_;           // slot = tag >> shift_
    std::size_t firstBlock_;
    std::vector<std::size_t> blockSizes_;
    std::size_t blockBytes_ = 0; // sum of blockSizes_
    Key scratch_;
};

} // namespace tsoreach::reach
