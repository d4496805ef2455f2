#include "tsoreach/lang/instruction.hpp"

#include <array>
#include <utility>

namespace tsoreach {

namespace {
constexpr std::array instructionTable{
#define TSOREACH_X(name, kw) std::pair{InstrKind::name, std::string_view(kw)},
    TSOREACH_INSTRUCTIONS(TSOREACH_X)
#undef TSOREACH_X
};
} // namespace

std::string_view keyword(InstrKind kind) {
    return instructionTable[static_cast<std::size_t>(kind)].second;
}

std::string_view instructionKeyword(const Instruction& in) {
    return in.kind == InstrKind::Write && in.joined ? kJoinWriteKeyword : keyword(in.kind);
}

std::optional<InstrKind> instructionFromKeyword(std::string_view token) {
    for (const auto& [kind, kw] : instructionTable) {
        if (kw == token) {
            return kind;
        }
    }
    return std::nullopt;
}

} // namespace tsoreach
