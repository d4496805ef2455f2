#pragma once
// The .rmm translator: a test's syntax tree to a program in tsoreach's own
// syntax (docs/rmm.md), each thread's automaton built with a union-find over
// control states.

#include "syntax.hpp"

#include "tsoreach/frontends/front_end.hpp"
#include "tsoreach/lang/source.hpp"

#include <string>
#include <vector>

namespace tsoreach::rmm {

struct TranslatedText {
    // The program in tsoreach's syntax, with the memory layout in comments.
    std::string text;
    // The .rmm position of each transition and each thread, in the order
    // the text declares them.
    std::vector<SourcePos> transitionPos;
    std::vector<SourcePos> threadPos;
    // Whether the first thread is the one that initialises memory (then
    // the processes' threads start at 1).
    bool hasInitThread = false;
    // The declared memory cells: `x` at its address, a process-local `y` of
    // process p as `y[p]`.
    NameTable names;
};

// Throws InputError at what cannot be translated exactly.
TranslatedText translateTest(const Test& test, const std::string& file);

} // namespace tsoreach::rmm
