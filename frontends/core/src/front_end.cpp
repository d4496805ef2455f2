#include "tsoreach/frontends/front_end.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tsoreach {

std::string readProgramText(const std::string& path) {
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
