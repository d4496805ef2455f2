#include "encoding.hpp"

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>

namespace tsoreach::reach::mcr {

namespace {

bool drains(InstrKind k) {
    return k == InstrKind::Mfence || k == InstrKind::Lock || k == InstrKind::Unlock ||
           k == InstrKind::LockFor || k == InstrKind::UnlockFor;
}

// Copies the suffix's events of each thread up to `limit` (and the writes
// they issue), then the target's new event; eventMap and writeMap give the
// copies' numbers.
struct Cut {
    Problem p;
    std::vector<std::int32_t> eventMap;
    std::vector<std::int32_t> writeMap;
};

Cut cut(const Suffix& s, const std::vector<std::size_t>& limit, const Event* extra) {
    Cut c;
    Problem& p = c.p;
    const std::size_t n = s.steps.size();
    p.steps.resize(n);
    p.wrote.resize(n);
    c.eventMap.assign(s.events.size(), -1);
    c.writeMap.assign(s.writes.size(), -1);
    for (std::size_t w = 0; w < s.writes.size(); ++w) {
        if (s.writes[w].issue < 0) { // buffered in C: issued before every event
            c.writeMap[w] = static_cast<std::int32_t>(p.writes.size());
            p.wrote[s.writes[w].thread].push_back(static_cast<std::uint32_t>(p.writes.size()));
            p.writes.push_back(s.writes[w]);
        }
    }
    auto add = [&](Event e) {
        const auto idx = static_cast<std::uint32_t>(p.events.size());
        if (e.kind == InstrKind::Write) {
            const auto w = static_cast<std::uint32_t>(p.writes.size());
            if (e.write >= 0) {
                c.writeMap[static_cast<std::size_t>(e.write)] = static_cast<std::int32_t>(w);
            }
            p.writes.push_back({e.thread, e.addr, e.value, static_cast<std::int32_t>(idx)});
            p.wrote[e.thread].push_back(w);
            e.write = static_cast<std::int32_t>(w);
        }
        p.steps[e.thread].push_back(idx);
        p.events.push_back(e);
        return idx;
    };
    for (std::size_t t = 0; t < n; ++t) {
        for (std::size_t i = 0; i < limit[t]; ++i) {
            c.eventMap[s.steps[t][i]] = static_cast<std::int32_t>(add(s.events[s.steps[t][i]]));
        }
        if (extra != nullptr && extra->thread == t) {
            Event e = *extra;
            e.write = -1;
            p.target = static_cast<std::int32_t>(add(e));
        }
    }
    return c;
}

} // namespace

Problem problemFor(const Suffix& s, const Target* target) {
    std::vector<std::size_t> limit;
    for (const auto& st : s.steps) {
        limit.push_back(st.size());
    }
    if (target == nullptr) {
        return cut(s, limit, nullptr).p;
    }
    switch (target->kind) {
    case TargetKind::NewValue: {
        limit[target->thread] = target->pos; // the read is re-added as the target
        Event g = s.events[s.steps[target->thread][target->pos]];
        g.value = target->value;
        return cut(s, limit, &g).p;
    }
    case TargetKind::NewStep:
        limit[target->thread] = target->pos;
        return cut(s, limit, &target->event).p;
    case TargetKind::LockFirst: {
        Cut c = cut(s, limit, nullptr);
        c.p.target = c.eventMap[target->lock];
        return c.p;
    }
    case TargetKind::Flush: {
        Cut c = cut(s, limit, nullptr);
        c.p.targetWrite = c.writeMap[target->write];
        return c.p;
    }
    }
    return cut(s, limit, nullptr).p;
}

namespace {

// The formula of one problem, built into a fresh Z3 solver.
class Formula {
  public:
    Formula(z3::context& ctx, const Machine& m, const Config& c, const Problem& p)
        : ctx_(ctx), m_(m), c_(c), p_(p), sc_(m.model() == MemoryModel::SC),
          solver_(ctx, z3::solver::simple()), horizon_(ctx.int_const("T")) {
        z3::params ps(ctx_);
        ps.set("arith.solver", 2U); // simplex: faster than the difference-logic setup here
        solver_.set(ps);
        z3::expr_vector all(ctx_);
        for (std::size_t e = 0; e < p_.events.size(); ++e) {
            o_.push_back(ctx_.int_const(("o" + std::to_string(e)).c_str()));
            all.push_back(o_.back());
        }
        for (std::size_t w = 0; w < p_.writes.size(); ++w) {
            const Write& x = p_.writes[w];
            if (sc_) {
                v_.push_back(o_[static_cast<std::size_t>(x.issue)]);
            } else {
                v_.push_back(ctx_.int_const(("v" + std::to_string(w)).c_str()));
                all.push_back(v_.back());
            }
        }
        pos_.assign(p_.events.size(), 0);
        for (const auto& st : p_.steps) {
            for (std::size_t i = 0; i < st.size(); ++i) {
                pos_[st[i]] = static_cast<std::uint32_t>(i);
            }
        }
        for (const z3::expr& x : all) {
            solver_.add(x >= 1);
        }
        solver_.add(horizon_ >= 0);
        if (all.size() > 1) {
            solver_.add(z3::distinct(all));
        }
        programOrder();
        buffers();
        drainOrder();
        sections();
    }

