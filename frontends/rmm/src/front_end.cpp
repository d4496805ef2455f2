#include "tsoreach/frontends/rmm/front_end.hpp"

#include "tsoreach/frontends/rmm/rmm.hpp"

namespace tsoreach {

namespace {
LoadedProgram load(std::string_view text, const std::string& sourceName,
                   const FrontEndOptions& /*options: none concerns this language*/) {
    RmmTranslation t = translateRmm(text, sourceName);
    LoadedProgram out;
    out.program = std::move(t.program);
    out.goal = std::move(t.goal);
    out.translation = std::move(t.text);
    out.registersDeclared = true; // `registers $r = v`
    return out;
}
} // namespace

FrontEnd rmmFrontEnd() {
    return FrontEnd{"rmm", "Memorax, docs/rmm.md", {".rmm"}, &load};
}

} // namespace tsoreach
