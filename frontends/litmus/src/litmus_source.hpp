#pragma once
// A litmus file's text cut into its parts: the header (architecture and
// name), the initial state `{ ... }`, the rows of code, and the condition.
// OCaml comments `(* ... *)` (nested) are blanked first, so every part keeps
// its byte offsets and errors their positions.

#include "tsoreach/lang/source.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tsoreach::litmus {

// A piece of the text and where it starts.
struct Piece {
    std::string_view text;
    std::size_t offset = 0;
};

class LitmusSource {
  public:
    LitmusSource(std::string_view text, std::string sourceName);
    // The pieces view text_.
    LitmusSource(const LitmusSource&) = delete;
    LitmusSource& operator=(const LitmusSource&) = delete;

    [[nodiscard]] SourcePos pos(std::size_t offset) const;
    [[noreturn]] void fail(std::size_t offset, const std::string& message) const;
    [[nodiscard]] const std::string& sourceName() const { return sourceName_; }

    Piece arch, name;
    std::vector<Piece> init; // the entries between { and }, split at ';'
    std::vector<Piece> rows; // code lines, the thread names first
    Piece locations;         // inside `locations [ ... ]`; empty if none
    Piece condition;         // from the quantifier to the end

  private:
    void blankComments();
    void split();
    std::size_t splitInit(std::size_t at);

    std::string text_;
    std::string sourceName_;
    std::vector<std::size_t> lineStarts_;
};

// `p` without leading and trailing white space.
Piece trim(Piece p);
// `p` split at each `sep` (pieces trimmed).
std::vector<Piece> splitAt(Piece p, char sep);

} // namespace tsoreach::litmus
