#include "preimage.hpp"

#include "forget.hpp"
#include "order.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

namespace tsoreach::backward {
namespace {

std::uint32_t newVar(Node& n, VarType t) {
    n.types.push_back(t);
    return static_cast<std::uint32_t>(n.types.size() - 1);
}

// One way an action may go: the condition it needs, and the value it
// assigns (nullopt: the cell keeps its value, or a weak cell is not written).
struct ActionAlt {
    Conj cond;
    std::optional<Term> value;
};

// The translated transition instance, before it is split into alternatives.
class Step {
  public:
    Step(const Model& m, const Node& node, std::uint32_t transition,
         const std::vector<std::uint32_t>& args, Forgetting how)
        : m_(m), t_(m.sys.transitions[transition]), base_(node), args_(args), how_(how) {
        addProcs();
        for (const cub::Action& a : t_.actions) {
            if (const int l = m_.localIndex(a.cell); l >= 0) {
                pre_[static_cast<std::uint32_t>(l)] = newVar(base_, m_.locals[l].type);
            }
        }
        for (std::size_t i = 0; i < t_.params.size(); ++i) {
            scope_.procs[t_.params[i]] = args[i];
        }
        for (std::uint32_t p = 0; p < base_.procs; ++p) {
            if (std::find(args.begin(), args.end(), p) == args.end()) {
                scope_.others.push_back(p);
            }
        }
        cells_.types = &base_.types;
        cells_.local = [this](std::uint32_t l, std::uint32_t p, SourcePos pos) {
            return localVar(l, p, pos);
        };
        cells_.weak = [this](std::uint32_t w, std::int32_t index, std::int32_t viewer,
                             SourcePos pos) { return readVar(w, index, viewer, pos); };
        guard_ = dnf(m_, t_.guard, false, scope_, cells_);
        for (const cub::Action& a : t_.actions) {
            actions_.push_back(alternatives(a));
        }
    }

    void build(std::vector<Node>& out);

  private:
    void addProcs() {
        std::uint32_t procs = base_.procs;
        for (std::uint32_t a : args_) {
            procs = std::max(procs, a + 1);
        }
        const std::size_t locals = m_.locals.size();
        for (std::uint32_t p = base_.procs; p < procs; ++p) {
            for (std::size_t l = 0; l < locals; ++l) {
                base_.locals.push_back(newVar(base_, m_.locals[l].type));
            }
        }
        base_.procs = procs;
    }

    std::uint32_t localVar(std::uint32_t l, std::uint32_t p, SourcePos pos) {
        const std::size_t at = p * m_.locals.size() + l;
        if (m_.locals[l].isConst) {
            return base_.locals[at];
        }
        if (p != args_[0]) {
            m_.refuse(pos, "a regular cell of another process");
        }
        const auto it = pre_.find(l);
        return it == pre_.end() ? base_.locals[at] : it->second;
    }

    std::uint32_t readVar(std::uint32_t w, std::int32_t index, std::int32_t viewer, SourcePos pos) {
        if (viewer >= 0) {
            m_.refuse(pos, "a view (p @ X) in a transition");
        }
        for (const Access& a : reads_) {
            if (a.weak == w && a.index == index) {
                return a.var;
            }
        }
        reads_.push_back(makeAccess(w, index, newVar(base_, m_.weaks[w].type)));
        return reads_.back().var;
    }

    std::vector<ActionAlt> alternatives(const cub::Action& a);
    void buildOne(const Conj& guard, const std::vector<const ActionAlt*>& pick,
                  std::vector<Node>& out);
    [[nodiscard]] bool addEvents(Node& n, const std::vector<Access>& writes, bool fence,
                                 std::size_t& writer) const;
    [[nodiscard]] bool cohereWrite(std::vector<Node>& cur, std::size_t old, const Access& w,
                                   std::size_t writer) const;
    [[nodiscard]] bool satisfyWrite(std::vector<Node>& cur, std::size_t old, const Access& w,
                                    std::size_t writer) const;

