// tsoreach: the command-line front end. The only place that prints and that
// chooses exit codes; the libraries return results or throw typed errors.
// Every engine comes from the catalog it is given (cli/app.hpp); each
// subcommand is a Command of its own file (command.hpp, cmd_*.cpp).

#include "app.hpp"
#include "command.hpp"
#include "tsoreach/frontends/registry.hpp"
#include "tsoreach/lang/stop.hpp"
#include "tsoreach/reach/resource_monitor.hpp"
#include "tsoreach_commit.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <system_error>
#include <vector>

namespace tsoreach::cli {
namespace {

// --version, and the internal-error message: the release and the commit
// built (cmake/commit.cmake).
constexpr const char* kVersionLine = "tsoreach " TSOREACH_VERSION " (commit " TSOREACH_COMMIT ")";

const std::map<std::string, SeqCstStore> kSeqCstStores{{"mfence", SeqCstStore::MovMfence},
                                                       {"xchg", SeqCstStore::Xchg}};

// Declares every subcommand, parses, and runs the chosen one.
int run(int argc, char** argv, Context& ctx, const engines::Catalog& catalog) {
    CLI::App app{"tsoreach: can a program reach a bad state under SC, TSO or PSO?"};
    app.set_version_flag("--version", kVersionLine);
    app.require_subcommand(1, 1);
    app.footer(exitCodeHelp);

    std::vector<std::unique_ptr<Command>> commands;
    commands.push_back(reachCommand(catalog));
    commands.push_back(robustCommand(catalog));
    commands.push_back(replayCommand());
    commands.push_back(fencesCommand(catalog));
    commands.push_back(exploreCommand(catalog));
    commands.push_back(outcomesCommand(catalog));
    commands.push_back(printCommand());
    commands.push_back(instrumentCommand());
    commands.push_back(paramCommand(catalog));
    ctx.input = std::string(kAutoInputFormat);
    std::vector<CLI::App*> declared;
    for (const std::unique_ptr<Command>& c : commands) {
        CLI::App* cmd = c->declare(app);
        cmd->add_option("--input-format", ctx.input, inputFormatHelp())
            ->check(CLI::IsMember(inputFormatNames()))
            ->capture_default_str();
        cmd->add_option("--seq-cst-store", ctx.frontEnd.seqCstStore,
                        "C programs: a seq_cst store compiled as mov + mfence (mfence, the "
                        "default) or as a locked xchg (xchg); docs/c.md")
            ->transform(CLI::CheckedTransformer(kSeqCstStores));
        declared.push_back(cmd);
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return exitHolds;
    } catch (const CLI::CallForAllHelp&) {
        std::cout << app.help("", CLI::AppFormatMode::All);
        return exitHolds;
    } catch (const CLI::CallForVersion&) {
        std::cout << kVersionLine << "\n";
        return exitHolds;
    } catch (const CLI::ParseError& e) {
        // A subcommand's --help arrives here as CallForHelp from the subcommand.
        if (e.get_exit_code() == 0) {
            return app.exit(e);
        }
        // The subcommand and file, as far as they were read, for the JSON error.
        for (const CLI::App* parsed : app.get_subcommands()) {
            for (std::size_t i = 0; i < commands.size(); ++i) {
                if (declared[i] == parsed) {
                    ctx.command = parsed->get_name();
                    ctx.file = commands[i]->file();
                }
            }
        }
        throw UsageError(e.what());
    }
    for (std::size_t i = 0; i < commands.size(); ++i) {
        if (*declared[i]) {
            ctx.command = declared[i]->get_name();
            ctx.file = commands[i]->file();
            ctx.json = commands[i]->json();
            const auto start = std::chrono::steady_clock::now();
            const int code = commands[i]->run(ctx);
            if (commands[i]->progress()) { // the one line that ends --progress
                std::fprintf(
                    stderr, "progress: %s finished in %.2f s, peak memory %.0f MB, exit %d\n",
                    ctx.command.c_str(),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                    reach::peakRssMb(), code);
            }
            return code;
        }
    }
    throw UsageError("a subcommand is required");
}

// Before the arguments are parsed (and when they do not parse), --json
// among them asks for errors as JSON.
bool jsonAsked(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::string_view(argv[i]) == "--") {
            break;
        }
        if (std::string_view(argv[i]) == "--json") {
            return true;
        }
    }
    return false;
}

// With --json an error is also one JSON object on stdout (docs/json.md);
// a failed write loses nothing that stderr does not say.
void emitErrorJson(const Context& ctx, const std::string& kind, const std::string& file,
                   SourcePos pos, const std::string& message) {
    if (!ctx.json) {
        return;
    }
    std::cout << errorJson(ctx.command, kind, file, pos, message, ctx.warnings.all());
    std::cout.flush();
}

// A limit that stopped the run before the command had a report: its reason
// as the one line a text report starts with, or with --json as one JSON
// object (docs/json.md).
void emitStopped(const Context& ctx, const std::string& reason) {
    if (ctx.json) {
        std::cout << stoppedJson(ctx.command, ctx.file, reason, ctx.warnings.all());
    } else {
        std::cout << "unknown: " << reason << '\n';
    }
    std::cout.flush();
}

} // namespace

int runMain(int argc, char** argv, const engines::Catalog& catalog) {
    Context ctx;
    ctx.json = jsonAsked(argc, argv);
    try {
        return run(argc, argv, ctx, catalog);
    } catch (const InputError& e) {
        std::cerr << e.what() << '\n';
        emitErrorJson(ctx, "input", e.file(), e.pos(), e.message());
        return exitInput;
    } catch (const UsageError& e) {
        std::cerr << "tsoreach: error: " << e.what() << "\nRun 'tsoreach --help' for usage.\n";
        emitErrorJson(ctx, "usage", ctx.file, {}, e.what());
        return exitInput;
    } catch (const std::system_error& e) {
        std::cerr << "tsoreach: error: " << e.what() << '\n';
        return exitInput;
    } catch (const Stopped& e) {
        // A stop condition that a pass saw outside any search (e.g. an
        // interrupt while the input is parsed): a limit, not a bug.
        emitStopped(ctx, e.what());
        return exitUnknown;
    } catch (const std::bad_alloc&) {
        // Memory ran out before a limit check saw it: a limit, not a bug.
        emitStopped(ctx, "out of memory (the allocation failed before --max-memory was reached; "
                         "give a lower --max-memory)");
        return exitUnknown;
    } catch (const std::exception& e) {
        std::string line;
        for (int i = 0; i < argc; ++i) {
            line += (i == 0 ? "" : " ") + std::string(argv[i]);
        }
        std::cerr << "tsoreach: internal error: " << e.what() << "\n  " << kVersionLine
                  << ", command '" << ctx.command << "', model '" << ctx.model << "', engine '"
                  << ctx.engine << "', file '" << ctx.file << "'\n  command line: " << line
                  << "\n  This is a bug in tsoreach; please report it with the input file and "
                     "this message.\n";
        return exitInternal;
    }
}

} // namespace tsoreach::cli
