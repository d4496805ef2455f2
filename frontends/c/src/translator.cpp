#include "translator.hpp"

#include "tsoreach/lang/tokens.hpp"

#include <algorithm>
#include <array>
#include <limits>

namespace tsoreach::c {

namespace {

constexpr long long kSeqCst = 5; // memory_order_seq_cst

std::string hintAt(SourcePos p) {
    return "L" + std::to_string(p.line);
}

CXCursorKind kind(CXCursor c) {
    return clang_getCursorKind(c);
}

// The expression children (a cast's type reference and the like left out).
std::vector<CXCursor> operands(CXCursor c) {
    std::vector<CXCursor> out = children(c);
    std::erase_if(out, [](CXCursor k) { return !clang_isExpression(kind(k)); });
    return out;
}

Expr c0() {
    return Expr::constant(0);
}

Expr op2(ExprOp op, const Expr& a, const Expr& b) {
    return Expr::apply(op, a, b);
}

// a | b = a + b - (a & b); a ^ b = a + b - 2 (a & b) (two's complement).
Expr bitOr(const Expr& a, const Expr& b) {
    return op2(ExprOp::Sub, op2(ExprOp::Add, a, b), op2(ExprOp::BitAnd, a, b));
}
Expr bitXor(const Expr& a, const Expr& b) {
    return op2(ExprOp::Sub, op2(ExprOp::Add, a, b),
               op2(ExprOp::Mul, Expr::constant(2), op2(ExprOp::BitAnd, a, b)));
}

const std::array<std::pair<std::string_view, ExprOp>, 14> kOperators = {{
    {"+", ExprOp::Add},
    {"-", ExprOp::Sub},
    {"*", ExprOp::Mul},
    {"/", ExprOp::Div},
    {"%", ExprOp::Rem},
    {"&", ExprOp::BitAnd},
    {"==", ExprOp::Eq},
    {"!=", ExprOp::Ne},
    {"<", ExprOp::Lt},
    {"<=", ExprOp::Le},
    {">", ExprOp::Gt},
    {">=", ExprOp::Ge},
    {"&&", ExprOp::And},
    {"||", ExprOp::Or},
}};

CXChildVisitResult findCall(CXCursor c, CXCursor, CXClientData data) {
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        *static_cast<bool*>(data) = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

// `e` calls a function (an inlined one, or a builtin such as assert's).
bool containsCall(CXCursor e) {
    bool found = clang_getCursorKind(e) == CXCursor_CallExpr;
    if (!found) {
        clang_visitChildren(e, findCall, &found);
    }
    return found;
}

CXChildVisitResult findReference(CXCursor c, CXCursor, CXClientData data) {
    auto* target = static_cast<std::pair<CXCursor, bool>*>(data);
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(c), target->first) != 0) {
        target->second = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

// Whether the body of `fn` uses `decl` (libclang walks the tree itself).
bool refersTo(CXCursor fn, CXCursor decl) {
    std::pair<CXCursor, bool> target{decl, false};
    clang_visitChildren(fn, findReference, &target);
    return target.second;
}

} // namespace

std::string atomicName(std::string name) {
    if (name.starts_with("__c11_")) {
        name.erase(0, 6);
    }
    if (name.ends_with("_explicit")) {
        name.resize(name.size() - std::string_view("_explicit").size());
    }
    return name;
}

// Counts the depth of the walk; an error past kMaxNesting.
class ThreadTranslator::Nesting {
  public:
    Nesting(ThreadTranslator& t, CXCursor c) : t_(t) {
        if (++t_.depth_ > kMaxNesting) {
            --t_.depth_;
            throw t_.ctx_.tu.error(c, "nesting deeper than " + std::to_string(kMaxNesting) +
                                          " is not supported");
        }
    }
    ~Nesting() { --t_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

  private:
    ThreadTranslator& t_;
};

ThreadTranslator::ThreadTranslator(const ProgramContext& ctx, ProgramBuilder& b, ThreadCode& code)
    : ctx_(ctx), b_(b), code_(code), start_(code.newState("start")), cur_(start_) {}

// ---------------------------------------------------------------- emission

State ThreadTranslator::fresh(SourcePos pos) {
    return code_.newState(hintAt(pos));
}

void ThreadTranslator::emit(const Instr& instr, SourcePos pos) {
    const State next = fresh(pos);
    code_.add(cur_, next, instr, pos);
    cur_ = next;
}

// The current state becomes `to`; what follows (dead code, or a label's
// code) starts from a new state.
void ThreadTranslator::jump(State to) {
    code_.merge(cur_, to);
    cur_ = code_.newState("dead");
}

InputError ThreadTranslator::unsupported(CXCursor c, const std::string& what) const {
    return ctx_.tu.error(c, what + " is not supported");
}

// ---------------------------------------------------------------- registers

bool ThreadTranslator::isLocal(CXCursor decl) const {
    const CXCursorKind k = kind(decl);
    return (k == CXCursor_VarDecl || k == CXCursor_ParmDecl) && ctx_.globals.find(decl) == nullptr;
}

RegId ThreadTranslator::local(CXCursor decl) {
    if (auto it = locals_.find(decl); it != locals_.end()) {
        return it->second;
    }
    // One register per declaration: calls are inlined but never recursive,
    // so two activations of one declaration never overlap.
    // A name the program model cannot take as a register (a global's, a
    // keyword such as `final`) gets a suffix too, like a second `i`.
    auto taken = [this](const std::string& n) {
        return regNames_.contains(n) || !detail::isRegisterToken(n) ||
               ctx_.globals.memory().find(n).valid();
    };
    std::string name = spelling(decl);
    for (int n = 2; taken(name); ++n) {
        name = spelling(decl) + "." + std::to_string(n);
    }
    regNames_.insert(name);
    const RegId r = b_.reg(name);
    locals_.emplace(decl, r);
    return r;
}

RegId ThreadTranslator::temp() {
    return b_.reg("tmp." + std::to_string(temps_++));
}

void ThreadTranslator::assignLocal(CXCursor decl, Value v, SourcePos pos) {
    emit(Instr::local(local(decl), Expr::constant(v)), pos);
}

// ---------------------------------------------------------------- threads

void ThreadTranslator::threadFunction(CXCursor fn, Value arg) {
    const int params = clang_Cursor_getNumArguments(fn);
    if (params > 1) {
        throw unsupported(fn, "a thread function with " + std::to_string(params) + " parameters");
    }
    if (params == 1 && refersTo(fn, clang_Cursor_getArgument(fn, 0))) {
        emit(Instr::local(local(clang_Cursor_getArgument(fn, 0)), Expr::constant(arg)),
             ctx_.tu.pos(fn));
    }
    const State end = code_.newState("end");
    frames_.push_back({fn, end, std::nullopt});
    for (CXCursor k : children(fn)) {
        if (kind(k) == CXCursor_CompoundStmt) {
            statement(k);
        }
    }
    frames_.pop_back();
    jump(end);
    cur_ = end;
}

void ThreadTranslator::signalDone(VarId flag, SourcePos pos) {
    // The flag reaches memory after every store of the thread (pthread_join
    // sees them all, under PSO as well).
    const State fenced = code_.newState("exit");
    code_.add(cur_, fenced, Instr::plain(InstrKind::Mfence), pos);
    const State done = code_.newState("joinable");
    code_.add(
        fenced, done,
        Instr::write(Expr::constant(1), Expr::cell(flag, ctx_.globals.memory().var(flag).base)),
        pos);
    cur_ = done;
}

// ---------------------------------------------------------------- statements

// Records where a fence can go before `s` (docs/c.md, "Fences").
void ThreadTranslator::statement(CXCursor s, bool inBlock) {
    const Nesting n(*this, s);
    temps_ = tempBase_; // the temporaries of the enclosing expression stay
    std::optional<FenceSite> site = ctx_.tu.textSite(s, false);
    const State at = cur_;
    const std::size_t since = code_.mark();
    statementOfKind(s);
    if (site && code_.placeable(at, since)) {
        site->braces = !inBlock;
        code_.addSite(at, std::move(*site));
    }
}

// A loop's condition is tested at the loop's head, which only the loop
// reaches, so a fence written into it runs exactly when the head is left,
// provided the test leaves the head by an instruction (not a constant).
void ThreadTranslator::conditionSite(CXCursor cond, const std::function<void()>& test) {
    std::optional<FenceSite> site = ctx_.tu.textSite(cond, true);
    const State at = cur_;
    const std::size_t since = code_.mark();
    test();
    if (site && code_.placeable(at, since)) {
        code_.addSite(at, std::move(*site));
    }
}

void ThreadTranslator::statementOfKind(CXCursor s) {
    switch (kind(s)) {
    case CXCursor_CompoundStmt:
        return compound(s);
    case CXCursor_DeclStmt:
        return declaration(s);
    case CXCursor_IfStmt:
        return ifStatement(s);
    case CXCursor_WhileStmt:
        return whileLoop(s);
    case CXCursor_DoStmt:
        return doLoop(s);
    case CXCursor_ForStmt:
        return forLoop(s);
    case CXCursor_ReturnStmt:
        return returnStatement(s);
    case CXCursor_GotoStmt:
        return gotoStatement(s);
    case CXCursor_LabelStmt:
        return labelStatement(s);
    case CXCursor_NullStmt:
        return;
    case CXCursor_BreakStmt:
        if (loops_.empty()) {
            throw unsupported(s, "'break' outside a loop (switch)");
        }
        return jump(loops_.back().breakTo);
    case CXCursor_ContinueStmt:
        if (loops_.empty()) {
            throw ctx_.tu.error(s, "'continue' outside a loop");
        }
        return jump(loops_.back().continueTo);
    default:
        if (clang_isExpression(kind(s))) {
            return effect(s);
        }
        throw unsupported(s, "the statement '" + kindName(s) + "'");
    }
}

void ThreadTranslator::compound(CXCursor s) {
    for (CXCursor k : children(s)) {
        statement(k, true);
    }
}

void ThreadTranslator::declaration(CXCursor s) {
    for (CXCursor d : children(s)) {
        if (kind(d) != CXCursor_VarDecl) {
            throw unsupported(d, "the declaration '" + kindName(d) + "'");
        }
        const CXType t = clang_getCursorType(d);
        if (typeName(t) == "pthread_t") {
            continue;
        }
        if (!isIntegerType(t)) {
            throw unsupported(d, "a local variable of type '" + typeName(t) + "'");
        }
        if (clang_Cursor_getStorageClass(d) == CX_SC_Static) {
            throw unsupported(d, "a static local variable");
        }
        const RegId r = local(d);
        for (CXCursor init : operands(d)) {
            assignTo(r, init, ctx_.tu.pos(d));
        }
    }
}

void ThreadTranslator::ifStatement(CXCursor s) {
    const std::vector<CXCursor> k = children(s);
    const State then = fresh(ctx_.tu.pos(k[1]));
    const State join = code_.newState(hintAt(ctx_.tu.pos(s)));
    const State otherwise = k.size() > 2 ? fresh(ctx_.tu.pos(k[2])) : join;
    branch(k[0], then, otherwise);
    cur_ = then;
    statement(k[1]);
    jump(join);
    if (k.size() > 2) {
        cur_ = otherwise;
        statement(k[2]);
        jump(join);
    }
    cur_ = join;
}

void ThreadTranslator::whileLoop(CXCursor s) {
    const std::vector<CXCursor> k = children(s);
    const State head = fresh(ctx_.tu.pos(s));
    const State body = fresh(ctx_.tu.pos(k[1]));
    const State exit = fresh(ctx_.tu.pos(s));
    jump(head);
    cur_ = head;
    conditionSite(k[0], [&] { branch(k[0], body, exit); });
    cur_ = body;
    loops_.push_back({exit, head});
    statement(k[1]);
    loops_.pop_back();
    jump(head);
    cur_ = exit;
}

void ThreadTranslator::doLoop(CXCursor s) {
    const std::vector<CXCursor> k = children(s);
    const State body = fresh(ctx_.tu.pos(k[0]));
    const State test = fresh(ctx_.tu.pos(k[1]));
    const State exit = fresh(ctx_.tu.pos(s));
    jump(body);
    cur_ = body;
    loops_.push_back({exit, test});
    statement(k[0]);
    loops_.pop_back();
    jump(test);
    cur_ = test;
    conditionSite(k[1], [&] { branch(k[1], body, exit); });
    cur_ = exit;
}

// for (init; cond; step) body: libclang gives the present parts only, so
// they are told apart by position in the parentheses.
void ThreadTranslator::forLoop(CXCursor s) {
    const std::vector<CXCursor> k = children(s);
    std::array<std::optional<CXCursor>, 3> parts; // init, cond, step
    const std::string_view text = ctx_.tu.text();
    CXSourceRange range = clang_getCursorExtent(s);
    CXFile f = nullptr;
    unsigned line = 0, col = 0, begin = 0;
    clang_getFileLocation(clang_getRangeStart(range), &f, &line, &col, &begin);
    // The offsets of the two semicolons inside the parentheses.
    const std::size_t open = text.find('(', begin);
    std::array<std::size_t, 2> semi{};
    int depthParen = 0;
    std::size_t found = 0;
    for (std::size_t i = open == text.npos ? text.size() : open + 1; i < text.size() && found < 2;
         ++i) {
        if (text[i] == '(') {
            ++depthParen;
        } else if (text[i] == ')') {
            --depthParen;
        } else if (text[i] == ';' && depthParen == 0) {
            semi[found++] = i;
        }
    }
    if (found < 2) {
        throw unsupported(s, "this 'for' (its parentheses come from a macro)");
    }
    for (std::size_t i = 0; i + 1 < k.size(); ++i) {
        CXFile f2 = nullptr;
        unsigned l2 = 0, c2 = 0, off = 0;
        clang_getFileLocation(clang_getRangeStart(clang_getCursorExtent(k[i])), &f2, &l2, &c2,
                              &off);
        parts[off < semi[0] ? 0 : off < semi[1] ? 1 : 2] = k[i];
    }
    const CXCursor body = k.back();
    if (parts[0]) {
        if (kind(*parts[0]) == CXCursor_DeclStmt) {
            declaration(*parts[0]);
        } else {
            effect(*parts[0]);
        }
    }
    const State head = fresh(ctx_.tu.pos(s));
    const State bodyState = fresh(ctx_.tu.pos(body));
    const State step = fresh(ctx_.tu.pos(s));
    const State exit = fresh(ctx_.tu.pos(s));
    jump(head);
    cur_ = head;
    if (parts[1]) {
        temps_ = tempBase_;
        conditionSite(*parts[1], [&] { branch(*parts[1], bodyState, exit); });
    } else {
        jump(bodyState);
    }
    cur_ = bodyState;
    loops_.push_back({exit, step});
    statement(body);
    loops_.pop_back();
    jump(step);
    cur_ = step;
    if (parts[2]) {
        temps_ = tempBase_;
        effect(*parts[2]);
    }
    jump(head);
    cur_ = exit;
}

void ThreadTranslator::returnStatement(CXCursor s) {
    if (frames_.empty()) { // main's own return
        for (CXCursor v : operands(s)) {
            effect(v);
        }
        return jump(code_.newState("end"));
    }
    const Frame& fr = frames_.back();
    for (CXCursor v : operands(s)) {
        if (fr.result) {
            assignTo(*fr.result, v, ctx_.tu.pos(s));
        } else {
            effect(v);
        }
    }
    jump(fr.returnTo);
}

// By name: a label is unique in its function, and libclang's cursor for a
// goto's target does not compare equal to the label statement's.
State ThreadTranslator::labelState(CXCursor label) {
    const std::string name = spelling(label);
    if (auto it = labels_.find(name); it != labels_.end()) {
        return it->second;
    }
    const State s = code_.newState(name);
    labels_.emplace(name, s);
    return s;
}

void ThreadTranslator::gotoStatement(CXCursor s) {
    for (CXCursor k : children(s)) {
        if (kind(k) == CXCursor_LabelRef) {
            return jump(labelState(clang_getCursorReferenced(k)));
        }
    }
    throw unsupported(s, "a computed goto");
}

void ThreadTranslator::labelStatement(CXCursor s) {
    const State l = labelState(s);
    jump(l);
    cur_ = l;
    for (CXCursor k : children(s)) {
        if (kind(k) != CXCursor_LabelRef) {
            statement(k);
        }
    }
}

// ---------------------------------------------------------------- expressions

bool ThreadTranslator::pure(CXCursor e) const {
    e = stripped(e);
    switch (kind(e)) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_UnaryExpr:
        return true;
    case CXCursor_DeclRefExpr:
        return ctx_.globals.find(clang_getCursorReferenced(e)) == nullptr;
    case CXCursor_BinaryOperator: {
        const std::vector<CXCursor> k = operands(e);
        const std::string op = ctx_.tu.binaryOperator(k[0], k[1], e);
        return op != "=" && op != "," && pure(k[0]) && pure(k[1]);
    }
    case CXCursor_UnaryOperator: {
        const CXCursor x = operands(e)[0];
        const TranslationUnit::UnaryOperator u = ctx_.tu.unaryOperator(e, x);
        const std::string_view op = u.spelling;
        return op != "++" && op != "--" && op != "&" && op != "*" && pure(x);
    }
    default:
        return false;
    }
}

void ThreadTranslator::effect(CXCursor e) {
    const Nesting n(*this, e);
    const CXCursor s = stripped(e);
    switch (kind(s)) {
    case CXCursor_ConditionalOperator: { // assert(e) is `e ? (void)0 : __assert_fail(...)`
        const std::vector<CXCursor> k = operands(s);
        const State then = fresh(ctx_.tu.pos(k[1]));
        const State otherwise = fresh(ctx_.tu.pos(k[2]));
        const State join = fresh(ctx_.tu.pos(s));
        branch(k[0], then, otherwise);
        cur_ = then;
        effect(k[1]);
        jump(join);
        cur_ = otherwise;
        effect(k[2]);
        jump(join);
        cur_ = join;
        return;
    }
    case CXCursor_CStyleCastExpr:
        if (clang_getCursorType(s).kind == CXType_Void) {
            for (CXCursor k : operands(s)) {
                effect(k);
            }
            return;
        }
        break;
    case CXCursor_StmtExpr: {
        const int saved = temps_;
        const int savedBase = tempBase_;
        tempBase_ = temps_;
        for (CXCursor k : children(s)) {
            statement(k);
        }
        temps_ = saved;
        tempBase_ = savedBase;
        return;
    }
    default:
        break;
    }
    if (pure(s)) {
        return; // `(void)0`, `x == 1;`: nothing happens
    }
    (void)value(s);
}

void ThreadTranslator::assignTo(RegId r, CXCursor e, SourcePos pos) {
    // A load straight into the register, without a temporary.
    const CXCursor s = stripped(e);
    std::optional<Cell> c;
    if (kind(s) == CXCursor_DeclRefExpr || kind(s) == CXCursor_ArraySubscriptExpr) {
        c = lvalueCell(s);
    } else if (kind(s) == CXCursor_UnexposedExpr && operands(s).size() == 2 &&
               atomicName(ctx_.tu.builtinName(s)) == "atomic_load" &&
               constantValue(operands(s)[1])) { // else atomicOperation refuses the order
        c = pointerCell(operands(s)[0]);
    }
    // Unless C converts the value on its way (unsigned char r = x).
    if (c && c->global != nullptr &&
        std::ranges::equal(converted(e, Expr::reg(r)).nodes(), Expr::reg(r).nodes())) {
        emit(Instr::read(r, c->addr), ctx_.tu.pos(e));
        return;
    }
    const Expr v = value(e);
    emit(Instr::local(r, v), pos);
}

Expr ThreadTranslator::value(CXCursor e) {
    const Nesting n(*this, e);
    if (std::optional<long long> v = constantValue(e)) {
        return Expr::constant(*v);
    }
    return converted(e, strippedValue(stripped(e)));
}

Expr ThreadTranslator::converted(CXCursor e, Expr v) {
    const std::vector<CXCursor> chain = strippedChain(e);
    std::optional<IntType> from = intType(clang_getCursorType(chain.back()));
    // `from`: the narrowest type known to hold the value (unsigned char
    // through int to unsigned needs no mask).
    for (auto layer = chain.rbegin() + 1; layer != chain.rend(); ++layer) {
        const std::optional<IntType> to = intType(clang_getCursorType(*layer));
        if (!to || (from && fits(*from, *to))) {
            continue;
        }
        if (from) { // a pointer's value (a thread's argument) passes as it is
            v = convert(v, *to);
        }
        from = to;
    }
    return v;
}

Expr ThreadTranslator::inRange(const Expr& v, CXType t) {
    const std::optional<IntType> to = intType(t);
    return to && leavesRange(*to) ? convert(v, *to) : v;
}

Expr ThreadTranslator::strippedValue(CXCursor s) {
    switch (kind(s)) {
    case CXCursor_DeclRefExpr:
    case CXCursor_ArraySubscriptExpr: {
        std::optional<Cell> c = lvalueCell(s);
        if (!c) {
            throw unsupported(s, "this use of '" + spelling(s) + "'");
        }
        return c->global == nullptr ? c->addr : load(*c, ctx_.tu.pos(s));
    }
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        return binary(s);
    case CXCursor_UnaryOperator:
        return unary(s);
    case CXCursor_ConditionalOperator:
        return conditional(s);
    case CXCursor_CallExpr:
        return call(s);
    case CXCursor_UnexposedExpr:
        if (operands(s).size() >= 2) { // a C11 atomic builtin (atomic_load(...))
            return atomicOperation(s, ctx_.tu.builtinName(s));
        }
        break;
    default:
        break;
    }
    throw unsupported(s, "the expression '" + kindName(s) + "'");
}

void ThreadTranslator::branch(CXCursor e, State t, State f) {
    const Nesting n(*this, e);
    if (std::optional<long long> v = constantValue(e)) {
        return jump(*v != 0 ? t : f);
    }
    const CXCursor s = stripped(e);
    if (kind(s) == CXCursor_UnaryOperator &&
        ctx_.tu.unaryOperator(s, operands(s)[0]).spelling == "!") {
        return branch(operands(s)[0], f, t);
    }
    if (kind(s) == CXCursor_BinaryOperator) {
        const std::vector<CXCursor> k = operands(s);
        const std::string op = ctx_.tu.binaryOperator(k[0], k[1], s);
        if (op == "&&" || op == "||") {
            const State mid = fresh(ctx_.tu.pos(k[1]));
            if (op == "&&") {
                branch(k[0], mid, f);
            } else {
                branch(k[0], t, mid);
            }
            cur_ = mid;
            return branch(k[1], t, f);
        }
    }
    const Expr v = value(e);
    const SourcePos pos = ctx_.tu.pos(e);
    const State from = cur_;
    code_.add(from, t, Instr::check(v), pos);
    code_.add(from, f, Instr::check(Expr::apply(ExprOp::Not, v)), pos);
    cur_ = code_.newState("dead");
}

Expr ThreadTranslator::binary(CXCursor e) {
    const std::vector<CXCursor> k = operands(e);
    const std::string op = ctx_.tu.binaryOperator(k[0], k[1], e);
    if (op == "=" ||
        (op.size() >= 2 && op.back() == '=' && kind(e) == CXCursor_CompoundAssignOperator)) {
        return assignment(e, op);
    }
    if (op == ",") {
        effect(k[0]);
        return value(k[1]);
    }
    if ((op == "&&" || op == "||") && !pure(k[1])) {
        // The right operand's effects happen only when it is evaluated.
        const RegId r = temp();
        const State t = fresh(ctx_.tu.pos(e));
        const State f = fresh(ctx_.tu.pos(e));
        const State join = fresh(ctx_.tu.pos(e));
        branch(e, t, f);
        cur_ = t;
        emit(Instr::local(r, Expr::constant(1)), ctx_.tu.pos(e));
        jump(join);
        cur_ = f;
        emit(Instr::local(r, Expr::constant(0)), ctx_.tu.pos(e));
        jump(join);
        cur_ = join;
        return Expr::reg(r);
    }
    const std::optional<IntType> operandType = intType(clang_getCursorType(k[0]));
    const bool unsigned64 = operandType && isUnsigned64(*operandType);
    if (unsigned64 && (op == "/" || op == "%" || op == ">>")) {
        throw unsupported(e, "'" + op + "' on an unsigned 64-bit value");
    }
    Expr a = value(k[0]);
    Expr b = value(k[1]);
    if (unsigned64 && (op == "<" || op == "<=" || op == ">" || op == ">=")) {
        // Unsigned order on the same bits: flip the sign bit of both.
        a = op2(ExprOp::Add, a, Expr::constant(std::numeric_limits<Value>::min()));
        b = op2(ExprOp::Add, b, Expr::constant(std::numeric_limits<Value>::min()));
    }
    if (op == "+" || op == "-" || op == "*" || op == "<<") {
        return inRange(arithmetic(e, op, a, b), clang_getCursorType(e));
    }
    return arithmetic(e, op, a, b);
}

// `a op b` in the model's 64-bit arithmetic.
Expr ThreadTranslator::arithmetic(CXCursor e, const std::string& op, const Expr& a, const Expr& b) {
    if (op == "|") {
        return bitOr(a, b);
    }
    if ((op == "^" || op == "-") && std::ranges::equal(a.nodes(), b.nodes())) {
        // `r ^ r`, a fake dependency of litmus tests: 0, which the value
        // analysis (and so PSO's bounded addresses) then knows.
        return c0();
    }
    if (op == "^") {
        return bitXor(a, b);
    }
    if (op == "<<" || op == ">>") {
        const std::optional<long long> shift = constantValue(operands(e)[1]);
        if (!shift) {
            throw unsupported(e, "a shift by a non-constant amount");
        }
        if (*shift < 0 || *shift > 63) {
            throw unsupported(e, "a shift by " + std::to_string(*shift) + " (undefined in C)");
        }
        // 2^63 wraps to the least 64-bit value, which multiplies the same.
        const Expr m = Expr::constant(static_cast<Value>(std::uint64_t{1} << *shift));
        if (op == "<<") {
            return op2(ExprOp::Mul, a, m);
        }
        if (*shift == 63) { // the sign: -1 or 0
            return op2(ExprOp::Sub, c0(), op2(ExprOp::Lt, a, c0()));
        }
        // Arithmetic shift: floor division by 2^shift.
        const Expr mod = op2(ExprOp::Rem, op2(ExprOp::Add, op2(ExprOp::Rem, a, m), m), m);
        return op2(ExprOp::Div, op2(ExprOp::Sub, a, mod), m);
    }
    for (const auto& [spelled, o] : kOperators) {
        if (spelled == op) {
            return op2(o, a, b);
        }
    }
    throw unsupported(e, "the operator '" + op + "'");
}

Expr ThreadTranslator::assignment(CXCursor e, const std::string& op) {
    const std::vector<CXCursor> k = operands(e);
    const SourcePos pos = ctx_.tu.pos(e);
    std::optional<Cell> c = lvalueCell(stripped(k[0]));
    if (!c) {
        throw unsupported(k[0], "assigning to this expression");
    }
    const std::string arith = op.substr(0, op.size() - 1);
    // x op= v computes in v's type after its conversions (x's, promoted, for
    // a shift) and stores the result converted to x's type.
    const std::optional<IntType> lhsType = intType(clang_getCursorType(e));
    const std::optional<IntType> compType =
        arith == "<<" || arith == ">>" ? lhsType : intType(clang_getCursorType(k[1]));
    if (compType && isUnsigned64(*compType) && (arith == "/" || arith == "%" || arith == ">>")) {
        throw unsupported(e, "'" + op + "' on an unsigned 64-bit value");
    }
    const auto combine = [&](const Expr& old, const Expr& v) {
        const bool widen = lhsType && compType && !fits(*lhsType, *compType);
        Expr r = arithmetic(e, arith, widen ? convert(old, *compType) : old, v);
        const bool grows = arith == "+" || arith == "-" || arith == "*" || arith == "<<";
        if (grows && compType && leavesRange(*compType)) {
            r = convert(r, *compType); // _Bool b += 4294967295u: 0 in unsigned, then false
        }
        if (lhsType && (leavesRange(*lhsType) || (compType && !fits(*compType, *lhsType)))) {
            r = convert(r, *lhsType);
        }
        return r;
    };
    if (c->global == nullptr) { // a register
        const RegId r = local(clang_getCursorReferenced(stripped(k[0])));
        if (arith.empty()) {
            assignTo(r, k[1], pos);
        } else {
            const Expr v = value(k[1]);
            emit(Instr::local(r, combine(Expr::reg(r), v)), pos);
        }
        return Expr::reg(r);
    }
    const Expr v = value(k[1]);
    if (arith.empty()) {
        store(*c, v, c->global->atomic, pos);
        return v;
    }
    if (c->global->atomic) { // x += v on an _Atomic: a locked update
        const RegId old = readModifyWrite(
            *c, [&](const Expr& o) { return combine(o, v); }, pos);
        return combine(Expr::reg(old), v);
    }
    const Expr old = load(*c, pos);
    const RegId r = temp();
    emit(Instr::local(r, combine(old, v)), pos);
    store(*c, Expr::reg(r), false, pos);
    return Expr::reg(r);
}

Expr ThreadTranslator::unary(CXCursor e) {
    const CXCursor x = operands(e)[0];
    const TranslationUnit::UnaryOperator u = ctx_.tu.unaryOperator(e, x);
    const std::string& first = u.spelling;
    const bool postfix = u.postfix;
    if (first == "++" || first == "--") {
        const ExprOp op = first == "++" ? ExprOp::Add : ExprOp::Sub;
        const SourcePos pos = ctx_.tu.pos(e);
        std::optional<Cell> c = lvalueCell(stripped(x));
        if (!c) {
            throw unsupported(e, "incrementing this expression");
        }
        const CXType type = clang_getCursorType(e);
        const auto step = [&](const Expr& old) {
            return inRange(op2(op, old, Expr::constant(1)), type);
        };
        if (c->global == nullptr) {
            const RegId r = local(clang_getCursorReferenced(stripped(x)));
            const RegId before = temp();
            if (postfix) {
                emit(Instr::local(before, Expr::reg(r)), pos);
            }
            emit(Instr::local(r, step(Expr::reg(r))), pos);
            return postfix ? Expr::reg(before) : Expr::reg(r);
        }
        if (c->global->atomic) {
            const RegId old = readModifyWrite(*c, step, pos);
            return postfix ? Expr::reg(old) : step(Expr::reg(old));
        }
        const RegId old = temp();
        emit(Instr::read(old, c->addr), pos);
        store(*c, step(Expr::reg(old)), false, pos);
        return postfix ? Expr::reg(old) : step(Expr::reg(old));
    }
    if (first == "&" || first == "*") {
        throw unsupported(e, "a pointer ('" + first + "' outside an atomic operation's argument)");
    }
    const Expr v = value(x);
    if (first == "-") {
        return inRange(op2(ExprOp::Sub, c0(), v), clang_getCursorType(e));
    }
    if (first == "+") {
        return v;
    }
    if (first == "!") {
        return Expr::apply(ExprOp::Not, v);
    }
    if (first == "~") {
        return inRange(op2(ExprOp::Sub, Expr::constant(-1), v), clang_getCursorType(e));
    }
    throw unsupported(e, "the operator '" + first + "'");
}

Expr ThreadTranslator::conditional(CXCursor e) {
    const std::vector<CXCursor> k = operands(e);
    const RegId r = temp();
    const State then = fresh(ctx_.tu.pos(k[1]));
    const State otherwise = fresh(ctx_.tu.pos(k[2]));
    const State join = fresh(ctx_.tu.pos(e));
    branch(k[0], then, otherwise);
    cur_ = then;
    assignTo(r, k[1], ctx_.tu.pos(k[1]));
    jump(join);
    cur_ = otherwise;
    assignTo(r, k[2], ctx_.tu.pos(k[2]));
    jump(join);
    cur_ = join;
    return Expr::reg(r);
}

// ---------------------------------------------------------------- calls

Expr ThreadTranslator::call(CXCursor e) {
    const std::string name = spelling(e);
    const SourcePos pos = ctx_.tu.pos(e);
    const int argc = clang_Cursor_getNumArguments(e);
    const auto arg = [&](int i) { return clang_Cursor_getArgument(e, static_cast<unsigned>(i)); };
    if (name == "__assert_fail" || name == "__VERIFIER_error" || name == "reach_error" ||
        name == "abort") {
        // The goal: a state of its own per failing assertion.
        const State fail = code_.newState("fail.L" + std::to_string(pos.line));
        code_.markFailure(fail);
        jump(fail);
        return c0();
    }
    if (name == "__VERIFIER_assume" && argc == 1) {
        const State ok = fresh(pos);
        const State blocked = code_.newState("dead");
        branch(arg(0), ok, blocked);
        cur_ = ok;
        return c0();
    }
    if (name == "__c11_atomic_thread_fence" || name == "atomic_thread_fence") {
        const std::optional<long long> order = constantValue(arg(0));
        if (!order) {
            throw unsupported(e, "a fence whose memory order is not a constant");
        }
        // As compiled for x86: only a seq_cst fence is an instruction.
        if (*order == kSeqCst) {
            emit(Instr::plain(InstrKind::Mfence), pos);
        }
        return c0();
    }
    if (name == "__sync_synchronize") {
        emit(Instr::plain(InstrKind::Mfence), pos);
        return c0();
    }
    if (name == "__c11_atomic_signal_fence" || name == "atomic_signal_fence") {
        return c0(); // orders nothing between threads
    }
    if (name == "pthread_mutex_lock" || name == "pthread_mutex_unlock") {
        mutexOperation(e, name == "pthread_mutex_lock");
        return c0();
    }
    if (name == "pthread_join") {
        join(e);
        return c0();
    }
    if (name == "pthread_exit") {
        jump(code_.newState("end"));
        return c0();
    }
    if (auto it = ctx_.functions.find(name); it != ctx_.functions.end()) {
        return inlineCall(e, it->second);
    }
    if (name == "pthread_create") {
        throw unsupported(e, "pthread_create outside main's first calls");
    }
    throw unsupported(e, "calling '" + name + "'");
}

Expr ThreadTranslator::inlineCall(CXCursor e, CXCursor fn) {
    for (const Frame& f : frames_) {
        if (clang_equalCursors(f.function, fn) != 0) {
            throw unsupported(e, "a recursive call of '" + spelling(fn) + "'");
        }
    }
    const SourcePos pos = ctx_.tu.pos(e);
    const int argc = clang_Cursor_getNumArguments(e);
    if (argc != clang_Cursor_getNumArguments(fn)) {
        throw unsupported(e, "a call with a variable number of arguments");
    }
    std::vector<RegId> params;
    for (int i = 0; i < argc; ++i) {
        const CXCursor p = clang_Cursor_getArgument(fn, static_cast<unsigned>(i));
        if (!isIntegerType(clang_getCursorType(p))) {
            throw unsupported(p, "a parameter of type '" + typeName(clang_getCursorType(p)) + "'");
        }
        params.push_back(local(p));
    }
    // Straight into the parameters, unless an argument calls a function,
    // which could be this one (g(1, g(2, 3)) would overwrite the first
    // parameter): then all arguments are evaluated first.
    bool nestedCall = false;
    for (int i = 0; i < argc; ++i) {
        nestedCall =
            nestedCall || containsCall(clang_Cursor_getArgument(e, static_cast<unsigned>(i)));
    }
    std::vector<Expr> args;
    for (int i = 0; i < argc; ++i) {
        const CXCursor arg = clang_Cursor_getArgument(e, static_cast<unsigned>(i));
        if (nestedCall) {
            args.push_back(value(arg));
        } else {
            assignTo(params[static_cast<std::size_t>(i)], arg, pos);
        }
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        emit(Instr::local(params[i], args[i]), pos);
    }
    // The result: a register of its own per pending call (f(1) * 10 + f(2)
    // holds two), named after the temporary slot it takes.
    const bool returnsValue = clang_getResultType(clang_getCursorType(fn)).kind != CXType_Void;
    std::optional<RegId> result;
    if (returnsValue) {
        const int slot = temps_++;
        result = b_.reg("ret." + spelling(fn) + (slot == 0 ? "" : "." + std::to_string(slot)));
    }
    const State back = fresh(pos);
    frames_.push_back({fn, back, result});
    auto savedLabels = std::move(labels_);
    labels_.clear();
    const int savedTemps = temps_;
    const int savedBase = tempBase_;
    tempBase_ = temps_;
    for (CXCursor k : children(fn)) {
        if (kind(k) == CXCursor_CompoundStmt) {
            statement(k);
        }
    }
    temps_ = savedTemps;
    tempBase_ = savedBase;
    labels_ = std::move(savedLabels);
    frames_.pop_back();
    jump(back);
    cur_ = back;
    return result ? Expr::reg(*result) : c0();
}

// ---------------------------------------------------------------- memory

std::optional<ThreadTranslator::Cell> ThreadTranslator::lvalueCell(CXCursor e) {
    if (kind(e) == CXCursor_DeclRefExpr) {
        const CXCursor d = clang_getCursorReferenced(e);
        if (const Global* g = ctx_.globals.find(d)) {
            const MemoryVar& v = ctx_.globals.memory().var(g->var);
            if (v.array) {
                throw unsupported(e, "using the array '" + v.name + "' as a pointer");
            }
            return Cell{Expr::cell(g->var, v.base), g};
        }
        if (isLocal(d)) {
            return Cell{Expr::reg(local(d)), nullptr};
        }
        return std::nullopt;
    }
    if (kind(e) == CXCursor_ArraySubscriptExpr) {
        const std::vector<CXCursor> k = operands(e);
        const CXCursor base = stripped(k[0]);
        const Global* g = kind(base) == CXCursor_DeclRefExpr
                              ? ctx_.globals.find(clang_getCursorReferenced(base))
                              : nullptr;
        if (g == nullptr || g->mutex) {
            throw unsupported(e, "indexing something other than a global array");
        }
        const MemoryVar& v = ctx_.globals.memory().var(g->var);
        const Expr index = value(k[1]);
        if (std::optional<Value> i = constantValue(index.nodes()); i && (*i < 0 || *i >= v.size)) {
            throw ctx_.tu.error(e, "index " + std::to_string(*i) + " is outside '" + v.name +
                                       "' (" + std::to_string(v.size) + " elements)");
        }
        return Cell{Expr::element(g->var, v.base, index), g};
    }
    return std::nullopt;
}

ThreadTranslator::Cell ThreadTranslator::pointerCell(CXCursor e) {
    const CXCursor s = stripped(e);
    if (kind(s) == CXCursor_UnaryOperator &&
        ctx_.tu.unaryOperator(s, operands(s)[0]).spelling == "&") {
        if (std::optional<Cell> c = lvalueCell(stripped(operands(s)[0])); c && c->global) {
            return *c;
        }
    }
    throw unsupported(e, "a pointer other than '&global' or '&array[i]'");
}

Expr ThreadTranslator::load(const Cell& c, SourcePos pos) {
    const RegId r = temp();
    emit(Instr::read(r, c.addr), pos);
    return Expr::reg(r);
}

void ThreadTranslator::store(const Cell& c, const Expr& v, bool seqCst, SourcePos pos) {
    if (seqCst && ctx_.seqCstStore == SeqCstStore::Xchg) { // the value xchg returns is unused
        emit(Instr::plain(InstrKind::Lock), pos);
        emit(Instr::write(v, c.addr), pos);
        emit(Instr::plain(InstrKind::Unlock), pos);
        return;
    }
    emit(Instr::write(v, c.addr), pos);
    if (seqCst) { // mov + mfence (docs/c.md)
        emit(Instr::plain(InstrKind::Mfence), pos);
    }
}

RegId ThreadTranslator::readModifyWrite(const Cell& c, const std::function<Expr(const Expr&)>& f,
                                        SourcePos pos) {
    const RegId old = temp();
    emit(Instr::plain(InstrKind::Lock), pos);
    emit(Instr::read(old, c.addr), pos);
    emit(Instr::write(f(Expr::reg(old)), c.addr), pos);
    emit(Instr::plain(InstrKind::Unlock), pos);
    return old;
}

Expr ThreadTranslator::atomicOperation(CXCursor e, const std::string& name) {
    const std::vector<CXCursor> k = operands(e);
    const SourcePos pos = ctx_.tu.pos(e);
    const std::string op = atomicName(name);
    const Cell c = pointerCell(k[0]);
    if (op == "atomic_init") {
        store(c, value(k[1]), false, pos);
        return c0();
    }
    const std::optional<long long> order = k.size() > 1 ? constantValue(k[1]) : std::nullopt;
    if (!order) {
        throw unsupported(e, "'" + op + "' with a memory order that is not a constant");
    }
    if (op == "atomic_load" && k.size() == 2) {
        return load(c, pos);
    }
    if (op == "atomic_store" && k.size() == 3) {
        store(c, value(k[2]), *order == kSeqCst, pos);
        return c0();
    }
    // The value stored, in the range of the atomic's value type.
    const CXType valueType = clang_getPointeeType(clang_getCursorType(k[0]));
    const auto rmw = [&](const std::function<Expr(const Expr&, const Expr&)>& f) {
        const Expr v = value(k[2]);
        return Expr::reg(readModifyWrite(
            c, [&](const Expr& old) { return inRange(f(old, v), valueType); }, pos));
    };
    if (k.size() == 3) {
        if (op == "atomic_exchange") {
            return rmw([](const Expr&, const Expr& v) { return v; });
        }
        if (op == "atomic_fetch_add") {
            return rmw([](const Expr& o, const Expr& v) { return op2(ExprOp::Add, o, v); });
        }
        if (op == "atomic_fetch_sub") {
            return rmw([](const Expr& o, const Expr& v) { return op2(ExprOp::Sub, o, v); });
        }
        if (op == "atomic_fetch_and") {
            return rmw([](const Expr& o, const Expr& v) { return op2(ExprOp::BitAnd, o, v); });
        }
        if (op == "atomic_fetch_or") {
            return rmw(bitOr);
        }
        if (op == "atomic_fetch_xor") {
            return rmw(bitXor);
        }
    }
    if (op == "atomic_compare_exchange_strong" && k.size() == 5) {
        // lock; read old; old == *expected ? write desired : *expected = old; unlock
        const CXCursor expectedPtr = stripped(k[2]);
        std::optional<Cell> expected;
        if (kind(expectedPtr) == CXCursor_UnaryOperator &&
            ctx_.tu.unaryOperator(expectedPtr, operands(expectedPtr)[0]).spelling == "&") {
            expected = lvalueCell(stripped(operands(expectedPtr)[0]));
        }
        if (!expected || expected->global != nullptr) {
            throw unsupported(k[2], "an expected value that is not '&local'");
        }
        const RegId exp = local(clang_getCursorReferenced(stripped(operands(expectedPtr)[0])));
        const Expr desired = value(k[4]);
        const RegId old = temp();
        const RegId ok = temp();
        emit(Instr::plain(InstrKind::Lock), pos);
        emit(Instr::read(old, c.addr), pos);
        const State same = fresh(pos);
        const State differ = fresh(pos);
        const State done = fresh(pos);
        code_.add(cur_, same, Instr::check(op2(ExprOp::Eq, Expr::reg(old), Expr::reg(exp))), pos);
        code_.add(cur_, differ, Instr::check(op2(ExprOp::Ne, Expr::reg(old), Expr::reg(exp))), pos);
        cur_ = same;
        emit(Instr::write(desired, c.addr), pos);
        emit(Instr::local(ok, Expr::constant(1)), pos);
        jump(done);
        cur_ = differ;
        emit(Instr::local(exp, Expr::reg(old)), pos);
        emit(Instr::local(ok, Expr::constant(0)), pos);
        jump(done);
        cur_ = done;
        emit(Instr::plain(InstrKind::Unlock), pos);
        return Expr::reg(ok);
    }
    throw unsupported(e, "'" + (op.empty() ? kindName(e) : op) + "'");
}

void ThreadTranslator::mutexOperation(CXCursor e, bool lock) {
    const SourcePos pos = ctx_.tu.pos(e);
    const Cell c = pointerCell(clang_Cursor_getArgument(e, 0));
    if (!c.global->mutex) {
        throw unsupported(e, "a mutex that is not a global pthread_mutex_t");
    }
    // Each mutex is a cell taken by a locked update (lock cmpxchg), which
    // blocks while another thread holds it.
    emit(Instr::plain(InstrKind::Lock), pos);
    if (lock) {
        const RegId r = temp();
        emit(Instr::read(r, c.addr), pos);
        emit(Instr::check(op2(ExprOp::Eq, Expr::reg(r), c0())), pos);
    }
    emit(Instr::write(Expr::constant(lock ? 1 : 0), c.addr), pos);
    emit(Instr::plain(InstrKind::Unlock), pos);
}

void ThreadTranslator::join(CXCursor e) {
    const CXCursor t = stripped(clang_Cursor_getArgument(e, 0));
    auto it = kind(t) == CXCursor_DeclRefExpr ? ctx_.doneFlags.find(clang_getCursorReferenced(t))
                                              : ctx_.doneFlags.end();
    if (it == ctx_.doneFlags.end()) {
        throw unsupported(e, "joining a thread that main did not create");
    }
    const CXCursor result = clang_Cursor_getArgument(e, 1);
    if (const std::optional<long long> v = constantValue(result); !v || *v != 0) {
        throw unsupported(result, "a pthread_join result other than NULL");
    }
    const SourcePos pos = ctx_.tu.pos(e);
    const RegId r = temp();
    emit(Instr::read(r, Expr::cell(it->second, ctx_.globals.memory().var(it->second).base)), pos);
    emit(Instr::check(op2(ExprOp::Eq, Expr::reg(r), Expr::constant(1))), pos);
}

} // namespace tsoreach::c
