// libFuzzer target: the JSON trace reader of `tsoreach replay` (cli/trace_json.hpp), against
// the fixed program of fixed_program.hpp. properties.hpp says what is checked.

#include "properties.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tsoreach::fuzz::checkTraceJson(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
