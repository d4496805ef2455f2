#pragma once
// What an HTML page is made of (html.cpp): escaping, and the page around a
// report's body, with its style sheet inline (the page is one file that
// needs no network: no external style, script, font or image).

#include <string>
#include <string_view>

namespace tsoreach::cli {

// `text` safe inside HTML text and attribute values (and SVG).
std::string htmlEscaped(std::string_view text);

// A whole page: doctype, head with `title` and the style sheet, `body`.
std::string htmlPage(const std::string& title, const std::string& body);

} // namespace tsoreach::cli
