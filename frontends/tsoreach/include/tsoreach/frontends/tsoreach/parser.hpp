#pragma once
// Parser for the thread-automaton language of shared/design/language.md.

#include "tsoreach/lang/program.hpp"
#include "tsoreach/lang/stop.hpp"

#include <string>
#include <string_view>

namespace tsoreach {

// Parses `text`; `sourceName` names the input in error messages.
// Throws InputError with the position of the first error.
Program parseProgram(std::string_view text, std::string sourceName);
// The same for generated programs (extensions, attack programs), which can
// be megabytes: throws Stopped when `stop` holds before it is done.
Program parseProgram(std::string_view text, std::string sourceName, const StopCondition& stop);

// Reads and parses a file. Throws InputError if it cannot be read.
Program parseProgramFile(const std::string& path);

} // namespace tsoreach
