// The program-to-program transformations (instrument/) on every example and
// corpus program: the attack instrumentation (every attack), the buffering
// extension R ⊕ σ (both variants, and an extension of an extension), fence
// insertion and loop unrolling. Each built program must be what parsing its
// printed text gives (ids, names, expression pool), and its printed text
// and origins must be byte for byte what tests/data/transforms.txt records:
// a 64-bit digest of each case, first recorded when the transformations
// still wrote program text and parsed it again, and recorded again only
// when a transformation changes on purpose (TSOREACH_WRITE_DIGESTS=FILE
// writes the file instead of comparing; the commit says which cases changed
// and why).

#include "test_util.hpp"

#include "tsoreach/frontends/tsoreach/parser.hpp"
#include "tsoreach/instrument/attack.hpp"
#include "tsoreach/instrument/extension.hpp"
#include "tsoreach/instrument/fences.hpp"
#include "tsoreach/instrument/unroll.hpp"
#include "tsoreach/lang/printer.hpp"
#include "tsoreach/lang/value_sets.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <deque>
#include <fstream>
#include <sstream>

namespace tsoreach {
namespace {

using instrument::ExtensionVariant;

// A transformation's output: its program, and its origins and other maps
// written out.
struct Output {
    Program program;
    std::string maps;
};

// --- the transformations, as the code under test gives them ---

Output attackOutput(const Program& p, const instrument::Attack& a, const AddressSets& sets) {
    const instrument::AttackProgram ap = instrument::attackProgram(p, a, sets);
    Output out{ap.program, ""};
    for (const instrument::StepOrigin& o : ap.origins) {
        out.maps += std::to_string(o.original.value) + (o.delayed ? "d " : " ");
    }
    return out;
}

Output extensionOutput(const Program& r, std::span<const instrument::LazyOrigin> origins,
                       std::span<const TransitionId> sigma, ExtensionVariant v,
                       const std::string& tag, std::vector<instrument::LazyOrigin>* originsOut) {
    const instrument::Extension ext = instrument::extendByPath(r, origins, sigma, v, tag);
    Output out{ext.program, ""};
    for (const instrument::LazyOrigin& o : ext.origins) {
        out.maps +=
            std::to_string(static_cast<int>(o.role)) + ":" + std::to_string(o.original.value) + " ";
    }
    for (const instrument::StateCopy& c : ext.copies) {
        out.maps += "\n" + std::to_string(c.thread.value) + " " + c.copy + " " + c.original;
    }
    if (originsOut != nullptr) {
        *originsOut = ext.origins;
    }
    return out;
}

Output fencedOutput(const Program& p, std::span<const instrument::FencePosition> fences) {
    const instrument::FencedProgram fp = instrument::insertFences(p, fences);
    Output out{fp.program, ""};
    for (TransitionId o : fp.origin) {
        out.maps += std::to_string(o.value) + " ";
    }
    return out;
}

Output unrolledOutput(const Program& p, std::size_t k) {
    const instrument::UnrolledProgram u = instrument::unrollLoops(p, k);
    Output out{u.program, u.cut ? "cut\n" : "\n"};
    for (TransitionId o : u.origin) {
        out.maps += std::to_string(o.value) + " ";
    }
    for (const std::vector<StateId>& states : u.stateOrigin) {
        out.maps += "\n";
        for (StateId s : states) {
            out.maps += std::to_string(s.value) + " ";
        }
    }
    return out;
}

// --- cases ---

// σ for an attack: its store, a shortest fence-free path, its load.
std::vector<TransitionId> pathOf(const Program& p, const instrument::Attack& a) {
    const Thread& t = p.thread(a.thread);
    const StateId start = p.transition(a.store).to;
    const StateId goal = p.transition(a.load).from;
    std::vector<TransitionId> via(t.stateCount());
    std::vector<bool> seen(t.stateCount(), false);
    std::deque<StateId> queue{start};
    seen[start.index()] = true;
    while (!queue.empty() && !seen[goal.index()]) {
        const StateId s = queue.front();
        queue.pop_front();
        for (TransitionId id : t.outgoingOf(s)) {
            const Transition& tr = p.transition(id);
            const InstrKind k = tr.instr.kind;
            if (k == InstrKind::Mfence || k == InstrKind::Lock || k == InstrKind::Unlock ||
                seen[tr.to.index()]) {
                continue;
            }
            seen[tr.to.index()] = true;
            via[tr.to.index()] = id;
            queue.push_back(tr.to);
        }
    }
    std::vector<TransitionId> back{a.load};
    for (StateId s = goal; s != start; s = p.transition(via[s.index()]).from) {
        back.push_back(via[s.index()]);
    }
    back.push_back(a.store);
    return {back.rbegin(), back.rend()};
}

std::uint64_t digest(const std::string& s) {
    std::uint64_t h = 1469598103934665603ULL; // FNV-1a
    for (unsigned char c : s) {
        h = (h ^ c) * 1099511628211ULL;
    }
    return h;
}

class Cases {
  public:
    // Checks the built program against its printed text parsed again and
    // records the digest of that text and the maps.
    void add(const std::string& name, const Output& out) {
        const std::string printed = printProgram(out.program);
        const Program again = parseProgram(printed, "again");
        EXPECT_EQ(out.program, again) << name;
        EXPECT_EQ(out.program.exprPool, again.exprPool) << name;
        EXPECT_EQ(out.program.maxExprStack, again.maxExprStack) << name;
        for (std::size_t i = 0; i < again.transitions.size() && i < out.program.transitions.size();
             ++i) {
            EXPECT_EQ(out.program.transitions[i].instr, again.transitions[i].instr) << name;
        }
        for (std::size_t t = 0; t < again.threads.size() && t < out.program.threads.size(); ++t) {
            EXPECT_EQ(out.program.threads[t].outgoing, again.threads[t].outgoing) << name;
        }
        std::ostringstream line;
        line << name << ' ' << std::hex << digest(printed + "\n--\n" + out.maps);
        lines_.push_back(line.str());
    }
    [[nodiscard]] const std::vector<std::string>& lines() const { return lines_; }

