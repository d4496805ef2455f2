#pragma once
// What every front end gives the layers above: a program, the goal its file
// declares, and what else it knows about its source. A front end is one row
// (FrontEnd) in the registry (frontends/registry), which picks it by the file
// extension or by --input-format.

#include "tsoreach/frontends/fence_site.hpp"
#include "tsoreach/lang/condition.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/lang/source.hpp"
#include "tsoreach/lang/value.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tsoreach {

// How a C11 seq_cst store is compiled for x86 (docs/c.md): `mov` followed by
// `mfence` (GCC before 12), or a locked `xchg` (clang, GCC 12).
enum class SeqCstStore { MovMfence, Xchg };

// What the user chose about how files are read (--seq-cst-store); each front
// end reads the choices that concern its language.
struct FrontEndOptions {
    SeqCstStore seqCstStore = SeqCstStore::MovMfence;
};

struct LoadedProgram {
    Program program;
    // The goal the file declares when it is not the program's final states
    // (a .rmm file's `forbidden` tuples); nullopt otherwise.
    std::optional<Goal> goal;
    // A translated file (.rmm) in tsoreach's syntax, with comments on its
    // source and the goal (what `print` shows); empty when the file is in
    // tsoreach's syntax already. The program keeps the memory's names.
    std::string translation;
    // The language gives every register an initial value in its declaration
    // (.rmm), so a read before any assignment reads that value on purpose:
    // the CLI gives no warning for it (validate.hpp, unassignedRegisterReads).
    bool registersDeclared = false;
    // A litmus test's final condition (herd's exists/~exists/forall): the
    // reach commands search for it (condition_goal.hpp); `outcomes`
    // evaluates it on each final state. The program is as the file wrote it.
    std::optional<FinalCondition> condition;
    // The text the program was read from, which its source positions refer
    // to (set by loadProgramFile; the HTML report shows it).
    std::string source;
    // A source language with a fence statement of its own (C): the states
    // where the source can hold a fence, and the statement. Empty for the program model's own text,
    // where a fence may go at any state and `fences --apply` prints the program.
    std::vector<FenceSite> fenceSites;
    std::string fenceStatement;
};

// One front end: the name --input-format takes, a few words for the help
// text, the file extensions it claims (".rmm"), and its load function, which
// reads `text` (named `sourceName` in messages) under `options` and throws
// InputError with the position of the first error.
struct FrontEnd {
    std::string_view name;
    std::string_view summary;
    std::vector<std::string_view> extensions;
    LoadedProgram (*load)(std::string_view text, const std::string& sourceName,
                          const FrontEndOptions& options) = nullptr;
};

// Reads a whole program file. Throws InputError when it cannot be read
// (missing, a directory, a device) or is longer than kMaxSourceBytes.
// The path "-" reads standard input (to its end).
std::string readProgramText(const std::string& path);

// The path that means standard input, and its name in messages.
inline constexpr std::string_view kStdinPath = "-";
inline constexpr std::string_view kStdinName = "<stdin>";

} // namespace tsoreach
