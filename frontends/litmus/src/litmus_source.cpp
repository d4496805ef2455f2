#include "litmus_source.hpp"

#include <algorithm>
#include <cctype>

namespace tsoreach::litmus {

namespace {
bool space(char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// The first word of `p` (up to white space or `(`).
std::string_view firstWord(Piece p) {
    const std::string_view t = trim(p).text;
    std::size_t n = 0;
    while (n < t.size() && !space(t[n]) && t[n] != '(' && t[n] != '[') {
        ++n;
    }
    return t.substr(0, n);
}

bool startsCondition(std::string_view w) {
    return w == "exists" || w == "~exists" || w == "forall" || w == "~" || w == "filter" ||
           w == "locations" || w == "final";
}
} // namespace

Piece trim(Piece p) {
    while (!p.text.empty() && space(p.text.front())) {
        p.text.remove_prefix(1);
        ++p.offset;
    }
    while (!p.text.empty() && space(p.text.back())) {
        p.text.remove_suffix(1);
    }
    return p;
}

std::vector<Piece> splitAt(Piece p, char sep) {
    std::vector<Piece> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= p.text.size(); ++i) {
        if (i == p.text.size() || p.text[i] == sep) {
            out.push_back(trim({p.text.substr(start, i - start), p.offset + start}));
            start = i + 1;
        }
    }
    return out;
}

LitmusSource::LitmusSource(std::string_view text, std::string sourceName)
    : text_(text), sourceName_(std::move(sourceName)) {
    lineStarts_.push_back(0);
    for (std::size_t i = 0; i < text_.size(); ++i) {
        if (text_[i] == '\n') {
            lineStarts_.push_back(i + 1);
        }
    }
    if (text_.starts_with("\xEF\xBB\xBF")) { // a UTF-8 byte order mark
        text_.replace(0, 3, "   ");
    }
    blankComments();
    split();
}

SourcePos LitmusSource::pos(std::size_t offset) const {
    const auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
    const std::size_t line = static_cast<std::size_t>(it - lineStarts_.begin());
    return {static_cast<std::uint32_t>(line),
            static_cast<std::uint32_t>(offset - lineStarts_[line - 1] + 1)};
}

void LitmusSource::fail(std::size_t offset, const std::string& message) const {
    throw InputError(sourceName_, pos(offset), message);
}

// Comments nest, as in OCaml; a quoted string (the doc line) is not a comment.
void LitmusSource::blankComments() {
    std::vector<std::size_t> open;
    bool quoted = false;
    for (std::size_t i = 0; i < text_.size(); ++i) {
        if (open.empty() && text_[i] == '"') {
            quoted = !quoted;
        } else if (!quoted && text_.compare(i, 2, "(*") == 0) {
            open.push_back(i);
            text_[i] = text_[i + 1] = ' ';
            ++i;
            continue;
        } else if (!open.empty() && text_.compare(i, 2, "*)") == 0) {
            open.pop_back();
            text_[i] = text_[i + 1] = ' ';
            ++i;
            continue;
        } else if (text_[i] == '\n') {
            quoted = false;
        }
        if (!open.empty() && text_[i] != '\n') {
            text_[i] = ' ';
        }
    }
    if (!open.empty()) {
        fail(open.back(), "comment '(*' is not closed");
    }
}

void LitmusSource::split() {
    const std::string_view all(text_);
    std::size_t at = all.find_first_not_of(" \t\r\n");
    if (at == std::string_view::npos) {
        fail(0, "empty file: expected a litmus test ('X86 NAME', the initial state, code, "
                "and a condition)");
    }
    const std::size_t eol = std::min(all.find('\n', at), all.size());
    const std::vector<Piece> head = [&] { // words separated by blanks or tabs
        std::vector<Piece> words;
        std::size_t i = at;
        while (i < eol) {
            const std::size_t end = std::min(all.find_first_of(" \t\r", i), eol);
            if (end > i) {
                words.push_back({all.substr(i, end - i), i});
            }
            i = end + 1;
        }
        return words;
    }();
    if (head.size() < 2) {
        fail(at, "expected the architecture and the test's name on the first line ('X86 SB')");
    }
    arch = head[0];
    name = head[1];
    // Up to `{`: a quoted doc string, `Key=value` lines (diy's metadata).
    at = eol;
    while (true) {
        at = all.find_first_not_of(" \t\r\n", at);
        if (at == std::string_view::npos) {
            fail(all.size(), "expected the initial state '{ ... }'");
        }
        if (all[at] == '{') {
            break;
        }
        const std::size_t end = std::min(all.find('\n', at), all.size());
        const std::string_view line = all.substr(at, end - at);
        if (line.front() != '"' && line.find('=') == std::string_view::npos) {
            fail(at, "expected the initial state '{ ... }', found '" + std::string(line) + "'");
        }
        at = end;
    }
    at = splitInit(at);
    // Rows of code up to the condition.
    while (at < all.size()) {
        const std::size_t end = std::min(all.find('\n', at), all.size());
        const Piece line = trim({all.substr(at, end - at), at});
        if (!line.text.empty() && startsCondition(firstWord(line))) {
            break;
        }
        if (!line.text.empty()) {
            rows.push_back(line);
        }
        at = end + 1;
    }
    if (rows.empty()) {
        fail(std::min(at, all.size()), "expected the threads' names ('P0 | P1 ;') and their code");
    }
    Piece rest = trim({at < all.size() ? all.substr(at) : std::string_view(), at});
    if (firstWord(rest) == "locations") {
        const std::size_t open = rest.text.find('[');
        const std::size_t close = rest.text.find(']');
        if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
            fail(rest.offset, "expected 'locations [x; 0:EAX; ...]'");
        }
        locations = {rest.text.substr(open + 1, close - open - 1), rest.offset + open + 1};
        rest = trim({rest.text.substr(close + 1), rest.offset + close + 1});
    }
    if (rest.text.empty()) {
        fail(all.size(), "expected the final condition ('exists (...)', '~exists (...)' or "
                         "'forall (...)')");
    }
    condition = rest;
}

std::size_t LitmusSource::splitInit(std::size_t at) {
    const std::string_view all(text_);
    const std::size_t close = all.find('}', at);
    if (close == std::string_view::npos) {
        fail(at, "the initial state '{' is not closed by '}'");
    }
    for (Piece entry : splitAt({all.substr(at + 1, close - at - 1), at + 1}, ';')) {
        if (!entry.text.empty()) {
            init.push_back(entry);
        }
    }
    return close + 1;
}

} // namespace tsoreach::litmus
