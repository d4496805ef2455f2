// libFuzzer target for the C front end (c_check.hpp): the bytes decode into
// a small C program with pthreads and C11 atomics, and its translation must
// answer as docs/c.md's translation of it does, under SC, TSO and PSO, with
// every engine agreeing. TSOREACH_FUZZ_C_PRINT=1 prints each input's C
// program and expected translation (to reproduce and minimise findings).

#include "c_check.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const tsoreach::fuzz::CCase k = tsoreach::fuzz::decodeCCase({data, size});
    if (std::getenv("TSOREACH_FUZZ_C_PRINT") != nullptr) {
        std::fprintf(stderr, "C program:\n%sexpected:\n%s", k.c.text.c_str(), k.expected.c_str());
    }
    try {
        tsoreach::fuzz::checkC(k);
    } catch (const std::exception& e) { // a PropertyViolation or what the code under test threw
        std::fprintf(stderr, "fuzz_c: %s\n", e.what());
        std::abort();
    }
    return 0;
}
