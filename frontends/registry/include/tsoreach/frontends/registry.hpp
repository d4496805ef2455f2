#pragma once
// The front ends tsoreach reads, one row each, and loading a file through
// them: by --input-format NAME, or ("auto") by the file's extension. A file
// whose extension no front end claims is read as tsoreach's own language.
// Adding a front end: its folder under frontends/ and one row here
// (registry.cpp); the CLI's --input-format choices and help follow.

#include "tsoreach/frontends/front_end.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tsoreach {

// The --input-format value that picks the front end by extension.
inline constexpr std::string_view kAutoInputFormat = "auto";

// Every front end, in the order the help text lists them.
std::span<const FrontEnd> frontEndRegistry();

// The front end named `name`; null for any other name ("auto" included).
const FrontEnd* findFrontEnd(std::string_view name);

// The front end that reads `path` under "auto": the one that claims its
// extension, else tsoreach's.
const FrontEnd& frontEndForFile(const std::string& path);

// What --input-format accepts: "auto", then every front end's name.
std::vector<std::string> inputFormatNames();

// The help text of --input-format, from the rows.
std::string inputFormatHelp();

// Reads and translates `path` with the front end `format` names, or the one
// frontEndForFile picks for "auto", under `options`. Throws InputError for
// unreadable files, errors in the input, and a format no front end has.
LoadedProgram loadProgramFile(const std::string& path, std::string_view format,
                              const FrontEndOptions& options = {});

} // namespace tsoreach
