#include "tsoreach/frontends/tsoreach/front_end.hpp"

#include "tsoreach/frontends/tsoreach/parser.hpp"

namespace tsoreach {

namespace {
LoadedProgram load(std::string_view text, const std::string& sourceName,
                   const FrontEndOptions& /*options: none concerns this language*/) {
    LoadedProgram out;
    out.program = parseProgram(text, sourceName);
    return out;
}
} // namespace

FrontEnd tsoreachFrontEnd() {
    // No extension of its own: the registry gives it every file that no
    // other front end claims.
    return FrontEnd{"tsoreach", "docs/language.md", {}, &load};
}

} // namespace tsoreach
