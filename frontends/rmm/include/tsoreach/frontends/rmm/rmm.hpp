#pragma once
// Front end for Memorax's `.rmm` language. A test (forbidden states, shared
// and process-local data, processes) is translated into a program built
// with lang's ProgramBuilder, so every engine sees a normal program (its
// memory named and initialised as the test declares it), whose text is
// what `print` shows.
// docs/rmm.md documents the translation of each construct; what
// cannot be translated exactly is an InputError at its position.

#include "tsoreach/frontends/front_end.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"

#include <string>
#include <string_view>

namespace tsoreach {

struct RmmTranslation {
    // The translated program; transitions and threads carry positions in
    // the .rmm file, so traces point at the user's statements.
    Program program;
    // The `forbidden` tuples: one term per tuple.
    Goal goal;
    // The program in tsoreach's syntax (what `tsoreach print` shows).
    std::string text;
};

// Translates the .rmm test `text`; `sourceName` names it in messages.
// Throws InputError with the position of the first error.
RmmTranslation translateRmm(std::string_view text, const std::string& sourceName);

} // namespace tsoreach
