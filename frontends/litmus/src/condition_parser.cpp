#include "condition_parser.hpp"

#include <cctype>
#include <charconv>

namespace tsoreach::litmus {

std::optional<Value> parseInteger(std::string_view t, bool dollar) {
    if (dollar && !t.empty() && t.front() == '$') {
        t.remove_prefix(1);
    }
    bool negative = false;
    if (!t.empty() && (t.front() == '+' || t.front() == '-')) {
        negative = t.front() == '-';
        t.remove_prefix(1);
    }
    int base = 10;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        base = 16;
        t.remove_prefix(2);
    }
    std::uint64_t u = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), u, base);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size()) {
        return std::nullopt;
    }
    // Hexadecimal reads all 64 bits (0xffffffffffffffff is -1); decimal
    // stays within the signed range.
    const std::uint64_t limit =
        base == 16 ? ~std::uint64_t{0} : (std::uint64_t{1} << 63) - (negative ? 0 : 1);
    if (u > limit) {
        return std::nullopt;
    }
    const auto v = static_cast<Value>(u);
    return negative ? static_cast<Value>(0 - static_cast<std::uint64_t>(v)) : v;
}

namespace {

using Op = ConditionNode::Op;

bool space(char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// herd's spelling with white space runs made one space.
std::string normalized(std::string_view t) {
    std::string out;
    for (char c : t) {
        if (space(c)) {
            if (!out.empty() && out.back() != ' ') {
                out += ' ';
            }
        } else {
            out += c;
        }
    }
    while (!out.empty() && out.back() == ' ') {
        out.pop_back();
    }
    return out;
}

class FormulaParser {
  public:
    FormulaParser(const LitmusSource& src, Piece text,
                  const std::function<ConditionAtom(const AtomText&)>& resolve, FinalCondition& c)
        : src_(src), t_(text), resolve_(resolve), c_(c) {}

    void run() {
        bool operand = true; // an operand (or ~, or '(') comes next
        while (skipSpace(), i_ < t_.text.size()) {
            if (operand) {
                operand = prefix();
            } else {
                operand = infix();
            }
        }
        if (operand) {
            src_.fail(t_.offset + i_, "the condition ends where a formula is expected");
        }
        while (!ops_.empty()) {
            if (ops_.back().paren) {
                src_.fail(ops_.back().offset, "'(' is not closed");
            }
            popOp();
        }
    }

  private:
    struct Pending {
        Op op = Op::Not;
        bool paren = false;
        std::size_t offset = 0;
    };

    static int precedence(Op op) { return op == Op::Not ? 3 : op == Op::And ? 2 : 1; }

    void skipSpace() {
        while (i_ < t_.text.size() && space(t_.text[i_])) {
            ++i_;
        }
    }
    bool at(std::string_view s) const { return t_.text.substr(i_, s.size()) == s; }
    void popOp() {
        c_.postfix.push_back({ops_.back().op, 0});
        ops_.pop_back();
    }

    // Returns whether an operand is still expected.
    bool prefix() {
        if (at("(")) {
            ops_.push_back({Op::Not, true, t_.offset + i_++});
            return true;
        }
        if (at("~")) {
            ops_.push_back({Op::Not, false, t_.offset + i_++});
            return true;
        }
        atom();
        return false;
    }

    bool infix() {
        if (at(")")) {
            while (!ops_.empty() && !ops_.back().paren) {
                popOp();
            }
            if (ops_.empty()) {
                src_.fail(t_.offset + i_, "')' without a matching '('");
            }
            ops_.pop_back();
            ++i_;
            return false;
        }
        Op op;
        if (at("/\\")) {
            op = Op::And;
        } else if (at("\\/")) {
            op = Op::Or;
        } else {
            src_.fail(t_.offset + i_, "expected '/\\', '\\/' or ')' in the condition");
        }
        while (!ops_.empty() && !ops_.back().paren &&
               precedence(ops_.back().op) >= precedence(op)) {
            popOp();
        }
        ops_.push_back({op, false, t_.offset + i_});
        i_ += 2;
        return true;
    }

    // P:REG=V, x=V or [x]=V.
    void atom() {
        const std::size_t start = i_;
        while (i_ < t_.text.size() && t_.text[i_] != '=' && !space(t_.text[i_]) &&
               t_.text[i_] != ')' && !at("!=") && !at("<>") && !at("/\\") && !at("\\/")) {
            ++i_;
        }
        std::string_view lhs = t_.text.substr(start, i_ - start);
        skipSpace();
        const bool unequal = at("!=") || at("<>");
        if (lhs.empty() || !(at("=") || unequal)) {
            src_.fail(t_.offset + start, "expected an atom 'P:REG=VALUE' or 'x=VALUE'");
        }
        i_ += unequal ? 2 : 1;
        skipSpace();
        const std::size_t v = i_;
        while (i_ < t_.text.size() && (t_.text[i_] == '-' || t_.text[i_] == '+' ||
                                       std::isalnum(static_cast<unsigned char>(t_.text[i_])))) {
            ++i_;
        }
        const std::optional<Value> value = parseInteger(t_.text.substr(v, i_ - v));
        if (!value) {
            src_.fail(t_.offset + v, "expected an integer of 64 bits after '='");
        }
        AtomText a{std::nullopt, std::string(lhs), *value, t_.offset + start};
        if (const std::size_t colon = lhs.find(':'); colon != std::string_view::npos) {
            a.thread = parseInteger(lhs.substr(0, colon));
            if (!a.thread || *a.thread < 0) {
                src_.fail(t_.offset + start,
                          "expected a thread number before ':' in '" + std::string(lhs) + "'");
            }
            a.name = std::string(lhs.substr(colon + 1));
        } else if (lhs.size() > 2 && lhs.front() == '[' && lhs.back() == ']') {
            a.name = std::string(lhs.substr(1, lhs.size() - 2));
        }
        c_.atoms.push_back(resolve_(a));
        c_.atoms.back().equal = !unequal;
        c_.postfix.push_back({Op::Atom, static_cast<std::uint32_t>(c_.atoms.size() - 1)});
    }

    const LitmusSource& src_;
    Piece t_;
    const std::function<ConditionAtom(const AtomText&)>& resolve_;
    FinalCondition& c_;
    std::size_t i_ = 0;
    std::vector<Pending> ops_;
};

} // namespace

FinalCondition parseCondition(const LitmusSource& src, Piece text,
                              const std::function<ConditionAtom(const AtomText&)>& resolve) {
    FinalCondition c;
    c.pos = src.pos(text.offset);
    std::string_view t = text.text;
    std::size_t skip = 0;
    if (t.starts_with("exists")) {
        skip = 6;
    } else if (t.starts_with("forall")) {
        c.quantifier = Quantifier::Forall;
        skip = 6;
    } else if (t.starts_with("~")) {
        const std::size_t w = t.find_first_not_of(" \t\r\n", 1);
        if (w == std::string_view::npos || t.substr(w, 6) != "exists") {
            src.fail(text.offset, "expected '~exists'");
        }
        c.quantifier = Quantifier::NotExists;
        skip = w + 6;
    } else {
        const std::string word(t.substr(0, t.find_first_of(" \t\r\n(")));
        src.fail(text.offset, "'" + word +
                                  "' conditions are not supported: tsoreach reads "
                                  "'exists', '~exists' and 'forall'");
    }
    const Piece formula = trim({t.substr(skip), text.offset + skip});
    FormulaParser(src, formula, resolve, c).run();
    c.text = std::string(quantifierName(c.quantifier)) + " " + normalized(formula.text);
    return c;
}

} // namespace tsoreach::litmus
