#pragma once
// The parts of a cub::System the backward search uses, checked once: which
// arrays are process-local (regular or const, one index), which cells are
// weak, their types, and the constructs the search does not take.

#include "node.hpp"

#include "tsoreach/frontends/cub/ast.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tsoreach::backward {

struct Local {
    std::string name;
    VarType type;
    bool isConst = false;
};

struct Weak {
    std::string name;
    VarType type;
    bool array = false;
    // Every write to A[j] is by process j: the cell has one writer, so the
    // order its writes reach memory is the writer's program order.
    bool ownerWritten = false;
    // Every write to the cell stores its writer (`X := p`, p the moving
    // process): a write of another process than p never holds p.
    bool holdsWriter = false;
};

class Model {
  public:
    explicit Model(const cub::System& sys);

    const cub::System& sys;
    std::vector<Local> locals;
    std::vector<Weak> weaks;
    // together[a][b]: every step that writes a cell of a writes the cell of b
    // at the same index, unconditionally, and the other way round.
    std::vector<std::vector<bool>> together;

    [[nodiscard]] int localIndex(const std::string& name) const;
    [[nodiscard]] int weakIndex(const std::string& name) const;
    [[nodiscard]] VarType typeNamed(const std::string& name, SourcePos pos) const;
    [[nodiscard]] std::optional<Value> constructor(const std::string& name) const;
    [[noreturn]] void refuse(SourcePos pos, const std::string& what) const;

  private:
    void checkWritesOwned();
    void findWrittenTogether();
};

// Where the variables of a formula's cells come from.
struct CellSource {
    // A regular or const cell of a process.
    std::function<std::uint32_t(std::uint32_t local, std::uint32_t proc, SourcePos)> local;
    // A weak cell read by the transition, or by `viewer` (a view in a cube).
    std::function<std::uint32_t(std::uint32_t weak, std::int32_t index, std::int32_t viewer,
                                SourcePos)>
        weak;
    const std::vector<VarType>* types = nullptr;
};

// The process variables in scope, and the processes `forall_other` ranges
// over (the node's processes that no parameter names).
struct Scope {
    std::map<std::string, std::uint32_t> procs;
    std::vector<std::uint32_t> others;
};

// A disjunct of a formula in disjunctive normal form.
struct Conj {
    std::vector<Lit> lits;
    bool fence = false;
};

[[nodiscard]] Term translate(const Model& m, const cub::Term& t, const Scope& s,
                             const CellSource& cells);
// The formula (negated when `neg`) as disjuncts; false is no disjunct.
[[nodiscard]] std::vector<Conj> dnf(const Model& m, const cub::Formula& f, bool neg, const Scope& s,
                                    const CellSource& cells);

} // namespace tsoreach::backward
