#pragma once
// The .rmm translator: a test's syntax tree to a program, built with lang's
// ProgramBuilder (docs/rmm.md), each thread's automaton built first with a
// union-find over control states.

#include "syntax.hpp"

#include "tsoreach/frontends/front_end.hpp"
#include "tsoreach/lang/program.hpp"

#include <string>

namespace tsoreach::rmm {

struct Translation {
    // The program; its transitions and threads carry their .rmm positions.
    Program program;
    // The comment lines above the program in its text (the source and the
    // memory layout), ending with an empty line.
    std::string header;
    // Whether the first thread is the one that initialises memory (then
    // the processes' threads start at 1): only for initial values '*'.
    bool hasInitThread = false;
};

// Throws InputError at what cannot be translated exactly.
Translation translateTest(const Test& test, const std::string& file);

} // namespace tsoreach::rmm
