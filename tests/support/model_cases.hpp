#pragma once
// Small programs with their verdict under each memory model, checked with
// the explicit engine (every trace replayed) and the brute-force explorer:
// the harness of the tests of one primitive (atomic blocks, lockfor).

#include "support/brute_force.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/reach/engine.hpp"

#include <gtest/gtest.h>

namespace tsoreach::test {

struct ModelCase {
    const char* name;
    const char* text;
    reach::Verdict sc, tso, pso;
};

inline BruteModel bruteModel(reach::MemoryModel m) {
    switch (m) {
    case reach::MemoryModel::SC:
        return BruteModel::SC;
    case reach::MemoryModel::TSO:
        return BruteModel::TSO;
    case reach::MemoryModel::PSO:
        break;
    }
    return BruteModel::PSO;
}

// The explicit engine and the brute force both give c's verdict under every
// model.
inline void expectExplicitAndBruteForce(const ModelCase& c) {
    using reach::MemoryModel;
    const Program p = parse(c.text);
    const Goal goal = *defaultGoal(p);
    for (MemoryModel m : {MemoryModel::SC, MemoryModel::TSO, MemoryModel::PSO}) {
        const reach::Verdict want = m == MemoryModel::SC    ? c.sc
                                    : m == MemoryModel::TSO ? c.tso
                                                            : c.pso;
        auto engine = engines::makeReachEngine("explicit", m);
        reach::Options o;
        o.stop.setTimeout(60);
        // runChecked replays every trace with the independent checker.
        EXPECT_EQ(reach::runChecked(*engine, p, goal, o).verdict, want)
            << c.name << " " << reach::name(m);
        BruteOptions bo;
        bo.model = bruteModel(m);
        EXPECT_EQ(bruteForce(p, goal, bo).verdict, want == reach::Verdict::Reachable
                                                       ? BruteVerdict::Reachable
                                                       : BruteVerdict::Unreachable)
            << c.name << " " << reach::name(m);
    }
}

} // namespace tsoreach::test
