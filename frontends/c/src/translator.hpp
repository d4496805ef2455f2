#pragma once
// Translates the statements of one C thread (a thread function, or main's
// code after its pthread_create calls) into a ThreadCode: locals become
// registers, shared accesses reads and writes, atomic read-modify-writes
// locked blocks, control flow branches on `check` (docs/c.md).
//
// The walk recurses over the C syntax tree, so its depth is the program's
// nesting of statements and expressions, capped at kMaxNesting (an input
// error beyond); calls are inlined, and a recursive call is an error.

#include "clang_tu.hpp"
#include "globals.hpp"
#include "int_type.hpp"
#include "thread_code.hpp"
#include "tsoreach/frontends/front_end.hpp"

#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace tsoreach::c {

inline constexpr int kMaxNesting = 200;

// The operation a C11 atomic builtin's name stands for: stdatomic.h's
// atomic_X and atomic_X_explicit are __c11_atomic_X; libclang reports
// whichever name the source location it finds spells. "atomic_X".
[[nodiscard]] std::string atomicName(std::string name);

// What the translator needs to know of the whole program.
struct ProgramContext {
    const TranslationUnit& tu;
    const Globals& globals;
    // Function definitions by name.
    std::unordered_map<std::string, CXCursor> functions;
    // The done flag of the thread a pthread_t variable holds (main's joins).
    std::unordered_map<CXCursor, VarId, CursorHash, CursorEq> doneFlags;
    SeqCstStore seqCstStore = SeqCstStore::MovMfence;
};

class ThreadTranslator {
  public:
    // `b` has just started this thread (addThread with initial state "start").
    ThreadTranslator(const ProgramContext& ctx, ProgramBuilder& b, ThreadCode& code);

    // The initial state, and the state where the code goes on (the end).
    [[nodiscard]] State start() const { return start_; }
    [[nodiscard]] State current() const { return cur_; }

    // A thread function's body; `arg` is the value its parameter holds.
    void threadFunction(CXCursor fn, Value arg);
    // One statement (main's code after the creates); `inBlock`: a statement
    // of a block (`{ ... }`), where a fence can be written before it alone.
    void statement(CXCursor s, bool inBlock = false);
    // Ends the thread with `mfence` and `write 1 flag` (what pthread_join waits for).
    void signalDone(VarId flag, SourcePos pos);
    // Sets a local register at the start (main's locals before the creates).
    void assignLocal(CXCursor decl, Value v, SourcePos pos);

  private:
    struct Loop {
        State breakTo;
        State continueTo;
    };
    struct Frame {
        CXCursor function;
        State returnTo;
        std::optional<RegId> result;
    };
    class Nesting;

    // Emission: an instruction from the current state to a new one.
    void emit(const Instr& instr, SourcePos pos);
    void jump(State to);
    State fresh(SourcePos pos);
    [[nodiscard]] InputError unsupported(CXCursor c, const std::string& what) const;

    // Statements.
    void statementOfKind(CXCursor s);
    void conditionSite(CXCursor cond, const std::function<void()>& test);
    void compound(CXCursor s);
    void declaration(CXCursor s);
    void ifStatement(CXCursor s);
    void whileLoop(CXCursor s);
    void doLoop(CXCursor s);
    void forLoop(CXCursor s);
    void returnStatement(CXCursor s);
    void gotoStatement(CXCursor s);
    void labelStatement(CXCursor s);
    State labelState(CXCursor labelRef);

    // Expressions.
    void effect(CXCursor e);        // for its effects only
    Expr value(CXCursor e);         // its value, after its effects
    Expr strippedValue(CXCursor s); // value() of a stripped expression
    // `v`, the value of stripped(e), converted as C converts it on the way
    // out to `e` (the casts that stripped() passes; docs/c.md, "Integer types").
    [[nodiscard]] static Expr converted(CXCursor e, Expr v);
    // The result `v` of an update (x op= y, x++, an atomic read-modify-write)
    // stored into a `t`, kept in t's range.
    [[nodiscard]] static Expr inRange(const Expr& v, CXType t);
    void branch(CXCursor e, State t, State f); // to t if e != 0, else to f
    void assignTo(RegId r, CXCursor e, SourcePos pos);
    Expr binary(CXCursor e);
    Expr arithmetic(CXCursor e, const std::string& op, const Expr& a, const Expr& b);
    Expr unary(CXCursor e);
    Expr assignment(CXCursor e, const std::string& op);
    Expr conditional(CXCursor e);
    Expr call(CXCursor e);
    Expr atomicOperation(CXCursor e, const std::string& name);
    Expr inlineCall(CXCursor e, CXCursor fn);
    [[nodiscard]] bool pure(CXCursor e) const;

    // Memory.
    struct Cell {
        Expr addr;
        const Global* global = nullptr;
    };
    [[nodiscard]] std::optional<Cell> lvalueCell(CXCursor e);
    Cell pointerCell(CXCursor e); // `&x`, `&a[i]`
    Expr load(const Cell& c, SourcePos pos);
    void store(const Cell& c, const Expr& v, bool seqCst, SourcePos pos);
    // lock; read; write f(old); unlock: returns the old value's register.
    RegId readModifyWrite(const Cell& c, const std::function<Expr(const Expr&)>& f, SourcePos pos);
    void mutexOperation(CXCursor e, bool lock);
    void join(CXCursor e);

    // Registers.
    RegId local(CXCursor decl);
    RegId temp();
    [[nodiscard]] bool isLocal(CXCursor decl) const;

    const ProgramContext& ctx_;
    ProgramBuilder& b_;
    ThreadCode& code_;
    State start_;
    State cur_;
    int depth_ = 0;
    int temps_ = 0;    // temporaries in use: tmp.0 ... tmp.(temps_-1)
    int tempBase_ = 0; // those of the expressions an inlined call is in
    std::vector<Loop> loops_;
    std::vector<Frame> frames_;
    std::unordered_map<CXCursor, RegId, CursorHash, CursorEq> locals_;
    std::unordered_set<std::string> regNames_;
    std::unordered_map<std::string, State> labels_; // of the function being translated
};

} // namespace tsoreach::c
