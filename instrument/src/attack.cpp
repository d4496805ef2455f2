#include "tsoreach/instrument/attack.hpp"

#include "tsoreach/lang/builder.hpp"
#include "tsoreach/lang/value_sets.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <optional>

namespace tsoreach::instrument {

namespace {

// The control graph of t without fence, lock and unlock transitions: a store
// may still be buffered at the states it reaches in this graph.
using FenceFreeGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

FenceFreeGraph fenceFreeGraph(const Program& p, const Thread& t) {
    FenceFreeGraph g(t.stateCount());
    for (TransitionId id : t.transitions) {
        const Transition& tr = p.transition(id);
        const InstrKind k = tr.instr.kind;
        if (k != InstrKind::Mfence && k != InstrKind::Lock && k != InstrKind::Unlock) {
            boost::add_edge(tr.from.index(), tr.to.index(), g);
        }
    }
    return g;
}

// Fewest transitions from `from` to each control state in g (-1:
// unreachable). `dist` is reused across calls, so that a thread with
// thousands of stores does not allocate per store.
void distancesFrom(const FenceFreeGraph& g, StateId from, std::vector<std::int64_t>& dist) {
    dist.assign(boost::num_vertices(g), -1);
    dist[from.index()] = 0;
    auto distances =
        boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g));
    boost::breadth_first_search(g, from.index(),
                                boost::visitor(boost::make_bfs_visitor(
                                    boost::record_distances(distances, boost::on_tree_edge()))));
}

// Builds the instrumented program. States of each copy get a distinct
// two-character prefix, so no two names collide: "o|" original, "a|"
// attacker, "h|" helper, "b|" locked block, "m|N" intermediate steps.
//
// Shadow cells (buffer value, buffered flag, hb mark) exist for each address
// the program can access, above the highest one. An access with a computed
// address branches on the value of its address expression (the value-set
// analysis gives the finite set of candidates), so that every shadow access
// has a constant address.
class AttackWriter {
  public:
    AttackWriter(const Program& p, AttackFamily attack, const AddressSets& sets,
                 const StopCondition& stop)
        : p_(p), attack_(std::move(attack)), sets_(sets), b_("attack", stop), poll_(stop) {
        checkSupported(p, sets);
        addrs_ = sets_.all.values;
        // Shadow cells live above every address of the program and every
        // declared cell (which may start at another value than 0).
        base_ = std::max((addrs_.empty() ? 0 : addrs_.back()) + 1, p.memory.end());
        b_.setMemory(p.memory);
        scratch_ = freshRegister("$z");
        inBlock_ = freshRegister("$in");
        conflict_ = freshRegister("$ok");
        storeAddr_ = freshRegister("$w");
    }

    // A register name no thread uses and no memory variable has.
    std::string freshRegister(std::string name) const {
        for (bool clash = true; clash;) {
            clash = p_.memory.find(name).valid();
            if (clash) {
                name += "$";
            }
            for (const Thread& t : p_.threads) {
                if (findReg(t, name).valid()) {
                    name += "$";
                    clash = true;
                }
            }
        }
        return name;
    }

    AttackProgram run() {
        storeAddrs_ = storeAddrs();
        for (std::size_t i = 0; i < p_.threads.size(); ++i) {
            thread(ThreadId(static_cast<std::uint32_t>(i)));
        }
        return {b_.build(), std::move(origins_)};
    }

  private:
    enum Shadow { Buf = 0, IsBuf = 1, Hb = 2 };
    static constexpr int hbRead = 1;
    static constexpr int hbWrite = 2;

    // One address an access can touch, and the check that selects it (empty
    // when the address is a constant).
    struct Target {
        std::vector<Instr> guard;
        Value addr = 0;
    };

    std::size_t index(const Transition& tr) const {
        return static_cast<std::size_t>(&tr - p_.transitions.data());
    }

    bool computed(const Transition& tr) const {
        return !constantValue(p_.expr(tr.instr.addr)).has_value();
    }

    std::vector<Target> targets(const Transition& tr) {
        if (std::optional<Value> a = constantValue(p_.expr(tr.instr.addr))) {
            return {Target{{}, *a}};
        }
        std::vector<Target> out;
        const Expr addr = b_.copy(p_, p_.thread(tr.thread), tr.instr.addr).unnamed();
        for (Value v : sets_.byTransition[index(tr)].values) {
            out.push_back(Target{{Instr::check(eq(addr, num(v)))}, v});
        }
        return out;
    }

