#pragma once
// Whether a process's int cell that `init` leaves open is always assigned
// before it is read, so that its initial value cannot matter (the
// translation then starts it at 0; an int cell cannot take every value).

#include "tsoreach/frontends/cub/ast.hpp"

#include <map>
#include <string>

namespace tsoreach::cub {

// The sufficient condition of docs/parameterized.md: some regular array P
// of a finite type (a program counter) is fixed by `init` to a value
// outside S, where S holds the values c such that every transition reading
// X[p] has the guard conjunct P[p] = c, and every transition that may put
// P[p] in S assigns it a constant and assigns X[p] too. Then P[p] in S
// implies X[p] was assigned, by induction over the steps. `initValue`
// gives init's constant for a regular array (by name), when init fixes it
// for every process.
bool assignedBeforeRead(const System& sys, const VarDecl& x,
                        const std::map<std::string, Value>& initValue);

} // namespace tsoreach::cub
