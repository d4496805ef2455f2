#pragma once
// Source positions and the typed input error that carries them.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace tsoreach {

struct SourcePos {
    std::uint32_t line = 0; // 1-based; 0 = unknown
    std::uint32_t col = 0;  // 1-based byte column
    friend bool operator==(const SourcePos&, const SourcePos&) = default;
};

// "12:5" (line and column) for reports, "12" when the column is unknown, ""
// when the line is.
[[nodiscard]] std::string placeText(SourcePos pos);

// An error in the user's input. The CLI prints what() as
// "FILE:LINE:COL: error: MESSAGE" and exits with code 2.
class InputError : public std::runtime_error {
  public:
    InputError(std::string file, SourcePos pos, std::string message);
    [[nodiscard]] const std::string& file() const { return file_; }
    [[nodiscard]] SourcePos pos() const { return pos_; }
    [[nodiscard]] const std::string& message() const { return message_; }

  private:
    std::string file_;
    SourcePos pos_;
    std::string message_;
};

// The longest program text the front ends read: 2^31 - 1 bytes. Every
// thread, control state, register, transition and expression node of a
// parsed program is named by a token of its own (a state or register by
// its first use), and tokens are at least one byte followed by a separator,
// so each count is below 2^30, and every line and column below 2^31. That
// is what lets ids (ids.hpp, 32 bits, all ones invalid), source positions,
// expression references (ExprRef) and the engines' 32-bit indices that
// derive from them fit. Programs that transformations build
// (ProgramBuilder, builder.hpp) are not text: checkWellFormed refuses
// counts that do not fit their 32 bits.
constexpr std::size_t kMaxSourceBytes = (std::size_t{1} << 31) - 1;

// Throws InputError (no position) when a text of `bytes` is longer than
// kMaxSourceBytes.
void checkSourceSize(std::size_t bytes, const std::string& sourceName);

} // namespace tsoreach
