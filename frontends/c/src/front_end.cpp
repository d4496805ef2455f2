#include "tsoreach/frontends/c/front_end.hpp"

#include "clang_tu.hpp"
#include "globals.hpp"
#include "thread_code.hpp"
#include "translator.hpp"
#include "tsoreach/frontends/condition_goal.hpp"
#include "tsoreach/lang/builder.hpp"
#include "tsoreach/lang/printer.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace tsoreach {

namespace {

using namespace c;

constexpr std::string_view kInitial = "start";

// One pthread_create of main's.
struct Created {
    CXCursor handle; // the pthread_t variable
    CXCursor function;
    Value arg = 0;
    std::string name; // the function's name, numbered when it runs twice
    SourcePos pos;
    VarId done; // the flag pthread_join waits for; invalid when never joined
};

// main's body cut where the translation needs it (docs/c.md): constant
// initialisations before the first pthread_create, the creates, the rest.
struct MainPlan {
    std::vector<std::pair<CXCursor, Value>> locals; // initialised before the creates
    std::vector<Created> created;
    std::vector<CXCursor> rest;
    bool restRuns = false; // the rest does more than join and return
};

bool isCall(CXCursor s, std::string_view name) {
    s = stripped(s);
    return clang_getCursorKind(s) == CXCursor_CallExpr && spelling(s) == name;
}

// A global's cell `x` or `a[c]` behind `&...` or as an lvalue, with a
// constant index: (var, index).
std::optional<std::pair<VarId, Value>> constantCell(const Globals& g, CXCursor e) {
    e = stripped(e);
    if (clang_getCursorKind(e) == CXCursor_UnaryOperator) {
        std::vector<CXCursor> k = children(e);
        if (k.size() != 1) {
            return std::nullopt;
        }
        e = stripped(k[0]);
    }
    if (clang_getCursorKind(e) == CXCursor_DeclRefExpr) {
        const Global* gl = g.find(clang_getCursorReferenced(e));
        if (gl != nullptr && !g.memory().var(gl->var).array) {
            return std::pair{gl->var, Value{0}};
        }
    }
    if (clang_getCursorKind(e) == CXCursor_ArraySubscriptExpr) {
        std::vector<CXCursor> k = children(e);
        const CXCursor base = stripped(k[0]);
        const Global* gl = clang_getCursorKind(base) == CXCursor_DeclRefExpr
                               ? g.find(clang_getCursorReferenced(base))
                               : nullptr;
        const std::optional<long long> i = constantValue(k[1]);
        if (gl != nullptr && i && *i >= 0 && *i < g.memory().var(gl->var).size) {
            return std::pair{gl->var, Value{*i}};
        }
    }
    return std::nullopt;
}

// A statement before the first create: it may only give globals and locals
// constant values, which are then the initial values.
void initialisation(const TranslationUnit& tu, Globals& g, MainPlan& plan, CXCursor s) {
    const CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_NullStmt) {
        return;
    }
    if (k == CXCursor_DeclStmt) {
        for (CXCursor d : children(s)) {
            std::vector<CXCursor> init = children(d);
            std::erase_if(init,
                          [](CXCursor x) { return !clang_isExpression(clang_getCursorKind(x)); });
            if (typeName(clang_getCursorType(d)) == "pthread_t" || init.empty()) {
                continue;
            }
            std::optional<long long> v = constantValue(init.front());
            if (!v || !isIntegerType(clang_getCursorType(d))) {
                throw tu.error(d, "before main's first pthread_create, a local variable with a "
                                  "non-constant initialiser is not supported");
            }
            plan.locals.emplace_back(d, *v);
        }
        return;
    }
    const CXCursor e = stripped(s);
    std::vector<CXCursor> ops = children(e);
    std::erase_if(ops, [](CXCursor x) { return !clang_isExpression(clang_getCursorKind(x)); });
    if (isCall(e, "pthread_mutex_init")) {
        return; // a mutex starts free
    }
    const std::string name = atomicName(tu.builtinName(e));
    std::optional<std::pair<VarId, Value>> cell;
    std::optional<long long> v;
    if (clang_getCursorKind(e) == CXCursor_UnexposedExpr &&
        (name == "atomic_init" || name == "atomic_store")) {
        cell = constantCell(g, ops[0]);
        v = constantValue(ops.back());
    } else if (clang_getCursorKind(e) == CXCursor_BinaryOperator && ops.size() == 2 &&
               tu.binaryOperator(ops[0], ops[1], e) == "=") {
        cell = constantCell(g, ops[0]);
        v = constantValue(ops[1]);
    }
    if (!cell || !v) {
        throw tu.error(s, "before main's first pthread_create, anything but a constant "
                          "initialisation of a global is not supported");
    }
    g.setInitial(cell->first, cell->second, *v);
}

