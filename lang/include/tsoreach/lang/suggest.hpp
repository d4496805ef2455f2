#pragma once
// Names for messages about a name that is not there: the list of the names
// that are, and the closest one ("did you mean 'cs'?").

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tsoreach {

// The candidate closest to `name` when one is close: at most two edits
// (insert, delete or replace a character, swap two neighbours; letter case
// ignored), and fewer edits than the shorter of the two has characters, so
// that 'a' does not suggest 'b'. The first candidate wins a tie; nullopt
// when none is close.
std::optional<std::string> closestName(std::string_view name,
                                       std::span<const std::string> candidates);

// "a, b, c", or after `shown` names "a, b, ... (40 in all)".
std::string nameList(std::span<const std::string> names, std::size_t shown = 12);

} // namespace tsoreach
