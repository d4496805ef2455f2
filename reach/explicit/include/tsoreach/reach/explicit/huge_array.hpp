#pragma once
// A fixed-size array of trivially copyable values for the large, randomly
// accessed tables of a search. Large arrays are aligned to 2 MiB and, on
// Linux, marked for transparent huge pages: a random probe into a table of
// hundreds of MB then costs a cache miss instead of a cache miss and a page
// walk.

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace tsoreach::reach {

template <class T> class HugeArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

  public:
    HugeArray() = default;
    HugeArray(std::size_t n, const T& fill) : size_(n) {
        constexpr std::size_t huge = std::size_t{2} << 20;
        const std::size_t bytes = n * sizeof(T);
        void* p = nullptr;
        if (bytes >= huge) {
            p = std::aligned_alloc(huge, (bytes + huge - 1) / huge * huge);
#ifdef __linux__
            if (p != nullptr) {
                madvise(p, bytes, MADV_HUGEPAGE); // a hint: failure is harmless
            }
#endif
        } else {
            p = std::malloc(bytes == 0 ? 1 : bytes);
        }
        if (p == nullptr) {
            throw std::bad_alloc();
        }
        data_.reset(static_cast<T*>(p));
        for (std::size_t i = 0; i < n; ++i) {
            data_[i] = fill;
        }
    }

    [[nodiscard]] std::size_t size() const {
        return size_;
    }
    T& operator[](std::size_t i) {
        return data_[i];
    }
    const T& operator[](std::size_t i) const {
        return data_[i];
    }
    [[nodiscard]] const T* data() const {
        return data_.get();
    }
    void swap(HugeArray& other) noexcept {
        data_.swap(other.data_);
        std::swap(size_, other.size_);
    }
    void release() noexcept {
        data_.reset();
        size_ = 0;
    }

  private:
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::unique_ptr<T[], Free> data_;
    std::size_t size_ = 0;
};

} // namespace tsoreach::reach
