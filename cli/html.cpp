#include "html.hpp"

namespace tsoreach::cli {

std::string htmlEscaped(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

namespace {

// Colours: red for a violation (and the highlighted steps that make it),
// green for a proof, grey for unknown; orange marks a delayed store.
constexpr const char* kStyle = R"(
body { font-family: system-ui, sans-serif; margin: 24px; color: #1d1d1f; background: #fff; }
h1 { font-size: 22px; margin: 0 0 8px 0; }
h2 { font-size: 17px; margin: 28px 0 8px 0; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
code, pre, .mono { font-family: ui-monospace, 'DejaVu Sans Mono', monospace; font-size: 13px; }
.verdict { display: inline-block; padding: 4px 12px; border-radius: 4px; font-weight: 600;
  font-size: 16px; color: #fff; }
.verdict.bad { background: #c62828; } .verdict.good { background: #2e7d32; }
.verdict.unknown { background: #757575; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; }
dl.facts dt { color: #555; } dl.facts dd { margin: 0; }
table.lanes { border-collapse: collapse; }
table.lanes th { background: #f0f0f0; padding: 6px 10px; text-align: left; }
table.lanes td { border-top: 1px solid #e4e4e4; padding: 4px 10px; vertical-align: top;
  min-width: 190px; }
table.lanes td.num { min-width: 0; color: #777; text-align: right; }
tr.after-goal td { background: #fafafa; color: #888; }
.step { border: 1px solid #9e9e9e; border-radius: 4px; padding: 4px 6px; background: #fff; }
.step.flush { border-style: dashed; background: #f5f9ff; }
.step.goal { border: 3px solid #1d1d1f; }
.step.delayed { border: 2px solid #ef6c00; background: #fff3e0; }
.step.overtakes { border: 2px solid #c62828; background: #ffebee; }
.step .line { color: #777; font-size: 12px; margin-left: 6px; }
.step .effect { font-size: 13px; }
.step .note { font-size: 12px; margin-top: 2px; font-weight: 600; }
.step.delayed .note { color: #e65100; } .step.overtakes .note { color: #b71c1c; }
.buffer { margin-top: 3px; font-size: 12px; color: #555; }
.buffer .slot { display: inline-block; border: 1px solid #90a4ae; background: #eceff1;
  padding: 0 4px; margin-right: 2px; border-radius: 2px; }
.buffer .slot.delayed { border-color: #ef6c00; background: #ffe0b2; }
.legend span { margin-right: 14px; font-size: 13px; }
.legend .swatch { display: inline-block; width: 12px; height: 12px; vertical-align: middle;
  margin-right: 4px; border-radius: 2px; }
.legend .swatch.delayed { background: #ffe0b2; border: 1px solid #ef6c00; }
.legend .swatch.overtakes { background: #ffebee; border: 1px solid #c62828; }
pre.source { border: 1px solid #ddd; background: #fbfbfb; padding: 6px 0; }
pre.source .ln { display: inline-block; width: 4em; text-align: right; color: #999;
  margin-right: 12px; user-select: none; }
pre.source .used { background: #e3f2fd; display: inline-block; min-width: 40em; }
pre.source .fence { background: #e8f5e9; color: #1b5e20; font-weight: 700; display: inline-block;
  min-width: 40em; }
table.outcomes { border-collapse: collapse; }
table.outcomes th, table.outcomes td { border: 1px solid #ddd; padding: 3px 8px; font-size: 13px; }
table.outcomes tr.positive td { background: #fff3e0; font-weight: 600; }
.new { color: #c62828; font-weight: 600; }
svg.hb .event { fill: #fff; stroke: #9e9e9e; } svg.hb .event.on-cycle { stroke: #c62828;
  stroke-width: 2; }
svg.hb .event-text { font-family: ui-monospace, 'DejaVu Sans Mono', monospace; font-size: 12px; }
svg.hb .lane-title { font-weight: 700; font-size: 14px; text-anchor: middle; }
svg.hb .arc-label { font-size: 12px; font-weight: 600; paint-order: stroke; stroke: #fff;
  stroke-width: 3px; }
.graph { overflow-x: auto; border: 1px solid #eee; padding: 8px; }
.warnings li { color: #8d6e00; }
footer { margin-top: 32px; color: #999; font-size: 12px; }
)";

} // namespace

std::string htmlPage(const std::string& title, const std::string& body) {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
           htmlEscaped(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n" +
           body + "<footer>made by tsoreach; this page is one file and loads nothing</footer>\n" +
           "</body>\n</html>\n";
}

} // namespace tsoreach::cli