Created creation(const TranslationUnit& tu, CXCursor call) {
    const CXCursor s = stripped(call);
    if (clang_Cursor_getNumArguments(s) != 4) {
        throw tu.error(s, "pthread_create takes four arguments");
    }
    Created c;
    c.pos = tu.pos(s);
    const CXCursor handle = stripped(clang_Cursor_getArgument(s, 0));
    std::vector<CXCursor> k = children(handle);
    if (clang_getCursorKind(handle) != CXCursor_UnaryOperator || k.size() != 1 ||
        clang_getCursorKind(stripped(k[0])) != CXCursor_DeclRefExpr) {
        throw tu.error(handle, "a thread handle other than '&variable' is not supported");
    }
    c.handle = clang_getCursorReferenced(stripped(k[0]));
    CXCursor fn = stripped(clang_Cursor_getArgument(s, 2));
    if (clang_getCursorKind(fn) == CXCursor_UnaryOperator && children(fn).size() == 1 &&
        tu.unaryOperator(fn, children(fn).front()).spelling == "&") {
        fn = stripped(children(fn).front()); // &f names f too
    }
    const CXCursor decl = clang_getCursorReferenced(fn);
    const CXCursor def = clang_getCursorDefinition(decl);
    if (clang_getCursorKind(decl) != CXCursor_FunctionDecl || clang_Cursor_isNull(def)) {
        throw tu.error(fn, "a thread function other than a function defined in the file is not "
                           "supported");
    }
    c.function = def;
    const std::optional<Value> arg = constantValue(clang_Cursor_getArgument(s, 3));
    if (!arg) {
        throw tu.error(clang_Cursor_getArgument(s, 3),
                       "a thread argument other than an integer constant is not supported");
    }
    c.arg = *arg;
    return c;
}

// Statements after the creates that only wait and return: without them no
// thread need run main's code.
bool onlyWaits(CXCursor s) {
    const CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_NullStmt || isCall(s, "pthread_join")) {
        return true;
    }
    if (k == CXCursor_ReturnStmt) {
        std::vector<CXCursor> v = children(s);
        return v.empty() || constantValue(v.front()).has_value();
    }
    if (k == CXCursor_DeclStmt) {
        for (CXCursor d : children(s)) {
            if (!children(d).empty() && typeName(clang_getCursorType(d)) != "pthread_t") {
                return false;
            }
        }
        return true;
    }
    return false;
}

// A join that only waits is not translated when main's code after it does
// nothing, but it is still checked as the translator would: a created
// handle, a NULL result.
void checkJoin(const TranslationUnit& tu, const MainPlan& plan, CXCursor call) {
    const CXCursor t = stripped(clang_Cursor_getArgument(call, 0));
    const CXCursor handle = clang_getCursorKind(t) == CXCursor_DeclRefExpr
                                ? clang_getCursorReferenced(t)
                                : clang_getNullCursor();
    const bool created =
        std::any_of(plan.created.begin(), plan.created.end(),
                    [&](const Created& c) { return clang_equalCursors(c.handle, handle) != 0; });
    if (!created) {
        throw tu.error(call, "joining a thread that main did not create is not supported");
    }
    const CXCursor result = clang_Cursor_getArgument(call, 1);
    if (const std::optional<long long> v = constantValue(result); !v || *v != 0) {
        throw tu.error(result, "a pthread_join result other than NULL is not supported");
    }
}

