#include "paths.hpp"

namespace tsoreach::cub {

void PathEmitter::edge(const std::string& from, const std::string& to, const Instr& i,
                       SourcePos pos) {
    const StateId f = b_.state(from);
    const StateId t = b_.state(to);
    b_.addTransition(f, t, i, pos);
}

void PathEmitter::emit(const std::string& from, const std::string& to, const std::string& prefix,
                       const std::vector<Step>& steps, SourcePos pos) {
    if (steps.empty()) {
        edge(from, to, Instr::plain(InstrKind::Noop), pos);
        return;
    }
    std::string here = from;
    for (std::size_t s = 0; s < steps.size(); ++s) {
        const std::string next = s + 1 == steps.size() ? to : prefix + "/" + std::to_string(s + 1);
        bool opens = false;
        bool closes = false;
        for (std::size_t a = 0; a < steps[s].size(); ++a) {
            const Alternative& alt = steps[s][a];
            std::string at = here;
            for (std::size_t i = 0; i < alt.size(); ++i) {
                const InstrKind k = alt[i].kind;
                opens = opens || k == InstrKind::Lock || k == InstrKind::Atomic;
                closes = closes || k == InstrKind::Unlock || k == InstrKind::EndAtomic;
                const std::string target =
                    i + 1 == alt.size() ? next
                                        : prefix + "/" + std::to_string(s + 1) + "." +
                                              std::to_string(a + 1) + "." + std::to_string(i + 1);
                if (i + 1 < alt.size() && inside_) {
                    busy_.insert(target);
                }
                edge(at, target, alt[i], pos);
                at = target;
            }
        }
        inside_ = (inside_ || opens) && !closes;
        if (inside_ && next != to) {
            busy_.insert(next);
        }
        here = next;
    }
}

} // namespace tsoreach::cub
