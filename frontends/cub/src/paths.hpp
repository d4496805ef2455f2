#pragma once
// Paths of a thread between two named states: a sequence of steps, each a
// choice among alternatives, each alternative a sequence of instructions.
// Intermediate states are named PREFIX/1, PREFIX/2, ... (and PREFIX/3.a.1
// inside an alternative); states inside a lock or atomic block are "busy".

#include "tsoreach/lang/builder.hpp"

#include <set>
#include <string>
#include <vector>

namespace tsoreach::cub {

using Alternative = std::vector<Instr>;
using Step = std::vector<Alternative>;

class PathEmitter {
  public:
    explicit PathEmitter(ProgramBuilder& b) : b_(b) {}

    // `pos`: the .cub construct the path stands for (reports show its line).
    void emit(const std::string& from, const std::string& to, const std::string& prefix,
              const std::vector<Step>& steps, SourcePos pos = {});

    // The states emitted strictly inside a lock or atomic block.
    [[nodiscard]] const std::set<std::string>& busy() const { return busy_; }

  private:
    void edge(const std::string& from, const std::string& to, const Instr& i, SourcePos pos);

    ProgramBuilder& b_;
    std::set<std::string> busy_;
    bool inside_ = false;
};

} // namespace tsoreach::cub
