#pragma once
// The C front end's fuzz target fuzz_c (docs/testing.md): bytes decode into
// a small C program of docs/c.md's subset (CProgram, decodeCProgram), which
// renders both as C source (renderC) and, independently of frontends/c, as
// the program docs/c.md says it translates to, in tsoreach's own language
// (renderExpected, docs/language.md). c_check.hpp compares the two.
//
// The decoder is total: past the end it reads 0, every choice is a byte
// taken modulo its range. Programs stay small: 2 or 3 globals, 2 or 3
// threads of at most a few statements, loops with a constant bound of 1 or
// 2, constants -1..3, no arithmetic that could overflow. Recursion over the
// syntax tree is bounded by kMaxDepth.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tsoreach::fuzz::cgen {

inline constexpr int kMaxDepth = 2;          // nesting of statements and of expressions
inline constexpr std::size_t kArraySize = 2; // every global array has two cells

// Reads choices from bytes; 0 past the end.
class Bytes {
  public:
    explicit Bytes(std::span<const std::uint8_t> b) : b_(b) {}
    unsigned pick(unsigned n) { return n <= 1 ? 0 : next() % n; }
    // About 1 in inN; never past the end (no poison, no early leaf there).
    bool chance(unsigned inN) { return pick(inN) == inN - 1; }
    [[nodiscard]] bool atEnd() const { return pos_ >= b_.size(); }

  private:
    unsigned next() { return pos_ < b_.size() ? b_[pos_++] : 0; }
    std::span<const std::uint8_t> b_;
    std::size_t pos_ = 0;
};

// C11's memory orders, in <stdatomic.h>'s order.
enum class Mo : std::uint8_t { Relaxed, Consume, Acquire, Release, AcqRel, SeqCst };

struct Global {
    std::string name;
    bool atomic = false;
    bool array = false;                  // int name[2]
    unsigned type = 0;                   // the spelling of the type: typeName (c_render.hpp)
    std::array<long, kArraySize> init{}; // a scalar uses init[0]
};

// A cell of a global: `x`, `a[1]`, or `a[(r & 1)]` (a pure index).
struct Access {
    std::size_t var = 0;
    int index = 0;     // a constant index (arrays)
    std::string local; // non-empty: the index is (local & 1)
};

enum class LoadForm : std::uint8_t { Plain, Load, LoadExplicit };

enum class Op : std::uint8_t {
    Add,
    Sub,
    Mul,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Div,
    Rem,
    Shl,
    Shr
};

struct Expr {
    enum class K : std::uint8_t { Const, Local, Load, Neg, Not, BitNot, Bin, Cond } k = K::Const;
    long value = 0;   // Const; the constant of Div, Rem, Shl, Shr
    std::string name; // Local
    Access acc;       // Load
    LoadForm form = LoadForm::Plain;
    Mo mo = Mo::SeqCst;
    Op op = Op::Add;
    std::vector<Expr> kids; // Neg/Not/BitNot: 1; Bin: 2 (Div..Shr: 1); Cond: 3
};

// The read-modify-write operations: atomic_exchange and atomic_fetch_*.
enum class Rmw : std::uint8_t { Exchange, Add, Sub, And, Or, Xor };

struct Stmt {
    enum class K : std::uint8_t {
        Store,   // acc = e (form: 0 plain, 1 atomic_store, 2 _explicit with mo)
        Assign,  // dst = e, dst += e, dst -= e, dst++, dst-- (variant 0..4)
        Rmw,     // [dst =] atomic_<rmw>[_explicit](&acc, e)
        Update,  // [dst =] acc++, acc--, (acc += e), (acc -= e), ++acc, --acc (variant 0..5)
        Cas,     // [dst =] atomic_compare_exchange_strong[_explicit](&acc, &expected, e)
        Fence,   // variant 0: atomic_thread_fence(mo), 1: atomic_signal_fence, 2: __sync
        If,      // if (e) body else other
        For,     // for (int counter = 0; counter < bound; counter++) body
        While,   // counter = 0; while (e && counter < bound) { body; counter++; }
        DoWhile, // counter = 0; do { body; counter++; } while (e && counter < bound);
        Call,    // [dst =] h<helper>(e)
        Locked,  // pthread_mutex_lock(&m<mutex>); body; pthread_mutex_unlock(...)
        Assert,  // assert(e)
        Assume,  // __VERIFIER_assume(e)
        Break,
        Continue,
        Return, // return NULL (threads only)
        Join,   // pthread_join(h<thread>, NULL) (main only)
    } k = K::Assign;
    Access acc;
    Expr e;
    std::string dst;      // Assign; Rmw, Update, Cas, Call: may be empty (result unused)
    std::string expected; // Cas: the local &expected points to
    int variant = 0;      // Store: form; Rmw: explicit; Update: operator; Fence: kind
    Rmw rmw = Rmw::Exchange;
    Mo mo = Mo::SeqCst;
    Mo mo2 = Mo::SeqCst; // Cas _explicit: failure order
    bool isExplicit = false;
    int bound = 1;          // For/While/DoWhile
    std::string counter;    // For/While/DoWhile
    std::size_t target = 0; // Call: helper; Locked: mutex; Join: thread
    std::vector<Stmt> body, other;
};

// A helper `int h<i>(int v) { int w = init; body; return ret; }`, inlined.
struct Helper {
    long init = 0;
    std::vector<Stmt> body;
    Expr ret;
};

// A thread function `void *f<i>(void *arg) { int me = (int)(long)arg; int
// r0 = .., r1 = ..; body; return NULL; }`.
struct ThreadFn {
    std::array<long, 2> locals{};
    std::vector<Stmt> body;
};

struct Create {
    std::size_t fn = 0;
    long arg = 0;
};

// A refused construct (docs/c.md, "What is refused") at one line of main
// or of a thread function: the front end must throw InputError there.
struct Poison {
    int kind = -1;         // -1: none; an index into poisonText's table
    std::size_t where = 0; // 0: main before the creates, 1: between two creates,
                           // 2: main after the creates, 3 + i: thread function i
};

struct CProgram {
    std::vector<Global> globals;
    std::size_t mutexes = 0;  // m0, m1
    bool initMutex = false;   // pthread_mutex_init(&m0, NULL) before the creates
    std::vector<Stmt> prefix; // main before the creates: constant stores
    std::vector<Helper> helpers;
    std::vector<ThreadFn> fns;
    std::vector<Create> creates;
    std::vector<Stmt> mainBody; // after the creates: statements, joins, asserts
    std::array<long, 2> mainLocals{};
    Poison poison;
};

} // namespace tsoreach::fuzz::cgen
