// The front-end registry: which front end reads a file, what --input-format
// accepts and says, and that loading through it equals calling the front
// end itself.

#include "test_util.hpp"

#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/frontends/rmm/rmm.hpp"
#include "tsoreach/frontends/tsoreach/parser.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

namespace tsoreach {
namespace {

// Under the test's own name: ctest runs tests of this file in parallel.
std::string writeTemp(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() +
                             ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
                             name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

constexpr const char* kTsoreach = "thread t initial q final r transition q r write 1 0 end\n";
constexpr const char* kRmm = "forbidden L\ndata x = 0 : [0:1]\nprocess\ntext\n"
                             "  write: x := 1;\n  L: nop\n";

TEST(FrontEnds, NamesAreUniqueAndNoneIsAuto) {
    std::set<std::string_view> names;
    std::set<std::string_view> extensions;
    for (const FrontEnd& f : frontEndRegistry()) {
        EXPECT_TRUE(names.insert(f.name).second) << f.name;
        EXPECT_NE(f.name, kAutoInputFormat);
        EXPECT_FALSE(f.summary.empty()) << f.name;
        EXPECT_NE(f.load, nullptr) << f.name;
        for (std::string_view e : f.extensions) {
            EXPECT_EQ(e.front(), '.') << f.name;
            EXPECT_TRUE(extensions.insert(e).second) << "two front ends claim " << e;
        }
        EXPECT_EQ(findFrontEnd(f.name), &f);
    }
    EXPECT_EQ(findFrontEnd(kAutoInputFormat), nullptr);
    EXPECT_EQ(findFrontEnd("java"), nullptr);
}

TEST(FrontEnds, ExtensionPicksTheFrontEndAndOtherFilesAreTsoreach) {
    EXPECT_EQ(frontEndForFile("dir/dekker.rmm").name, "rmm");
    EXPECT_EQ(frontEndForFile("dir/sb.txt").name, "tsoreach");
    EXPECT_EQ(frontEndForFile("no-extension").name, "tsoreach");
    EXPECT_EQ(frontEndForFile("upper.RMM").name, "tsoreach"); // as before: case matters
}

TEST(FrontEnds, InputFormatOptionComesFromTheRows) {
    const std::vector<std::string> names = inputFormatNames();
    ASSERT_EQ(names.size(), frontEndRegistry().size() + 1);
    EXPECT_EQ(names.front(), kAutoInputFormat);
    const std::string help = inputFormatHelp();
    for (const FrontEnd& f : frontEndRegistry()) {
        EXPECT_NE(std::find(names.begin(), names.end(), f.name), names.end()) << f.name;
        EXPECT_NE(help.find(std::string(f.name) + " (" + std::string(f.summary) + ")"),
                  std::string::npos)
            << help;
    }
    EXPECT_EQ(help, "Language of FILE: rmm (Memorax, docs/rmm.md), litmus (herd's X86 and X86_64 "
                    "litmus tests, docs/litmus.md), c (C with pthreads and C11 atomics, "
                    "docs/c.md), tsoreach (docs/language.md), or auto: rmm for *.rmm files, "
                    "litmus for *.litmus files, c for *.c files");
}

TEST(FrontEnds, LoadingGivesWhatTheFrontEndGives) {
    const std::string txt = writeTemp("frontends_test.txt", kTsoreach);
    const LoadedProgram p = loadProgramFile(txt, kAutoInputFormat);
    EXPECT_EQ(p.program, parseProgram(kTsoreach, txt));
    EXPECT_FALSE(p.goal.has_value());
    EXPECT_TRUE(p.translation.empty());
    EXPECT_TRUE(p.program.memory.empty());

    const std::string rmm = writeTemp("frontends_test.rmm", kRmm);
    const RmmTranslation t = translateRmm(kRmm, rmm);
    for (std::string_view format : {kAutoInputFormat, std::string_view("rmm")}) {
        const LoadedProgram r = loadProgramFile(rmm, format);
        EXPECT_EQ(r.program, t.program);
        ASSERT_TRUE(r.goal.has_value());
        EXPECT_EQ(r.translation, t.text);
    }
    // --input-format wins over the extension.
    const std::string rmmAsTxt = writeTemp("frontends_test_rmm.txt", kRmm);
    EXPECT_EQ(loadProgramFile(rmmAsTxt, "rmm").program, t.program);
    EXPECT_THROW(loadProgramFile(rmmAsTxt, kAutoInputFormat), InputError);
}

// Globals keep their names and constant initial values, process-local
// variables become arrays with a cell per process, '*' keeps the
// initialising thread and its flag; the translation shows the declaration
// and parses back to the program.
TEST(FrontEnds, RmmKeepsItsMemoryNamesAndInitialValues) {
    const std::string text = "forbidden L *\ndata x = 0 : [0:1]\n  turn = 1 : [0:1]\n"
                             "  z = * : [0:1]\n"
                             "process\ndata y = 0 : [0:1]\ntext\n  L: write: y[my] := 1\n"
                             "process\ndata y = 1 : [0:1]\ntext\n  write: x := 1\n";
    const std::string path = writeTemp("frontends_test_names.rmm", text);
    const LoadedProgram p = loadProgramFile(path, kAutoInputFormat);
    std::string shown;
    for (const MemoryVar& v : p.program.memory.vars) {
        shown += " " + std::to_string(v.base) + "=" + v.name + "@" + std::to_string(v.pos.line) +
                 ":" + std::to_string(v.pos.col);
    }
    EXPECT_EQ(shown, " 0=x@2:6 1=turn@3:3 2=z@4:3 3=y@6:6 5=init.done@2:6");
    EXPECT_EQ(p.program.memory.initialCells(), (std::vector<MemoryCell>{{1, 1}, {4, 1}}));
    EXPECT_NE(p.translation.find("memory x turn = 1 z y[2] = {0, 1} init.done\n"),
              std::string::npos)
        << p.translation;
    EXPECT_NE(p.translation.find("write 1 y[0]\n"), std::string::npos) << p.translation;
    EXPECT_EQ(p.program.threads.front().name, "init"); // for z's '*'
    const std::size_t start = p.translation.find("memory");
    EXPECT_EQ(parseProgram(p.translation.substr(start), path), p.program);
}

TEST(FrontEnds, UnknownFormatIsAnInputError) {
    const std::string txt = writeTemp("frontends_test.txt", kTsoreach);
    try {
        loadProgramFile(txt, "herd");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(e.message(), "unknown input format 'herd'");
    }
}

} // namespace
} // namespace tsoreach
