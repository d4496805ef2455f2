#!/usr/bin/env python3
# Differential test of the C front end's integer semantics against GCC.
#
# From a seed, generates a small C program (pthreads + C11 atomics): globals
# of random integer types (_Bool, char, the short, int, long and long long
# types signed and unsigned, stdint/stdbool spellings, atomic ones; some
# arrays of two) with random constant initialisers, locals of random types,
# helper functions with random parameter and return types, and a thread
# function `t` running random assignments, compound assignments, ++/--,
# atomic_* operations (compare_exchange_strong too), if/else and loops
# whose unsigned char counter wraps, over expressions with the operators,
# casts, constants and conversions docs/c.md takes. The generator evaluates every
# expression itself (C's promotions and usual arithmetic conversions, GCC's
# x86-64 choices for the implementation-defined ones) and keeps only code
# without undefined behaviour and without the front end's documented
# deviations (signed arithmetic beyond its type's range, a signed 64-bit
# value outside int's range converted to int, atomic int arithmetic that
# wraps at 32 bits, / % >> on unsigned long).
#
# Per program: `gcc -O0 -w` compiles a version whose main prints every
# global's final value; the output must match the generator's evaluation
# (otherwise the program is skipped and counted as a generator fault;
# --ubsan adds -fsanitize=undefined, which must stay silent). Then the
# assertion version (main asserts `g == VALUE` in g's type for every
# global) must be `unreachable` (exit 0) under
# `tsoreach reach F.c --model sc --timeout 20`, and a mutant with one value
# off by one `reachable` (exit 10). Every 8th program runs under --model tso
# as well (the thread is joined before the checks: the same verdicts), with
# a --buffer-bound above the number of stores its loops can buffer.
# Anything else is a finding: the program and tsoreach's output go to
# /tmp/ctypes-findings/ (--out DIR).
#
# Odd seeds may call a helper twice in one statement (two pending results
# of one function shared a register once, docs/testing.md); even seeds call
# each at most once per statement. --same-call-twice gives every seed the
# former, --once-per-statement the latter.
#
# Usage:
#   scripts/c_types_vs_gcc.py COUNT [SEED] [--tsoreach PATH] [--out DIR]
#                             [--ubsan] [--same-call-twice | --once-per-statement]
#   scripts/c_types_vs_gcc.py --print SEED    # one program, assertion version
# Prints one line per finding and a summary line (programs, findings,
# skipped); exits 1 on any finding. Needs gcc and a built tsoreach (default
# build/tsoreach of this repository).

import os
import random
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------- C types

class T:
    def __init__(self, name, bits, signed, is_bool=False):
        self.name, self.bits, self.signed, self.is_bool = name, bits, signed, is_bool

    def lo(self):
        return -(1 << (self.bits - 1)) if self.signed else 0

    def hi(self):
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1

    def __repr__(self):
        return self.name


BOOL = T("_Bool", 1, False, True)
CHAR = T("char", 8, True)  # signed on x86-64
SCHAR = T("signed char", 8, True)
UCHAR = T("unsigned char", 8, False)
SHORT = T("short", 16, True)
USHORT = T("unsigned short", 16, False)
INT = T("int", 32, True)
UINT = T("unsigned", 32, False)
LONG = T("long", 64, True)
ULONG = T("unsigned long", 64, False)
LLONG = T("long long", 64, True)
ULLONG = T("unsigned long long", 64, False)
ALL = [BOOL, CHAR, SCHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG, LLONG, ULLONG]
# Other spellings of the same types (typedefs: the front end looks through them).
SPELLINGS = {
    BOOL: ["bool"], SCHAR: ["int8_t"], UCHAR: ["uint8_t"], SHORT: ["int16_t", "short int"],
    USHORT: ["uint16_t"], INT: ["int32_t", "signed"], UINT: ["uint32_t", "unsigned int"],
    LONG: ["int64_t", "long int"], ULONG: ["uint64_t", "size_t"],
    ULLONG: ["unsigned long long int"],
}