  private:
    std::vector<std::string> lines_;
};

constexpr std::size_t kExtendedAttacks = 6;

void addProgram(Cases& cases, const std::string& file, const Program& p) {
    const std::vector<instrument::Attack> attacks = instrument::candidateAttacks(p);
    const AddressSets sets = accessedAddresses(p);
    bool supported = true;
    try {
        instrument::checkSupported(p, sets);
    } catch (const instrument::UnsupportedProgram&) {
        supported = false;
    }
    for (std::size_t i = 0; supported && i < attacks.size(); ++i) {
        cases.add(file + " attack" + std::to_string(i), attackOutput(p, attacks[i], sets));
    }
    const std::vector<instrument::LazyOrigin> identity = instrument::identityOrigins(p);
    for (std::size_t i = 0; i < attacks.size() && i < kExtendedAttacks; ++i) {
        const std::vector<TransitionId> sigma = pathOf(p, attacks[i]);
        const std::string at = file + " extension" + std::to_string(i);
        cases.add(at + " trencher",
                  extensionOutput(p, identity, sigma, ExtensionVariant::Trencher, "x1", nullptr));
        std::vector<instrument::LazyOrigin> origins;
        const Output ext =
            extensionOutput(p, identity, sigma, ExtensionVariant::Terminating, "x1", &origins);
        cases.add(at, ext);
        // Extend the extension by its first attack's path.
        const std::vector<instrument::Attack> more = instrument::candidateAttacks(ext.program);
        if (!more.empty()) {
            cases.add(at + " again",
                      extensionOutput(ext.program, origins, pathOf(ext.program, more.front()),
                                      ExtensionVariant::Terminating, "x2", nullptr));
        }
    }
    const std::vector<instrument::FencePosition> all = instrument::fenceCandidates(p);
    std::vector<instrument::FencePosition> some;
    for (std::size_t i = 0; i < all.size(); i += 2) {
        some.push_back(all[i]);
    }
    cases.add(file + " fences-all", fencedOutput(p, all));
    cases.add(file + " fences-some", fencedOutput(p, some));
    for (std::size_t k = 0; k <= 2; ++k) {
        cases.add(file + " unroll" + std::to_string(k), unrolledOutput(p, k));
    }
}

TEST(Transforms, BuildWhatTheTextGave) {
    std::vector<std::filesystem::path> files =
        test::filesUnder(TSOREACH_SOURCE_DIR "/examples", ".txt");
    for (const auto& f : test::filesUnder(TSOREACH_CORPUS_DIR "/trencher", ".txt")) {
        files.push_back(f);
    }
    ASSERT_GT(files.size(), 40U);
    Cases cases;
    for (const auto& f : files) {
        const std::string name = f.parent_path().filename().string() + "/" + f.filename().string();
        addProgram(cases, name, parseProgramFile(f.string()));
    }
    const std::string data = TSOREACH_SOURCE_DIR "/tests/data/transforms.txt";
    if (const char* out = std::getenv("TSOREACH_WRITE_DIGESTS")) {
        std::ofstream file(out);
        for (const std::string& l : cases.lines()) {
            file << l << '\n';
        }
        GTEST_SKIP() << "wrote " << cases.lines().size() << " digests to " << out;
    }
    std::ifstream in(data);
    std::vector<std::string> expected;
    for (std::string l; std::getline(in, l);) {
        expected.push_back(l);
    }
    ASSERT_EQ(cases.lines().size(), expected.size()) << "cases in " << data;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(cases.lines()[i], expected[i]);
    }
}

} // namespace
} // namespace tsoreach