    // `instrs` after the target's guard.
    static std::vector<Instr> guarded(const Target& at, std::vector<Instr> instrs) {
        instrs.insert(instrs.begin(), at.guard.begin(), at.guard.end());
        return instrs;
    }

    // Expressions and instructions of the thread being built.
    static Expr num(Value v) { return Expr::constant(v); }
    Expr reg(const std::string& name) { return Expr::reg(b_.reg(name)); }
    static Expr eq(const Expr& a, const Expr& b) { return Expr::apply(ExprOp::Eq, a, b); }
    static Expr ne(const Expr& a, const Expr& b) { return Expr::apply(ExprOp::Ne, a, b); }
    static Expr both(const Expr& a, const Expr& b) { return Expr::apply(ExprOp::And, a, b); }
    static Expr either(const Expr& a, const Expr& b) { return Expr::apply(ExprOp::Or, a, b); }
    static Expr odd(const Expr& a, Value parity) {
        return eq(Expr::apply(ExprOp::Rem, a, num(2)), num(parity));
    }
    Instr read(const std::string& r, Value addr) { return Instr::read(b_.reg(r), num(addr)); }
    Instr local(const std::string& r, Value v) { return Instr::local(b_.reg(r), num(v)); }
    static Instr write(Value v, Value addr) { return Instr::write(num(v), num(addr)); }
    // The scratch register's test against v.
    Instr scratchIs(Value v) { return Instr::check(eq(reg(scratch_), num(v))); }

    // Set once the attack load has executed: every hb mark comes after it.
    Value loadedCell() const { return base_ + 3 * static_cast<Value>(addrs_.size()); }

    Value shadow(Shadow kind, Value addr) const {
        const auto i = static_cast<Value>(std::lower_bound(addrs_.begin(), addrs_.end(), addr) -
                                          addrs_.begin());
        return base_ + static_cast<Value>(kind) * static_cast<Value>(addrs_.size()) + i;
    }

    std::string fresh() { return "m|" + std::to_string(counter_++); }

    void edge(const std::string& from, const std::string& to, const Instr& instr,
              StepOrigin origin = {}) {
        // Programs of thousands of transitions take seconds to instrument.
        if (origins_.size() % 64 == 0) {
            poll_.throwIfStopped();
        }
        const StateId f = b_.state(from);
        const StateId t = b_.state(to);
        b_.addTransition(f, t, instr,
                         origin.original.valid() ? p_.transition(origin.original).pos
                                                 : SourcePos{});
        origins_.push_back(origin);
    }

    // A chain of instructions from `from` to `to` through fresh states; the
    // one at index `real` executes the original instruction `origin`.
    void chain(const std::string& from, const std::string& to, const std::vector<Instr>& instrs,
               std::size_t real = npos, StepOrigin origin = {}) {
        std::string cur = from;
        for (std::size_t i = 0; i < instrs.size(); ++i) {
            std::string next = i + 1 == instrs.size() ? to : fresh();
            edge(cur, next, instrs[i], i == real ? origin : StepOrigin{});
            cur = next;
        }
    }

    // The same, after the guard of `at` (`real` counts from after it).
    void chain(const Target& at, const std::string& from, const std::string& to,
               const std::vector<Instr>& instrs, std::size_t real = npos, StepOrigin origin = {}) {
        chain(from, to, guarded(at, instrs), real == npos ? npos : real + at.guard.size(), origin);
    }

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    void thread(ThreadId tid) {
        const Thread& t = p_.thread(tid);
        const bool attacker = tid == attack_.thread;
        auto name = [&](const char* prefix, StateId s) {
            return std::string(prefix) + t.stateNames[s.index()];
        };
        b_.addThread(t.name, name("o|", t.initial), t.pos);
        if (attacker) {
            b_.addFinal(b_.state("success"));
        }
        for (TransitionId id : t.transitions) {
            const Transition& tr = p_.transition(id);
            const std::string from = name("o|", tr.from);
            const std::string to = name("o|", tr.to);
            const Instr instr = b_.copy(p_, tr);
            if (!attacker && tr.instr.kind == InstrKind::Lock) {
                // Remember being inside a locked block: a block joins the
                // helpers only as a whole (see blockCopy).
                chain(from, to, {instr, local(inBlock_, 1)}, 0, {id, false});
            } else if (!attacker && tr.instr.kind == InstrKind::Unlock) {
                // Cleared before the lock is free, so that no other thread
                // moves between the two steps (one interleaving point less).
                chain(from, to, {local(inBlock_, 0), instr}, 1, {id, false});
            } else {
                edge(from, to, instr, {id, false});
            }
        }
        if (attacker) {
            attackerCopy(t, name);
        } else {
            helperCopy(t, tid, name);
        }
    }