MainPlan planMain(const TranslationUnit& tu, Globals& g, CXCursor main) {
    MainPlan plan;
    CXCursor body = clang_getNullCursor();
    for (CXCursor k : children(main)) {
        if (clang_getCursorKind(k) == CXCursor_CompoundStmt) {
            body = k;
        }
    }
    std::vector<CXCursor> stmts = children(body);
    std::size_t firstCreate = stmts.size();
    std::size_t lastCreate = 0;
    for (std::size_t i = 0; i < stmts.size(); ++i) {
        if (isCall(stmts[i], "pthread_create")) {
            firstCreate = std::min(firstCreate, i);
            lastCreate = i;
        }
    }
    if (firstCreate == stmts.size()) { // no threads: main's body is the program
        plan.rest = stmts;
        plan.restRuns = true;
        return plan;
    }
    for (std::size_t i = 0; i < firstCreate; ++i) {
        initialisation(tu, g, plan, stmts[i]);
    }
    for (std::size_t i = firstCreate; i <= lastCreate; ++i) {
        if (isCall(stmts[i], "pthread_create")) {
            plan.created.push_back(creation(tu, stmts[i]));
        } else if (clang_getCursorKind(stmts[i]) != CXCursor_DeclStmt) {
            throw tu.error(stmts[i], "code between main's pthread_create calls is not supported");
        } else {
            initialisation(tu, g, plan, stmts[i]);
        }
    }
    plan.rest.assign(stmts.begin() + static_cast<std::ptrdiff_t>(lastCreate) + 1, stmts.end());
    for (CXCursor s : plan.rest) {
        plan.restRuns = plan.restRuns || !onlyWaits(s);
        if (isCall(s, "pthread_join")) {
            checkJoin(tu, plan, stripped(s));
        }
    }
    return plan;
}

// Names the threads after their functions (t0, t0.2 when it runs twice)
// and gives the joined ones a done flag when main's code waits for them.
void nameThreads(Globals& g, MainPlan& plan, ProgramContext& ctx) {
    std::unordered_map<std::string, int> uses;
    for (Created& c : plan.created) {
        const std::string fn = spelling(c.function);
        const int n = ++uses[fn];
        c.name = n == 1 ? fn : fn + "." + std::to_string(n);
        if (fn == "main") {
            throw ctx.tu.error(c.function, "main as a thread function is not supported");
        }
    }
    if (!plan.restRuns) {
        return;
    }
    for (Created& c : plan.created) {
        if (ctx.doneFlags.contains(c.handle)) {
            throw ctx.tu.error(c.handle, "one pthread_t for two threads is not supported");
        }
        c.done = g.addFlag("done." + c.name);
        ctx.doneFlags.emplace(c.handle, c.done);
    }
}

// The program; `finalsOf` is the thread whose failure states are declared
// final (when it is the only one with assertions).
struct Built {
    Program program;
    std::vector<std::vector<StateId>> failures; // by thread
    std::vector<FenceSite> sites;
};

Built build(const ProgramContext& ctx, const MainPlan& plan, const std::string& sourceName,
            std::optional<std::size_t> finalsOf) {
    ProgramBuilder b(sourceName);
    Built out;
    std::size_t index = 0;
    const auto finish = [&](ThreadCode& code, State start) {
        out.failures.push_back(code.emit(b, start, kInitial, finalsOf == index));
        for (FenceSite& s : code.sites(b, ThreadId(static_cast<std::uint32_t>(index)))) {
            out.sites.push_back(std::move(s));
        }
        ++index;
    };
    for (const Created& c : plan.created) {
        b.addThread(c.name, kInitial, ctx.tu.pos(c.function));
        ThreadCode code;
        ThreadTranslator t(ctx, b, code);
        t.threadFunction(c.function, c.arg);
        if (c.done.valid()) {
            t.signalDone(c.done, ctx.tu.pos(c.function));
        }
        finish(code, t.start());
    }
    if (plan.restRuns) {
        const CXCursor main = ctx.functions.at("main");
        b.addThread("main", kInitial, ctx.tu.pos(main));
        ThreadCode code;
        ThreadTranslator t(ctx, b, code);
        for (const auto& [decl, v] : plan.locals) {
            t.assignLocal(decl, v, ctx.tu.pos(decl));
        }
        for (CXCursor s : plan.rest) {
            t.statement(s, true);
        }
        finish(code, t.start());
    }
    b.setMemory(ctx.globals.memory());
    out.program = b.build();
    return out;
}

