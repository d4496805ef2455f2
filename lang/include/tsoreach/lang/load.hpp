#pragma once
// Reading a program file in either input language: tsoreach's own
// (language.md) or Memorax's .rmm (rmm.md), chosen by the file extension
// unless the user names the format.

#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace tsoreach {

enum class InputFormat { Auto, Tsoreach, Rmm };

// "rmm", "tsoreach" (and "auto"); nullopt for anything else.
std::optional<InputFormat> inputFormatFromName(std::string_view name);

struct LoadedProgram {
    Program program;
    // The goal the file declares when it is not the program's final states
    // (a .rmm file's `forbidden` tuples); nullopt otherwise.
    std::optional<Goal> goal;
    InputFormat format = InputFormat::Tsoreach;
    // A translated file (.rmm) in tsoreach's syntax, with comments on the
    // memory layout and the goal; empty for tsoreach files.
    std::string translation;
};

// Reads and translates `path`. Throws InputError for unreadable files and
// errors in the input.
LoadedProgram loadProgramFile(const std::string& path, InputFormat format);

// Reads a whole program file. Throws InputError when it cannot be read
// (missing, a directory, a device).
std::string readProgramText(const std::string& path);

} // namespace tsoreach