    // Every address a store that may start the attack can write, sorted.
    std::vector<Value> storeAddrs() const {
        std::vector<Value> addrs;
        for (TransitionId store : attack_.stores) {
            const Transition& w = p_.transition(store);
            if (std::optional<Value> a = constantValue(p_.expr(w.instr.addr))) {
                addrs.push_back(*a);
            } else {
                const std::vector<Value>& vs = sets_.byTransition[index(w)].values;
                addrs.insert(addrs.end(), vs.begin(), vs.end());
            }
        }
        std::sort(addrs.begin(), addrs.end());
        addrs.erase(std::unique(addrs.begin(), addrs.end()), addrs.end());
        return addrs;
    }

    // The success test needs the address of the store that started the
    // attack when there are several.
    bool recordsStoreAddr() const { return storeAddrs_.size() > 1; }

    template <class Name> void attackerCopy(const Thread& t, Name&& name) {
        for (TransitionId store : attack_.stores) {
            const Transition& w = p_.transition(store);
            const Expr value = b_.copy(p_, t, w.instr.value);
            // Becoming the attacker: w's store goes to the buffer, not memory.
            for (const Target& at : targets(w)) {
                std::vector<Instr> steps{Instr::write(value, num(shadow(Buf, at.addr))),
                                         write(1, shadow(IsBuf, at.addr))};
                if (recordsStoreAddr()) {
                    steps.push_back(local(storeAddr_, at.addr));
                }
                chain(at, name("o|", w.from), name("a|", w.to), steps, 0, {store, true});
            }
        }
        for (TransitionId id : t.transitions) {
            const Transition& tr = p_.transition(id);
            const std::string from = name("a|", tr.from);
            const std::string to = name("a|", tr.to);
            switch (tr.instr.kind) {
            case InstrKind::Write:
                for (const Target& at : targets(tr)) {
                    chain(at, from, to,
                          {Instr::write(b_.copy(p_, t, tr.instr.value), num(shadow(Buf, at.addr))),
                           write(1, shadow(IsBuf, at.addr))},
                          0, {id, true});
                }
                break;
            case InstrKind::Read:
                for (const Target& at : targets(tr)) {
                    attackerRead(t, id, at, from, to);
                }
                break;
            case InstrKind::Mfence:
            case InstrKind::Lock:
            case InstrKind::Unlock:
                // These drain the buffer, and the attacker never does (W2):
                // the load must be reached from the store without them.
                break;
            default:
                edge(from, to, b_.copy(p_, tr), {id, true});
                break;
            }
        }
        // Success: something hb-after the load touched w's address, so w's
        // late flush closes a happens-before cycle; once no locked block is
        // open, so that the late flushes can run.
        // Without locks in the program nothing can be open, and a lock here
        // would make every step of the others dependent (partial-order
        // reduction stops at threads that may still take a lock).
        const bool locks =
            std::any_of(p_.transitions.begin(), p_.transitions.end(),
                        [](const Transition& tr) { return tr.instr.kind == InstrKind::Lock; });
        for (Value a : storeAddrs_) {
            std::vector<Instr> steps{read(scratch_, shadow(Hb, a)),
                                     Instr::check(ne(reg(scratch_), num(0)))};
            if (locks) {
                steps.push_back(Instr::plain(InstrKind::Lock));
                steps.push_back(Instr::plain(InstrKind::Unlock));
            }
            if (recordsStoreAddr()) {
                steps.insert(steps.begin(), Instr::check(eq(reg(storeAddr_), num(a))));
            }
            chain("prefinal", "success", steps);
        }
    }

    // The attacker's load: the newest own buffered store, else memory.
    void attackerRead(const Thread& t, TransitionId id, const Target& at, const std::string& from,
                      const std::string& to) {
        const Value a = at.addr;
        const std::string& reg = t.regNames[p_.transition(id).instr.reg.index()];
        const std::string test = fresh();
        chain(at, from, test, {read(scratch_, shadow(IsBuf, a))});
        chain(test, to, {scratchIs(1), read(reg, shadow(Buf, a))}, 1, {id, true});
        chain(test, to, {scratchIs(0), read(reg, a)}, 1, {id, true});
        if (std::find(attack_.loads.begin(), attack_.loads.end(), id) != attack_.loads.end()) {
            // The attack load reads memory (W4) and ends the attacker.
            chain(at, from, "prefinal",
                  {read(scratch_, shadow(IsBuf, a)), scratchIs(0), read(reg, a),
                   write(hbRead, shadow(Hb, a)), write(1, loadedCell())},
                  2, {id, true});
        }
    }

