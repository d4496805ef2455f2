// libFuzzer target: the herd litmus front end. properties.hpp says what is checked.

#include "litmus_properties.hpp"
#include "properties.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tsoreach::fuzz::checkLitmus(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