    const Model& m_;
    const cub::TransitionDecl& t_;
    Node base_;
    std::vector<std::uint32_t> args_;
    Forgetting how_;
    Scope scope_;
    CellSource cells_;
    std::map<std::uint32_t, std::uint32_t> pre_; // local -> its variable before the step
    std::vector<Access> reads_;
    std::vector<Conj> guard_;
    std::vector<std::vector<ActionAlt>> actions_;
};

std::vector<ActionAlt> Step::alternatives(const cub::Action& a) {
    std::vector<ActionAlt> out;
    std::vector<Conj> none{Conj{}}; // the earlier branches do not hold
    for (const cub::Branch& b : a.branches) {
        const Term value = translate(m_, b.value, scope_, cells_);
        if (!b.cond) {
            for (const Conj& c : none) {
                out.push_back({c, value});
            }
            return out;
        }
        for (const Conj& c : dnf(m_, *b.cond, false, scope_, cells_)) {
            for (const Conj& n : none) {
                Conj both = n;
                both.lits.insert(both.lits.end(), c.lits.begin(), c.lits.end());
                out.push_back({both, value});
            }
        }
        std::vector<Conj> next;
        for (const Conj& c : dnf(m_, *b.cond, true, scope_, cells_)) {
            for (const Conj& n : none) {
                Conj both = n;
                both.lits.insert(both.lits.end(), c.lits.begin(), c.lits.end());
                next.push_back(both);
            }
        }
        none = std::move(next);
    }
    for (const Conj& c : none) {
        out.push_back({c, std::nullopt});
    }
    return out;
}

// The ways an unsatisfied read `r` of event `e` may stand to the new write
// `w` to its cell (docs/backward.md, "Satisfying reads"). Each alternative
// returns false when it closes a cycle.
std::vector<Node> satisfy(const Node& n, std::size_t e, std::size_t ri, std::size_t w,
                          const Access& written, std::uint32_t writer, const Weak& cell) {
    std::vector<Node> out;
    const Access& r = n.events[e].reads[ri];
    const bool same = n.events[e].proc == writer;
    if (same && r.ownExcluded) {
        return {n}; // its source came after this write of its own process
    }
    Node take = n; // the read takes this write's value
    take.events[e].reads[ri].source = static_cast<std::int32_t>(w);
    take.lits.push_back(
        Lit{Term{Term::Kind::Var, r.var, 0}, cub::Cmp::Eq, Term{Term::Kind::Var, written.var, 0}});
    const bool fenced = n.events[e].fenced;
    take.events[e].reads[ri].memory = !same || fenced;
    if (same && r.after.empty() && !fenced) {
        out.push_back(take); // from the buffer or from memory: no order known
    } else {
        if (same && !fenced) { // from its own buffer: the write is still there at the read
            Node forward = take;
            if (addBefore(forward, e, w)) {
                out.push_back(std::move(forward));
            }
        }
        // From memory: after the read's lower bounds, before the read.
        take.events[e].reads[ri].memory = true;
        bool ok = addBefore(take, w, e);
        for (std::uint32_t b : r.after) {
            ok = ok && addBefore(take, b, w);
        }
        if (ok) {
            out.push_back(std::move(take));
        }
    }
    Node after = n; // the write is before the read, the read takes a later one
    Access& a = after.events[e].reads[ri];
    a.notInit = true;
    a.ownExcluded = a.ownExcluded || same;
    a.after.push_back(static_cast<std::uint32_t>(w));
    if (same && cell.holdsWriter) { // its source is another process's write
        const Term reader{Term::Kind::Proc, writer, 0};
        after.lits.push_back(Lit{Term{Term::Kind::Var, r.var, 0}, cub::Cmp::Ne, reader});
    }
    // A later source is another process's write: none for a cell only its
    // owner writes.
    if (!cell.ownerWritten && addBefore(after, w, e)) {
        out.push_back(std::move(after));
    }
    Node earlier = n; // the read is before the write reaches memory
    if (!same && addBefore(earlier, e, w)) {
        out.push_back(std::move(earlier));
    }
    return out;
}

// Coherence of a read `r` of event `e` that took `r.source` from memory
// with a new write `w` to its cell: `w` reached memory before the source
// did, or after the read.
std::vector<Node> cohere(const Node& n, std::size_t e, std::size_t ri, std::size_t w) {
    std::vector<Node> out;
    const auto source = static_cast<std::size_t>(n.events[e].reads[ri].source);
    Node older = n;
    if (addBefore(older, w, source)) {
        out.push_back(std::move(older));
    }
    Node later = n;
    if (addBefore(later, e, w)) {
        out.push_back(std::move(later));
    }
    return out;
}

// Two reads of one event of cells always written together take their
// values from one step (the last to reach memory, or to enter the reader's
// buffer, before the read): both before the node's instant, or one event.
bool sameSourceStep(const Model& m, const Node& n) {
    for (const Event& ev : n.events) {
        for (const Access& a : ev.reads) {
            for (const Access& b : ev.reads) {
                if (!m.together[a.weak][b.weak] || a.index != b.index) {
                    continue;
                }
                if ((a.source == kUnsatisfied) != (b.source == kUnsatisfied) ||
                    (a.source >= 0 && b.source >= 0 && a.source != b.source)) {
                    return false;
                }
            }
        }
    }
    return true;
}

// A waiting read (not of the initial value) of a cell that holds its writer,
// whose value is process k, takes a write of k made before the node's
// instant. From memory (k is not the reader, or the read is fenced), that
// write reached memory after the read's `after` bounds and before every
// write or fenced event of k in the node (FIFO, fence).
bool orderWriterBounds(const Model& m, Node& n) {
    const std::vector<Term> forced = forcedValues(n.types, n.lits);
    for (std::size_t e = 0; e < n.events.size(); ++e) {
        for (std::size_t ri = 0; ri < n.events[e].reads.size(); ++ri) {
            const Access r = n.events[e].reads[ri];
            const Term& v = forced[r.var];
            if (r.source != kUnsatisfied || !r.notInit || !m.weaks[r.weak].holdsWriter ||
                v.kind != Term::Kind::Proc || (v.n == n.events[e].proc && !n.events[e].fenced)) {
                continue;
            }
            for (std::size_t f = 0; f < n.events.size(); ++f) {
                const Event& ev = n.events[f];
                const bool drains = !ev.writes.empty() || ev.fenced;
                for (std::uint32_t b : r.after) {
                    if (ev.proc == v.n && drains && !addBefore(n, b, f)) {
                        return false;
                    }
                }
            }
        }
    }
    return true;
}

// Whether read `r` of event `e` returns what memory holds at its instant:
// a fenced or locked read (empty buffer), one that took its source from
// memory, or a waiting one that takes another process's write (buffers
// hold only their own process's writes).
bool readsMemory(const Model& m, const Node& n, std::size_t e, const Access& r,
                 const std::vector<Term>& forced) {
    const Event& ev = n.events[e];
    if (ev.fenced || (r.source != kUnsatisfied && r.memory)) {
        return true;
    }
    if (r.source != kUnsatisfied) {
        return false;
    }
    const Term& v = forced[r.var];
    return (r.notInit && r.ownExcluded) ||
           (m.weaks[r.weak].holdsWriter && v.kind == Term::Kind::Proc && v.n != ev.proc);
}

// `r2`'s source reached memory after event `e1`'s instant: an order edge
// to a kept source, else (a waiting read) `notInit` and the bound `e1`.
// Sets `changed` when it adds a fact; false on a cycle.
bool laterSource(Node& n, std::size_t e1, Access& r2, bool& changed) {
    if (r2.source >= 0) {
        // A locked first read's own write reached memory at t1 itself.
        const auto w = static_cast<std::size_t>(r2.source);
        if (w == e1 || n.before[e1][w]) {
            return true;
        }
        changed = true;
        return addBefore(n, e1, w);
    }
    const auto b = static_cast<std::uint32_t>(e1);
    const bool bounded = std::find(r2.after.begin(), r2.after.end(), b) != r2.after.end();
    if (r2.notInit && bounded) {
        return true;
    }
    r2.notInit = true;
    if (!bounded) {
        r2.after.push_back(b);
    }
    changed = true;
    return true;
}

// Two reads of one cell from memory at instants t1 < t2 that return
// different values: memory changed between them, so the second read's
// source is a write (not the initial value, which never comes back) that
// reached memory after t1 (docs/backward.md, step 7). Repeated until
// nothing is added, since new edges order more pairs.
bool orderReadsInMemory(const Model& m, Node& n) {
    for (bool changed = true; changed;) {
        changed = false;
        const std::vector<Term> forced = forcedValues(n.types, n.lits);
        auto differ = [&](const Access& a, const Access& b) {
            const Term& x = forced[a.var];
            const Term& y = forced[b.var];
            return x.kind != Term::Kind::Var && y.kind != Term::Kind::Var && !(x == y);
        };
        for (std::size_t e1 = 0; e1 < n.events.size(); ++e1) {
            for (std::size_t e2 = 0; e2 < n.events.size(); ++e2) {
                if (!n.before[e1][e2]) {
                    continue;
                }
                for (const Access& r1 : n.events[e1].reads) {
                    for (Access& r2 : n.events[e2].reads) {
                        if (r2.sameCell(r1) && r2.source != kResolved && differ(r1, r2) &&
                            readsMemory(m, n, e1, r1, forced) &&
                            readsMemory(m, n, e2, r2, forced) && !laterSource(n, e1, r2, changed)) {
                            return false;
                        }
                    }
                }
            }
        }
    }
    return true;
}

bool Step::addEvents(Node& n, const std::vector<Access>& writes, bool fence,
                     std::size_t& writer) const {
    const std::size_t old = n.events.size();
    const std::uint32_t q = args_[0];
    const bool rmw = !reads_.empty() && !writes.empty();
    writer = SIZE_MAX;
    if (!reads_.empty() || fence) {
        Event e{q, true, fence || rmw, reads_, rmw ? writes : std::vector<Access>{}};
        const std::size_t at = addEvent(n, std::move(e));
        for (std::size_t o = 0; o < old; ++o) {
            if (!addBefore(n, at, o)) { // the step's instant precedes later steps'
                return false;
            }
        }
        writer = rmw ? at : SIZE_MAX;
    }
    if (writes.empty() || rmw) {
        return true;
    }
    const std::size_t fenceAt = n.events.size() - 1;
    writer = addEvent(n, Event{q, false, false, {}, writes});
    if (fence && !addBefore(n, fenceAt, writer)) {
        return false;
    }
    for (std::size_t o = 0; o < old; ++o) {
        const Event& later = n.events[o];
        // FIFO buffers; a fence or locked step of q waits for the drain.
        if (later.proc == q && (!later.writes.empty() || later.fenced) &&
            !addBefore(n, writer, o)) {
            return false;
        }
    }
    return true;
}

// Splits every node of `cur` by `split`; false when none is left.
template <class Split> bool refine(std::vector<Node>& cur, Split split) {
    std::vector<Node> next;
    for (const Node& c : cur) {
        for (Node& s : split(c)) {
            next.push_back(std::move(s));
        }
    }
    cur = std::move(next);
    return !cur.empty();
}

// Orders the new write `w` (event `writer`) against the reads of its cell
// among the `old` events that took their source from memory.
bool Step::cohereWrite(std::vector<Node>& cur, std::size_t old, const Access& w,
                       std::size_t writer) const {
    for (std::size_t e = 0; e < old; ++e) {
        for (std::size_t ri = 0; ri < cur.front().events[e].reads.size(); ++ri) {
            const Access& r = cur.front().events[e].reads[ri];
            if (r.source >= 0 && r.memory && r.sameCell(w) &&
                !refine(cur, [&](const Node& c) { return cohere(c, e, ri, writer); })) {
                return false;
            }
        }
    }
    return true;
}

// Splits on what each unsatisfied read of the new write's cell reads.
bool Step::satisfyWrite(std::vector<Node>& cur, std::size_t old, const Access& w,
                        std::size_t writer) const {
    for (std::size_t e = 0; e < old; ++e) {
        for (std::size_t ri = 0; ri < cur.front().events[e].reads.size(); ++ri) {
            const Access& r = cur.front().events[e].reads[ri];
            if (r.source == kUnsatisfied && r.sameCell(w) && !refine(cur, [&](const Node& c) {
                    return satisfy(c, e, ri, writer, w, args_[0], m_.weaks[w.weak]);
                })) {
                return false;
            }
        }
    }
    return true;
}

void Step::buildOne(const Conj& guard, const std::vector<const ActionAlt*>& pick,
                    std::vector<Node>& out) {
    Node n = base_;
    const std::uint32_t q = args_[0];
    std::vector<Access> writes;
    bool fence = guard.fence;
    n.lits.insert(n.lits.end(), guard.lits.begin(), guard.lits.end());
    for (std::size_t i = 0; i < t_.actions.size(); ++i) {
        const cub::Action& a = t_.actions[i];
        const ActionAlt& alt = *pick[i];
        fence = fence || alt.cond.fence;
        n.lits.insert(n.lits.end(), alt.cond.lits.begin(), alt.cond.lits.end());
        if (const int l = m_.localIndex(a.cell); l >= 0) {
            const auto ul = static_cast<std::uint32_t>(l);
            const std::size_t at = q * m_.locals.size() + ul;
            const Term pre{Term::Kind::Var, pre_.at(ul), 0};
            const Term value = alt.value ? *alt.value : pre;
            for (Lit& lit : n.lits) { // only the literals of the node after the step
                if (&lit - n.lits.data() < static_cast<std::ptrdiff_t>(base_.lits.size())) {
                    lit.a = substitute(lit.a, n.locals[at], value);
                    lit.b = substitute(lit.b, n.locals[at], value);
                }
            }
            n.locals[at] = pre_.at(ul);
        } else if (alt.value) {
            const auto w = static_cast<std::uint32_t>(m_.weakIndex(a.cell));
            const std::int32_t index =
                a.indices.empty() ? -1 : static_cast<std::int32_t>(scope_.procs.at(a.indices[0]));
            writes.push_back(makeAccess(w, index, newVar(n, m_.weaks[w].type)));
            n.lits.push_back(
                Lit{Term{Term::Kind::Var, writes.back().var, 0}, cub::Cmp::Eq, *alt.value});
        }
    }
    const std::size_t old = n.events.size();
    std::size_t writer = SIZE_MAX;
    if (!addEvents(n, writes, fence, writer)) {
        return;
    }
    std::vector<Node> cur{std::move(n)};
    for (std::size_t wi = 0; writer != SIZE_MAX && wi < writes.size(); ++wi) {
        if (!cohereWrite(cur, old, writes[wi], writer)) {
            return;
        }
    }
    for (std::size_t wi = 0; writer != SIZE_MAX && wi < writes.size(); ++wi) {
        if (!satisfyWrite(cur, old, writes[wi], writer)) {
            return;
        }
    }
    for (Node& c : cur) {
        if (sameSourceStep(m_, c) && orderReadsInMemory(m_, c) && orderWriterBounds(m_, c) &&
            satisfiable(c.types, c.lits, c.procs)) {
            forget(c, how_);
            out.push_back(std::move(c));
        }
    }
}

void Step::build(std::vector<Node>& out) {
    std::vector<std::size_t> digit(actions_.size(), 0);
    for (const std::vector<ActionAlt>& alts : actions_) {
        if (alts.empty()) {
            return;
        }
    }
    for (const Conj& g : guard_) {
        std::fill(digit.begin(), digit.end(), 0);
        for (;;) { // an odometer over the actions' alternatives
            std::vector<const ActionAlt*> pick;
            for (std::size_t i = 0; i < actions_.size(); ++i) {
                pick.push_back(&actions_[i][digit[i]]);
            }
            buildOne(g, pick, out);
            std::size_t i = 0;
            while (i < digit.size() && ++digit[i] == actions_[i].size()) {
                digit[i++] = 0;
            }
            if (i == digit.size()) {
                break;
            }
        }
    }
}

} // namespace

void preImage(const Model& m, const Node& node, std::uint32_t transition,
              const std::vector<std::uint32_t>& args, Forgetting how, std::vector<Node>& out) {
    Step(m, node, transition, args, how).build(out);
}

bool relevant(const Model& m, const Node& node, std::uint32_t transition,
              const std::vector<std::uint32_t>& args) {
    if (args.at(0) < node.procs) {
        return true;
    }
    const cub::TransitionDecl& t = m.sys.transitions[transition];
    for (const cub::Action& a : t.actions) {
        const int w = m.weakIndex(a.cell);
        if (w < 0) {
            continue;
        }
        std::int32_t index = -1;
        if (!a.indices.empty()) {
            const auto at = std::find(t.params.begin(), t.params.end(), a.indices[0]);
            index =
                static_cast<std::int32_t>(args[static_cast<std::size_t>(at - t.params.begin())]);
        }
        for (const Event& e : node.events) {
            for (const Access& r : e.reads) {
                if (r.source == kUnsatisfied && r.weak == static_cast<std::uint32_t>(w) &&
                    r.index == index) {
                    return true;
                }
            }
        }
    }
    return false;
}

} // namespace tsoreach::backward
