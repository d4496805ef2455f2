#pragma once
// The command line of tsoreach as a function of the engine catalog: the
// executable passes the standard catalog (cli/main.cpp); a test build can
// pass one with more rows and get every subcommand for them.

#include "tsoreach/engines/catalog.hpp"

namespace tsoreach::cli {

// Parses the arguments, runs the subcommand, prints, and returns the exit
// code (README.md). Never exits; catches every exception.
int runMain(int argc, char** argv, const engines::Catalog& catalog);

} // namespace tsoreach::cli
