// Fence synthesis (issue 7): the transformation, the exact hitting set, and
// the loop's answers on the litmus tests, each answer checked to be
// verified and locally minimal (dropping any fence breaks the property).

#include "lazy_regressions.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/tsoreach/parser.hpp"
#include "tsoreach/instrument/fences.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lazy/lazy_engine.hpp"
#include "tsoreach/robustness/fence_synthesis.hpp"
#include "tsoreach/robustness/hitting_set.hpp"
#include "tsoreach/robustness/robustness.hpp"

#include <gtest/gtest.h>

namespace tsoreach {
namespace {

using instrument::FencePosition;

constexpr const char* kSb = R"(thread t0 initial a final d
transition a b write 1 0
transition b c read r 1
transition c d check == r 0
end
thread t1 initial a final d
transition a b write 1 1
transition b c read s 0
transition c d check == s 0
end)";

bool robust(const Program& p, std::span<const FencePosition> f) {
    const instrument::FencedProgram fp = instrument::insertFences(p, f);
    return robustness::checkTsoRobustness(fp.program, {}, robustness::WitnessScope::First)
               .verdict == robustness::RobustVerdict::Robust;
}

bool safe(const Program& p, std::span<const FencePosition> f) {
    const instrument::FencedProgram fp = instrument::insertFences(p, f);
    lazy::LazyEngine engine(instrument::ExtensionVariant::Terminating);
    return reach::runChecked(engine, fp.program, *defaultGoal(fp.program), {}).verdict ==
           reach::Verdict::Unreachable;
}

TEST(Fences, InsertionGuardsEveryOutgoingTransition) {
    const Program p = test::parse(kSb);
    const FencePosition b{ThreadId(0), findState(p.thread(ThreadId(0)), "b")};
    const instrument::FencedProgram fp = instrument::insertFences(p, std::vector{b});
    const Thread& t0 = fp.program.thread(ThreadId(0));
    const StateId fenced = findState(t0, "b~fence");
    ASSERT_TRUE(fenced.valid()) << printProgram(fp.program);
    const auto out = t0.outgoingOf(findState(t0, "b"));
    ASSERT_EQ(out.size(), 1U);
    EXPECT_EQ(fp.program.transition(out[0]).instr.kind, InstrKind::Mfence);
    EXPECT_EQ(t0.outgoingOf(fenced).size(), 1U);
    EXPECT_EQ(fp.origin.size(), fp.program.transitions.size());
    // The printed program parses back to the same program.
    EXPECT_EQ(parseProgram(printProgram(fp.program), "again"), fp.program);
}

TEST(Fences, HittingSetIsMinimum) {
    // Sets {0,1} {1,2} {2,3} {3,0}: two elements suffice (0 and 2, or 1 and 3).
    const std::vector<std::vector<std::size_t>> sets{{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    const std::vector<std::uint64_t> cost{1, 1, 1, 1};
    const robustness::HittingSet h = robustness::minimumHittingSet(sets, cost);
    EXPECT_TRUE(h.optimal);
    EXPECT_EQ(h.cost, 2U);
    // Weighted: make 0 and 2 expensive.
    const std::vector<std::uint64_t> weighted{5, 1, 5, 1};
    const robustness::HittingSet w = robustness::minimumHittingSet(sets, weighted);
    EXPECT_EQ(w.chosen, (std::vector<std::size_t>{1, 3}));
}

void expectLocallyMinimal(const Program& p, const robustness::FenceResult& r,
                          bool (*holds)(const Program&, std::span<const FencePosition>)) {
    ASSERT_EQ(r.outcome, robustness::FenceOutcome::Found) << r.reason;
    EXPECT_TRUE(r.verified);
    EXPECT_TRUE(holds(p, r.fences));
    for (std::size_t i = 0; i < r.fences.size(); ++i) {
        std::vector<FencePosition> fewer = r.fences;
        fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
        EXPECT_FALSE(holds(p, fewer)) << "fence " << i << " is not needed";
    }
}

TEST(Fences, StoreBufferingNeedsTwoForBothTargets) {
    const Program p = test::parse(kSb);
    const robustness::FenceResult rob = robustness::robustnessFences(p, {});
    EXPECT_EQ(rob.fences.size(), 2U);
    EXPECT_TRUE(rob.optimal);
    expectLocallyMinimal(p, rob, robust);
    lazy::LazyEngine engine(instrument::ExtensionVariant::Terminating);
    const robustness::FenceResult saf = robustness::safetyFences(p, *defaultGoal(p), engine, {});
    EXPECT_EQ(saf.fences.size(), 2U);
    expectLocallyMinimal(p, saf, safe);
}

TEST(Fences, StoreBufferingWithOneFenceNeedsOneMore) {
    const Program p = test::parse(R"(thread t0 initial a final d
transition a b write 1 0
transition b b2 mfence
transition b2 c read r 1
transition c d check == r 0
end
thread t1 initial a final d
transition a b write 1 1
transition b c read s 0
transition c d check == s 0
end)");
    const robustness::FenceResult rob = robustness::robustnessFences(p, {});
    EXPECT_EQ(rob.fences.size(), 1U);
    expectLocallyMinimal(p, rob, robust);
    lazy::LazyEngine engine(instrument::ExtensionVariant::Terminating);
    const robustness::FenceResult saf = robustness::safetyFences(p, *defaultGoal(p), engine, {});
    EXPECT_EQ(saf.fences.size(), 1U);
    expectLocallyMinimal(p, saf, safe);
}

TEST(Fences, MessagePassingNeedsNoneUnderTso) {
    const Program p = test::parse(R"(thread t0 initial a final c
transition a b write 1 0
transition b c write 1 1
end
thread t1 initial a final d
transition a b read f 1
transition b c read v 0
transition c d check && == f 1 == v 0
end)");
    const robustness::FenceResult rob = robustness::robustnessFences(p, {});
    ASSERT_EQ(rob.outcome, robustness::FenceOutcome::Found);
    EXPECT_TRUE(rob.fences.empty());
    lazy::LazyEngine engine(instrument::ExtensionVariant::Terminating);
    const robustness::FenceResult saf = robustness::safetyFences(p, *defaultGoal(p), engine, {});
    ASSERT_EQ(saf.outcome, robustness::FenceOutcome::Found);
    EXPECT_TRUE(saf.fences.empty());
}

TEST(Fences, ScReachableGoalCannotBeFenced) {
    const Program p = test::parse(R"(thread t0 initial a final b
transition a b write 1 0
end
thread t1 initial a final b
transition a b read r 0
end)");
    lazy::LazyEngine engine(instrument::ExtensionVariant::Terminating);
    const robustness::FenceResult saf = robustness::safetyFences(p, *defaultGoal(p), engine, {});
    EXPECT_EQ(saf.outcome, robustness::FenceOutcome::Impossible);
    EXPECT_FALSE(saf.scTrace.steps.empty());
}

TEST(Fences, ReportedLazyProgramsNeedFences) {
    // Their goals are TSO-reachable only: "no fences needed" (the answer
    // before the extension was fixed) would be wrong. The fenced program is
    // checked again by the explicit engine, independently of the lazy one.
    for (const test::ReportedPath& c : test::kReportedPaths) {
        const Program p = test::parse(c.program);
        if (!p.hasFinals()) {
            continue;
        }
        const Goal g = *defaultGoal(p);
        lazy::LazyEngine lazyEngine(instrument::ExtensionVariant::Terminating);
        auto explicitEngine = engines::makeReachEngine("explicit", reach::MemoryModel::TSO);
        for (reach::Engine* engine :
             {static_cast<reach::Engine*>(&lazyEngine), explicitEngine.get()}) {
            const robustness::FenceResult saf = robustness::safetyFences(p, g, *engine, {});
            ASSERT_EQ(saf.outcome, robustness::FenceOutcome::Found) << c.name << saf.reason;
            EXPECT_FALSE(saf.fences.empty()) << c.name << " with " << engine->name();
            const instrument::FencedProgram fp = instrument::insertFences(p, saf.fences);
            const reach::Result check =
                reach::runChecked(*engines::makeReachEngine("explicit", reach::MemoryModel::TSO),
                                  fp.program, *defaultGoal(fp.program), {});
            EXPECT_EQ(check.verdict, reach::Verdict::Unreachable) << c.name;
        }
    }
}

} // namespace
} // namespace tsoreach
