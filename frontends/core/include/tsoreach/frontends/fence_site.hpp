#pragma once
// Where a front end can write a fence into its source text: a place where a
// fence statement runs exactly when a thread leaves one control state (a C
// file: before a statement, docs/c.md). `fences` chooses among these when a
// program has them, and `fences --apply` writes the source with its choice.

#include "tsoreach/lang/ids.hpp"
#include "tsoreach/lang/source.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tsoreach {

struct FenceSite {
    ThreadId thread;
    StateId state;
    SourcePos pos;         // the statement's first character
    std::size_t begin = 0; // byte offsets of the statement in the source text
    std::size_t end = 0;   // just past it, its `;` included
    bool braces = false;   // not a statement of a block: the fence and it become one
    // A loop's condition, not a statement: the fence goes into it with the
    // comma operator, `while ((fence, c))`, and runs at every test.
    bool condition = false;
    // The white space before the statement when nothing else precedes it on
    // its line (the fence then gets a line of its own).
    std::optional<std::string> indent;
};

// `source` with `statement` (a fence, "atomic_thread_fence(...);") written at
// each of `sites` (sites of one statement, from two threads that run one
// function, count once).
[[nodiscard]] std::string sourceWithFences(std::string_view source,
                                           std::span<const FenceSite> sites,
                                           std::string_view statement);

} // namespace tsoreach
