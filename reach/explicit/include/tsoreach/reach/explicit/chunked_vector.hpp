#pragma once
// An append-only array in fixed-size chunks: growing never copies or moves
// the elements, so the per-state arrays of a search (parent links, steps,
// offsets) cost no copy and no transient double footprint as they grow.

#include <cstddef>
#include <memory>
#include <vector>

namespace tsoreach::reach {

template <class T> class ChunkedVector {
  public:
    [[nodiscard]] std::size_t size() const { return size_; }

    void push_back(const T& v) {
        if ((size_ & (chunkSize - 1)) == 0 && (size_ >> chunkBits) == chunks_.size()) {
            chunks_.push_back(std::make_unique_for_overwrite<T[]>(chunkSize));
        }
        chunks_[size_ >> chunkBits][size_ & (chunkSize - 1)] = v;
        ++size_;
    }

    [[nodiscard]] const T& operator[](std::size_t i) const {
        return chunks_[i >> chunkBits][i & (chunkSize - 1)];
    }

    // Bytes held, and bytes held once the next chunk is allocated.
    [[nodiscard]] std::size_t bytes() const { return chunks_.size() * chunkSize * sizeof(T); }
    [[nodiscard]] std::size_t bytesAtNextGrowth() const { return bytes() + chunkSize * sizeof(T); }

    // Frees every element without allocating.
    void release() noexcept {
        std::vector<std::unique_ptr<T[]>>().swap(chunks_);
        size_ = 0;
    }

  private:
    static constexpr unsigned chunkBits = 16;
    static constexpr std::size_t chunkSize = std::size_t{1} << chunkBits;

    std::vector<std::unique_ptr<T[]>> chunks_;
    std::size_t size_ = 0;
};

} // namespace tsoreach::reach
