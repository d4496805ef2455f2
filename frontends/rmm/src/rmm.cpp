#include "tsoreach/frontends/rmm/rmm.hpp"

#include "lexer.hpp"
#include "parser.hpp"
#include "preprocessor.hpp"
#include "translator.hpp"

#include "tsoreach/frontends/tsoreach/parser.hpp"

#include <stdexcept>
#include <vector>

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

// The parsed translation with the .rmm positions of its transitions and
// threads.
Program withSourcePositions(Program program, const rmm::TranslatedText& t) {
    if (program.transitions.size() != t.transitionPos.size() ||
        program.threads.size() != t.threadPos.size()) {
        throw std::logic_error("the .rmm translation lost track of its source positions");
    }
    for (std::size_t i = 0; i < t.transitionPos.size(); ++i) {
        program.transitions[i].pos = t.transitionPos[i];
    }
    for (std::size_t i = 0; i < t.threadPos.size(); ++i) {
        program.threads[i].pos = t.threadPos[i];
    }
    return program;
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

} // namespace

RmmTranslation translateRmm(std::string_view text, const std::string& sourceName) {
    checkSourceSize(text.size(), sourceName); // keeps positions in 32 bits
    const rmm::Test test =
        rmm::parseTest(rmm::expandMacros(rmm::lexRmm(text, sourceName), sourceName), sourceName);
    rmm::TranslatedText t = rmm::translateTest(test, sourceName);
    if (test.forbidden.size() > 1) {
        t.text = goalComment(test) + t.text;
    }
    Program program = withSourcePositions(parseProgram(t.text, sourceName), t);
    Goal goal = forbiddenGoal(test, program, t.hasInitThread);
    return RmmTranslation{std::move(program), std::move(goal), std::move(t.text),
                          std::move(t.names)};
}

} // namespace tsoreach
