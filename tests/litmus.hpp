#pragma once
// The litmus tests of the digest's section 7 with their numbers of
// Shasha-Snir classes and of reads-from classes of complete executions,
// under SC, TSO and PSO.

#include <cstdint>

namespace tsoreach::test {

struct Litmus {
    const char* name;
    const char* text;
    std::uint64_t sc, tso, pso;       // Shasha-Snir classes
    std::uint64_t rfSc, rfTso, rfPso; // reads-from classes
};

// Addresses: x = 0, y = 1, z = 2.
inline const Litmus kLitmus[] = {
    {"SB", R"(thread p initial a transition a b write 1 0 transition b c read r 1 end
thread q initial a transition a b write 1 1 transition b c read s 0 end)",
     3, 4, 4, 3, 4, 4},
    {"SB+fences", R"(thread p initial a transition a b write 1 0 transition b f mfence
transition f c read r 1 end
thread q initial a transition a b write 1 1 transition b f mfence transition f c read s 0 end)",
     3, 3, 3, 3, 3, 3},
    {"SB+one fence", R"(thread p initial a transition a b write 1 0 transition b f mfence
transition f c read r 1 end
thread q initial a transition a b write 1 1 transition b c read s 0 end)",
     3, 4, 4, 3, 4, 4},
    {"MP", R"(thread p initial a transition a b write 1 0 transition b c write 1 1 end
thread q initial a transition a b read r 1 transition b c read s 0 end)",
     3, 3, 4, 3, 3, 4},
    {"MP+fence", R"(thread p initial a transition a b write 1 0 transition b f mfence
transition f c write 1 1 end
thread q initial a transition a b read r 1 transition b c read s 0 end)",
     3, 3, 3, 3, 3, 3},
    {"Fig. 5", R"(thread p initial a transition a b write 1 0 transition b c read r 0 end
thread q initial a transition a b write 2 0 end)",
     3, 3, 3, 2, 2, 2},
    {"Peterson idiom (Fig. 10a)", R"(thread p initial a transition a b write 1 0
transition b c write 1 2 transition c d read a 2 transition d e read b 1 end
thread q initial a transition a b write 1 1 transition b c write 0 2 transition c d read c 2
transition d e read d 0 end)",
     6, 12, 16, 5, 8, 12},
    {"SB+rfi", R"(thread p initial a transition a b write 1 0 transition b c read a 0
transition c d read b 1 end
thread q initial a transition a b write 1 1 transition b c read c 1 transition c d read d 0 end)",
     3, 4, 4, 3, 4, 4},
    {"store forwarding", R"(thread p initial a transition a b write 1 0 transition b c read r 0
end)",
     1, 1, 1, 1, 1, 1},
    {"CoRR", R"(thread p initial a transition a b write 1 0 transition b c write 2 0 end
thread q initial a transition a b read r 0 transition b c read s 0 end)",
     6, 6, 6, 6, 6, 6},
    {"2+2W", R"(thread p initial a transition a b write 1 0 transition b c write 2 1 end
thread q initial a transition a b write 1 1 transition b c write 2 0 end)",
     3, 3, 4, 1, 1, 1},
    {"R", R"(thread p initial a transition a b write 1 0 transition b c write 1 1 end
thread q initial a transition a b write 2 1 transition b c read r 0 end)",
     3, 4, 4, 2, 2, 2},
    {"S", R"(thread p initial a transition a b write 2 0 transition b c write 1 1 end
thread q initial a transition a b read r 1 transition b c write 1 0 end)",
     3, 3, 4, 2, 2, 2},
    {"IRIW", R"(thread w1 initial a transition a b write 1 0 end
thread w2 initial a transition a b write 1 1 end
thread r1 initial a transition a b read a 0 transition b c read b 1 end
thread r2 initial a transition a b read c 1 transition b c read d 0 end)",
     15, 15, 15, 15, 15, 15},
    {"LB", R"(thread p initial a transition a b read r 0 transition b c write 1 1 end
thread q initial a transition a b read s 1 transition b c write 1 0 end)",
     3, 3, 3, 3, 3, 3},
};

} // namespace tsoreach::test
