#pragma once
// Small strong id types. Engines index flat arrays with them, so they are
// plain 32-bit values; the tag keeps a thread id from being used as a state id.

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace tsoreach {

template <class Tag> struct Id {
    using value_type = std::uint32_t;
    static constexpr value_type invalidValue = std::numeric_limits<value_type>::max();

    value_type value = invalidValue;

    constexpr Id() = default;
    constexpr explicit Id(value_type v) : value(v) {}
    static constexpr Id invalid() { return Id(); }
    [[nodiscard]] constexpr bool valid() const { return value != invalidValue; }
    [[nodiscard]] constexpr std::size_t index() const { return value; }
    friend constexpr auto operator<=>(Id, Id) = default;
};

struct ThreadTag {};
struct StateTag {};
struct RegTag {};
struct TransitionTag {};
struct VarTag {};

using ThreadId = Id<ThreadTag>;         // index into Program::threads
using StateId = Id<StateTag>;           // control state, local to its thread
using RegId = Id<RegTag>;               // register, local to its thread
using TransitionId = Id<TransitionTag>; // index into Program::transitions (global)
using VarId = Id<VarTag>;               // memory variable: index into Program::memory.vars

} // namespace tsoreach

template <class Tag> struct std::hash<tsoreach::Id<Tag>> {
    std::size_t operator()(tsoreach::Id<Tag> id) const noexcept { return id.value; }
};