# Atomic spellings: (declaration type, value type, fetch ops allowed).
ATOMICS = [
    ("atomic_int", INT), ("atomic_uint", UINT), ("atomic_long", LONG),
    ("atomic_ulong", ULONG), ("atomic_schar", SCHAR), ("atomic_uchar", UCHAR),
    ("atomic_short", SHORT), ("atomic_ushort", USHORT), ("atomic_char", CHAR),
    ("_Atomic unsigned char", UCHAR), ("_Atomic(unsigned long long)", ULLONG),
    ("_Atomic short", SHORT), ("_Atomic(long long)", LLONG), ("atomic_bool", BOOL),
]


class UB(Exception):
    pass


def conv(v, t, strict=None):
    """v converted to t. strict: the source type, to refuse the deviation
    (a signed value of 32+ bits outside int's range converted to int)."""
    if t.is_bool:
        return int(v != 0)
    if strict is not None and strict.signed and not strict.is_bool and strict.bits >= 32 \
            and t.signed and t.bits == 32 and not (t.lo() <= v <= t.hi()):
        raise UB("long to int outside int's range")
    m = v % (1 << t.bits)
    if t.signed and m > t.hi():
        m -= 1 << t.bits
    return m


def promote(t):
    return INT if t.bits < 32 else t


def common(a, b):
    a, b = promote(a), promote(b)
    if a.bits == 64 or b.bits == 64:
        if (a.bits == 64 and not a.signed) or (b.bits == 64 and not b.signed):
            return ULONG
        return LONG
    if not a.signed or not b.signed:
        return UINT
    return INT


def checked(v, t):
    """A result of arithmetic in type t: wraps when unsigned, UB when signed
    and out of range."""
    if t.signed:
        if not (t.lo() <= v <= t.hi()):
            raise UB("signed overflow")
        return v
    return v % (1 << t.bits)


def is_u64(t):
    return t.bits == 64 and not t.signed


def lit(v, t):
    """A C expression of type t with value v."""
    if t.is_bool:
        return "(_Bool)%d" % v
    if t in (INT,):
        return str(v) if v != t.lo() else "(-2147483647 - 1)"
    if t in (LONG, LLONG):
        suf = "L" if t is LONG else "LL"
        return ("%d%s" % (v, suf)) if v != t.lo() else "(-9223372036854775807%s - 1)" % suf
    if t is UINT:
        return "%du" % v
    if t is ULONG:
        return "%dul" % v
    if t is ULLONG:
        return "%dull" % v
    return "(%s)%d" % (t.name, v)


# ---------------------------------------------------------------- expressions
# An expression is (text, type, value); generation evaluates as it goes.

class Var:
    def __init__(self, name, t, atomic=None, is_global=True):
        self.name, self.t, self.atomic, self.is_global = name, t, atomic, is_global


CONSTANTS = [
    ("0", INT, 0), ("1", INT, 1), ("2", INT, 2), ("3", INT, 3), ("7", INT, 7),
    ("100", INT, 100), ("127", INT, 127), ("128", INT, 128), ("255", INT, 255),
    ("256", INT, 256), ("300", INT, 300), ("1000", INT, 1000), ("32767", INT, 32767),
    ("32768", INT, 32768), ("65535", INT, 65535), ("65536", INT, 65536),
    ("2147483647", INT, 2147483647), ("2147483648", LONG, 2147483648),
    ("0x7fffffff", INT, 0x7fffffff), ("0x80000000", UINT, 0x80000000),
    ("0xffffffff", UINT, 0xffffffff), ("0xff", INT, 255),
    ("1u", UINT, 1), ("3u", UINT, 3), ("200u", UINT, 200), ("4294967295u", UINT, 4294967295),
    ("4294967296u", ULONG, 4294967296), ("65536u", UINT, 65536),
    ("5L", LONG, 5), ("4294967296L", LONG, 4294967296), ("1ul", ULONG, 1),
    ("18446744073709551615ul", ULONG, 18446744073709551615),
    ("9223372036854775807L", LONG, 9223372036854775807),
    ("9223372036854775808ul", ULONG, 9223372036854775808),
    ("0x8000000000000000ull", ULLONG, 0x8000000000000000), ("2LL", LLONG, 2),
    ("'a'", INT, 97), ("-1", INT, -1), ("-2", INT, -2), ("-128", INT, -128),
    ("-300", INT, -300), ("-1L", LONG, -1), ("-2147483648L", LONG, -2147483648),
]

