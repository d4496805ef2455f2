#include "tsoreach/lang/condition.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace tsoreach {

bool formulaHolds(const FinalCondition& c,
                  const std::function<Value(const ConditionAtom&)>& valueOf) {
    std::vector<bool> stack;
    for (const ConditionNode& n : c.postfix) {
        switch (n.op) {
        case ConditionNode::Op::Atom: {
            const ConditionAtom& a = c.atoms[n.atom];
            stack.push_back((valueOf(a) == a.value) == a.equal);
            break;
        }
        case ConditionNode::Op::Not:
            stack.back() = !stack.back();
            break;
        case ConditionNode::Op::And:
        case ConditionNode::Op::Or: {
            const bool b = stack.back();
            stack.pop_back();
            stack.back() =
                n.op == ConditionNode::Op::And ? (stack.back() && b) : (stack.back() || b);
            break;
        }
        }
    }
    if (stack.size() != 1) {
        throw std::logic_error("formulaHolds: not one formula");
    }
    return stack.back();
}

namespace {

using Dnf = std::vector<ConditionTerm>;

// Whether two atoms of one term can never hold together: the same register
// or cell equal to two values, or equal and unequal to one.
bool contradict(const ConditionAtom& a, const ConditionAtom& b) {
    const bool same = a.thread == b.thread && (a.isCell() ? a.addr == b.addr : a.reg == b.reg);
    if (!same) {
        return false;
    }
    if (a.equal && b.equal) {
        return a.value != b.value;
    }
    return a.equal != b.equal && a.value == b.value;
}

// The conjunction of two DNFs; nullopt past `maxTerms`.
std::optional<Dnf> conjoin(const Dnf& x, const Dnf& y, std::size_t maxTerms) {
    Dnf out;
    for (const ConditionTerm& a : x) {
        for (const ConditionTerm& b : y) {
            ConditionTerm t = a;
            bool empty = false;
            for (const ConditionAtom& atom : b) {
                empty = empty || std::any_of(t.begin(), t.end(), [&](const ConditionAtom& o) {
                            return contradict(o, atom);
                        });
                if (std::find(t.begin(), t.end(), atom) == t.end()) {
                    t.push_back(atom);
                }
            }
            if (!empty) {
                out.push_back(std::move(t));
            }
            if (out.size() > maxTerms) {
                return std::nullopt;
            }
        }
    }
    return out;
}

std::optional<Dnf> disjoin(Dnf x, const Dnf& y, std::size_t maxTerms) {
    x.insert(x.end(), y.begin(), y.end());
    if (x.size() > maxTerms) {
        return std::nullopt;
    }
    return x;
}

// Which polarities of each node the root needs (bit 1: the node's DNF, bit
// 2: its negation's), so that a disjunction is never negated for nothing
// (its negation is a product that can be exponential).
std::vector<std::uint8_t> neededPolarities(const FinalCondition& c, std::uint8_t root) {
    const std::size_t n = c.postfix.size();
    std::vector<std::uint32_t> left(n), right(n);
    std::vector<std::uint32_t> open;
    for (std::uint32_t i = 0; i < n; ++i) {
        const ConditionNode::Op op = c.postfix[i].op;
        if (op == ConditionNode::Op::Not) {
            left[i] = open.back();
            open.back() = i;
            continue;
        }
        if (op != ConditionNode::Op::Atom) {
            right[i] = open.back();
            open.pop_back();
            left[i] = open.back();
            open.back() = i;
            continue;
        }
        open.push_back(i);
    }
    if (open.size() != 1 || open.back() != n - 1) {
        throw std::logic_error("searchedTerms: not one formula");
    }
    std::vector<std::uint8_t> need(n, 0);
    need[n - 1] = root;
    for (std::size_t i = n; i-- > 0;) { // parents come after their children
        switch (c.postfix[i].op) {
        case ConditionNode::Op::Atom:
            break;
        case ConditionNode::Op::Not:
            need[left[i]] |= static_cast<std::uint8_t>(((need[i] & 1) << 1) | ((need[i] & 2) >> 1));
            break;
        default:
            need[left[i]] |= need[i];
            need[right[i]] |= need[i];
        }
    }
    return need;
}

} // namespace

std::optional<std::vector<ConditionTerm>> searchedTerms(const FinalCondition& c,
                                                        std::size_t maxTerms) {
    const bool negated = c.quantifier == Quantifier::Forall;
    const std::vector<std::uint8_t> need = neededPolarities(c, negated ? 2 : 1);
    // Each node's DNF and its negation's, where needed.
    struct Both {
        Dnf pos, neg;
    };
    std::vector<Both> stack;
    for (std::size_t i = 0; i < c.postfix.size(); ++i) {
        const ConditionNode& n = c.postfix[i];
        if (n.op == ConditionNode::Op::Atom) {
            ConditionAtom a = c.atoms[n.atom];
            ConditionAtom na = a;
            na.equal = !na.equal;
            stack.push_back({Dnf{{a}}, Dnf{{na}}});
            continue;
        }
        if (n.op == ConditionNode::Op::Not) {
            std::swap(stack.back().pos, stack.back().neg);
            continue;
        }
        Both b = std::move(stack.back());
        stack.pop_back();
        Both& a = stack.back();
        const bool isAnd = n.op == ConditionNode::Op::And;
        Both out;
        if ((need[i] & 1) != 0) {
            std::optional<Dnf> pos =
                isAnd ? conjoin(a.pos, b.pos, maxTerms) : disjoin(a.pos, b.pos, maxTerms);
            if (!pos) {
                return std::nullopt;
            }
            out.pos = std::move(*pos);
        }
        if ((need[i] & 2) != 0) {
            std::optional<Dnf> neg =
                isAnd ? disjoin(a.neg, b.neg, maxTerms) : conjoin(a.neg, b.neg, maxTerms);
            if (!neg) {
                return std::nullopt;
            }
            out.neg = std::move(*neg);
        }
        a = std::move(out);
    }
    return negated ? stack.back().neg : stack.back().pos;
}

bool conditionValidated(Quantifier q, bool searchedReachable) {
    return q == Quantifier::Exists ? searchedReachable : !searchedReachable;
}

const char* quantifierName(Quantifier q) {
    switch (q) {
    case Quantifier::Exists:
        return "exists";
    case Quantifier::NotExists:
        return "~exists";
    case Quantifier::Forall:
        return "forall";
    }
    return "?";
}

} // namespace tsoreach
