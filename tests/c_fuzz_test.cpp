// fuzz_c's check (fuzz/c_check.hpp) on fixed pseudo-random inputs, so that
// every `make test` compares the C front end with docs/c.md's translation
// of a few generated programs, and checks the generator itself: what it
// renders is C the front end takes and a program tsoreach's parser takes.

#include "c_check.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace tsoreach {
namespace {

std::vector<std::uint8_t> randomBytes(unsigned seed) {
    std::mt19937 gen(seed);
    std::vector<std::uint8_t> b(48 + gen() % 112);
    for (std::uint8_t& x : b) {
        x = static_cast<std::uint8_t>(gen());
    }
    return b;
}

TEST(CFuzz, GeneratedProgramsAnswerAsTheirDocumentedTranslation) {
    int poisoned = 0;
    for (unsigned seed = 0; seed < 40; ++seed) {
        const fuzz::CCase k = fuzz::decodeCCase(randomBytes(seed));
        poisoned += k.c.poisonLine != 0 ? 1 : 0;
        EXPECT_NO_THROW(fuzz::checkC(k)) << "seed " << seed << "\n" << k.c.text;
    }
    EXPECT_LT(poisoned, 20); // most inputs are programs of the subset
}

// Bytes past the end read 0: the empty input is a small program too.
TEST(CFuzz, TheEmptyInputIsAProgram) {
    const fuzz::CCase k = fuzz::decodeCCase({});
    EXPECT_EQ(k.c.poisonLine, 0);
    EXPECT_NE(k.c.text.find("pthread_create(&t1"), std::string::npos) << k.c.text;
    EXPECT_NO_THROW(fuzz::checkC(k)) << k.c.text << k.expected;
}

} // namespace
} // namespace tsoreach
