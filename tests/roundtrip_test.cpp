// parse(print(p)) == p on every example and corpus program, and printing is
// a fixed point.

#include "test_util.hpp"
#include "tsoreach/lang/printer.hpp"

#include <gtest/gtest.h>

namespace tsoreach {
namespace {

void expectRoundTrip(const std::filesystem::path& file) {
    SCOPED_TRACE(file.string());
    Program p;
    try {
        p = parseProgramFile(file.string());
    } catch (const InputError&) {
        return; // files that do not parse are pinned by parser_test
    }
    std::string printed = printProgram(p);
    Program q = parseProgram(printed, "printed");
    EXPECT_EQ(p, q);
    EXPECT_EQ(printProgram(q), printed);
}

TEST(RoundTrip, Examples) {
    auto files = test::filesUnder(TSOREACH_SOURCE_DIR "/examples", ".txt");
    ASSERT_GE(files.size(), 15U);
    for (const auto& f : files) {
        expectRoundTrip(f);
    }
}

TEST(RoundTrip, Corpus) {
    auto files = test::filesUnder(TSOREACH_CORPUS_DIR, ".txt");
    if (files.empty()) {
        GTEST_SKIP() << "corpus not found at " TSOREACH_CORPUS_DIR;
    }
    for (const auto& f : files) {
        expectRoundTrip(f);
    }
}

TEST(RoundTrip, CanonicalFormRenumbersStates) {
    // States first used before `initial` get canonical ids after the round trip.
    Program p = test::parse("thread t transition b c noop final c initial a "
                            "transition a b write 1 0 end");
    EXPECT_EQ(p.threads[0].stateNames, (std::vector<std::string>{"a", "c", "b"}));
    EXPECT_EQ(printProgram(p), "thread t\ninitial a\nfinal c\ntransition b c noop\n"
                               "transition a b write 1 0\nend\n");
    EXPECT_EQ(parseProgram(printProgram(p), "x"), p);
}

TEST(RoundTrip, DifferentProgramsCompareUnequal) {
    Program p = test::parse("thread t initial a transition a b write 1 0 end");
    EXPECT_NE(p, test::parse("thread t initial a transition a b write 2 0 end"));
    EXPECT_NE(p, test::parse("thread t initial a transition a b write 1 1 end"));
    EXPECT_NE(p, test::parse("thread u initial a transition a b write 1 0 end"));
    EXPECT_NE(p, test::parse("thread t initial a final b transition a b write 1 0 end"));
    EXPECT_NE(p, test::parse("thread t initial a transition a c write 1 0 end"));
}

} // namespace
} // namespace tsoreach
