#include "tsoreach/lang/load.hpp"

#include "tsoreach/lang/parser.hpp"
#include "tsoreach/lang/rmm.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tsoreach {

std::optional<InputFormat> inputFormatFromName(std::string_view name) {
    if (name == "rmm") {
        return InputFormat::Rmm;
    }
    if (name == "tsoreach") {
        return InputFormat::Tsoreach;
    }
    if (name == "auto") {
        return InputFormat::Auto;
    }
    return std::nullopt;
}

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

LoadedProgram loadProgramFile(const std::string& path, InputFormat format) {
    if (format == InputFormat::Auto) {
        format = std::filesystem::path(path).extension() == ".rmm" ? InputFormat::Rmm
                                                                   : InputFormat::Tsoreach;
    }
    const std::string text = readProgramText(path);
    if (format == InputFormat::Rmm) {
        RmmTranslation t = translateRmm(text, path);
        return LoadedProgram{std::move(t.program), std::move(t.goal), format, std::move(t.text)};
    }
    return LoadedProgram{parseProgram(text, path), std::nullopt, format, {}};
}

} // namespace tsoreach
