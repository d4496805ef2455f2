// The visited set's packing, equality and growth, with the value ranges
// that take its fast paths (every word one byte) and its slow ones (large
// and negative words, long states), checked against std::set.
#include "tsoreach/reach/explicit/state_store.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <vector>

namespace tsoreach::reach {
namespace {

std::vector<StateWord> randomState(std::mt19937_64& rng, std::size_t length, int range) {
    std::vector<StateWord> s(length);
    for (auto& w : s) {
        switch (range) {
        case 0: // one byte each: [-64, 63]
            w = static_cast<StateWord>(rng() % 128) - 64;
            break;
        case 1: // mostly small, now and then just outside one byte
            w = rng() % 8 == 0 ? (rng() % 2 == 0 ? 64 : -65) : static_cast<StateWord>(rng() % 4);
            break;
        default: // anything, extremes included
            switch (rng() % 4) {
            case 0:
                w = std::numeric_limits<StateWord>::min();
                break;
            case 1:
                w = std::numeric_limits<StateWord>::max();
                break;
            default:
                w = static_cast<StateWord>(rng());
            }
        }
    }
    return s;
}

TEST(StateStore, AgreesWithStdSetAndRoundTrips) {
    std::mt19937_64 rng(7);
    for (int range = 0; range < 3; ++range) {
        StateStore store;
        std::set<std::vector<StateWord>> reference;
        std::vector<std::vector<StateWord>> byIndex;
        // Few distinct values per word, so that many insertions repeat a
        // state; enough states to grow the table and fill several blocks.
        // Lengths beyond 16 words reach every step of the vectorised paths.
        for (int k = 0; k < 300000; ++k) {
            const std::size_t length = 1 + rng() % (range == 1 ? 24 : 40);
            std::vector<StateWord> s = randomState(rng, length, range);
            if (range == 0 && rng() % 2 == 0 && !byIndex.empty()) {
                s = byIndex[rng() % byIndex.size()]; // a certain duplicate
            }
            const bool fresh = reference.insert(s).second;
            ASSERT_EQ(store.insert(s), fresh) << "range " << range << " insertion " << k;
            if (fresh) {
                byIndex.push_back(s);
            }
        }
        ASSERT_EQ(store.size(), byIndex.size());
        std::vector<StateWord> out;
        for (std::size_t i = 0; i < byIndex.size(); ++i) {
            store.get(static_cast<StateIndex>(i), out);
            ASSERT_EQ(out, byIndex[i]) << "range " << range << " index " << i;
        }
    }
}

TEST(StateStore, PrefixesAndLengthsAreDistinct) {
    StateStore store;
    // States that are prefixes of each other, or whose packed bytes are.
    const std::vector<std::vector<StateWord>> states = {
        {}, {0}, {0, 0}, {1}, {1, 0}, {64}, {-65}, {0, 64}, {127, 1}, {1, 127}, {-1}, {-1, -1}};
    for (const auto& s : states) {
        EXPECT_TRUE(store.insert(s));
    }
    for (const auto& s : states) {
        EXPECT_FALSE(store.insert(s));
    }
}

} // namespace
} // namespace tsoreach::reach
