#pragma once
// Internals of the reads-from checks, for tests and benchmarks only.

#include "tsoreach/reach/reads_from.hpp"

#include <cstdint>

namespace tsoreach::reach::detail {

// The PSO check before VerifyPSO: the TSO search (digest 3.3) with one
// buffer per thread and address. Exact, but it enumerates lower sets of
// k*d buffers, so it is exponential in the number of addresses; kept to
// cross-check verifyReadsFrom(..., PSO). With `gaveUp` and a non-zero
// `stateBudget` it stops after that many states and sets *gaveUp (the
// answer is then meaningless).
std::optional<std::vector<RfWitnessStep>> verifyReadsFromPsoPerBuffer(const RfInstance& instance,
                                                                      RfCheckStats* stats = nullptr,
                                                                      std::uint64_t stateBudget = 0,
                                                                      bool* gaveUp = nullptr);

} // namespace tsoreach::reach::detail
