#pragma once
// Source positions and the typed input error that carries them.

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tsoreach {

struct SourcePos {
    std::uint32_t line = 0; // 1-based; 0 = unknown
    std::uint32_t col = 0;  // 1-based byte column
    friend bool operator==(const SourcePos&, const SourcePos&) = default;
};

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

} // namespace tsoreach