    template <class Name> void helperCopy(const Thread& t, ThreadId tid, Name&& name) {
        for (TransitionId id : t.transitions) {
            const Transition& tr = p_.transition(id);
            const std::string orig = name("o|", tr.from);
            const std::string from = name("h|", tr.from);
            const std::string to = name("h|", tr.to);
            switch (tr.instr.kind) {
            case InstrKind::Read:
                for (const Target& at : targets(tr)) {
                    const Instr read = b_.copy(p_, tr);
                    const Value hb = shadow(Hb, at.addr);
                    // Enter helper mode by reading what a helper wrote.
                    chain(at, orig, to,
                          {Instr::check(eq(reg(inBlock_), num(0))), this->read(scratch_, hb),
                           Instr::check(written()), read},
                          3, {id, false});
                    // In helper mode a load marks its address read, unless
                    // written. (The guard comes first: the read may change
                    // the registers of the address expression.)
                    const std::string mark = fresh();
                    chain(at, from, mark, {read, this->read(scratch_, hb)}, 0, {id, false});
                    edge(mark, to, Instr::check(written()));
                    chain(mark, to,
                          {Instr::check(Expr::apply(ExprOp::Not, written())), write(hbRead, hb)});
                }
                break;
            case InstrKind::Write:
                for (const Target& at : targets(tr)) {
                    const Instr write = b_.copy(p_, tr);
                    const Value hb = shadow(Hb, at.addr);
                    const Instr markWrite = this->write(hbWrite, hb);
                    // Enter helper mode by overwriting what was read or
                    // written after the load.
                    chain(at, orig, to,
                          {Instr::check(eq(reg(inBlock_), num(0))), read(scratch_, hb),
                           Instr::check(ne(reg(scratch_), num(0))), write, markWrite},
                          3, {id, false});
                    chain(at, from, to, {write, markWrite}, 0, {id, false});
                }
                break;
            default:
                edge(from, to, b_.copy(p_, tr), {id, false});
                break;
            }
        }
        blockCopy(t, tid, name);
    }

    // The marks of the hb-after region: 0 none, odd read, even write. Plain
    // helpers mark 1 and 2; an open locked block of thread i marks 2i+3 and
    // 2i+4, so that it can tell its own marks from earlier ones.
    Expr written() { return both(ne(reg(scratch_), num(0)), odd(reg(scratch_), 0)); }

    // A locked block runs as a unit, so it is hb-after the load as a whole
    // or not at all. At `lock` a thread may guess that it will be: in the
    // block copy ("b|") every event marks with the thread's own values, and
    // `conflict` records whether one of them conflicts with a mark made
    // before the block; `unlock` then continues in helper mode only if one
    // did. A wrong guess leaves the thread stuck holding the lock, and the
    // attacker's success needs the lock, so its marks never count.
    template <class Name> void blockCopy(const Thread& t, ThreadId tid, Name&& name) {
        for (TransitionId id : t.transitions) {
            const Transition& tr = p_.transition(id);
            const std::string from = name("b|", tr.from);
            const std::string to = name("b|", tr.to);
            const Instr instr = b_.copy(p_, tr);
            switch (tr.instr.kind) {
            case InstrKind::Lock:
                // Before the attack load there is no mark to conflict with,
                // so the guess could only get the thread stuck: not taken.
                chain(name("o|", tr.from), to,
                      {instr, read(scratch_, loadedCell()), Instr::check(ne(reg(scratch_), num(0))),
                       local(conflict_, 0)},
                      0, {id, false});
                break;
            case InstrKind::Unlock:
                chain(from, name("h|", tr.to), {Instr::check(eq(reg(conflict_), num(1))), instr}, 1,
                      {id, false});
                break;
            case InstrKind::Read:
                for (const Target& at : targets(tr)) {
                    blockRead(tid, id, at, from, to, instr);
                }
                break;
            case InstrKind::Write:
                for (const Target& at : targets(tr)) {
                    blockWrite(tid, id, at, from, to, instr);
                }
                break;
            default:
                edge(from, to, instr, {id, false});
                break;
            }
        }
    }

