#pragma once
// lockfor/unlockfor as lock/unlock, for engines that decide SC and TSO only.
//
// Exact under SC and TSO (docs/language.md): there `lockfor A` needs the
// thread's one buffer empty (a store to A would queue behind every entry),
// which is `lock`'s condition, and takes the same lock; `unlockfor A` is
// `unlock` the same way. Under PSO they differ, so a PSO engine must not
// use this. Transition ids, states and positions are kept, so a trace of
// the result is a trace of the original.

#include "tsoreach/lang/program.hpp"

#include <optional>

namespace tsoreach::instrument {

// The program with every lockfor/unlockfor turned into lock/unlock, or
// nullopt when it has none.
inline std::optional<Program> plainLocks(const Program& p) {
    std::optional<Program> out;
    for (std::size_t i = 0; i < p.transitions.size(); ++i) {
        const InstrKind k = p.transitions[i].instr.kind;
        if (!isLockForEdge(k)) {
            continue;
        }
        if (!out) {
            out = p;
        }
        Instruction& in = out->transitions[i].instr;
        in.kind = k == InstrKind::LockFor ? InstrKind::Lock : InstrKind::Unlock;
        in.addr = ExprRef{};
    }
    return out;
}

} // namespace tsoreach::instrument
