#include "tsoreach/frontends/front_end.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

namespace tsoreach {

namespace {
// Standard input in blocks, refused once it passes kMaxSourceBytes.
std::string readStdin() {
    std::string text;
    std::vector<char> block(1 << 16);
    while (std::cin.read(block.data(), static_cast<std::streamsize>(block.size())) ||
           std::cin.gcount() > 0) {
        text.append(block.data(), static_cast<std::size_t>(std::cin.gcount()));
        checkSourceSize(text.size(), std::string(kStdinName));
    }
    if (std::cin.bad()) {
        throw InputError(std::string(kStdinName), {}, "cannot read standard input");
    }
    return text;
}
} // namespace

std::string readProgramText(const std::string& path) {
    if (path == kStdinPath) {
        return readStdin();
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        throw InputError(path, {}, "is a directory, not a program file");
    }
    // Devices and pipes may never end (/dev/zero); programs are files.
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
        throw InputError(path, {}, "is not a regular file");
    }
    // Longer files are refused before they are read whole.
    if (const auto bytes = std::filesystem::file_size(path, ec); !ec) {
        checkSourceSize(bytes, path);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError(path, {}, std::string("cannot open file: ") + std::strerror(errno));
    }
    std::ostringstream buf;
    buf << in.rdbuf();
    if (in.bad()) {
        throw InputError(path, {}, "cannot read file");
    }
    return buf.str();
}

} // namespace tsoreach
