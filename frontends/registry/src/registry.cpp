#include "tsoreach/frontends/registry.hpp"

#include "tsoreach/frontends/c/front_end.hpp"
#include "tsoreach/frontends/litmus/front_end.hpp"
#include "tsoreach/frontends/rmm/front_end.hpp"
#include "tsoreach/frontends/tsoreach/front_end.hpp"

#include <algorithm>
#include <filesystem>

namespace tsoreach {

namespace {
// Reads every file whose extension no row claims.
constexpr std::string_view kFallback = "tsoreach";
} // namespace

std::span<const FrontEnd> frontEndRegistry() {
    static const std::vector<FrontEnd> rows = {
        rmmFrontEnd(),
        litmusFrontEnd(),
        cFrontEnd(),
        tsoreachFrontEnd(),
    };
    return rows;
}

const FrontEnd* findFrontEnd(std::string_view name) {
    for (const FrontEnd& f : frontEndRegistry()) {
        if (f.name == name) {
            return &f;
        }
    }
    return nullptr;
}

const FrontEnd& frontEndForFile(const std::string& path) {
    const std::string ext = std::filesystem::path(path).extension().string();
    for (const FrontEnd& f : frontEndRegistry()) {
        if (std::find(f.extensions.begin(), f.extensions.end(), ext) != f.extensions.end()) {
            return f;
        }
    }
    return *findFrontEnd(kFallback);
}

std::vector<std::string> inputFormatNames() {
    std::vector<std::string> names{std::string(kAutoInputFormat)};
    for (const FrontEnd& f : frontEndRegistry()) {
        names.emplace_back(f.name);
    }
    return names;
}

std::string inputFormatHelp() {
    std::string help = "Language of FILE: ";
    for (const FrontEnd& f : frontEndRegistry()) {
        help += std::string(f.name) + " (" + std::string(f.summary) + "), ";
    }
    help += "or " + std::string(kAutoInputFormat) + ": ";
    std::string byExtension;
    for (const FrontEnd& f : frontEndRegistry()) {
        for (std::string_view ext : f.extensions) {
            byExtension += std::string(byExtension.empty() ? "" : ", ") + std::string(f.name) +
                           " for *" + std::string(ext) + " files";
        }
    }
    return help + byExtension;
}

LoadedProgram loadProgramFile(const std::string& path, std::string_view format,
                              const FrontEndOptions& options) {
    const FrontEnd* frontEnd =
        format == kAutoInputFormat ? &frontEndForFile(path) : findFrontEnd(format);
    if (frontEnd == nullptr) {
        throw InputError(path, {}, "unknown input format '" + std::string(format) + "'");
    }
    const std::string name = path == kStdinPath ? std::string(kStdinName) : path;
    std::string text = readProgramText(path);
    LoadedProgram loaded = frontEnd->load(text, name, options);
    loaded.source = std::move(text);
    return loaded;
}

} // namespace tsoreach
