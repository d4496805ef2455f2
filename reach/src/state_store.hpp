#pragma once
// The visited set of the explicit engines: states are variable-length word
// vectors kept back to back in one arena, found through an open-addressing
// table of indices. Per stored state it costs its words, one offset and one
// hash; no allocation per state.

#include "tsoreach/lang/value.hpp"

#include <algorithm>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace tsoreach::reach {

using StateWord = Value;
using StateIndex = std::uint32_t;

inline std::uint64_t hashWords(std::span<const StateWord> words) {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ words.size();
    for (StateWord w : words) {
        h ^= static_cast<std::uint64_t>(w);
        h *= 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

class StateStore {
  public:
    static constexpr StateIndex maxStates = 0xfffffffeU;

    StateStore() : table_(1U << 16, empty) { offsets_.push_back(0); }

    [[nodiscard]] std::size_t size() const { return hashes_.size(); }

    [[nodiscard]] std::span<const StateWord> get(StateIndex i) const {
        return std::span<const StateWord>(arena_).subspan(offsets_[i],
                                                          offsets_[i + 1] - offsets_[i]);
    }

    // Index of `s`, and whether it was new. Precondition: size() < maxStates.
    std::pair<StateIndex, bool> insert(std::span<const StateWord> s) {
        std::uint64_t h = hashWords(s);
        std::size_t mask = table_.size() - 1;
        for (std::size_t slot = h & mask;; slot = (slot + 1) & mask) {
            StateIndex idx = table_[slot];
            if (idx == empty) {
                idx = static_cast<StateIndex>(hashes_.size());
                table_[slot] = idx;
                hashes_.push_back(h);
                arena_.insert(arena_.end(), s.begin(), s.end());
                offsets_.push_back(arena_.size());
                if (hashes_.size() * 2 > table_.size()) {
                    grow();
                }
                return {idx, true};
            }
            if (hashes_[idx] == h) {
                auto stored = get(idx);
                if (stored.size() == s.size() &&
                    std::equal(stored.begin(), stored.end(), s.begin())) {
                    return {idx, false};
                }
            }
        }
    }

    // Bytes held by the store (for statistics and memory limits).
    [[nodiscard]] std::size_t bytes() const {
        return arena_.capacity() * sizeof(StateWord) + offsets_.capacity() * sizeof(std::size_t) +
               hashes_.capacity() * sizeof(std::uint64_t) + table_.capacity() * sizeof(StateIndex);
    }

    // Bytes resident once the arena next grows: the old and the new arena
    // briefly coexist, so memory limits look ahead by one growth.
    [[nodiscard]] std::size_t bytesAtNextGrowth() const {
        return bytes() + arena_.capacity() * sizeof(StateWord);
    }

    // Frees every state without allocating, so that it can run when memory
    // has run out. The store is unusable afterwards.
    void release() noexcept {
        std::vector<StateWord>().swap(arena_);
        std::vector<std::size_t>().swap(offsets_);
        std::vector<std::uint64_t>().swap(hashes_);
        std::vector<StateIndex>().swap(table_);
    }

  private:
    static constexpr StateIndex empty = 0xffffffffU;

    void grow() {
        std::vector<StateIndex> bigger(table_.size() * 2, empty);
        std::size_t mask = bigger.size() - 1;
        for (StateIndex i = 0; i < hashes_.size(); ++i) {
            std::size_t slot = hashes_[i] & mask;
            while (bigger[slot] != empty) {
                slot = (slot + 1) & mask;
            }
            bigger[slot] = i;
        }
        table_.swap(bigger);
    }

    std::vector<StateWord> arena_;
    std::vector<std::size_t> offsets_;
    std::vector<std::uint64_t> hashes_;
    std::vector<StateIndex> table_;
};

} // namespace tsoreach::reach