    z3::solver& solver() { return solver_; }
    z3::expr inSeed(std::uint32_t e) const { return o_[e] <= horizon_; }
    z3::expr visible(std::uint32_t w) const { return v_[w] <= horizon_; }

    // Every read but `except` keeps its value if it is in the seed.
    void keepValues(std::int32_t except) {
        for (std::uint32_t e = 0; e < p_.events.size(); ++e) {
            if (p_.events[e].kind == InstrKind::Read && static_cast<std::int32_t>(e) != except) {
                solver_.add(z3::implies(inSeed(e), reads(e, p_.events[e].value)));
            }
        }
    }

    // Read e returns v (at its time O_e).
    z3::expr reads(std::uint32_t e, Value v) const;
    // Every seed event but the target has a reason to be in the seed.
    void minimal();
    // The seed leaves thread t after exactly n of its steps.
    z3::expr stepsTaken(std::size_t t, std::size_t n) const {
        return countIs(p_.steps[t], n, [&](std::uint32_t e) { return inSeed(e); });
    }
    // Excludes the seeds that reach the configuration of the current model.
    void block(const z3::model& model, const Config& reached);
    std::vector<SeedItem> seed(const z3::model& model) const;

  private:
    struct Section {
        std::uint32_t thread;
        std::optional<std::uint32_t> acquire; // none: the lock is held in C
        std::optional<std::uint32_t> release; // none: held at the end
        std::uint32_t first;                  // the position of its first step
    };
    std::vector<Section> lockSections() const;
    z3::expr eventDeps(std::uint32_t e, const z3::expr& after) const;
    z3::expr flushDeps(std::uint32_t w, const z3::expr& after) const;
    z3::expr othersAfter(std::uint32_t h, std::uint32_t e) const;
    void sectionReasons(std::vector<z3::expr>& why, std::vector<z3::expr>& whyFlush) const;
    template <class In>
    z3::expr countIs(const std::vector<std::uint32_t>& list, std::size_t n, In in) const {
        z3::expr r = ctx_.bool_val(true);
        if (n > 0) {
            r = r && in(list[n - 1]);
        }
        if (n < list.size()) {
            r = r && !in(list[n]);
        }
        return r;
    }
    bool before(std::uint32_t w, std::uint32_t e) const { // write w issued before event e
        const std::int32_t i = p_.writes[w].issue;
        return i < 0 || pos_[static_cast<std::uint32_t>(i)] < pos_[e];
    }
    void programOrder();
    void buffers();
    void drainOrder();
    void sections();
    z3::expr memoryValue(Value addr, Value v) const;
    std::vector<std::uint32_t> writesTo(Value addr) const {
        std::vector<std::uint32_t> r;
        for (std::uint32_t w = 0; w < p_.writes.size(); ++w) {
            if (p_.writes[w].addr == addr) {
                r.push_back(w);
            }
        }
        return r;
    }
    // The channels of the buffers: by thread (TSO) or thread and address (PSO).
    std::vector<std::vector<std::uint32_t>> channels() const;

