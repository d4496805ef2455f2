#pragma once
// Warnings and errors as a run reports them: warnings on stderr as they are
// found ("FILE:LINE:COL: warning: ..."), kept for the JSON report of every
// subcommand (docs/json.md, "warnings"); an error that ends a run with
// --json as one JSON object on stdout besides the text on stderr.

#include "tsoreach/frontends/front_end.hpp"
#include "tsoreach/lang/stop.hpp"
#include "tsoreach/lang/validate.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tsoreach::cli {

struct FileWarning {
    std::string file;
    SourcePos pos;
    std::string message;
};

// The warnings of one run, in the order they were given.
class Warnings {
  public:
    // Prints at most `shown` of `ws` on stderr (then "... and N more
    // `more`") and keeps them all.
    void add(const std::string& file, const std::vector<Warning>& ws, std::size_t shown = 10,
             const std::string& more = "like these");
    [[nodiscard]] const std::vector<FileWarning>& all() const { return all_; }

  private:
    std::vector<FileWarning> all_;
};

// The "warnings" array of a JSON report: {file, line, col, message} each.
nlohmann::ordered_json warningsJson(const std::vector<FileWarning>& ws);

// The warnings about a loaded program that every subcommand gives: registers
// read before they are assigned (unless its language declares their initial
// values) and, with `finals`, goal states of the file that no transition
// mentions (subcommands that use no goal; the others choose one and check
// it, command.hpp's chooseGoal).
void lintProgram(const LoadedProgram& input, const std::string& file, bool finals,
                 Warnings& warnings, const StopCondition& stop = StopCondition());

// The version of the JSON documents' format (docs/json.md, "Schema
// version"): raised when a field is removed or renamed or its meaning
// changes, not when a field is added; docs/json-schema.json holds it as a
// constant and changes with it.
inline constexpr int kJsonSchemaVersion = 1;

// The fields every JSON document of the tool begins with, reports and errors
// alike: tool, version, schema_version and the subcommand.
nlohmann::ordered_json jsonHeader(const std::string& command);

// What --json prints for an error that ends the run (exit 2): `kind` is
// "input" (a position in a file; line 0 when there is none) or "usage".
std::string errorJson(const std::string& command, const std::string& kind, const std::string& file,
                      SourcePos pos, const std::string& message,
                      const std::vector<FileWarning>& warnings);

// What --json prints when a limit stops the run outside any search, before
// the command has a report (exit 3; e.g. --timeout while the program is
// read or checked): `reason` as the reports give it.
std::string stoppedJson(const std::string& command, const std::string& file,
                        const std::string& reason, const std::vector<FileWarning>& warnings);

} // namespace tsoreach::cli
