#include "tsoreach/frontends/litmus/front_end.hpp"

#include "litmus_source.hpp"
#include "tsoreach/frontends/condition_goal.hpp"
#include "tsoreach/lang/printer.hpp"
#include "x86.hpp"

#include <algorithm>

namespace tsoreach {

namespace {

// Each register or cell once, in order.
std::vector<ConditionAtom> shownAtoms(const litmus::LitmusProgram& t) {
    std::vector<ConditionAtom> out;
    const auto add = [&](ConditionAtom a) {
        a.value = 0;
        a.equal = true;
        if (std::find(out.begin(), out.end(), a) == out.end()) {
            out.push_back(a);
        }
    };
    std::for_each(t.locations.begin(), t.locations.end(), add);
    std::for_each(t.condition.atoms.begin(), t.condition.atoms.end(), add);
    return out;
}

// What `print` shows: the program with the condition as its goal.
std::string translation(const LoadedProgram& plain, const litmus::LitmusSource& src) {
    const FinalCondition& c = *plain.condition;
    std::string out = "# herd litmus test " + std::string(src.arch.text) + " " +
                      std::string(src.name.text) +
                      ", translated (docs/litmus.md)\n# condition: " + c.text + "\n";
    LoadedProgram goal;
    try {
        goal = withConditionGoal(plain);
    } catch (const InputError& e) { // the commands that search for it say so
        return out + "# no goal: " + e.message() + "\n" + printProgram(plain.program);
    }
    out += std::string("# goal: a final state where the formula ") +
           (c.quantifier == Quantifier::Forall ? "fails" : "holds") + "\n";
    if (goal.goal->termCount() > 1) {
        out += "# the goal has several terms; check this text with\n#   " +
               goalOptions(goal.program, *goal.goal) + "\n";
    }
    return out + printProgram(goal.program);
}

LoadedProgram load(std::string_view text, const std::string& sourceName,
                   const FrontEndOptions& /*options: none concerns this language*/) {
    const litmus::LitmusSource src(text, sourceName);
    litmus::LitmusProgram t = litmus::translateX86(src);
    t.condition.shown = shownAtoms(t);
    LoadedProgram out;
    out.program = std::move(t.program);
    out.condition = std::move(t.condition);
    // herd's registers start at 0 unless the initial state says otherwise.
    out.registersDeclared = true;
    out.translation = translation(out, src);
    return out;
}

} // namespace

FrontEnd litmusFrontEnd() {
    return FrontEnd{
        "litmus", "herd's X86 and X86_64 litmus tests, docs/litmus.md", {".litmus"}, &load};
}

} // namespace tsoreach
