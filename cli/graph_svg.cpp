// The happens-before graph as inline SVG for the HTML report. Graphviz lays
// it out when `dot` is installed: it is run as a child process (in a process
// group of its own) on a file in a scratch folder, and given up (the group
// killed) at the command's deadline or after 5 s, or when it fails. The built-in layout needs
// nothing: a column per thread, a row per event in trace order, arcs between columns straight, arcs
// within a column curved to the right; the cycle's arcs in red, last.

#include "graphs.hpp"
#include "html.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

extern char** environ; // posix_spawnp passes it on

namespace tsoreach::cli {
namespace {

// A scratch folder, removed with everything in it; empty when none could be
// made (no usable TMPDIR).
class ScratchDir {
  public:
    ScratchDir() {
        std::error_code ec;
        const std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
        if (ec) {
            return;
        }
        std::string pattern = (tmp / "tsoreach-svg-XXXXXX").string();
        if (::mkdtemp(pattern.data()) != nullptr) {
            path_ = pattern;
        }
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    ~ScratchDir() {
        std::error_code ignored;
        if (!path_.empty()) {
            std::filesystem::remove_all(path_, ignored);
        }
    }
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

// posix_spawn's attributes and file actions: `dot` in a process group of its
// own (so that a wrapper script and its children die together), its output
// into `out`, its messages into /dev/null.
class SpawnSetup {
  public:
    explicit SpawnSetup(const std::string& out) {
        posix_spawnattr_init(&attr_);
        posix_spawnattr_setflags(&attr_, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attr_, 0);
        posix_spawn_file_actions_init(&actions_);
        posix_spawn_file_actions_addopen(&actions_, STDOUT_FILENO, out.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0600);
        posix_spawn_file_actions_addopen(&actions_, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    }
    SpawnSetup(const SpawnSetup&) = delete;
    SpawnSetup& operator=(const SpawnSetup&) = delete;
    ~SpawnSetup() {
        posix_spawn_file_actions_destroy(&actions_);
        posix_spawnattr_destroy(&attr_);
    }
    [[nodiscard]] const posix_spawnattr_t* attr() const { return &attr_; }
    [[nodiscard]] const posix_spawn_file_actions_t* actions() const { return &actions_; }

  private:
    posix_spawnattr_t attr_{};
    posix_spawn_file_actions_t actions_{};
};

enum class Waited { Done, Failed, TooLong };

// Waits for `pid` until `stop`'s deadline or 5 s; then kills its process
// group.
Waited waitBounded(pid_t pid, const StopCondition& stop) {
    const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (;;) {
        int status = 0;
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? Waited::Done : Waited::Failed;
        }
        if (done < 0) {
            return Waited::Failed;
        }
        if (std::chrono::steady_clock::now() > giveUp || stop.limitReason()) {
            ::kill(-pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            return Waited::TooLong;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

// `dot -Tsvg` of `graph`: the <svg> element, or why there is none.
struct Drawn {
    std::optional<std::string> svg;
    std::string why;
};

Drawn graphvizSvg(const std::string& graph, const StopCondition& stop) {
    const ScratchDir dir;
    if (dir.path().empty()) {
        return {std::nullopt, "no scratch folder for Graphviz: TMPDIR"};
    }
    const std::string in = (dir.path() / "graph.dot").string();
    const std::string out = (dir.path() / "graph.svg").string();
    std::ofstream(in, std::ios::binary) << graph;
    const SpawnSetup setup(out);
    std::string program = "dot";
    std::string format = "-Tsvg";
    std::string input = in;
    char* argv[] = {program.data(), format.data(), input.data(), nullptr};
    pid_t pid = 0;
    if (::posix_spawnp(&pid, "dot", setup.actions(), setup.attr(), argv, environ) != 0) {
        return {std::nullopt, "Graphviz dot is not installed"};
    }
    switch (waitBounded(pid, stop)) {
    case Waited::Done:
        break;
    case Waited::Failed:
        return {std::nullopt, "Graphviz dot failed"};
    case Waited::TooLong:
        return {std::nullopt, "Graphviz dot took too long"};
    }
    std::ifstream file(out, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    const std::string svg = text.str();
    // The XML declaration and doctype do not belong inside HTML.
    const std::size_t at = svg.find("<svg");
    if (at == std::string::npos || svg.find("</svg>") == std::string::npos) {
        return {std::nullopt, "Graphviz dot wrote no SVG"};
    }
    return {svg.substr(at), ""};
}

constexpr double kCharWidth = 7.3; // 12px monospace
constexpr double kRowHeight = 78;
constexpr double kBoxHeight = 40;
constexpr double kMargin = 20;
constexpr double kHeader = 30;
constexpr double kParallel = 12; // between arcs that join the same two events

struct Box {
    double x = 0; // left
    double y = 0; // top
};

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", v);
    return text;
}

// Where the built-in layout puts each event: a column per thread, a row per
// event in trace order (events are numbered by their steps).
struct Layout {
    double width = 0;               // of a box
    double column = 0;              // from one column to the next
    std::vector<std::size_t> order; // events by row
    std::vector<std::size_t> row;   // by event
    std::vector<Box> box;           // by event
};

Layout layOut(const robustness::HbGraph& g, std::size_t widestLabel) {
    Layout l;
    l.width = static_cast<double>(widestLabel) * kCharWidth + 16;
    l.column = l.width + 90;
    l.order.resize(g.events.size());
    for (std::size_t v = 0; v < l.order.size(); ++v) {
        l.order[v] = v;
    }
    std::sort(l.order.begin(), l.order.end(),
              [&](std::size_t a, std::size_t b) { return g.events[a].step < g.events[b].step; });
    l.row.resize(g.events.size());
    l.box.resize(g.events.size());
    for (std::size_t r = 0; r < l.order.size(); ++r) {
        const std::size_t v = l.order[r];
        l.row[v] = r;
        l.box[v] = {kMargin + static_cast<double>(g.events[v].thread.index()) * l.column,
                    kMargin + kHeader + static_cast<double>(r) * kRowHeight};
    }
    return l;
}

// One arc: straight down between neighbours in a column, curved to the
// right between others of a column, straight between columns; `shift`
// moves it aside from arcs that join the same two events.
struct Arc {
    Box a;
    Box b;
    bool adjacent = false; // in one column with no event of it between
    double shift = 0;
    std::string label;
    bool red = false;
};

std::string arcSvg(const Arc& arc, double width) {
    const Box& a = arc.a;
    const Box& b = arc.b;
    std::string path;
    double lx = 0;
    double ly = 0;
    if (a.x == b.x && arc.adjacent) {
        const bool down = b.y > a.y;
        const double x = a.x + width / 2 + arc.shift;
        const double y1 = down ? a.y + kBoxHeight : a.y;
        const double y2 = down ? b.y : b.y + kBoxHeight;
        path = "M" + number(x) + "," + number(y1) + " L" + number(x) + "," + number(y2);
        lx = x + 6;
        ly = (y1 + y2) / 2 + 4;
    } else if (a.x == b.x) {
        const double x = a.x + width;
        const double bulge = 30 + std::abs(b.y - a.y) / 6 + arc.shift * 2;
        const double y1 = a.y + kBoxHeight / 2;
        const double y2 = b.y + kBoxHeight / 2;
        path = "M" + number(x) + "," + number(y1) + " C" + number(x + bulge) + "," + number(y1) +
               " " + number(x + bulge) + "," + number(y2) + " " + number(x) + "," + number(y2);
        lx = x + bulge * 0.75 + 4;
        ly = (y1 + y2) / 2 + 4;
    } else {
        const bool right = b.x > a.x;
        const double x1 = right ? a.x + width : a.x;
        const double x2 = right ? b.x : b.x + width;
        const double y1 = a.y + kBoxHeight / 2 + arc.shift;
        const double y2 = b.y + kBoxHeight / 2 + arc.shift;
        path = "M" + number(x1) + "," + number(y1) + " L" + number(x2) + "," + number(y2);
        // A third of the way: arcs that cross keep their labels apart.
        lx = x1 + (x2 - x1) * 0.3;
        ly = y1 + (y2 - y1) * 0.3 - 4;
    }
    const std::string colour = arc.red ? "#d62728" : "#666";
    return "<path d=\"" + path + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"" +
           (arc.red ? "2.5" : "1.2") + "\" marker-end=\"url(#" + (arc.red ? "hb-red" : "hb-grey") +
           ")\"/>\n<text x=\"" + number(lx) + "\" y=\"" + number(ly) + "\" fill=\"" + colour +
           "\" class=\"arc-label\">" + htmlEscaped(arc.label) + "</text>\n";
}

// The arcs, those of the cycle last (drawn on top), each shifted by its
// place among the arcs that join the same two events.
std::vector<Arc> arcsOf(const robustness::HbGraph& g, const std::vector<robustness::HbArc>& cycle,
                        const Layout& l) {
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> parallel;
    for (const robustness::HbArc& a : g.arcs) {
        ++parallel[std::minmax(a.from, a.to)];
    }
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> placed;
    auto adjacent = [&](std::size_t a, std::size_t b) {
        const auto [lo, hi] = std::minmax(l.row[a], l.row[b]);
        for (std::size_t r = lo + 1; r < hi; ++r) {
            if (g.events[l.order[r]].thread == g.events[a].thread) {
                return false;
            }
        }
        return true;
    };
    std::vector<Arc> arcs;
    for (const bool red : {false, true}) {
        for (const robustness::HbArc& a : g.arcs) {
            if (onCycle(a, cycle) != red) {
                continue;
            }
            const auto key = std::minmax(a.from, a.to);
            const double k = static_cast<double>(placed[key]++);
            const double n = static_cast<double>(parallel[key]);
            arcs.push_back({l.box[a.from], l.box[a.to], adjacent(a.from, a.to),
                            (k - (n - 1) / 2) * kParallel, std::string(robustness::name(a.kind)),
                            red});
        }
    }
    return arcs;
}

std::string svgHead(double w, double h) {
    std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"hb\" width=\"" +
                      number(w) + "\" height=\"" + number(h) + "\" viewBox=\"0 0 " + number(w) +
                      " " + number(h) + "\">\n<defs>";
    for (const auto& [id, colour] :
         {std::pair{"hb-grey", "#666"}, std::pair{"hb-red", "#d62728"}}) {
        out += std::string("<marker id=\"") + id +
               "\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerUnits=\"userSpaceOnUse\" "
               "markerWidth=\"9\" markerHeight=\"9\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 "
               "z\" fill=\"" +
               colour + "\"/></marker>";
    }
    return out + "</defs>\n";
}

std::string builtinSvg(const Program& p, const reach::Trace& t, const robustness::HbGraph& g,
                       const std::vector<robustness::HbArc>& cycle) {
    std::vector<std::vector<std::string>> labels;
    std::size_t widest = 10;
    for (const robustness::HbEvent& e : g.events) {
        labels.push_back(eventLabel(p, t, e));
        widest = std::max({widest, labels.back()[0].size(), labels.back()[1].size()});
    }
    const Layout l = layOut(g, widest);
    std::ostringstream out;
    out << svgHead(kMargin * 2 + static_cast<double>(p.threads.size()) * l.column,
                   kMargin * 2 + kHeader + static_cast<double>(l.order.size()) * kRowHeight);
    for (std::size_t th = 0; th < p.threads.size(); ++th) {
        out << "<text x=\"" << number(kMargin + static_cast<double>(th) * l.column + l.width / 2)
            << "\" y=\"" << number(kMargin + 12) << "\" class=\"lane-title\">"
            << htmlEscaped(p.threads[th].name) << "</text>\n";
    }
    for (std::size_t v = 0; v < g.events.size(); ++v) {
        const bool cyc = std::any_of(cycle.begin(), cycle.end(), [&](const robustness::HbArc& a) {
            return a.from == v || a.to == v;
        });
        out << "<rect x=\"" << number(l.box[v].x) << "\" y=\"" << number(l.box[v].y)
            << "\" width=\"" << number(l.width) << "\" height=\"" << number(kBoxHeight)
            << "\" rx=\"4\" class=\"" << (cyc ? "event on-cycle" : "event") << "\"/>\n";
        for (std::size_t k = 0; k < 2; ++k) {
            out << "<text x=\"" << number(l.box[v].x + 8) << "\" y=\""
                << number(l.box[v].y + 16 + 16 * static_cast<double>(k))
                << "\" class=\"event-text\">" << htmlEscaped(labels[v][k]) << "</text>\n";
        }
    }
    for (const Arc& arc : arcsOf(g, cycle, l)) {
        out << arcSvg(arc, l.width);
    }
    out << "</svg>\n";
    return out.str();
}

// The events of the cycle and the arcs among them, renumbered.
std::pair<robustness::HbGraph, std::vector<robustness::HbArc>>
cycleOnly(const robustness::HbGraph& g, const std::vector<robustness::HbArc>& cycle) {
    std::map<std::size_t, std::size_t> index;
    for (const robustness::HbArc& a : cycle) {
        index.emplace(a.from, 0);
        index.emplace(a.to, 0);
    }
    robustness::HbGraph sub;
    for (auto& [v, i] : index) {
        i = sub.events.size();
        sub.events.push_back(g.events[v]);
    }
    auto renumbered = [&](const robustness::HbArc& a) {
        return robustness::HbArc{index.at(a.from), index.at(a.to), a.kind};
    };
    for (const robustness::HbArc& a : g.arcs) {
        if (index.count(a.from) != 0 && index.count(a.to) != 0) {
            sub.arcs.push_back(renumbered(a));
        }
    }
    std::vector<robustness::HbArc> subCycle;
    for (const robustness::HbArc& a : cycle) {
        subCycle.push_back(renumbered(a));
    }
    return {std::move(sub), std::move(subCycle)};
}

} // namespace

Svg happensBeforeSvg(const Program& p, const reach::Trace& t, const robustness::HbGraph& g,
                     const std::vector<robustness::HbArc>& cycle, const StopCondition& stop) {
    // A long witness's graph is mostly beside the point: then only the cycle.
    if (g.events.size() > kMaxDrawnEvents) {
        const auto [sub, subCycle] = cycleOnly(g, cycle);
        Svg svg = happensBeforeSvg(p, t, sub, subCycle, stop);
        svg.note = "the " + std::to_string(sub.events.size()) + " events of the cycle, of " +
                   std::to_string(g.events.size());
        return svg;
    }
    Drawn drawn = graphvizSvg(happensBeforeDot(p, t, g, cycle), stop);
    if (drawn.svg) {
        return {std::move(*drawn.svg), "Graphviz dot", ""};
    }
    return {builtinSvg(p, t, g, cycle), "the built-in layout (" + drawn.why + ")", ""};
}

} // namespace tsoreach::cli
