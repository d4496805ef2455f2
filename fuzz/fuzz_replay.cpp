// libFuzzer target: the independent trace checker (reach::replayTrace) on a program
// and a JSON trace of it, whatever the trace says. properties.hpp says what is checked.

#include "properties.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tsoreach::fuzz::checkReplay(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
