#include "tsoreach/frontends/rmm/rmm.hpp"

#include "lexer.hpp"
#include "parser.hpp"
#include "preprocessor.hpp"
#include "translator.hpp"

#include "tsoreach/lang/printer.hpp"

namespace tsoreach {

namespace {

// tsoreach's final states state one conjunction; the disjunction of several
// `forbidden` tuples is the goal of the .rmm file itself, or of repeated
// --goal options, which this comment line gives.
std::string goalComment(const rmm::Test& test) {
    std::string goal = "# goal (from 'forbidden'), one of the tuples:";
    for (std::size_t i = 0; i < test.forbidden.size(); ++i) {
        goal += " --goal ";
        std::string term;
        for (std::size_t p = 0; p < test.forbidden[i].size(); ++p) {
            if (test.forbidden[i][p].text != "*") {
                term += (term.empty() ? "" : ",") + ("p" + std::to_string(p)) + "=" +
                        test.forbidden[i][p].text;
            }
        }
        goal += term.empty() ? "true" : term;
    }
    return goal + "\n";
}

// One term per `forbidden` tuple; process p is thread p, after the
// initialising thread if there is one.
Goal forbiddenGoal(const rmm::Test& test, const Program& program, bool hasInitThread) {
    Goal goal(program);
    const std::size_t first = hasInitThread ? 1 : 0;
    for (std::size_t i = 0; i < test.forbidden.size(); ++i) {
        if (i > 0) {
            goal.addTerm();
        }
        for (std::size_t p = 0; p < test.forbidden[i].size(); ++p) {
            const std::string& l = test.forbidden[i][p].text;
            if (l == "*") {
                continue;
            }
            const ThreadId t(static_cast<std::uint32_t>(first + p));
            goal.accept(t, findState(program.thread(t), l));
        }
    }
    return goal;
}

// What `print` shows: the comments, then the program as the parser reads
// it back.
std::string translationText(const rmm::Test& test, const rmm::Translation& t) {
    std::string text = test.forbidden.size() > 1 ? goalComment(test) : std::string();
    return text + t.header + printProgram(t.program) + "\n";
}

} // namespace

RmmTranslation translateRmm(std::string_view text, const std::string& sourceName) {
    checkSourceSize(text.size(), sourceName); // keeps positions in 32 bits
    const rmm::Test test =
        rmm::parseTest(rmm::expandMacros(rmm::lexRmm(text, sourceName), sourceName), sourceName);
    rmm::Translation t = rmm::translateTest(test, sourceName);
    std::string shown = translationText(test, t);
    // The limit the translation had when it was parsed from this text.
    checkSourceSize(shown.size(), sourceName);
    Goal goal = forbiddenGoal(test, t.program, t.hasInitThread);
    return RmmTranslation{std::move(t.program), std::move(goal), std::move(shown)};
}

} // namespace tsoreach
