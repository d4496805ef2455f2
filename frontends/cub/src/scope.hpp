#pragma once
// What the translation of one .cub system at N processes knows: the value
// of every name, the memory layout of the weak cells, the setup (const
// cells and open weak cells), and how terms and formulas become
// expressions of one process's thread.

#include "tsoreach/frontends/cub/ast.hpp"
#include "tsoreach/lang/builder.hpp"
#include "tsoreach/lang/memory.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tsoreach::cub {

// The comparison operator of the program model.
ExprOp opOf(Cmp c);

using Binding = std::map<std::string, Value>; // process variable -> process number

// A cell with its indices chosen: `A[2,3]`.
struct CellRef {
    const VarDecl* var = nullptr;
    std::vector<Value> idx;
    [[nodiscard]] std::string key() const;
};

// A weak cell read by a transition: its address, and the register that
// holds the value read.
struct WeakRead {
    Value addr = 0;
    VarId var;
    std::string reg;
};

class Scope {
  public:
    Scope(const System& sys, std::size_t procs);

    [[nodiscard]] const System& system() const { return sys_; }
    [[nodiscard]] std::size_t procs() const { return procs_; }
    [[nodiscard]] const std::string& file() const { return sys_.sourceName; }
    [[noreturn]] void fail(SourcePos pos, const std::string& msg) const;

    // The values of a type: bool 0..1, proc 1..N, an enumeration its
    // indices; nullopt for int.
    [[nodiscard]] std::optional<std::vector<Value>> typeValues(const std::string& type,
                                                               SourcePos pos) const;
    // How a value of `type` reads: "True", "L2", "#3", "7".
    [[nodiscard]] std::string showValue(const std::string& type, Value v) const;
    // Every index tuple of a variable (one empty tuple for a scalar).
    [[nodiscard]] std::vector<std::vector<Value>> indexTuples(const VarDecl& v) const;

    // The cell a term names, its indices bound; nullopt for a term that is
    // no cell. Fails for an unbound index variable or an unknown name.
    [[nodiscard]] std::optional<CellRef> cellOf(const Term& t, const Binding& b) const;
    // The value of a term that names no mutable cell (a number, a process,
    // a constructor, a const cell); nullopt otherwise.
    [[nodiscard]] std::optional<Value> constantOf(const Term& t, const Binding& b) const;
    [[nodiscard]] Value processOf(const std::string& var, const Binding& b, SourcePos pos) const;

    // Memory: the layout of the weak cells, the address of one.
    [[nodiscard]] const MemoryLayout& memory() const { return memory_; }
    [[nodiscard]] std::pair<Value, VarId> address(const CellRef& c) const;
    void setInitial(const CellRef& c, Value v); // of a weak cell, in the layout

    // The setup: const cells and the open weak cells.
    void setValue(const std::string& key, Value v) { setup_[key] = v; }
    [[nodiscard]] std::optional<Value> setupValue(const std::string& key) const;

    // The register of process `owner` holding its regular cell `c`.
    [[nodiscard]] static std::string registerOf(const CellRef& c);
    [[nodiscard]] static std::string readRegister(const CellRef& c);

  private:
    const System& sys_;
    std::size_t procs_;
    MemoryLayout memory_;
    std::map<std::string, std::pair<Value, VarId>> addrs_;
    std::map<std::string, Value> setup_;
};

// Translates terms and formulas of one process's transition or goal into
// expressions over its registers (ProgramBuilder handles of the thread
// being built).
class ExprMaker {
  public:
    enum class Mode : std::uint8_t { Transition, Goal, Static };
    ExprMaker(const Scope& scope, ProgramBuilder* b, Value mover, Mode mode)
        : scope_(scope), b_(b), mover_(mover), mode_(mode) {}

    // Process variables that forall_other does not range over.
    void setParams(std::vector<Value> params) { params_ = std::move(params); }
    // After the guard: fence() is an error from then on (case conditions).
    void forbidFence() { fenceAllowed_ = false; }

    Expr term(const Term& t, const Binding& b);
    Expr formula(const Formula& f, const Binding& b, bool positive = true);

    // The weak cells read so far, in first-read order, and whether a
    // fence() was seen.
    [[nodiscard]] const std::vector<WeakRead>& reads() const { return reads_; }
    [[nodiscard]] bool fenced() const { return fence_; }
    // How many weak-cell terms were translated so far (a conjunct that
    // leaves it unchanged reads no weak memory).
    [[nodiscard]] std::size_t weakUses() const { return weakUses_; }

  private:
    Expr cell(const CellRef& c, const Term& t, bool view);
    Expr forall(const Formula& f, const Binding& b, bool positive);

    const Scope& scope_;
    ProgramBuilder* b_;
    Value mover_;
    Mode mode_;
    std::vector<Value> params_;
    std::vector<WeakRead> reads_;
    bool fence_ = false;
    bool fenceAllowed_ = true;
    std::size_t weakUses_ = 0;
};

// es[0] op es[1] op ... (left-associated), built flat: Expr::apply copies
// its operands, quadratic on long chains. Constant 1 for And, 0 for Or
// when es is empty.
Expr chain(ExprOp op, const std::vector<Expr>& es);

// The conjuncts of f with forall_other expanded over the processes not in
// `params` (each with its binding), And flattened.
std::vector<std::pair<const Formula*, Binding>>
conjuncts(const Formula& f, const Binding& b, const std::vector<Value>& params, std::size_t procs);

} // namespace tsoreach::cub
