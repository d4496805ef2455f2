#pragma once
// Builds a Program directly, for transformations and front ends that used to
// print program text and parse it again.
//
// The built program is the one parseProgram(printProgram(built)) gives (ids,
// order, names, expression pool): threads and their transitions are numbered
// in the order they are added, thread by thread; control states in order of
// first mention (ProgramBuilder::state), which must be the parser's
// canonical order: the initial state, then the finals, then first use by the
// transitions, source before target (checked by build()); registers in
// order of first use by the transitions, operands in the order they are
// written (the builder renumbers them itself, so the order of reg() calls
// does not matter). build() checks once what the parser checks while it
// reads (lang/validate.hpp, checkWellFormed).

#include "tsoreach/lang/expr.hpp"
#include "tsoreach/lang/ids.hpp"
#include "tsoreach/lang/instruction.hpp"
#include "tsoreach/lang/program.hpp"
#include "tsoreach/lang/source.hpp"
#include "tsoreach/lang/stop.hpp"

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tsoreach {

// An expression for the builder, in prefix order; its Reg nodes hold
// register handles of the thread being built (ProgramBuilder::reg).
class Expr {
  public:
    static Expr constant(Value v);
    static Expr reg(RegId handle);
    static Expr apply(ExprOp op, const Expr& a);                // unary
    static Expr apply(ExprOp op, const Expr& a, const Expr& b); // binary
    // `nodes`, already in prefix order, for front ends that hold their
    // expressions flat (apply copies its operands, quadratic on long
    // chains); throws std::logic_error unless they are exactly one
    // expression.
    static Expr prefix(std::vector<ExprNode> nodes);
    // An address that names its cell (memory.hpp): `x` or `flag[2]`, the
    // cell at `addr` of variable `var`; `flag[index]`, `var` an array at
    // `base` (a constant index makes the cell, as the parser does). Only
    // whole address operands may be named (build() checks).
    static Expr cell(VarId var, Value addr);
    static Expr element(VarId var, Value base, const Expr& index);
    // The same expression without names, for an address used as a value
    // (a register that records it, a check that compares it).
    [[nodiscard]] Expr unnamed() const;
    [[nodiscard]] std::span<const ExprNode> nodes() const { return nodes_; }

  private:
    friend class ProgramBuilder;
    std::vector<ExprNode> nodes_;
};

// An instruction for the builder; `reg` is a register handle.
struct Instr {
    InstrKind kind = InstrKind::Noop;
    RegId reg;
    Expr value;
    Expr addr;
    bool joined = false; // a joined write (instruction.hpp)

    static Instr read(RegId reg, Expr addr);
    static Instr write(Expr value, Expr addr);
    static Instr joinWrite(Expr value, Expr addr);
    static Instr local(RegId reg, Expr value);
    static Instr check(Expr cond);
    // lockfor ADDR / unlockfor ADDR (kind LockFor or UnlockFor)
    static Instr lockFor(InstrKind kind, Expr addr);
    // mfence, noop, lock or unlock.
    static Instr plain(InstrKind kind);
};

class ProgramBuilder {
  public:
    // Polls `stop` every 256 transitions (generated programs can have
    // millions) and throws Stopped when it holds.
    explicit ProgramBuilder(std::string sourceName, const StopCondition& stop = StopCondition());

    // The memory declaration (before or after the threads; build() checks
    // that the named addresses of the transitions are its cells).
    void setMemory(MemoryLayout memory);

    // Starts the next thread (the previous one is complete) with its
    // initial state.
    ThreadId addThread(std::string_view name, std::string_view initial, SourcePos pos = {});
    // The state of the current thread called `name`, added if new.
    StateId state(std::string_view name);
    // Number of states of the current thread so far.
    [[nodiscard]] std::size_t stateCount() const;
    // `pos`: where the final state is declared (Thread::finalPos).
    void addFinal(StateId s, SourcePos pos = {});
    // The register handle of the current thread called `name`.
    RegId reg(std::string_view name);
    // Adds a transition to the current thread; its id in the built program.
    TransitionId addTransition(StateId from, StateId to, const Instr& instr, SourcePos pos = {});

    // `src`'s expression `e` of thread `t`, its registers by name.
    Expr copy(const Program& src, const Thread& t, ExprRef e);
    // The instruction of `src`'s transition `tr`, its registers by name.
    Instr copy(const Program& src, const Transition& tr);

    // The program (the builder is spent); throws std::logic_error if the
    // states were not mentioned in canonical order, and what checkWellFormed
    // throws.
    Program build();

  private:
    void finishThread();
    ExprRef addExpr(const Expr& e);
    RegId useReg(RegId handle);

    // Looks names up without copying them.
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept {
            return std::hash<std::string_view>{}(s);
        }
    };
    using Names = std::unordered_map<std::string, std::uint32_t, NameHash, std::equal_to<>>;

    Program prog_;
    StopPoll poll_;
    // The thread being built: names to ids, register handles.
    Names states_;
    Names regHandles_;
    std::vector<std::string> handleNames_;
    std::vector<RegId> regOfHandle_; // invalid until first used
    bool open_ = false;
    std::size_t added_ = 0; // transitions, for polling
};

} // namespace tsoreach