INITS = [0, 1, 2, 3, 5, 7, 44, 100, 127, 128, 200, 255, 256, 300, 1000, 32767, 32768,
         40000, 65535, 65536, 70000, 2147483647, 4294967295, -1, -2, -7, -128, -129,
         -300, -32768, -40000]


class Gen:
    def __init__(self, seed, same_call_twice=False):
        self.r = random.Random(seed)
        self.env = {}  # name -> value
        self.vars = []
        self.lines = []
        self.helpers = []  # (name, parameter type, return type, op, constant)
        # Each helper is called at most once per statement unless this is
        # set: two calls of one function in a statement share its ret.f
        # register (an open finding, docs/testing.md).
        self.same_call_twice = same_call_twice
        self.called = set()

    def spell(self, t):
        """t's name, or now and then another spelling of it."""
        if t in SPELLINGS and self.r.random() < 0.3:
            return self.r.choice(SPELLINGS[t])
        return t.name

    def call(self):
        """hK(arg): the helper's body is `return p OP C;`, evaluated here
        for this argument (UB raises)."""
        free = [h for h in self.helpers if self.same_call_twice or h[0] not in self.called]
        name, pt, rt, op, c = self.r.choice(free)
        self.called.add(name)
        a = self.expr(1)
        pv = conv(a[2], pt, strict=a[1])
        res = self.binary(op, ("p", pt, pv), c)
        return ("%s(%s)" % (name, a[0]), rt, conv(res[2], rt, strict=res[1]))

    # -- leaves
    def leaf(self):
        r = self.r
        if self.helpers and r.random() < (0.3 if self.same_call_twice else 0.1) and (
                self.same_call_twice or len(self.called) < len(self.helpers)):
            return self.call()
        if self.vars and r.random() < 0.6:
            v = r.choice(self.vars)
            if v.atomic and r.random() < 0.4:
                return ("atomic_load(&%s)" % v.name, v.t, self.env[v.name])
            return (v.name, v.t, self.env[v.name])
        return r.choice(CONSTANTS)

    def expr(self, depth):
        r = self.r
        for _ in range(30):
            try:
                return self._expr(depth)
            except UB:
                continue
        return self.leaf()

    def _expr(self, depth):
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.leaf()
        k = r.random()
        if k < 0.45:
            a = self.expr(depth - 1)
            op = r.choice(["+", "-", "*", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=",
                           "&&", "||", "/", "%", "<<", ">>", "+", "-", "*", "&", "|", "^"])
            if op in ("/", "%"):
                c = r.choice([1, 2, 3, 5, 7, 16, 255, 256, -3, -1])
                ct = r.choice([INT, INT, UINT, LONG]) if c > 0 else INT
                b = (lit(c, ct) if c >= 0 else "(%d)" % c, ct, c)
            elif op in ("<<", ">>"):
                c = r.randint(0, 8)
                b = (str(c), INT, c)
            else:
                b = self.expr(depth - 1)
            return self.binary(op, a, b)
        if k < 0.6:
            a = self.expr(depth - 1)
            op = r.choice(["-", "~", "!", "+"])
            return self.unary(op, a)
        if k < 0.8:
            a = self.expr(depth - 1)
            t = r.choice(ALL)
            return ("(%s)(%s)" % (self.spell(t), a[0]), t, conv(a[2], t, strict=a[1]))
        c = self.expr(depth - 1)
        a = self.expr(depth - 1)
        b = self.expr(depth - 1)
        t = common(a[1], b[1])
        # both arms converted (and both must be free of UB: check them)
        va, vb = conv(a[2], t, strict=a[1]), conv(b[2], t, strict=b[1])
        return ("(%s ? %s : %s)" % (c[0], a[0], b[0]), t, va if c[2] else vb)

    def unary(self, op, a):
        text, t, v = a
        if op == "!":
            return ("!(%s)" % text, INT, int(v == 0))
        pt = promote(t)
        v = conv(v, pt)
        if op == "+":
            return ("+(%s)" % text, pt, v)
        if op == "-":
            return ("-(%s)" % text, pt, checked(-v, pt))
        return ("~(%s)" % text, pt, checked(~v, pt) if pt.signed else (~v) % (1 << pt.bits))

    def binary(self, op, a, b):
        (ta, tya, va), (tb, tyb, vb) = a, b
        text = "(%s %s %s)" % (ta, op, tb)
        if op in ("&&", "||"):
            res = (va != 0 and vb != 0) if op == "&&" else (va != 0 or vb != 0)
            return (text, INT, int(res))
        if op in ("<<", ">>"):
            pt = promote(tya)
            x = conv(va, pt)
            if op == ">>":
                if is_u64(pt):
                    raise UB(">> on unsigned long")
                if x < 0:
                    raise UB("shift of a negative value")
                return (text, pt, x >> vb)
            if pt.signed:
                if x < 0:
                    raise UB("shift of a negative value")
                return (text, pt, checked(x << vb, pt))
            return (text, pt, (x << vb) % (1 << pt.bits))
        t = common(tya, tyb)
        x, y = conv(va, t), conv(vb, t)
        if op in ("<", "<=", ">", ">=", "==", "!="):
            res = {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y, "==": x == y,
                   "!=": x != y}[op]
            return (text, INT, int(res))
        if op in ("/", "%"):
            if is_u64(t):
                raise UB("/ on unsigned long")
            if y == 0:
                raise UB("division by zero")
            q = abs(x) // abs(y)
            if (x < 0) != (y < 0):
                q = -q
            res = q if op == "/" else x - q * y
            return (text, t, checked(res, t))
        res = {"+": x + y, "-": x - y, "*": x * y, "&": x & y, "|": x | y, "^": x ^ y}[op]
        return (text, t, checked(res, t))

    # -- statements
    def emit(self, ind, s):
        self.lines.append("    " * ind + s)

    def assign_value(self, var, e):
        """Plain assignment var = e: the stored value."""
        return conv(e[2], var.t, strict=e[1])

    def statement(self, ind, depth):
        r = self.r
        self.called = set()
        k = r.random()
        targets = [v for v in self.vars]
        var = r.choice(targets)
        for _ in range(30):
            try:
                if k < 0.35:
                    e = self.expr(r.randint(1, 3))
                    nv = self.assign_value(var, e)
                    if var.atomic and r.random() < 0.5:
                        self.emit(ind, "atomic_store(&%s, %s);" % (var.name, e[0]))
                    else:
                        self.emit(ind, "%s = %s;" % (var.name, e[0]))
                    self.env[var.name] = nv
                    return
                if k < 0.55:
                    op = r.choice(["+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=", "/=", "%="])
                    if var.atomic and var.t.is_bool:
                        k = 0.0
                        continue
                    if op in ("<<=", ">>="):
                        c = r.randint(0, 8)
                        e = (str(c), INT, c)
                    elif op in ("/=", "%="):
                        c = r.choice([1, 2, 3, 7, 10, 256, -2])
                        e = (str(c) if c > 0 else "(%d)" % c, INT, c)
                    elif r.random() < 0.5:
                        e = r.choice(CONSTANTS)
                    else:
                        e = self.expr(2)
                    res = self.binary(op[:-1], (var.name, var.t, self.env[var.name]), e)
                    if op in ("/=", "%=", ">>=") and is_u64(res[1]):
                        raise UB("u64")
                    nv = conv(res[2], var.t, strict=res[1])
                    self.emit(ind, "%s %s %s;" % (var.name, op, e[0]))
                    self.env[var.name] = nv
                    return
                if k < 0.7:
                    op = r.choice(["++", "--"])
                    if var.atomic and var.t.is_bool:
                        k = 0.0
                        continue
                    old = self.env[var.name]
                    pt = promote(var.t)
                    if var.t.is_bool:
                        nv = 1 if op == "++" else conv(old - 1, BOOL)
                    else:
                        raw = conv(old, pt) + (1 if op == "++" else -1)
                        nv = conv(checked(raw, pt), var.t)
                    pre = r.random() < 0.5
                    text = op + var.name if pre else var.name + op
                    locals_ = [v for v in self.vars if not v.is_global and v is not var]
                    if locals_ and r.random() < 0.5:
                        dst = r.choice(locals_)
                        got = nv if pre else old
                        # the value of the ++ expression has var's type
                        dv = conv(got, dst.t, strict=var.t)
                        self.emit(ind, "%s = %s;" % (dst.name, text))
                        self.env[var.name] = nv
                        self.env[dst.name] = dv
                        return
                    self.emit(ind, text + ";")
                    self.env[var.name] = nv
                    return
                if k < 0.9:
                    atomics = [v for v in self.vars if v.atomic]
                    if not atomics:
                        k = 0.0
                        continue
                    a = r.choice(atomics)
                    ops = ["atomic_exchange", "atomic_store", "atomic_load"]
                    if not a.t.is_bool:
                        ops += ["atomic_fetch_add", "atomic_fetch_sub", "atomic_fetch_and",
                                "atomic_fetch_or", "atomic_fetch_xor"] * 2
                    expected = [v for v in self.vars if not v.is_global and v.t is a.t]
                    if expected:
                        ops += ["cas"] * 3
                    op = r.choice(ops)
                    old = self.env[a.name]
                    if op == "cas":
                        ev = r.choice(expected)
                        e = self.expr(r.randint(0, 2))
                        desired = conv(e[2], a.t, strict=e[1])
                        call = "atomic_compare_exchange_strong(&%s, &%s, %s)" % (
                            a.name, ev.name, e[0])
                        if r.random() < 0.3:
                            call = "atomic_compare_exchange_strong_explicit(&%s, &%s, %s, " \
                                   "memory_order_seq_cst, memory_order_relaxed)" % (
                                       a.name, ev.name, e[0])
                        ok = self.env[ev.name] == old
                        dsts = [v for v in self.vars if not v.is_global and v is not ev]
                        dst = r.choice(dsts) if dsts and r.random() < 0.5 else None
                        if dst is None:
                            self.emit(ind, call + ";")
                        else:
                            self.emit(ind, "%s = %s;" % (dst.name, call))
                            self.env[dst.name] = conv(int(ok), dst.t, strict=BOOL)
                        if ok:
                            self.env[a.name] = desired
                        else:
                            self.env[ev.name] = old
                        return
                    locals_ = [v for v in self.vars if not v.is_global and v is not a]
                    dst = r.choice(locals_) if locals_ and r.random() < 0.6 else None
                    explicit = r.random() < 0.3
                    order = r.choice(["memory_order_relaxed", "memory_order_seq_cst",
                                      "memory_order_acquire", "memory_order_release",
                                      "memory_order_acq_rel"])
                    if op == "atomic_load":
                        if dst is None:
                            k = 0.0
                            continue
                        if explicit:
                            order = r.choice(["memory_order_relaxed", "memory_order_seq_cst",
                                              "memory_order_acquire"])
                            call = "atomic_load_explicit(&%s, %s)" % (a.name, order)
                        else:
                            call = "atomic_load(&%s)" % a.name
                        self.env[dst.name] = conv(old, dst.t, strict=a.t)
                        self.emit(ind, "%s = %s;" % (dst.name, call))
                        return
                    e = self.expr(r.randint(0, 2))
                    arg = conv(e[2], a.t, strict=e[1])
                    if op in ("atomic_store", "atomic_exchange"):
                        nv = arg
                    else:
                        f = {"atomic_fetch_add": old + arg, "atomic_fetch_sub": old - arg,
                             "atomic_fetch_and": old & arg, "atomic_fetch_or": old | arg,
                             "atomic_fetch_xor": old ^ arg}[op]
                        if a.t.bits == 32 and a.t.signed and not (a.t.lo() <= f <= a.t.hi()):
                            raise UB("atomic int wraps at 32 bits")
                        nv = conv(f, a.t)
                    if op == "atomic_store" and explicit:
                        order = r.choice(["memory_order_relaxed", "memory_order_seq_cst",
                                          "memory_order_release"])
                    call = ("%s_explicit(&%s, %s, %s)" % (op, a.name, e[0], order) if explicit
                            else "%s(&%s, %s)" % (op, a.name, e[0]))
                    if op == "atomic_store" or dst is None:
                        self.emit(ind, call + ";")
                    else:
                        self.env[dst.name] = conv(old, dst.t, strict=a.t)
                        self.emit(ind, "%s = %s;" % (dst.name, call))
                    self.env[a.name] = nv
                    return
                if depth <= 0:
                    k = 0.0
                    continue
                if r.random() < 0.25:
                    return self.loop(ind)
                c = self.expr(r.randint(1, 3))
                taken = c[2] != 0
                self.emit(ind, "if (%s) {" % c[0])
                saved = dict(self.env)
                n1 = r.randint(1, 3)
                for _ in range(n1):
                    self.statement(ind + 1, depth - 1)
                env1 = self.env
                self.env = dict(saved)
                if r.random() < 0.6:
                    self.emit(ind, "} else {")
                    for _ in range(r.randint(1, 3)):
                        self.statement(ind + 1, depth - 1)
                env2 = self.env
                self.emit(ind, "}")
                self.env = env1 if taken else env2
                return
            except UB:
                continue
        self.emit(ind, ";")

    def loop(self, ind):
        """A loop whose unsigned char counter wraps: for (i = S; i != E; i++)
        with a body that only does unsigned arithmetic (no UB however often
        it runs)."""
        r = self.r
        self.nloops = getattr(self, "nloops", 0) + 1
        i = "i%d" % self.nloops
        start, end = r.randrange(256), r.randrange(256)
        step = r.choice(["++", "--"])
        n = (end - start) % 256 if step == "++" else (start - end) % 256
        targets = [v for v in self.vars if not v.t.signed and not v.t.is_bool]
        self.emit(ind, "for (unsigned char %s = %d; %s != %d; %s%s) {" % (
            i, start, i, end, i, step))
        if targets:
            v = r.choice(targets)
            op = r.choice(["+=", "^=", "*=", "-="])
            c = r.choice([1, 3, 7, 200, 255])
            x = self.env[v.name]
            for j in range(n):
                iv = (start + j) % 256 if step == "++" else (start - j) % 256
                # `v op= c + i`: computed in v's promoted type at least
                y = {"+=": x + c + iv, "^=": x ^ (c + iv), "*=": x * (c + iv),
                     "-=": x - (c + iv)}[op]
                x = conv(y, v.t)
            self.emit(ind + 1, "%s %s %d + %s;" % (v.name, op, c, i))
            self.env[v.name] = x
        else:
            self.emit(ind + 1, ";")
        self.emit(ind, "}")

    def program(self):
        r = self.r
        globals_ = []
        for i in range(r.randint(3, 7)):
            if r.random() < 0.3:
                decl, t = r.choice(ATOMICS)
                v = Var("a%d" % i, t, atomic=decl)
            else:
                t = r.choice(ALL)
                decl = self.spell(t)
                v = Var("g%d" % i, t)
            cells = [v]
            if r.random() < 0.2:  # an array of two, indexed by constants
                cells = [Var(v.name + "[0]", t, v.atomic), Var(v.name + "[1]", t, v.atomic)]
            texts = []
            for cell in cells:
                init = r.choice(INITS)
                it = INT if -2**31 <= init < 2**31 else (UINT if init < 2**32 else LONG)
                if r.random() < 0.2 and init >= 0:
                    it = UINT if init < 2**32 else ULONG
                init_text = (lit(init, it) if init >= 0 else "%d" % init)
                if r.random() < 0.15:
                    init_text, init = "0", 0
                self.env[cell.name] = conv(init, t, strict=it)
                texts.append(init_text)
                cell.decl = None
                globals_.append(cell)
            if len(cells) == 1:
                cells[0].decl = "%s %s = %s;" % (decl, v.name, texts[0])
            else:
                cells[0].decl = "%s %s[2] = {%s};" % (decl, v.name, ", ".join(texts))
        self.vars = list(globals_)
        for i in range(r.choice([0, 0, 1, 2])):
            op = r.choice(["+", "-", "*", "&", "|", "^", "<<", ">>", "/", "%", "<", "=="])
            if op in ("<<", ">>"):
                n = r.randint(0, 8)
                c = (str(n), INT, n)
            elif op in ("/", "%"):
                n = r.choice([2, 3, 7, 256, -3])
                c = ("(%d)" % n if n < 0 else str(n), INT, n)
            else:
                c = r.choice(CONSTANTS)
            pt, rt = r.choice(ALL), r.choice(ALL)
            self.helpers.append(("h%d" % i, pt, rt, op, c))
            self.helper_text = getattr(self, "helper_text", []) + [
                "%s h%d(%s p) {" % (self.spell(rt), i, self.spell(pt)),
                "    return p %s %s;" % (op, c[0]), "}", ""]
        locals_ = []
        atomic_types = [v.t for v in globals_ if v.atomic]
        for i in range(r.randint(0, 3)):
            t = r.choice(atomic_types if atomic_types and r.random() < 0.4 else ALL)
            v = Var("l%d" % i, t, is_global=False)
            self.called = set()
            e = self.expr(1)
            try:
                val = conv(e[2], t, strict=e[1])
            except UB:
                e, val = ("1", INT, 1), 1
            self.lines.append("    %s %s = %s;" % (self.spell(t), v.name, e[0]))
            self.env[v.name] = val
            self.vars.append(v)
            locals_.append(v)
        for _ in range(r.randint(3, 10)):
            self.statement(1, 2)
        # sinks: every local's final value lands in a global of its type
        sinks = []
        for v in locals_:
            s = Var("s_" + v.name, v.t)
            s.decl = "%s %s;" % (self.spell(v.t), s.name)
            self.lines.append("    %s = %s;" % (s.name, v.name))
            self.env[s.name] = self.env[v.name]
            sinks.append(s)
        self.globals = globals_ + sinks
        return self

    def text(self, mode, mutate=None):
        """mode: 'print' or 'assert'; mutate: index of the global whose
        asserted value is off by one."""
        out = ["#include <assert.h>", "#include <pthread.h>", "#include <stdatomic.h>",
               "#include <stdbool.h>", "#include <stddef.h>", "#include <stdint.h>"]
        if mode == "print":
            out.append("#include <stdio.h>")
        out.append("")
        out += [g.decl for g in self.globals if g.decl]
        out += [""] + getattr(self, "helper_text", [])
        out += ["void *t(void *arg) {"] + self.lines + ["    return NULL;", "}", "",
                "int main(void) {", "    pthread_t a;",
                "    pthread_create(&a, NULL, t, NULL);", "    pthread_join(a, NULL);"]
        for i, g in enumerate(self.globals):
            if mode == "print":
                if g.t.signed:
                    out.append('    printf("%s %%lld\\n", (long long)%s);' % (g.name, g.name))
                else:
                    out.append('    printf("%s %%llu\\n", (unsigned long long)%s);'
                               % (g.name, g.name))
            else:
                v = self.env[g.name]
                if i == mutate:
                    v = 1 - v if g.t.is_bool else conv(v + 1, g.t)
                out.append("    assert(%s == %s);" % (g.name, lit(v, g.t)))
        out += ["    return 0;", "}", ""]
        return "\n".join(out)


