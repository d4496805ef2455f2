// libFuzzer target: the bytes decode into a small program (differential.hpp),
// and every engine configuration that answers under one memory model must
// agree with the others and with the brute-force explorer. Built once per
// model: TSOREACH_FUZZ_MODEL is SC, TSO or PSO (fuzz/CMakeLists.txt).

#include "differential.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <string>
#include <vector>

#ifndef TSOREACH_FUZZ_MODEL
#error "define TSOREACH_FUZZ_MODEL as SC, TSO or PSO"
#endif

// libFuzzer's byte-level mutations, for a third of the mutations.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

// The other two thirds are structure-aware (differential.hpp): the spec is
// decoded, mutated and encoded again.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t maxSize, unsigned int seed) {
    std::minstd_rand random(seed);
    if (random() % 3 == 0) {
        return LLVMFuzzerMutate(data, size, maxSize);
    }
    tsoreach::fuzz::Spec spec = tsoreach::fuzz::decodeSpec({data, size});
    tsoreach::fuzz::mutateSpec(spec, random);
    const std::vector<std::uint8_t> bytes = tsoreach::fuzz::encodeSpec(spec);
    if (bytes.size() > maxSize) {
        return LLVMFuzzerMutate(data, size, maxSize);
    }
    std::copy(bytes.begin(), bytes.end(), data);
    return bytes.size();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text = tsoreach::fuzz::decodeDifferential({data, size});
    try {
        tsoreach::fuzz::checkDifferential(text, tsoreach::reach::MemoryModel::TSOREACH_FUZZ_MODEL);
    } catch (const tsoreach::fuzz::PropertyViolation& e) {
        // The message holds the program and the answers; libFuzzer saves the input.
        std::fprintf(stderr, "fuzz_differential: %s", e.what());
        std::abort();
    } catch (const std::exception& e) { // the decoder made a program that does not parse
        std::fprintf(stderr, "fuzz_differential: %s\nprogram:\n%s", e.what(), text.c_str());
        std::abort();
    }
    return 0;
}
