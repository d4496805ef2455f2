#pragma once
// Programs on which the first construction of the lazy engine's extension
// R ⊕ σ lost TSO behaviours (docs/lazy-extension.md, "What the first
// construction missed"), with the path σ that shows it by source lines.
// lazy_test checks Lemma 1 on them and the lazy engine's answers;
// fences_test checks that fence synthesis sees their goals.

#include <cstdint>
#include <initializer_list>

namespace tsoreach::test {

struct ReportedPath {
    const char* name;
    const char* program;
    std::initializer_list<std::uint32_t> lines;
};

const ReportedPath kReportedPaths[] = {
    // σ comes back to the source of its store: t issues it again while the
    // first copy is buffered (re-entry, case B with inst_1).
    {"loop1",
     R"(thread t
initial q0
final q3
transition q0 q1 write + c 1 0
transition q1 q5 local c + c 1
transition q5 q0 check < c 3
transition q0 q2 read r 1
transition q2 q3 check && == r 0 == c 2
end
thread u
initial p0
final p3
transition p0 p1 write 1 1
transition p1 p2 mfence
transition p2 p4 read s 0
transition p4 p3 check == s 0
end)",
     {4, 5, 6, 7}},
    // σ passes t's goal state q3 and goes on (goal copies, case F).
    {"mid1",
     R"(thread t
initial q0
final q3
transition q0 q1 write 1 0
transition q1 q2 read r 1
transition q2 q3 check == r 0
transition q3 q4 check == r 0
transition q4 q5 read s 2
end
thread u
initial p0
final p4
transition p0 p1 write 1 1
transition p1 p2 mfence
transition p2 p3 read v 0
transition p3 p4 check == v 0
transition p4 p5 write 1 2
end)",
     {4, 5, 6, 7, 8}},
    {"mid2",
     R"(thread t
initial q0
final q3
transition q0 q1 write 1 0
transition q1 qL check == k 5
transition q1 b1 noop
transition b1 b2 noop
transition b2 q2 read r 1
transition q2 q3 check == r 0
transition q3 q4 noop
transition q4 qL noop
transition qL q5 read s 2
end
thread u
initial p0
final p4
transition p0 p1 write 1 1
transition p1 p2 mfence
transition p2 p3 read v 0
transition p3 p4 check == v 0
end
thread h
initial h0
transition h0 h1 write 1 2
transition h1 h2 mfence
transition h2 h3 read g 0
end)",
     {4, 6, 7, 8, 9, 10, 11, 12}},
    // t's load reads u's 1 before u overwrites it with 2, fences and reads
    // t's store as 0: the store reaches memory after σ's load, while t
    // stays before a step that is not a load (case F away from loads).
    {"flush-after-load",
     R"(thread t
initial s0
transition s0 s1 write 1 0
transition s1 s2 read a 1
transition s2 s3 noop
transition s3 s4 read b 2
end
thread u
initial s0
transition s0 s1 write 1 1
transition s1 s2 write 2 1
transition s2 s3 mfence
transition s3 s4 read x 0
end)",
     {3, 4, 5, 6}},
};

} // namespace tsoreach::test