    z3::context& ctx_;
    const Machine& m_;
    const Config& c_;
    const Problem& p_;
    bool sc_;
    z3::solver solver_;
    z3::expr horizon_;
    std::vector<z3::expr> o_;
    std::vector<z3::expr> v_;
    std::vector<std::uint32_t> pos_;
};

void Formula::programOrder() {
    for (const auto& st : p_.steps) {
        for (std::size_t i = 0; i + 1 < st.size(); ++i) {
            solver_.add(o_[st[i]] < o_[st[i + 1]]);
        }
    }
    if (sc_) {
        return;
    }
    for (std::uint32_t w = 0; w < p_.writes.size(); ++w) {
        if (p_.writes[w].issue >= 0) {
            solver_.add(o_[static_cast<std::uint32_t>(p_.writes[w].issue)] < v_[w]);
        }
    }
}

std::vector<std::vector<std::uint32_t>> Formula::channels() const {
    std::vector<std::vector<std::uint32_t>> out;
    for (const auto& list : p_.wrote) {
        if (m_.model() != MemoryModel::PSO) {
            out.push_back(list);
            continue;
        }
        std::map<Value, std::vector<std::uint32_t>> byAddr;
        for (std::uint32_t w : list) {
            byAddr[p_.writes[w].addr].push_back(w);
        }
        for (auto& [addr, ws] : byAddr) {
            out.push_back(std::move(ws));
        }
    }
    return out;
}

void Formula::buffers() {
    if (sc_) {
        return;
    }
    for (const auto& ch : channels()) {
        for (std::size_t i = 0; i + 1 < ch.size(); ++i) {
            solver_.add(v_[ch[i]] < v_[ch[i + 1]]);
        }
    }
}

void Formula::drainOrder() {
    if (sc_) {
        return;
    }
    for (std::uint32_t e = 0; e < p_.events.size(); ++e) {
        const Event& d = p_.events[e];
        if (!drains(d.kind)) {
            continue;
        }
        for (std::uint32_t w : p_.wrote[d.thread]) {
            if (before(w, e) && (!d.hasAddr || p_.writes[w].addr == d.addr)) {
                solver_.add(v_[w] < o_[e]);
            }
        }
    }
}

// No step or flush of another thread inside a section of the lock.
void Formula::sections() {
    for (std::uint32_t h = 0; h < p_.steps.size(); ++h) {
        std::optional<std::uint32_t> lock;
        bool open = c_.holder == static_cast<std::int32_t>(h);
        auto exclude = [&](std::optional<std::uint32_t> l, std::optional<std::uint32_t> u) {
            auto outside = [&](const z3::expr& time) {
                z3::expr r = horizon_ < time;
                if (l) {
                    r = r || time < o_[*l];
                }
                if (u) {
                    r = r || o_[*u] < time;
                }
                return r;
            };
            for (std::uint32_t e = 0; e < p_.events.size(); ++e) {
                if (p_.events[e].thread != h) {
                    solver_.add(outside(o_[e]));
                }
            }
            for (std::uint32_t w = 0; w < p_.writes.size() && !sc_; ++w) {
                if (p_.writes[w].thread != h) {
                    solver_.add(outside(v_[w]));
                }
            }
        };
        for (std::uint32_t e : p_.steps[h]) {
            const InstrKind k = p_.events[e].kind;
            if (takesLock(k)) {
                open = true;
                lock = e;
            } else if (releasesLock(k) && open) {
                exclude(lock, e);
                open = false;
                lock.reset();
            }
        }
        if (open) {
            exclude(lock, std::nullopt);
        }
    }
}

// At the horizon, memory holds v at addr.
z3::expr Formula::memoryValue(Value addr, Value v) const {
    const std::vector<std::uint32_t> ws = writesTo(addr);
    z3::expr r = ctx_.bool_val(false);
    for (std::uint32_t w : ws) {
        if (p_.writes[w].value != v) {
            continue;
        }
        z3::expr last = visible(w);
        for (std::uint32_t x : ws) {
            if (x != w) {
                last = last && (!visible(x) || v_[x] < v_[w]);
            }
        }
        r = r || last;
    }
    if (m_.memoryAt(c_, addr) == v) {
        z3::expr none = ctx_.bool_val(true);
        for (std::uint32_t x : ws) {
            none = none && !visible(x);
        }
        r = r || none;
    }
    return r;
}

z3::expr Formula::reads(std::uint32_t e, Value v) const {
    const Event& r = p_.events[e];
    const std::vector<std::uint32_t> ws = writesTo(r.addr);
    // From memory: w is the write to r.addr visible last before O_e.
    z3::expr fromMemory = ctx_.bool_val(false);
    for (std::uint32_t w : ws) {
        if (p_.writes[w].value != v) {
            continue;
        }
        z3::expr last = v_[w] < o_[e];
        for (std::uint32_t x : ws) {
            if (x != w) {
                last = last && (v_[x] < v_[w] || o_[e] < v_[x]);
            }
        }
        fromMemory = fromMemory || last;
    }
    if (m_.memoryAt(c_, r.addr) == v) {
        z3::expr none = ctx_.bool_val(true);
        for (std::uint32_t x : ws) {
            none = none && o_[e] < v_[x];
        }
        fromMemory = fromMemory || none;
    }
    if (sc_) {
        return fromMemory;
    }
    // From the own buffer: the newest own write to r.addr before e, while
    // it is not visible.
    std::optional<std::uint32_t> own;
    for (std::uint32_t w : p_.wrote[r.thread]) {
        if (p_.writes[w].addr == r.addr && before(w, e)) {
            own = w;
        }
    }
    if (!own) {
        return fromMemory;
    }
    const z3::expr buffered = o_[e] < v_[*own];
    return (buffered && ctx_.bool_val(p_.writes[*own].value == v)) || (!buffered && fromMemory);
}

// Why event e may stay in a seed besides program order: a dependent event
// or flush in the seed later than `after` (e's own time, or for a section
// the release's). Lock events are not dependent with everything: see
// minimal().
z3::expr Formula::eventDeps(std::uint32_t e, const z3::expr& after) const {
    const Event& a = p_.events[e];
    auto conflict = [&](const Event& x) { // SC memory accesses
        return accessesMemory(a.kind) && accessesMemory(x.kind) && a.addr == x.addr &&
               (a.kind == InstrKind::Write || x.kind == InstrKind::Write);
    };
    z3::expr later = ctx_.bool_val(false);
    for (std::uint32_t b = 0; b < p_.events.size() && sc_; ++b) {
        if (p_.events[b].thread != a.thread && conflict(p_.events[b])) {
            later = later || (inSeed(b) && after < o_[b]);
        }
    }
    for (std::uint32_t w = 0; w < p_.writes.size() && !sc_; ++w) {
        const Write& x = p_.writes[w];
        const bool reads = a.kind == InstrKind::Read && x.addr == a.addr;
        const bool dep = x.thread == a.thread
                             ? x.issue == static_cast<std::int32_t>(e) || drains(a.kind) || reads
                             : reads;
        if (dep) {
            later = later || (visible(w) && after < v_[w]);
        }
    }
    return later;
}

// Why the flush of write w may be in a seed: a later read of its address,
// drain of its thread, or flush of its channel or address (later than
// `after`: the flush's own time, or a section's release).
z3::expr Formula::flushDeps(std::uint32_t w, const z3::expr& after) const {
    const Write& a = p_.writes[w];
    z3::expr later = ctx_.bool_val(false);
    for (std::uint32_t b = 0; b < p_.events.size(); ++b) {
        const Event& x = p_.events[b];
        if ((x.kind == InstrKind::Read && x.addr == a.addr) ||
            (x.thread == a.thread && drains(x.kind))) {
            later = later || (inSeed(b) && after < o_[b]);
        }
    }
    for (std::uint32_t y = 0; y < p_.writes.size(); ++y) {
        const Write& x = p_.writes[y];
        const bool sameChannel =
            x.thread == a.thread && (m_.model() != MemoryModel::PSO || x.addr == a.addr);
        if (y != w && (sameChannel || x.addr == a.addr)) {
            later = later || (visible(y) && after < v_[y]);
        }
    }
    return later;
}

// Some step or flush of a thread other than h is in the seed after event e.
z3::expr Formula::othersAfter(std::uint32_t h, std::uint32_t e) const {
    z3::expr r = ctx_.bool_val(false);
    for (std::uint32_t b = 0; b < p_.events.size(); ++b) {
        if (p_.events[b].thread != h) {
            r = r || (inSeed(b) && o_[e] < o_[b]);
        }
    }
    for (std::uint32_t w = 0; w < p_.writes.size() && !sc_; ++w) {
        if (p_.writes[w].thread != h) {
            r = r || (visible(w) && o_[e] < v_[w]);
        }
    }
    return r;
}

// Each thread's lock sections in the problem: the acquire (none: held in
// C) and the release (none: still held at the end of the problem).
std::vector<Formula::Section> Formula::lockSections() const {
    std::vector<Section> out;
    for (std::uint32_t h = 0; h < p_.steps.size(); ++h) {
        bool open = c_.holder == static_cast<std::int32_t>(h);
        Section cur{h, std::nullopt, std::nullopt, 0};
        for (std::uint32_t i = 0; i < p_.steps[h].size(); ++i) {
            const InstrKind k = p_.events[p_.steps[h][i]].kind;
            if (takesLock(k)) {
                open = true;
                cur = Section{h, p_.steps[h][i], std::nullopt, i};
            } else if (releasesLock(k) && open) {
                cur.release = p_.steps[h][i];
                out.push_back(cur);
                open = false;
                cur = Section{h, std::nullopt, std::nullopt, i + 1};
            }
        }
        if (open) {
            out.push_back(cur);
        }
    }
    return out;
}

// The reasons lock sections give (see minimal()).
void Formula::sectionReasons(std::vector<z3::expr>& why, std::vector<z3::expr>& whyFlush) const {
    for (const Section& sec : lockSections()) {
        const auto& st = p_.steps[sec.thread];
        // The unit stays for what its members and their stores' flushes
        // depend on after it.
        for (std::uint32_t i = sec.first; sec.release && st[i] != *sec.release; ++i) {
            const z3::expr& u = o_[*sec.release];
            why[*sec.release] = why[*sec.release] || eventDeps(st[i], u);
            const std::int32_t w = p_.events[st[i]].write;
            if (w >= 0 && !sc_) {
                why[*sec.release] =
                    why[*sec.release] || flushDeps(static_cast<std::uint32_t>(w), u);
            }
        }
        if (!sec.acquire) {
            // Held in C: every step and flush of another thread in the seed
            // comes after the release, so each may be why it is there.
            if (sec.release) {
                why[*sec.release] = why[*sec.release] || othersAfter(sec.thread, *sec.release);
            }
            continue;
        }
        const std::uint32_t l = *sec.acquire;
        const z3::expr open =
            inSeed(l) && (sec.release ? !inSeed(*sec.release) : ctx_.bool_val(true));
        for (std::uint32_t e = 0; e < why.size(); ++e) {
            if (p_.events[e].thread != sec.thread) {
                why[e] = why[e] || (open && o_[e] < o_[l]);
            }
        }
        for (std::uint32_t w = 0; w < whyFlush.size(); ++w) {
            if (p_.writes[w].thread != sec.thread) {
                whyFlush[w] = whyFlush[w] || (open && v_[w] < o_[l]);
            }
        }
    }
}

// A seed is minimal when every event but the target has a reason to be in
// it. A section whose acquire and release are in the seed is one unit: its
// release may stay for any reason of a member. A section held in C must
// end before any step or flush of another thread, so its release may stay
// for any of them. A section still open at the end of the seed must come
// after every earlier step and flush of other threads (none can run inside
// it), so those may stay for it.
void Formula::minimal() {
    const auto n = static_cast<std::uint32_t>(p_.events.size());
    std::vector<z3::expr> why;
    for (std::uint32_t e = 0; e < n; ++e) {
        why.push_back(eventDeps(e, o_[e]));
    }
    std::vector<z3::expr> whyFlush;
    for (std::uint32_t w = 0; w < p_.writes.size() && !sc_; ++w) {
        whyFlush.push_back(flushDeps(w, v_[w]));
    }
    sectionReasons(why, whyFlush);
    for (std::uint32_t e = 0; e < n; ++e) {
        if (static_cast<std::int32_t>(e) == p_.target) {
            continue;
        }
        const auto& st = p_.steps[p_.events[e].thread];
        z3::expr later = why[e];
        if (pos_[e] + 1 < st.size()) {
            later = later || inSeed(st[pos_[e] + 1]); // program order
        }
        solver_.add(z3::implies(inSeed(e), later));
    }
    for (std::uint32_t w = 0; w < whyFlush.size(); ++w) {
        if (static_cast<std::int32_t>(w) != p_.targetWrite) {
            solver_.add(z3::implies(visible(w), whyFlush[w]));
        }
    }
}

void Formula::block(const z3::model& model, const Config& reached) {
    auto isTrue = [&](const z3::expr& x) { return model.eval(x, true).is_true(); };
    z3::expr same = ctx_.bool_val(true);
    for (std::size_t t = 0; t < p_.steps.size(); ++t) {
        std::size_t k = 0;
        while (k < p_.steps[t].size() && isTrue(inSeed(p_.steps[t][k]))) {
            ++k;
        }
        same = same && stepsTaken(t, k);
    }
    if (!sc_) {
        for (const auto& ch : channels()) {
            std::size_t k = 0;
            while (k < ch.size() && isTrue(visible(ch[k]))) {
                ++k;
            }
            same = same && countIs(ch, k, [&](std::uint32_t w) { return visible(w); });
        }
    }
    std::map<Value, bool> addrs;
    for (const Write& w : p_.writes) {
        addrs[w.addr] = true;
    }
    for (const auto& [addr, unused] : addrs) {
        same = same && memoryValue(addr, m_.memoryAt(reached, addr));
    }
    solver_.add(!same);
}

std::vector<SeedItem> Formula::seed(const z3::model& model) const {
    std::vector<std::pair<std::int64_t, SeedItem>> items;
    auto timeOf = [&](const z3::expr& x) { return model.eval(x, true).get_numeral_int64(); };
    const std::int64_t horizon = timeOf(horizon_);
    for (std::uint32_t e = 0; e < p_.events.size(); ++e) {
        if (timeOf(o_[e]) <= horizon) {
            items.push_back({timeOf(o_[e]), SeedItem{false, p_.events[e].thread, e}});
        }
    }
    for (std::uint32_t w = 0; w < p_.writes.size() && !sc_; ++w) {
        if (timeOf(v_[w]) <= horizon) {
            items.push_back({timeOf(v_[w]), SeedItem{true, p_.writes[w].thread, w}});
        }
    }
    std::sort(items.begin(), items.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<SeedItem> out;
    for (const auto& [time, item] : items) {
        out.push_back(item);
    }
    return out;
}

} // namespace

struct Solver::Impl {
    explicit Impl(MemoryModel m) : model(m) {}
    MemoryModel model;
    z3::context ctx;
};

Solver::Solver(MemoryModel model) : impl_(std::make_unique<Impl>(model)) {}
Solver::~Solver() = default;

void Solver::interrupt() {
    impl_->ctx.interrupt();
}

namespace {

// Runs f; a Z3 error (e.g. "canceled" when the watchdog interrupts the
// context while a formula is built) becomes SolverGaveUp.
template <class F> auto guarded(F f) {
    try {
        return f();
    } catch (const z3::exception& e) {
        throw SolverGaveUp{e.msg()};
    }
}

// One check, counted and timed.
z3::check_result check(z3::solver& s, SmtStats& stats) {
    const auto start = std::chrono::steady_clock::now();
    const z3::check_result r = s.check();
    stats.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++stats.queries;
    if (r == z3::sat) {
        ++stats.sat;
    } else if (r == z3::unsat) {
        ++stats.unsat;
    } else {
        throw SolverGaveUp{s.reason_unknown()};
    }
    return r;
}

} // namespace

void Solver::enumerate(
    const Machine& m, const Config& c, const Problem& p, const Target& target,
    const std::function<std::optional<Config>(const std::vector<SeedItem>&)>& accept,
    SmtStats& stats) {
    guarded([&] {
        Formula f(impl_->ctx, m, c, p);
        f.keepValues(target.kind == TargetKind::NewValue || target.kind == TargetKind::NewStep
                         ? p.target
                         : -1);
        switch (target.kind) {
        case TargetKind::NewValue:
        case TargetKind::NewStep: {
            const auto g = static_cast<std::uint32_t>(p.target);
            f.solver().add(f.inSeed(g));
            if (p.events[g].kind == InstrKind::Read) {
                f.solver().add(f.reads(g, target.value));
            }
            break;
        }
        case TargetKind::LockFirst:
            f.solver().add(f.inSeed(static_cast<std::uint32_t>(p.target)));
            f.solver().add(!f.inSeed(p.steps[target.thread][target.pos]));
            break;
        case TargetKind::Flush:
            f.solver().add(f.visible(static_cast<std::uint32_t>(p.targetWrite)));
            break;
        }
        f.minimal();
        while (check(f.solver(), stats) == z3::sat) {
            const z3::model model = f.solver().get_model();
            const std::optional<Config> reached = accept(f.seed(model));
            if (!reached) {
                return;
            }
            f.block(model, *reached);
        }
    });
}

std::optional<std::vector<SeedItem>> Solver::goalSeed(const Machine& m, const Config& c,
                                                      const Problem& p, const Goal& goal,
                                                      SmtStats& stats) {
    return guarded([&]() -> std::optional<std::vector<SeedItem>> {
        Formula f(impl_->ctx, m, c, p);
        f.keepValues(-1);
        const Program& prog = m.program();
        z3::expr any = impl_->ctx.bool_val(false);
        for (std::size_t term = 0; term < goal.termCount(); ++term) {
            z3::expr all = impl_->ctx.bool_val(true);
            for (ThreadId t : goal.termThreads(term)) {
                const auto& st = p.steps[t.index()];
                z3::expr at = impl_->ctx.bool_val(false);
                StateId pc = c.pc[t.index()];
                for (std::size_t k = 0; k <= st.size(); ++k) {
                    if (k > 0) {
                        pc = prog.transition(p.events[st[k - 1]].tr).to;
                    }
                    if (goal.termAccepts(term, t, pc)) {
                        at = at || f.stepsTaken(t.index(), k);
                    }
                }
                all = all && at;
            }
            any = any || all;
        }
        f.solver().add(any);
        if (check(f.solver(), stats) != z3::sat) {
            return std::nullopt;
        }
        return f.seed(f.solver().get_model());
    });
}

} // namespace tsoreach::reach::mcr
