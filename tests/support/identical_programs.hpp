#pragma once
// Two programs equal as parsed programs are: structure, expression pool
// layout, outgoing indexes and (unless `positions` is false) source
// positions. For programs built with lang/builder.hpp against the ones the
// parser gives.

#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lang/program.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tsoreach::test {

inline void expectIdentical(const Program& a, const Program& b, const std::string& what,
                            bool positions = true) {
    EXPECT_EQ(a, b) << what;
    EXPECT_EQ(printProgram(a), printProgram(b)) << what;
    EXPECT_EQ(a.exprPool, b.exprPool) << what;
    EXPECT_EQ(a.maxExprStack, b.maxExprStack) << what;
    ASSERT_EQ(a.transitions.size(), b.transitions.size()) << what;
    for (std::size_t i = 0; i < a.transitions.size(); ++i) {
        EXPECT_EQ(a.transitions[i].instr, b.transitions[i].instr) << what << " transition " << i;
        EXPECT_TRUE(!positions || a.transitions[i].pos == b.transitions[i].pos)
            << what << " transition " << i;
    }
    ASSERT_EQ(a.memory.vars.size(), b.memory.vars.size()) << what;
    for (std::size_t v = 0; v < a.memory.vars.size(); ++v) {
        EXPECT_TRUE(!positions || a.memory.vars[v].pos == b.memory.vars[v].pos)
            << what << " memory variable " << a.memory.vars[v].name;
    }
    ASSERT_EQ(a.threads.size(), b.threads.size()) << what;
    for (std::size_t t = 0; t < a.threads.size(); ++t) {
        EXPECT_EQ(a.threads[t].outgoingBegin, b.threads[t].outgoingBegin) << what;
        EXPECT_EQ(a.threads[t].outgoing, b.threads[t].outgoing) << what;
        EXPECT_TRUE(!positions || a.threads[t].pos == b.threads[t].pos) << what;
        EXPECT_TRUE(!positions || a.threads[t].finalPos == b.threads[t].finalPos) << what;
    }
}

} // namespace tsoreach::test
