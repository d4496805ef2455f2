#pragma once
// The small program the trace fuzzers read traces against: every kind of
// instruction, store forwarding, a lock and a fence.
// fuzz/seeds/trace_json/*.json are traces of it.

namespace tsoreach::fuzz {

inline constexpr const char* kFixedProgram = R"(thread t0
initial start
final done
transition start  stored write 1 0
transition stored own    read  a 0
transition own    other  read  b 1
transition other  done   check && == a 1 == b 0
end

thread t1
initial start
final done
transition start  stored write 1 1
transition stored own    read  c 1
transition own    other  read  d 0
transition other  done   check && == c 1 == d 0
end

thread t2
initial a
transition a b lock
transition b c read r % + 1 2 3
transition c d write + r 1 2
transition d e unlock
transition e f local s * r 2
transition f g mfence
transition g a noop
end
)";

} // namespace tsoreach::fuzz