# ---------------------------------------------------------------- driver

def run_gcc(src, work, ubsan=False):
    c = os.path.join(work, "p.c")
    exe = os.path.join(work, "p")
    with open(c, "w") as f:
        f.write(src)
    extra = ["-fsanitize=undefined", "-fno-sanitize-recover=all"] if ubsan else []
    subprocess.run(["gcc", "-O0", "-w", "-pthread"] + extra + ["-o", exe, c], check=True,
                   capture_output=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True, timeout=10).stdout
    return {name: int(val) for name, val in (line.split() for line in out.splitlines())}


def run_tso(tool, path, model, extra):
    try:
        p = subprocess.run([tool, "reach", path, "--model", model, "--timeout", "20"] + extra,
                           capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    tool = os.path.join(here, "..", "build", "tsoreach")
    out_dir = "/tmp/ctypes-findings"
    ubsan = False
    twice = None  # by the seed's parity
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--tsoreach":
            tool = argv[i + 1]
            i += 2
        elif argv[i] == "--out":
            out_dir = argv[i + 1]
            i += 2
        elif argv[i] == "--same-call-twice":
            twice = True
            i += 1
        elif argv[i] == "--once-per-statement":
            twice = False
            i += 1
        elif argv[i] == "--ubsan":
            ubsan = True
            i += 1
        elif argv[i] == "--print":
            seed = int(argv[i + 1])
            print(Gen(seed, seed % 2 == 1 if twice is None else twice).program().text("assert"))
            return 0
        else:
            args.append(argv[i])
            i += 1
    if not args or len(args) > 2:
        print("usage: c_types_vs_gcc.py COUNT [SEED] [--tsoreach PATH] [--out DIR] [--ubsan]"
              " [--same-call-twice | --once-per-statement]",
              file=sys.stderr)
        return 2
    count = int(args[0])
    seed0 = int(args[1]) if len(args) > 1 else 0
    findings = skipped = tso_runs = 0
    work = tempfile.mkdtemp(prefix="ctypes-run-", dir="/tmp")
    for seed in range(seed0, seed0 + count):
        g = Gen(seed, seed % 2 == 1 if twice is None else twice).program()
        try:
            got = run_gcc(g.text("print"), work, ubsan)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            print("seed %d: gcc failed: %s" % (seed, getattr(e, "stderr", e)), file=sys.stderr)
            skipped += 1
            continue
        want = {x.name: g.env[x.name] if x.t.signed else g.env[x.name] % (1 << 64)
                for x in g.globals}
        if got != want:
            print("seed %d: the generator's values differ from gcc's, skipped: %s"
                  % (seed, {k: (want[k], got.get(k)) for k in want if want[k] != got.get(k)}),
                  file=sys.stderr)
            skipped += 1
            continue
        mutant = random.Random(seed * 7 + 1).randrange(len(g.globals))
        runs = [("sc", g.text("assert"), 0), ("sc", g.text("assert", mutant), 10)]
        if seed % 8 == 0:
            runs += [("tso", g.text("assert"), 0), ("tso", g.text("assert", mutant), 10)]
        for model, src, expect in runs:
            path = os.path.join(work, "a.c")
            with open(path, "w") as f:
                f.write(src)
            # Under TSO a loop's stores may all be buffered: a bound above
            # the number of stores the thread makes keeps the search complete.
            extra = ["--buffer-bound", str(300 * (getattr(g, "nloops", 0) + 1))] \
                if model == "tso" else []
            rc, out = run_tso(tool, path, model, extra)
            if model == "tso" and expect == 0:
                tso_runs += 1
            if rc != expect:
                findings += 1
                os.makedirs(out_dir, exist_ok=True)
                base = os.path.join(out_dir, "seed-%d-%s-%s" % (seed, model,
                                    "mutant" if expect else "orig"))
                with open(base + ".c", "w") as f:
                    f.write(src)
                with open(base + ".out", "w") as f:
                    f.write("exit %s, expected %d\n%s" % (rc, expect, out))
                first = out.strip().splitlines()[0] if out.strip() else ""
                print("FINDING seed %d %s %s: exit %s, expected %d: %s (%s.c)"
                      % (seed, model, "mutant" if expect else "program", rc, expect,
                         first[:200], base), flush=True)
                break
    print("c_types_vs_gcc: %d programs (seeds %d..%d, %d also under tso), %d findings, "
          "%d skipped" % (count, seed0, seed0 + count - 1, tso_runs, findings, skipped))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