    Value ownRead(ThreadId tid) const { return 2 * static_cast<Value>(tid.index()) + 3; }
    Value ownWrite(ThreadId tid) const { return 2 * static_cast<Value>(tid.index()) + 4; }

    void blockRead(ThreadId tid, TransitionId id, const Target& at, const std::string& from,
                   const std::string& to, const Instr& instr) {
        const Value hb = shadow(Hb, at.addr);
        const std::string marked = fresh();
        chain(at, from, marked, {instr, read(scratch_, hb)}, 0, {id, false});
        // Written before the block: a conflict.
        chain(marked, to,
              {Instr::check(both(written(), ne(reg(scratch_), num(ownWrite(tid))))),
               local(conflict_, 1)});
        // Untouched: mark it read by the block.
        chain(marked, to, {scratchIs(0), write(ownRead(tid), hb)});
        // Read before, or written by the block: nothing to do.
        edge(marked, to,
             Instr::check(either(eq(reg(scratch_), num(ownWrite(tid))), odd(reg(scratch_), 1))));
    }

    void blockWrite(ThreadId tid, TransitionId id, const Target& at, const std::string& from,
                    const std::string& to, const Instr& instr) {
        const Value hb = shadow(Hb, at.addr);
        const Expr z = reg(scratch_);
        const std::string seen = fresh();
        const std::string store = fresh();
        chain(at, from, seen, {read(scratch_, hb)});
        // Touched before the block: a conflict.
        chain(seen, store,
              {Instr::check(
                   both(ne(z, num(0)), both(ne(z, num(ownRead(tid))), ne(z, num(ownWrite(tid)))))),
               local(conflict_, 1)});
        edge(seen, store,
             Instr::check(either(eq(z, num(0)),
                                 either(eq(z, num(ownRead(tid))), eq(z, num(ownWrite(tid)))))));
        chain(store, to, {instr, write(ownWrite(tid), hb)}, 0, {id, false});
    }

    const Program& p_;
    AttackFamily attack_;
    std::vector<Value> storeAddrs_; // what the stores of attack_ may write
    const AddressSets& sets_;
    ProgramBuilder b_;
    StopPoll poll_;
    std::vector<Value> addrs_; // every address the program can access, sorted
    Value base_ = 0;
    std::string scratch_;   // scratch register
    std::string inBlock_;   // 1 while the thread holds the lock (original copy)
    std::string conflict_;  // a block event conflicted with a marked address
    std::string storeAddr_; // the attack store's address, when computed
    std::vector<StepOrigin> origins_;
    std::size_t counter_ = 0;
};

} // namespace

std::vector<Attack> candidateAttacks(const Program& p, const StopCondition& stop) {
    StopPoll poll(stop);
    std::vector<Attack> out;
    std::vector<std::int64_t> dist;
    std::vector<TransitionId> loads;
    for (std::size_t i = 0; i < p.threads.size(); ++i) {
        const Thread& t = p.threads[i];
        const FenceFreeGraph g = fenceFreeGraph(p, t);
        loads.clear();
        for (TransitionId l : t.transitions) {
            if (p.transition(l).instr.kind == InstrKind::Read) {
                loads.push_back(l);
            }
        }
        for (TransitionId w : t.transitions) {
            const Transition& store = p.transition(w);
            if (store.instr.kind != InstrKind::Write) {
                continue;
            }
            poll.throwIfStopped();
            distancesFrom(g, store.to, dist);
            for (TransitionId l : loads) {
                const std::int64_t d = dist[p.transition(l).from.index()];
                if (d >= 0) {
                    out.push_back({ThreadId(static_cast<std::uint32_t>(i)), w, l,
                                   static_cast<std::uint32_t>(d)});
                }
            }
        }
    }
    // Short attacks first: they are usually cheaper to decide, and their
    // witnesses make smaller extensions for the lazy engine.
    std::stable_sort(out.begin(), out.end(),
                     [](const Attack& a, const Attack& b) { return a.distance < b.distance; });
    return out;
}

namespace {

AttackFamily single(const Attack& attack) {
    return {attack.thread, {attack.store}, {attack.load}};
}

} // namespace

AttackProgram attackProgram(const Program& p, const Attack& attack) {
    const AddressSets sets = accessedAddresses(p);
    return AttackWriter(p, single(attack), sets, StopCondition()).run();
}

