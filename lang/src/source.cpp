#include "tsoreach/lang/source.hpp"

#include <utility>

namespace tsoreach {

namespace {
std::string render(const std::string& file, SourcePos pos, const std::string& message) {
    std::string out = file;
    if (pos.line != 0) {
        out += ':' + std::to_string(pos.line) + ':' + std::to_string(pos.col);
    }
    return out + ": error: " + message;
}
} // namespace

InputError::InputError(std::string file, SourcePos pos, std::string message)
    : std::runtime_error(render(file, pos, message)), file_(std::move(file)), pos_(pos),
      message_(std::move(message)) {}

std::string placeText(SourcePos pos) {
    if (pos.line == 0) {
        return "";
    }
    return std::to_string(pos.line) + (pos.col != 0 ? ":" + std::to_string(pos.col) : "");
}

void checkSourceSize(std::size_t bytes, const std::string& sourceName) {
    if (bytes > kMaxSourceBytes) {
        throw InputError(sourceName, {},
                         "the program text has " + std::to_string(bytes) +
                             " bytes, more than the " + std::to_string(kMaxSourceBytes) +
                             " a program may have");
    }
}

} // namespace tsoreach