// One term per thread with assertions: that thread at a failure state.
Goal assertionGoal(const Built& built) {
    Goal g(built.program);
    bool first = true;
    for (std::size_t t = 0; t < built.failures.size(); ++t) {
        if (built.failures[t].empty()) {
            continue;
        }
        if (!first) {
            g.addTerm();
        }
        first = false;
        for (StateId s : built.failures[t]) {
            g.accept(ThreadId(static_cast<std::uint32_t>(t)), s);
        }
    }
    if (first && !built.program.threads.empty()) {
        g.constrain(ThreadId(0)); // no assertion: a goal nothing reaches
    }
    return g;
}

std::string translationText(const Built& built, const Goal& goal, const std::string& sourceName) {
    std::string out = "# C program " + sourceName + ", translated (docs/c.md)\n";
    std::size_t withAsserts = 0;
    for (const auto& f : built.failures) {
        withAsserts += f.empty() ? 0 : 1;
    }
    if (withAsserts == 0) {
        out += "# goal: none (no assertion can fail)\n";
    } else if (withAsserts == 1) {
        out += "# goal: an assertion fails (the final states)\n";
    } else {
        out += "# goal: an assertion fails; check this text with\n#   " +
               goalOptions(built.program, goal) + "\n";
    }
    return out + printProgram(built.program);
}

LoadedProgram load(std::string_view text, const std::string& sourceName,
                   const FrontEndOptions& options) {
    const TranslationUnit tu(text, sourceName);
    Globals globals(tu);
    ProgramContext ctx{tu, globals, {}, {}, options.seqCstStore};
    for (CXCursor k : children(tu.root())) {
        if (clang_getCursorKind(k) == CXCursor_FunctionDecl && clang_isCursorDefinition(k) != 0 &&
            clang_Location_isFromMainFile(clang_getCursorLocation(k)) != 0) {
            ctx.functions.emplace(spelling(k), k);
        }
    }
    auto main = ctx.functions.find("main");
    if (main == ctx.functions.end()) {
        throw InputError(sourceName, {1, 1}, "the program has no main function");
    }
    MainPlan plan = planMain(tu, globals, main->second);
    nameThreads(globals, plan, ctx);
    if (plan.created.empty() && !plan.restRuns) {
        throw InputError(sourceName, tu.pos(main->second),
                         "main starts no thread and does nothing");
    }
    Built built = build(ctx, plan, sourceName, std::nullopt);
    std::optional<std::size_t> only;
    std::size_t count = 0;
    for (std::size_t t = 0; t < built.failures.size(); ++t) {
        if (!built.failures[t].empty()) {
            only = t;
            ++count;
        }
    }
    if (count == 1) { // the failure states as `final`: the printed text has the goal
        built = build(ctx, plan, sourceName, only);
    }
    LoadedProgram out;
    Goal goal = assertionGoal(built);
    out.translation = translationText(built, goal, sourceName);
    out.goal = std::move(goal);
    out.program = std::move(built.program);
    out.fenceSites = std::move(built.sites);
    // Without <stdatomic.h> GCC's full barrier needs no header (docs/c.md).
    const bool atomics = text.find("stdatomic.h") != std::string_view::npos;
    out.fenceStatement =
        atomics ? "atomic_thread_fence(memory_order_seq_cst);" : "__sync_synchronize();";
    return out;
}

} // namespace

FrontEnd cFrontEnd() {
    return FrontEnd{"c", "C with pthreads and C11 atomics, docs/c.md", {".c"}, &load};
}

} // namespace tsoreach
