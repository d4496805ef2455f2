// herd litmus tests: every file of examples/litmus against every engine of
// every model (the answer must be the one its `expect:` line derives by
// hand), the condition's answer read off the final states (no goal
// construction involved) against the same line, the front end's errors,
// and the condition's normal form.

#include "support/brute_force_engine.hpp"
#include "support/litmus_answers.hpp"
#include "test_util.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/frontends/condition_goal.hpp"
#include "tsoreach/frontends/litmus/front_end.hpp"
#include "tsoreach/reach/engine.hpp"
#include "tsoreach/reach/explicit.hpp"
#include "tsoreach/reach/outcomes.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace tsoreach {
namespace {

const std::filesystem::path kLitmus = TSOREACH_SOURCE_DIR "/examples/litmus";
const reach::MemoryModel kModels[] = {reach::MemoryModel::SC, reach::MemoryModel::TSO,
                                      reach::MemoryModel::PSO};

std::string readAll(const std::filesystem::path& f) {
    std::ifstream in(f);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

LoadedProgram loadLitmus(const std::string& text, const std::string& name = "t.litmus") {
    return litmusFrontEnd().load(text, name, {});
}

// "expect: sc=Allowed tso=... pso=..." by model; empty when absent.
std::map<reach::MemoryModel, std::string> expected(const std::string& text) {
    static const std::regex line(R"(expect: sc=(\w+) tso=(\w+) pso=(\w+))");
    std::smatch m;
    std::map<reach::MemoryModel, std::string> out;
    if (std::regex_search(text, m, line)) {
        for (std::size_t i = 0; i < 3; ++i) {
            out[kModels[i]] = m[i + 1];
        }
    }
    return out;
}

// The answer from the final states of the program as written: the searched
// formula is reachable when a final state satisfies it (forall: fails it).
std::string answerByOutcomes(const LoadedProgram& in, reach::MemoryModel m) {
    const Program& p = in.program;
    const reach::OutcomeList l = reach::collectOutcomes(
        p, m, [&](const reach::ExploreOptions& o) { return reach::explicitFinalStates(p, m, o); },
        {});
    EXPECT_TRUE(l.complete) << l.reason;
    return test::answerFromOutcomes(*in.condition, l);
}

TEST(Litmus, EnoughExamplesEachWithItsAnswers) {
    const auto files = test::filesUnder(kLitmus, ".litmus");
    EXPECT_GE(files.size(), 30U);
    for (const auto& f : files) {
        const std::string text = readAll(f);
        const auto e = expected(text);
        ASSERT_EQ(e.size(), 3U) << f << ": 'expect: sc=... tso=... pso=...' missing";
        const LoadedProgram in = loadLitmus(text, f.string());
        ASSERT_TRUE(in.condition.has_value()) << f;
        for (const auto& [model, answer] : e) {
            const bool forall = in.condition->quantifier == Quantifier::Forall;
            EXPECT_TRUE(forall ? answer == "Ok" || answer == "No"
                               : answer == "Allowed" || answer == "Forbidden")
                << f << ": " << answer;
        }
        // The test's name is the file's.
        EXPECT_EQ(text.substr(text.find(' ') + 1, f.stem().string().size()), f.stem().string())
            << f;
    }
}

TEST(Litmus, FinalStatesGiveTheExpectedAnswers) {
    for (const auto& f : test::filesUnder(kLitmus, ".litmus")) {
        const std::string text = readAll(f);
        const LoadedProgram in = loadLitmus(text, f.string());
        for (const auto& [model, answer] : expected(text)) {
            EXPECT_EQ(answerByOutcomes(in, model), answer) << f << " under " << reach::name(model);
        }
    }
}

const engines::Catalog kCatalog = test::catalogWithBruteForce();

struct Case {
    std::filesystem::path file;
    reach::MemoryModel model;
    std::string engine;
};

void PrintTo(const Case& c, std::ostream* os) {
    *os << c.file.filename().string();
}

std::vector<Case> allCases() {
    std::vector<Case> out;
    for (const auto& f : test::filesUnder(kLitmus, ".litmus")) {
        for (auto m : kModels) {
            for (const engines::EngineEntry* e : kCatalog.enginesFor(engines::Task::Reach, m)) {
                out.push_back({f, m, std::string(e->name)});
            }
        }
    }
    return out;
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
    std::string n = info.param.file.stem().string() + "_" +
                    std::string(reach::name(info.param.model)) + "_" + info.param.engine;
    for (char& c : n) {
        c = std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
    }
    return n;
}

class LitmusVerdict : public ::testing::TestWithParam<Case> {};

// The condition made a goal (condition_goal.hpp), searched by each engine.
TEST_P(LitmusVerdict, MatchesTheFile) {
    const Case& c = GetParam();
    const std::string text = readAll(c.file);
    const LoadedProgram in = withConditionGoal(loadLitmus(text, c.file.string()));
    const engines::EngineEntry& entry = kCatalog.find(engines::Task::Reach, c.engine, c.model);
    if (std::optional<std::string> why = entry.unsupportedFor(in.program, c.model)) {
        GTEST_SKIP() << *why;
    }
    reach::Options o;
    o.stop.setTimeout(120);
    const reach::Result r = reach::runChecked(*entry.makeReach(c.model), in.program, *in.goal, o);
    if (r.verdict == reach::Verdict::Unknown) {
        // dpor and rf refuse lock/unlock (a locked instruction) with a reason.
        EXPECT_NE(r.reason.find("lock/unlock"), std::string::npos) << r.reason;
        return;
    }
    EXPECT_EQ(test::herdWord(in.condition->quantifier, r.verdict == reach::Verdict::Reachable),
              expected(text)[c.model])
        << c.file << " under " << reach::name(c.model);
}

INSTANTIATE_TEST_SUITE_P(All, LitmusVerdict, ::testing::ValuesIn(allCases()), caseName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LitmusVerdict);

// Conditions of every shape on one program (SB with a third store), each
// answered by the goal and by the final states alike.
TEST(Litmus, GoalAgreesWithFinalStatesOnEveryShapeOfCondition) {
    const std::string code = "X86 T\n{ x=0; y=0; }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n"
                             " MOV EAX,[y] | MOV EAX,[x] ;\n MOV [x],$2 | ;\n";
    const char* conditions[] = {
        "exists (0:EAX=0 /\\ 1:EAX=0)",
        "exists (0:EAX=0 \\/ 1:EAX=0 /\\ x=1)",
        "exists ~(0:EAX=1)",
        "exists (x=1)",
        "exists (x=2 /\\ y=1 /\\ 1:EAX=2)",
        "exists (0:EAX=0 /\\ 0:EAX=1)",
        "~exists (1:EAX=1 /\\ ~(x=2))",
        "forall (x=2)",
        "forall (0:EAX=1 \\/ 1:EAX=1)",
        "forall ((0:EAX=0 /\\ x=2) \\/ (0:EAX=1 /\\ ~(1:EAX=3)))",
        "exists (1:EAX=0 \\/ 1:EAX=1 \\/ 1:EAX=2 \\/ 0:EAX=5 \\/ y=7)",
    };
    for (const char* cond : conditions) {
        const LoadedProgram plain = loadLitmus(code + std::string(cond) + "\n");
        const LoadedProgram in = withConditionGoal(plain);
        for (auto m : kModels) {
            for (const char* engine : {"explicit", "brute-force"}) {
                const engines::EngineEntry& e = kCatalog.find(engines::Task::Reach, engine, m);
                const reach::Result r =
                    reach::runChecked(*e.makeReach(m), in.program, *in.goal, reach::Options());
                EXPECT_EQ(test::herdWord(in.condition->quantifier,
                                         r.verdict == reach::Verdict::Reachable),
                          answerByOutcomes(plain, m))
                    << cond << " under " << reach::name(m) << " with " << engine;
            }
        }
    }
}

TEST(Litmus, X86_64SyntaxAndRegisterNames) {
    const LoadedProgram in =
        loadLitmus("X86_64 T\n(* a (* nested *) comment *)\n{ uint64_t x = 2; 0:rax=1; }\n"
                   " P0 ;\n movq %rax,(x) ;\n lock xaddq %rax,(x) ;\n movq (x),%rbx ;\n"
                   "forall (0:rax=1 /\\ 0:rbx=2 /\\ x=2)\n");
    const Thread& t = in.program.threads.at(0);
    EXPECT_NE(std::find(t.regNames.begin(), t.regNames.end(), "rax"), t.regNames.end());
    EXPECT_NE(std::find(t.regNames.begin(), t.regNames.end(), "rbx"), t.regNames.end());
    EXPECT_EQ(in.program.memory.cellName(0), "x");
    EXPECT_EQ(in.program.memory.initialValue(0), 2);
    EXPECT_EQ(answerByOutcomes(in, reach::MemoryModel::PSO), "Ok");
}

// 32-bit values are kept modulo 2^32, as x86 keeps them: a 32-bit register
// wraps around, a 32-bit write to a 64-bit register zero-extends, and a
// condition's value means the same bits (-1 and 0xffffffff alike).
TEST(Litmus, WidthsAreX86s) {
    struct Case {
        const char* text;
        const char* answer;
    };
    const Case cases[] = {
        {"X86 T\n{ }\n P0 ;\n MOV EAX,$4294967295 ;\n ADD EAX,$1 ;\nexists (0:EAX=0)\n", "Allowed"},
        {"X86 T\n{ }\n P0 ;\n MOV EAX,$0 ;\n DEC EAX ;\nexists (0:EAX=-1)\n", "Allowed"},
        {"X86 T\n{ }\n P0 ;\n MOV EAX,$0 ;\n DEC EAX ;\nexists (0:EAX=0xffffffff)\n", "Allowed"},
        {"X86_64 T\n{ }\n P0 ;\n movq $-1,%rax ;\n movl $1,%eax ;\nexists (0:rax=1)\n", "Allowed"},
        {"X86_64 T\n{ }\n P0 ;\n movl $-1,%eax ;\nexists (0:rax=-1)\n", "Forbidden"},
        {"X86_64 T\n{ }\n P0 ;\n movl $-1,%eax ;\nexists (0:rax=4294967295)\n", "Allowed"},
        {"X86_64 T\n{ x=-1; }\n P0 ;\n movl (x),%eax ;\nexists (0:rax=0xffffffff /\\ "
         "x=-1)\n",
         "Allowed"},
        {"X86_64 T\n{ x=0; }\n P0 ;\n lock decq (x) ;\nexists (x=-1)\n", "Allowed"},
        {"X86 T\n{ x=1; }\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX!=1 \\/ x<>1)\n", "Forbidden"},
    };
    for (const Case& c : cases) {
        const LoadedProgram in = loadLitmus(c.text);
        for (auto m : kModels) {
            EXPECT_EQ(answerByOutcomes(in, m), c.answer) << c.text;
            const LoadedProgram g = withConditionGoal(in);
            const engines::EngineEntry& e = kCatalog.find(engines::Task::Reach, "explicit", m);
            const reach::Result r =
                reach::runChecked(*e.makeReach(m), g.program, *g.goal, reach::Options());
            EXPECT_EQ(
                test::herdWord(g.condition->quantifier, r.verdict == reach::Verdict::Reachable),
                c.answer)
                << c.text;
        }
    }
}

// Each mistake is an InputError at the place it names.
TEST(Litmus, ErrorsArePositioned) {
    struct Bad {
        std::string text;
        std::uint32_t line, col;
        std::string says;
    };
    const std::string head = "X86 T\n{ x=0; }\n P0 | P1 ;\n";
    const std::vector<Bad> bad = {
        {"AArch64 T\n{}\n P0 ;\n MOV X0,#1 ;\nexists (0:X0=1)\n", 1, 1, "not supported"},
        {head + " MOV [x],$1 | JMP L0 ;\nexists (x=1)\n", 4, 15, "not supported"},
        {head + " MOV [x],$1 | MOV EAX,[x] ;\nexists (z=1)\n", 5, 9, "unknown location 'z'"},
        {head + " MOV [x],$1 | MOV EAX,[x] ;\nexists (2:EAX=1)\n", 5, 9, "thread 2"},
        {head + " MOV [x],$1 ;\nexists (x=1)\n", 4, 2, "columns"},
        {"X86 T\n{ x=y; }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n", 2, 5, "not an integer"},
        {"X86 T\n(* open\n{ x=0; }\n", 2, 1, "not closed"},
        {head + " MOV [x],$1 | MOV EAX,[x] ;\nfilter (x=1)\n", 5, 1, "not supported"},
        {head + " MOV [x],$1 | MOV EAX,[x] ;\n", 5, 1, "final condition"},
        {"X86 T\n{ x=0; }\n P0 | P2 ;\n MOV [x],$1 | ;\nexists (x=1)\n", 3, 7, "'P1'"},
        {head + " LOCK MOV [x],$1 | ;\nexists (x=1)\n", 4, 2, "LOCK"},
        {head + " MOV [EAX],$1 | ;\nexists (x=1)\n", 4, 6, "by name only"},
        {head + " MOV [x],$1 | ;\nexists (x=1 /\\ (0:EAX=0)\n", 5, 8, "not closed"},
        {head + " MOV [x],$1 | ;\nexists (x=)\n", 5, 11, "integer"},
        {head + " MOV AL,$1 | ;\nexists (x=1)\n", 4, 6, "8- and 16-bit"},
        {"X86_64 T\n{ }\n P0 ;\n movb $1,%al ;\nexists (0:rax=1)\n", 4, 2, "8- and 16-bit"},
        {"X86_64 T\n{ }\n P0 ;\n movq $1,(x) ;\n movl (x),%eax ;\nexists (0:rax=1)\n", 5, 7,
         "mixed sizes"},
        {"X86_64 T\n{ }\n P0 ;\n movl $1,%rax ;\nexists (0:rax=1)\n", 4, 2, "differ in size"},
        {"X86_64 T\n{ }\n P0 ;\n movl $1,%eax ;\nexists (0:eax=1)\n", 5, 9, "64-bit register"},
        {head + " MOV [x],$1 | ;\nexists (4294967296:EAX=1)\n", 5, 9, "does not exist"},
        {"X86 T\n{ 100000000000:EAX=1; }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n", 2, 3,
         "thread 100000000000 does not exist"},
        {"X86 T\n{ x=0; x=1; }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n", 2, 8, "two initial"},
        {"X86 T\n{ final=0; }\n P0 ;\n MOV [final],$1 ;\nexists (final=1)\n", 2, 3, "keyword"},
    };
    for (const Bad& b : bad) {
        try {
            loadLitmus(b.text);
            ADD_FAILURE() << "no error for:\n" << b.text;
        } catch (const InputError& e) {
            EXPECT_EQ(e.pos().line, b.line) << e.what();
            EXPECT_EQ(e.pos().col, b.col) << e.what();
            EXPECT_NE(e.message().find(b.says), std::string::npos) << e.what();
        }
    }
}

// The normal form negates only where needed: a wide disjunction searched
// for by exists is as many terms, never its exponential negation.
TEST(Litmus, ConditionNormalForm) {
    std::string wide = "X86 T\n{ x=0; }\n P0 ;\n MOV EAX,[x] ;\nexists (";
    for (int i = 0; i < 40; ++i) {
        wide += std::string(i == 0 ? "" : " \\/ ") + "(0:EAX=" + std::to_string(i) + " /\\ x=0)";
    }
    const LoadedProgram in = loadLitmus(wide + ")\n");
    const auto terms = searchedTerms(*in.condition, kMaxConditionTerms);
    ASSERT_TRUE(terms.has_value());
    EXPECT_EQ(terms->size(), 40U);
    FinalCondition all = *in.condition;
    all.quantifier = Quantifier::Forall; // negated: 2^40 terms
    EXPECT_FALSE(searchedTerms(all, kMaxConditionTerms).has_value());
    LoadedProgram huge = in;
    huge.condition = all;
    EXPECT_THROW(withConditionGoal(huge), InputError);
    // `/\` binds tighter than `\/`; contradictory terms vanish.
    const LoadedProgram p =
        loadLitmus("X86 T\n{ x=0; }\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=1 \\/ x=1 /\\ x=2)\n");
    const auto t = searchedTerms(*p.condition, 10);
    ASSERT_TRUE(t.has_value());
    ASSERT_EQ(t->size(), 1U);
    EXPECT_FALSE(t->front().front().isCell());
}

} // namespace
} // namespace tsoreach
