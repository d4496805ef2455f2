// The happens-before graph as inline SVG for the HTML report. Graphviz lays
// it out when `dot` is installed: it is run as a child process on a file in
// a scratch folder, and given up (killed) at the command's deadline or after
// 10 s, or when it fails. The built-in layout needs nothing: a column per
// thread, a row per event in trace order, arcs between columns straight,
// arcs within a column curved to the right; the cycle's arcs in red, last.

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
#include <optional>
#include <sstream>
#include <thread>

extern char** environ; // posix_spawnp passes it on

namespace tsoreach::cli {
namespace {

// A scratch folder, removed with everything in it.
class ScratchDir {
  public:
    ScratchDir() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "tsoreach-svg-XXXXXX").string();
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

// Waits for `pid` until `stop`'s deadline or 10 s; kills it then. Whether it
// exited with 0.
bool waitBounded(pid_t pid, const StopCondition& stop) {
    const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (;;) {
        int status = 0;
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            return WIFEXITED(status) && WEXITSTATUS(status) == 0;
        }
        if (done < 0) {
            return false;
        }
        if (std::chrono::steady_clock::now() > giveUp || stop.limitReason()) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

// `dot -Tsvg` of `graph`: the <svg> element, or nothing.
std::optional<std::string> graphvizSvg(const std::string& graph, const StopCondition& stop) {
    const ScratchDir dir;
    if (dir.path().empty()) {
        return std::nullopt;
    }
    const std::string in = (dir.path() / "graph.dot").string();
    const std::string out = (dir.path() / "graph.svg").string();
    std::ofstream(in, std::ios::binary) << graph;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    std::string program = "dot";
    std::string format = "-Tsvg";
    std::string input = in;
    char* argv[] = {program.data(), format.data(), input.data(), nullptr};
    pid_t pid = 0;
    const int spawned = ::posix_spawnp(&pid, "dot", &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0 || !waitBounded(pid, stop)) {
        return std::nullopt;
    }
    std::ifstream file(out, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    const std::string svg = text.str();
    // The XML declaration and doctype do not belong inside HTML.
    const std::size_t start = svg.find("<svg");
    if (start == std::string::npos || svg.find("</svg>") == std::string::npos) {
        return std::nullopt;
    }
    return svg.substr(start);
}

constexpr double kCharWidth = 7.3; // 12px monospace
constexpr double kRowHeight = 78;
constexpr double kBoxHeight = 40;
constexpr double kMargin = 20;
constexpr double kHeader = 30;

struct Box {
    double x = 0; // left
    double y = 0; // top
};

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", v);
    return text;
}

// One arc: a straight line between columns, a curve within one.
std::string arcSvg(const Box& a, const Box& b, double width, bool adjacent,
                   const std::string& label, bool red) {
    std::ostringstream out;
    std::string path;
    double lx = 0;
    double ly = 0;
    if (a.x == b.x && adjacent) {
        const bool down = b.y > a.y;
        const double x = a.x + width / 2;
        const double y1 = down ? a.y + kBoxHeight : a.y;
        const double y2 = down ? b.y : b.y + kBoxHeight;
        path = "M" + number(x) + "," + number(y1) + " L" + number(x) + "," + number(y2);
        lx = x + 6;
        ly = (y1 + y2) / 2 + 4;
    } else if (a.x == b.x) {
        const double x = a.x + width;
        const double bulge = 30 + std::abs(b.y - a.y) / 6;
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
        const double y1 = a.y + kBoxHeight / 2;
        const double y2 = b.y + kBoxHeight / 2;
        path = "M" + number(x1) + "," + number(y1) + " L" + number(x2) + "," + number(y2);
        // A third of the way: arcs that cross keep their labels apart.
        lx = x1 + (x2 - x1) * 0.3;
        ly = y1 + (y2 - y1) * 0.3 - 4;
    }
    const std::string colour = red ? "#d62728" : "#666";
    out << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << colour << "\" stroke-width=\""
        << (red ? "2.5" : "1.2") << "\" marker-end=\"url(#" << (red ? "hb-red" : "hb-grey")
        << ")\"/>\n<text x=\"" << number(lx) << "\" y=\"" << number(ly) << "\" fill=\"" << colour
        << "\" class=\"arc-label\">" << htmlEscaped(label) << "</text>\n";
    return out.str();
}

std::string builtinSvg(const Program& p, const reach::Trace& t, const robustness::HbGraph& g,
                       const std::vector<robustness::HbArc>& cycle) {
    std::vector<std::vector<std::string>> labels;
    std::size_t widest = 10;
    for (const robustness::HbEvent& e : g.events) {
        labels.push_back(eventLabel(p, t, e));
        widest = std::max({widest, labels.back()[0].size(), labels.back()[1].size()});
    }
    const double width = static_cast<double>(widest) * kCharWidth + 16;
    const double column = width + 90;
    // Rows in trace order (events are numbered by their steps).
    std::vector<std::size_t> order(g.events.size());
    for (std::size_t v = 0; v < order.size(); ++v) {
        order[v] = v;
    }
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return g.events[a].step < g.events[b].step; });
    std::vector<Box> box(g.events.size());
    std::vector<std::size_t> row(g.events.size());
    for (std::size_t r = 0; r < order.size(); ++r) {
        const std::size_t v = order[r];
        row[v] = r;
        box[v] = {kMargin + static_cast<double>(g.events[v].thread.index()) * column,
                  kMargin + kHeader + static_cast<double>(r) * kRowHeight};
    }
    const double w = kMargin * 2 + static_cast<double>(p.threads.size()) * column;
    const double h = kMargin * 2 + kHeader + static_cast<double>(order.size()) * kRowHeight;
    std::ostringstream out;
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"hb\" width=\"" << number(w)
        << "\" height=\"" << number(h) << "\" viewBox=\"0 0 " << number(w) << " " << number(h)
        << "\">\n<defs>";
    for (const auto& [id, colour] :
         {std::pair{"hb-grey", "#666"}, std::pair{"hb-red", "#d62728"}}) {
        out << "<marker id=\"" << id << "\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
            << "markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" "
            << "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 "
            << "z\" fill=\"" << colour << "\"/></marker>";
    }
    out << "</defs>\n";
    for (std::size_t th = 0; th < p.threads.size(); ++th) {
        out << "<text x=\"" << number(kMargin + static_cast<double>(th) * column + width / 2)
            << "\" y=\"" << number(kMargin + 12) << "\" class=\"lane-title\">"
            << htmlEscaped(p.threads[th].name) << "</text>\n";
    }
    for (std::size_t v = 0; v < g.events.size(); ++v) {
        const bool cyc = std::any_of(cycle.begin(), cycle.end(), [&](const robustness::HbArc& a) {
            return a.from == v || a.to == v;
        });
        out << "<rect x=\"" << number(box[v].x) << "\" y=\"" << number(box[v].y) << "\" width=\""
            << number(width) << "\" height=\"" << number(kBoxHeight) << "\" rx=\"4\" class=\""
            << (cyc ? "event on-cycle" : "event") << "\"/>\n";
        for (std::size_t k = 0; k < 2; ++k) {
            out << "<text x=\"" << number(box[v].x + 8) << "\" y=\""
                << number(box[v].y + 16 + 16 * static_cast<double>(k)) << "\" class=\"event-text\">"
                << htmlEscaped(labels[v][k]) << "</text>\n";
        }
    }
    // Whether no event of the same thread lies between two rows.
    auto adjacent = [&](std::size_t a, std::size_t b) {
        const std::size_t lo = std::min(row[a], row[b]);
        const std::size_t hi = std::max(row[a], row[b]);
        for (std::size_t r = lo + 1; r < hi; ++r) {
            if (g.events[order[r]].thread == g.events[a].thread) {
                return false;
            }
        }
        return true;
    };
    for (const bool red : {false, true}) {
        for (const robustness::HbArc& a : g.arcs) {
            if (onCycle(a, cycle) == red) {
                out << arcSvg(box[a.from], box[a.to], width, adjacent(a.from, a.to),
                              std::string(robustness::name(a.kind)), red);
            }
        }
    }
    out << "</svg>\n";
    return out.str();
}

} // namespace

Svg happensBeforeSvg(const Program& p, const reach::Trace& t, const robustness::HbGraph& g,
                     const std::vector<robustness::HbArc>& cycle, const StopCondition& stop) {
    if (std::optional<std::string> svg = graphvizSvg(happensBeforeDot(p, t, g, cycle), stop)) {
        return {std::move(*svg), "Graphviz dot"};
    }
    return {builtinSvg(p, t, g, cycle), "built-in layout"};
}

} // namespace tsoreach::cli
