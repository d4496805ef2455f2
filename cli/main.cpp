// The tsoreach executable: the command line of cli/app.hpp over the
// standard catalog of engines.

#include "app.hpp"
#include "tsoreach/engines/catalog.hpp"
#include "tsoreach/lang/stop.hpp"

#include <csignal>

extern "C" void onInterrupt(int /*signal*/) {
    tsoreach::requestInterrupt();
}

int main(int argc, char** argv) {
    // The first Ctrl-C stops the search with `unknown: interrupted` and its
    // statistics; a second one kills as usual (SA_RESETHAND).
    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    return tsoreach::cli::runMain(argc, argv, tsoreach::engines::standardCatalog());
}
