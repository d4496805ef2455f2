// tsoreach with one more engine: the command line of cli/app.hpp over the
// standard catalog plus the brute force of tests/support, built only for
// tests (catalog_test.cpp). Nothing in cli/ knows of it.

#include "app.hpp"
#include "support/brute_force_engine.hpp"

int main(int argc, char** argv) {
    return tsoreach::cli::runMain(argc, argv, tsoreach::test::catalogWithBruteForce());
}