AttackProgram attackProgram(const Program& p, const Attack& attack, const AddressSets& sets,
                            const StopCondition& stop) {
    return AttackWriter(p, single(attack), sets, stop).run();
}

AttackProgram attackProgram(const Program& p, const AttackFamily& family, const AddressSets& sets,
                            const StopCondition& stop) {
    return AttackWriter(p, family, sets, stop).run();
}

void checkSupported(const Program& p, const AddressSets& sets) {
    for (std::size_t i = 0; i < p.transitions.size(); ++i) {
        const Transition& tr = p.transitions[i];
        if (isAtomicBlockEdge(tr.instr.kind)) {
            throw UnsupportedProgram(p.sourceName + ":" + std::to_string(tr.pos.line) + ":" +
                                     std::to_string(tr.pos.col) +
                                     ": atomic blocks (atomic/endatomic) are not supported by "
                                     "robustness checking yet");
        }
        if (tr.instr.joined) {
            throw UnsupportedProgram(p.sourceName + ":" + std::to_string(tr.pos.line) + ":" +
                                     std::to_string(tr.pos.col) +
                                     ": joined stores (joinwrite) are not supported by robustness "
                                     "checking yet");
        }
        if (isLockForEdge(tr.instr.kind)) {
            throw UnsupportedProgram(p.sourceName + ":" + std::to_string(tr.pos.line) + ":" +
                                     std::to_string(tr.pos.col) +
                                     ": lockfor/unlockfor are not supported by robustness "
                                     "checking yet");
        }
        if (accessesMemory(tr.instr.kind) && sets.byTransition[i].any) {
            throw UnsupportedProgram(p.sourceName + ":" + std::to_string(tr.pos.line) + ":" +
                                     std::to_string(tr.pos.col) +
                                     ": the address of this access can take more than " +
                                     std::to_string(kDefaultValueSetLimit) +
                                     " values (as far as a static analysis can tell); "
                                     "robustness checking needs a bounded set of addresses");
        }
    }
    if (!sets.all.values.empty() && sets.all.values.back() > (Value(1) << 60)) {
        throw UnsupportedProgram("addresses above 2^60 leave no room for shadow memory");
    }
}

namespace {

bool intersects(const ValueSet& a, const ValueSet& b) {
    if (a.any || b.any) {
        return !(a.values.empty() && !a.any) && !(b.values.empty() && !b.any);
    }
    auto i = a.values.begin();
    auto j = b.values.begin();
    while (i != a.values.end() && j != b.values.end()) {
        if (*i == *j) {
            return true;
        }
        (*i < *j) ? ++i : ++j;
    }
    return false;
}

} // namespace

FeasibilityFilter::FeasibilityFilter(const Program& p, const AddressSets& sets)
    : sets_(sets), touched_(p.threads.size()), written_(p.threads.size()) {
    // Unions of the accessed addresses per thread: an attack asks about
    // every other thread, and thousands of attacks share these.
    auto add = [](ValueSet& into, const ValueSet& more) {
        if (into.any || more.any) {
            into.any = true;
            into.values.clear();
            return;
        }
        into.values.insert(into.values.end(), more.values.begin(), more.values.end());
    };
    for (std::size_t i = 0; i < p.transitions.size(); ++i) {
        const Transition& tr = p.transitions[i];
        if (!accessesMemory(tr.instr.kind)) {
            continue;
        }
        const std::size_t t = tr.thread.index();
        add(touched_[t], sets.byTransition[i]);
        if (tr.instr.kind == InstrKind::Write) {
            add(written_[t], sets.byTransition[i]);
        }
    }
    for (std::vector<ValueSet>* all : {&touched_, &written_}) {
        for (ValueSet& s : *all) {
            std::sort(s.values.begin(), s.values.end());
            s.values.erase(std::unique(s.values.begin(), s.values.end()), s.values.end());
        }
    }
}

bool FeasibilityFilter::mayBeFeasible(const Attack& attack) const {
    const ValueSet& stored = sets_.byTransition[attack.store.index()];
    const ValueSet& loaded = sets_.byTransition[attack.load.index()];
    bool touchesStored = false;
    bool writesLoaded = false;
    for (std::size_t t = 0; t < touched_.size(); ++t) {
        if (t == attack.thread.index()) {
            continue;
        }
        touchesStored = touchesStored || intersects(touched_[t], stored);
        writesLoaded = writesLoaded || intersects(written_[t], loaded);
    }
    return touchesStored && writesLoaded;
}

} // namespace tsoreach::instrument
