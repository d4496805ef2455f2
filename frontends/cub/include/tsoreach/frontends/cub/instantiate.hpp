#pragma once
// A .cub system at a fixed number of processes, as programs of the model
// (docs/parameterized.md, "Instances"): one thread per process, one memory
// cell per weak cell, registers for the process's own regular cells, and a
// path from the thread's rest state `main` back to it for every transition
// and choice of its other process parameters. The atomicity of a Cubicle-W
// transition is kept exactly: its guard's weak reads are one snapshot of
// the process's view, its writes one buffer entry, a transition that reads
// and writes weak memory is a locked read-modify-write, `fence()` waits for
// the process's buffer to drain.
//
// Values: a constructor is its index in its type, False/True 0/1, process
// #k is k (so `q < p` compares numbers).

#include "tsoreach/frontends/cub/ast.hpp"
#include "tsoreach/lang/goal.hpp"
#include "tsoreach/lang/program.hpp"

#include <string>
#include <vector>

namespace tsoreach::cub {

// One program: the system at N processes from one initial setup (a choice
// of the const cells and of the weak cells `init` leaves open).
struct Instance {
    Program program;
    Goal goal;         // the unsafe cubes, over every injective choice of processes
    std::string setup; // "Turn=2, Kind[1]=A"; empty when nothing was open
};

struct Instances {
    std::vector<Instance> instances;
    // Setups in which no unsafe cube can hold whatever the processes do
    // (e.g. fewer processes than the cube names): safe without a search.
    std::size_t unreachableSetups = 0;
};

// Every instance at `procs` processes, one per setup that no invariant
// excludes. Throws InputError, at the construct, for what the translation
// does not take (docs/parameterized.md lists it).
Instances instantiate(const System& sys, std::size_t procs);

// Where a state of an instance's thread comes from: "t2(q=3)" for a state
// on the path of transition t2 with q = #3, "init", "main", "unsafe".
std::string stateOrigin(const std::string& stateName);

} // namespace tsoreach::cub
