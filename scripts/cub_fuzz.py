#!/usr/bin/env python3
"""Random small Cubicle-W (.cub) systems in the subset of docs/parameterized.md
that the all-N mode (docs/backward.md) takes, and a differential driver:
all-N (`tsoreach param F`) against fixed N (`--procs 2..3 --model tso`).

  cub_fuzz.py gen SEED            print one system
  cub_fuzz.py run OUTDIR START COUNT [--tool build/tsoreach] [--timeout 20]
                                  generate and check seeds START..START+COUNT-1,
                                  append one JSON line per system to OUTDIR/results.jsonl,
                                  keep interesting systems in OUTDIR/cases/
Standard library only.
"""
import json
import os
import random
import subprocess
import sys
import time

# ---------------------------------------------------------------- generator

class Sys:
    def __init__(self, rng):
        self.r = rng
        self.types = {}          # name -> constructors
        self.weak = []           # (name, 'var'|'array', type)
        self.regs = []           # (name, type) regular arrays besides PC
        self.consts = []         # (name, type)
        self.invariants = []
        self.init = []
        self.trans = []
        self.unsafe = []
        self.nloc = 4

    # values of a type (as text)
    def vals(self, ty, procs=()):
        if ty == 'bool':
            return ['True', 'False']
        if ty == 'int':
            return ['0', '1', '2']
        if ty == 'proc':
            return list(procs)
        return self.types[ty]

    def val(self, ty, procs=()):
        return self.r.choice(self.vals(ty, procs))


def pick_weak(s):
    r = s.r
    n = r.choice([1, 1, 2, 2, 2, 3])
    names = iter(['X', 'Y', 'Z'])
    anames = iter(['A', 'B', 'F'])
    for _ in range(n):
        kind = r.choice(['var', 'array', 'array'])
        ty = r.choice(['bool', 'bool', 'bool', 'val', 'int'] + (['proc'] if kind == 'var' else []))
        if ty == 'val':
            s.types.setdefault('val', ['V0', 'V1', 'V2'])
        nm = next(names) if kind == 'var' else next(anames)
        s.weak.append((nm, kind, ty))


def cell(nm, kind, p):
    return nm if kind == 'var' else '%s[%s]' % (nm, p)


def weak_lit(s, p, others, allow_proc_eq=True):
    """a literal over a weak cell, read by process p; others: other params"""
    r = s.r
    nm, kind, ty = r.choice(s.weak)
    idx = p if kind == 'var' else r.choice([p] + list(others) if others else [p])
    c = cell(nm, kind, idx)
    procs = [p] + list(others)
    if ty == 'int':
        op = r.choice(['=', '<>', '<', '<=', '>', '>='])
        return '%s %s %s' % (c, op, r.choice(['0', '1', '2'])) if r.random() < 0.5 else '%s %s %s' % (r.choice(['0', '1']), op, c)
    op = r.choice(['=', '=', '=', '<>'])
    if ty == 'proc':
        return '%s %s %s' % (c, op, r.choice(procs))
    return '%s %s %s' % (c, op, s.val(ty))


def forall_lit(s, p, others):
    r = s.r
    arrays = [w for w in s.weak if w[1] == 'array']
    if arrays and r.random() < 0.8:
        nm, kind, ty = r.choice(arrays)
        if ty == 'int':
            return 'forall_other j. %s[j] %s %s' % (nm, r.choice(['=', '<>', '<']), r.choice(['0', '1']))
        if ty == 'proc':
            return None
        body = '%s[j] %s %s' % (nm, r.choice(['=', '=', '<>']), s.val(ty))
        if r.random() < 0.3:
            body += ' && PC[j] = %s' % loc(s, r.randrange(s.nloc)) if False else ''
        return 'forall_other j. ' + body
    # forall over a const array
    if s.consts:
        nm, ty = s.consts[0]
        return 'forall_other j. %s[j] = %s' % (nm, s.val(ty))
    return None


def loc(s, i):
    return 'L%d' % i


def weak_rhs(s, ty, p, others, allow_read=True):
    r = s.r
    procs = [p] + list(others)
    if ty == 'int':
        if allow_read and r.random() < 0.25:
            ints = [w for w in s.weak if w[2] == 'int']
            nm, kind, _ = r.choice(ints)
            return '%s %s 1' % (cell(nm, kind, p), r.choice(['+', '-']))
        return r.choice(['0', '1', '2'])
    if ty == 'proc':
        return r.choice(procs)
    if allow_read and r.random() < 0.15:
        same = [w for w in s.weak if w[2] == ty]
        nm, kind, _ = r.choice(same)
        return cell(nm, kind, r.choice(procs) if kind == 'array' else p)
    return s.val(ty)


def gen_transition(s, name, src, dsts, shape_hint=None):
    r = s.r
    nparams = r.choice([0, 0, 1, 1, 1, 2]) if shape_hint is None else shape_hint
    others = ['q', 'r'][:nparams]
    p = 'p'
    guard = ['PC[p] = %s' % loc(s, src)]
    if s.consts and r.random() < 0.3:
        nm, ty = s.consts[0]
        guard.append('%s[p] = %s' % (nm, s.val(ty)))
    for o in others:
        if s.consts and r.random() < 0.2:
            nm, ty = s.consts[0]
            guard.append('%s[%s] = %s' % (nm, o, s.val(ty)))
    nweak = r.choice([0, 0, 1, 1, 1, 2])
    seen = set()
    for _ in range(nweak):
        l = weak_lit(s, p, others)
        key = [w for w in l.split() if w[0].isupper()][0]
        if key in seen:
            continue
        seen.add(key)
        guard.append(l)
    for reg, ty in s.regs:
        if r.random() < 0.25:
            if ty == 'proc':
                if others:
                    guard.append('%s[p] %s %s' % (reg, r.choice(['=', '<>']), r.choice(others)))
            else:
                guard.append('%s[p] %s %s' % (reg, r.choice(['=', '<>']), s.val(ty)))
    if others and r.random() < 0.15:
        guard.append('%s <> %s' % (others[0], p) if r.random() < 0.5 else '%s = %s' % (others[0], others[0]))
    if r.random() < 0.3:
        guard.append('fence()')
    r.shuffle(guard)
    # PC first most of the time (readability)
    guard.sort(key=lambda g: 0 if g.startswith('PC[p]') else 1)
    gtext = ' && '.join(guard)
    if r.random() < 0.12 and nweak:
        # a disjunction
        alt = ['PC[p] = %s' % loc(s, src), weak_lit(s, p, others)]
        gtext = '(%s) || (%s)' % (gtext.replace(' && fence()', '').replace('fence() && ', ''), ' && '.join(alt))
    if r.random() < 0.25:
        fl = forall_lit(s, p, others)
        if fl:
            if r.random() < 0.3:
                fl += ' && fence()' if 'fence()' not in gtext else ''
            if '||' in gtext:
                gtext = '(%s) && %s' % (gtext, fl) if False else gtext  # keep DNF simple
            else:
                gtext = gtext + ' && ' + fl
    acts = []
    # PC update
    if len(dsts) > 1 and r.random() < 0.3:
        c = weak_lit(s, p, others)
        acts.append('PC[p] := case | %s : %s | _ : %s' % (c, loc(s, dsts[0]), loc(s, dsts[1])))
    else:
        acts.append('PC[p] := %s' % loc(s, dsts[0]))
    # weak writes
    nw = r.choice([0, 0, 1, 1, 1, 2, 2, 3])
    written = set()
    for _ in range(nw):
        nm, kind, ty = r.choice(s.weak)
        idx = p
        if kind == 'array' and others and r.random() < 0.25:
            idx = r.choice(others)
        c = cell(nm, kind, idx)
        if c in written:
            continue
        written.add(c)
        if r.random() < 0.15 and ty not in ('int',):
            # case update
            cond = weak_lit(s, p, others) if r.random() < 0.7 else 'PC[p] = %s' % loc(s, r.randrange(s.nloc))
            v1 = weak_rhs(s, ty, p, others, False)
            if r.random() < 0.5:
                acts.append('%s := case | %s : %s | _ : %s' % (c, cond, v1, weak_rhs(s, ty, p, others, False)))
            else:
                acts.append('%s := case | %s : %s' % (c, cond, v1))
        else:
            acts.append('%s := %s' % (c, weak_rhs(s, ty, p, others)))
    # regular register updates (read weak memory into a register)
    for reg, ty in s.regs:
        if r.random() < 0.3:
            srcs = [w for w in s.weak if w[2] == ty]
            if srcs and r.random() < 0.7:
                nm, kind, _ = r.choice(srcs)
                acts.append('%s[p] := %s' % (reg, cell(nm, kind, r.choice([p] + others) if kind == 'array' else p)))
            elif ty == 'proc':
                if others:
                    acts.append('%s[p] := %s' % (reg, r.choice(others)))
            else:
                acts.append('%s[p] := %s' % (reg, s.val(ty)))
    params = '[p]' + ''.join(' ' + o for o in others)
    return 'transition %s (%s)\nrequires { %s }\n{ %s }\n' % (name, params, gtext, '; '.join(acts))


def gen_random(s):
    r = s.r
    s.nloc = r.randint(3, 6)
    s.types['loc'] = [loc(s, i) for i in range(s.nloc)]
    pick_weak(s)
    if r.random() < 0.3:
        ty = r.choice(['bool', 'int', 'proc'] + (['val'] if 'val' in s.types else []))
        s.regs.append(('R', ty))
    if r.random() < 0.15:
        s.types['kind'] = ['K0', 'K1']
        s.consts.append(('Kind', 'kind'))
        if r.random() < 0.6:
            s.invariants.append('invariant (p1 p2) { Kind[p1] = K0 && Kind[p2] = K0 }')
    # control flow: a cycle L0 -> L1 -> ... -> L(n-1) -> L0 plus random edges
    ntr = r.randint(2, 6)
    edges = []
    for i in range(ntr):
        if i < s.nloc - 1 and r.random() < 0.8:
            src = i
        else:
            src = r.randrange(s.nloc)
        dst = [(src + 1) % s.nloc if r.random() < 0.6 else r.randrange(s.nloc), r.randrange(s.nloc)]
        edges.append((src, dst))
    for i, (src, dst) in enumerate(edges):
        s.trans.append(gen_transition(s, 't%d' % (i + 1), src, dst))
    gen_init_unsafe(s)


def gen_init_unsafe(s, unsafe=None):
    r = s.r
    init = ['PC[p] = L0']
    for nm, kind, ty in s.weak:
        if ty == 'int' or r.random() < 0.85:
            v = '0' if ty == 'int' else (s.val(ty) if ty != 'proc' else None)
            if ty == 'int' and r.random() < 0.3:
                v = '1'
            if ty == 'bool' and r.random() < 0.7:
                v = 'False'
            if v is not None:
                init.append('%s = %s' % (cell(nm, kind, 'p'), v))
        # else: left open (a setup per value)
    for reg, ty in s.regs:
        if ty in ('bool', 'int') or (ty not in ('proc',) and r.random() < 0.7):
            init.append('%s[p] = %s' % (reg, '0' if ty == 'int' else s.val(ty)))
    s.init = 'init (p) { %s }' % ' && '.join(init)
    if unsafe:
        s.unsafe = [unsafe]
        return
    np_ = r.choice([1, 2, 2, 2, 3])
    ps = ['p1', 'p2', 'p3'][:np_]
    lits = []
    for q in ps:
        if r.random() < 0.85 or q == 'p1':
            lits.append('PC[%s] = %s' % (q, loc(s, r.randrange(1, s.nloc))))
    if r.random() < 0.35:
        nm, kind, ty = r.choice(s.weak)
        viewer = r.choice(ps)
        c = cell(nm, kind, r.choice(ps))
        if ty == 'proc':
            v = r.choice(ps)
        else:
            v = s.val(ty)
        lits.append('%s @ %s %s %s' % (viewer, c, r.choice(['=', '=', '<>']), v))
    for reg, ty in s.regs:
        if r.random() < 0.2 and ty != 'proc':
            lits.append('R[%s] = %s' % (r.choice(ps), s.val(ty)))
    if s.consts and r.random() < 0.4:
        lits.append('Kind[%s] = %s' % (ps[0], s.val('kind')))
    s.unsafe = ['unsafe (%s) { %s }' % (' '.join(ps), ' && '.join(lits))]


# ---- shapes: hand-made skeletons with random mutations

def shape_sb(s):
    # store buffering / Dekker flags: write own flag, read the other's
    r = s.r
    s.nloc = 3
    s.types['loc'] = ['L0', 'L1', 'L2']
    s.weak.append(('A', 'array', 'bool'))
    f = ' && fence()' if r.random() < 0.5 else ''
    rd = r.choice(['A[q] = False', 'forall_other q. A[q] = False'])
    params = '[p] q' if 'forall' not in rd else '[p]'
    s.trans.append('transition t1 ([p])\nrequires { PC[p] = L0 }\n{ PC[p] := L1; A[p] := True }\n')
    if 'forall' in rd:
        s.trans.append('transition t2 ([p])\nrequires { PC[p] = L1%s && %s }\n{ PC[p] := L2 }\n' % (f, rd))
    else:
        s.trans.append('transition t2 ([p] q)\nrequires { PC[p] = L1 && %s%s }\n{ PC[p] := L2 }\n' % (rd, f))
    if r.random() < 0.5:
        s.trans.append('transition t3 ([p])\nrequires { PC[p] = L2 }\n{ PC[p] := L0; A[p] := False }\n')
    if r.random() < 0.5:
        s.trans.append(gen_transition(s, 't4', r.randrange(3), [r.randrange(3), r.randrange(3)]))
    gen_init_unsafe(s, 'unsafe (p1 p2) { PC[p1] = L2 && PC[p2] = L2 }' if r.random() < 0.8 else None)


def shape_mp(s):
    # message passing: writer writes data then flag; reader reads flag then data
    r = s.r
    s.nloc = 4
    s.types['loc'] = ['L0', 'L1', 'L2', 'L3']
    s.weak.append(('X', 'var', 'bool'))
    s.weak.append(('Y', 'var', 'bool'))
    joined = r.random() < 0.3
    if joined:
        s.trans.append('transition w ([p])\nrequires { PC[p] = L0 }\n{ PC[p] := L2; X := True; Y := True }\n')
    else:
        s.trans.append('transition w1 ([p])\nrequires { PC[p] = L0 }\n{ PC[p] := L1; X := True }\n')
        s.trans.append('transition w2 ([p])\nrequires { PC[p] = L1%s }\n{ PC[p] := L2; Y := True }\n' % (' && fence()' if r.random() < 0.3 else ''))
    if r.random() < 0.5:
        s.trans.append('transition r1 ([p])\nrequires { PC[p] = L0 && Y = True }\n{ PC[p] := L3 }\n')
        s.trans.append('transition r2 ([p])\nrequires { PC[p] = L3 && X = False }\n{ PC[p] := L1 }\n')
        uns = 'unsafe (p1) { PC[p1] = L1 }' if r.random() < 0.5 else None
    else:
        s.trans.append('transition r ([p])\nrequires { PC[p] = L0 && Y = True && X = False }\n{ PC[p] := L3 }\n')
        uns = 'unsafe (p1) { PC[p1] = L3 }'
    if r.random() < 0.4:
        s.trans.append(gen_transition(s, 'tx', r.randrange(4), [r.randrange(4), r.randrange(4)]))
    gen_init_unsafe(s, uns)
    s.init = 'init (p) { PC[p] = L0 && X = False && Y = False }'


def shape_tas(s):
    # test-and-set spin lock: locked RMW
    r = s.r
    s.nloc = 3
    s.types['loc'] = ['L0', 'L1', 'L2']
    ty = r.choice(['bool', 'int'])
    s.weak.append(('X', 'var', ty))
    free, taken = ('False', 'True') if ty == 'bool' else ('0', '1')
    s.trans.append('transition acq ([p])\nrequires { PC[p] = L0 && X = %s }\n{ PC[p] := L1; X := %s }\n' % (free, taken))
    if r.random() < 0.5:
        s.trans.append('transition spin ([p])\nrequires { PC[p] = L0 && X = %s }\n{ PC[p] := L0 }\n' % taken)
    s.trans.append('transition rel ([p])\nrequires { PC[p] = L1 }\n{ PC[p] := L2; X := %s }\n' % free)
    s.trans.append('transition back ([p])\nrequires { PC[p] = L2 }\n{ PC[p] := L0 }\n')
    if r.random() < 0.6:
        s.trans.append(gen_transition(s, 'tx', r.randrange(3), [r.randrange(3), r.randrange(3)]))
    gen_init_unsafe(s, 'unsafe (p1 p2) { PC[p1] = L1 && PC[p2] = L1 }' if r.random() < 0.8 else None)
    if r.random() < 0.7:
        s.init = 'init (p) { PC[p] = L0 && X = %s }' % free


def shape_peterson(s):
    r = s.r
    s.nloc = 5
    s.types['loc'] = ['L0', 'L1', 'L2', 'L3', 'L4']
    s.weak.append(('A', 'array', 'bool'))
    s.weak.append(('T', 'var', 'proc'))
    f = ' && fence()' if r.random() < 0.5 else ''
    s.trans.append('transition t1 ([p])\nrequires { PC[p] = L0 }\n{ PC[p] := L1; A[p] := True }\n')
    if r.random() < 0.5:
        s.trans.append('transition t2 ([p] q)\nrequires { PC[p] = L1 }\n{ PC[p] := L2; T := q }\n')
    else:
        s.trans.append('transition t2 ([p])\nrequires { PC[p] = L1 }\n{ PC[p] := L2; T := p }\n')
    s.trans.append('transition t3 ([p] q)\nrequires { PC[p] = L2 && A[q] = False%s }\n{ PC[p] := L3 }\n' % f)
    s.trans.append('transition t3b ([p])\nrequires { PC[p] = L2 && T = p%s }\n{ PC[p] := L3 }\n' % (f if r.random() < 0.5 else ''))
    s.trans.append('transition t4 ([p])\nrequires { PC[p] = L3 }\n{ PC[p] := L0; A[p] := False }\n')
    gen_init_unsafe(s, 'unsafe (p1 p2) { PC[p1] = L3 && PC[p2] = L3 }')


def shape_barrier(s):
    r = s.r
    s.nloc = 4
    s.types['loc'] = ['L0', 'L1', 'L2', 'L3']
    s.weak.append(('F', 'array', 'bool'))
    f = ' && fence()' if r.random() < 0.3 else ''
    s.trans.append('transition t1 ([p])\nrequires { PC[p] = L0 }\n{ PC[p] := L1; F[p] := True }\n')
    s.trans.append('transition t2 ([p])\nrequires { PC[p] = L1 && forall_other j. F[j] = True%s }\n{ PC[p] := L2 }\n' % f)
    s.trans.append('transition t3 ([p])\nrequires { PC[p] = L2 }\n{ PC[p] := L3; F[p] := False }\n')
    s.trans.append('transition t4 ([p])\nrequires { PC[p] = L3 && forall_other j. F[j] = False }\n{ PC[p] := L0 }\n')
    if r.random() < 0.4:
        s.trans.append(gen_transition(s, 'tx', r.randrange(4), [r.randrange(4), r.randrange(4)]))
    gen_init_unsafe(s, r.choice(['unsafe (i j) { PC[i] = L0 && PC[j] = L2 }',
                                 'unsafe (i j) { PC[i] = L2 && PC[j] = L0 }', None]))


def shape_litmus(s):
    """Every process picks a role at L0, then runs that role's straight-line
    code (a litmus thread): writes, reads into registers, blocking reads,
    fences, locked read-modify-writes, joined writes, snapshot reads. The
    unsafe cube puts one process per role at its end with chosen register
    values (and sometimes a view)."""
    r = s.r
    nroles = r.choice([2, 2, 2, 3])
    cells = [('X', 'var', 'bool'), ('Y', 'var', 'bool')]
    if r.random() < 0.4:
        cells.append(('Z', 'var', 'int'))
    if r.random() < 0.3:
        cells.append(('A', 'array', 'bool'))
    s.weak.extend(cells)
    locs = ['L0']
    trans = []
    regs = []
    ends = []
    tid = [0]

    def name():
        tid[0] += 1
        return 't%d' % tid[0]

    def val(c, w=False):
        if w:
            return r.choice(['1', '1', '2', '0']) if c[2] == 'int' else r.choice(['True', 'True', 'True', 'False'])
        return r.choice(['0', '1', '2']) if c[2] == 'int' else r.choice(['True', 'False'])

    def cref(c, who):
        return c[0] if c[1] == 'var' else '%s[%s]' % (c[0], who)

    for ro in range(nroles):
        nops = r.randint(1, 4)
        cur = 'L0'
        reg_of_role = []
        for i in range(nops):
            nxt = 'R%d_%d' % (ro, i + 1)
            locs.append(nxt)
            op = r.choice(['W', 'W', 'R', 'R', 'G', 'F', 'RMW', 'WW', 'RR', 'WQ', 'RQ'])
            c = r.choice(cells)
            params = '[p]'
            who = 'p'
            if c[1] == 'array' and op in ('R', 'G', 'RR', 'RQ', 'RMW'):
                params, who = '[p] q', 'q'
            if op == 'WQ' and c[1] == 'array':
                params, who = '[p] q', 'q'
            guard = 'PC[p] = %s' % cur
            acts = ['PC[p] := %s' % nxt]
            if op in ('W', 'WQ'):
                acts.append('%s := %s' % (cref(c, who), val(c, True)))
            elif op == 'WW':
                c2 = r.choice([x for x in cells if x != c] or [c])
                acts.append('%s := %s' % (cref(c, 'p'), val(c, True)))
                if c2 != c:
                    acts.append('%s := %s' % (cref(c2, 'p'), val(c2, True)))
            elif op in ('R', 'RQ'):
                g = 'G%d' % len(regs)
                regs.append((g, c[2] if c[2] != 'int' else 'int'))
                reg_of_role.append((g, c[2]))
                acts.append('%s[p] := %s' % (g, cref(c, who)))
            elif op == 'G':
                guard += ' && %s %s %s' % (cref(c, who), r.choice(['=', '=', '<>']), val(c))
            elif op == 'RR':
                c2 = r.choice(cells)
                guard += ' && %s = %s' % (cref(c, who), val(c))
                if c2 != c:
                    g = 'G%d' % len(regs)
                    regs.append((g, c2[2]))
                    reg_of_role.append((g, c2[2]))
                    acts.append('%s[p] := %s' % (g, cref(c2, 'p' if c2[1] == 'array' else who)))
            elif op == 'F':
                guard += ' && fence()'
            elif op == 'RMW':
                if c[2] == 'int' and r.random() < 0.5:
                    guard += ' && %s < 2' % cref(c, who)
                    acts.append('%s := %s + 1' % (cref(c, who), cref(c, who)))
                else:
                    guard += ' && %s = %s' % (cref(c, who), val(c))
                    acts.append('%s := %s' % (cref(c, who), val(c, True)))
            if r.random() < 0.12 and 'fence()' not in guard:
                guard += ' && fence()'
            trans.append('transition %s (%s)\nrequires { %s }\n{ %s }\n' % (name(), params, guard, '; '.join(acts)))
            cur = nxt
        ends.append((cur, reg_of_role))
        if r.random() < 0.15:
            trans.append('transition %s ([p])\nrequires { PC[p] = %s }\n{ PC[p] := L0 }\n' % (name(), cur))
    s.types['loc'] = locs
    s.nloc = len(locs)
    s.regs_lit = regs
    s.trans = trans
    init = ['PC[p] = L0']
    for c in cells:
        init.append('%s = %s' % (cref(c, 'p'), '0' if c[2] == 'int' else 'False'))
    for g, ty in regs:
        init.append('%s[p] = %s' % (g, '0' if ty == 'int' else 'False'))
    s.init = 'init (p) { %s }' % ' && '.join(init)
    ps = ['p1', 'p2', 'p3'][:nroles]
    lits = []
    for (end, rr), pv in zip(ends, ps):
        lits.append('PC[%s] = %s' % (pv, end))
        for g, ty in rr:
            if r.random() < 0.8:
                lits.append('%s[%s] = %s' % (g, pv, r.choice(['0', '1', '2']) if ty == 'int' else r.choice(['True', 'False'])))
    if r.random() < 0.25:
        c = r.choice(cells)
        v = ps[0] if c[1] == 'array' else None
        lits.append('%s @ %s = %s' % (r.choice(ps), cref(c, r.choice(ps)), val(c)))
    s.unsafe = ['unsafe (%s) { %s }' % (' '.join(ps), ' && '.join(lits))]


SHAPES = [gen_random, gen_random, shape_litmus, shape_litmus, shape_litmus, shape_sb, shape_mp, shape_tas, shape_peterson, shape_barrier]

# the list of the first campaign (seeds 10000-29999)
SHAPES_V1 = [gen_random, gen_random, gen_random, shape_sb, shape_mp, shape_tas, shape_peterson, shape_barrier]


def mutate(s):
    """small random changes to a shape's transitions"""
    r = s.r
    out = []
    for t in s.trans:
        if r.random() < 0.25 and ' && fence()' in t:
            t = t.replace(' && fence()', '', 1)
        elif r.random() < 0.1 and 'requires { ' in t and 'fence()' not in t and 'forall_other' not in t:
            t = t.replace(' }\n{', ' && fence() }\n{', 1)
        out.append(t)
    s.trans = out


def generate(seed):
    rng = random.Random(seed)
    s = Sys(rng)
    shapes = SHAPES_V1 if os.environ.get('CUB_GEN') == 'v1' else SHAPES
    shape = rng.choice(shapes) if not os.environ.get('CUB_SHAPE') else globals()[os.environ['CUB_SHAPE']]
    shape(s)
    if shape not in (gen_random, shape_litmus):
        mutate(s)
    lines = ['(* cub_fuzz seed %d shape %s *)' % (seed, shape.__name__)]
    for t, cs in s.types.items():
        lines.append('type %s = %s' % (t, ' | '.join(cs)))
    lines.append('array PC[proc] : loc')
    for nm, ty in s.regs + getattr(s, 'regs_lit', []):
        lines.append('array %s[proc] : %s' % (nm, ty))
    for nm, ty in s.consts:
        lines.append('const %s[proc] : %s' % (nm, ty))
    for nm, kind, ty in s.weak:
        lines.append('weak %s %s%s : %s' % (kind, nm, '[proc]' if kind == 'array' else '', ty))
    lines.append(s.init)
    lines.extend(s.invariants)
    lines.extend(s.unsafe)
    lines.append('')
    lines.extend(s.trans)
    return '\n'.join(lines) + '\n'


# ---------------------------------------------------------------- driver

def run(cmd, timeout):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        return 'hang', '', '', time.time() - t0


def verdict_of(rc):
    return {0: 'safe', 10: 'unsafe', 3: 'unknown', 2: 'input-error', 1: 'crash'}.get(rc, 'signal:%s' % rc)


def check(path, tool, tmo):
    res = {}
    rc, out, err, dt = run([tool, 'param', path, '--timeout', str(tmo)], tmo + 15)
    res['alln'] = verdict_of(rc)
    res['alln_t'] = round(dt, 2)
    res['alln_out'] = (out + err)[-600:] if rc not in (0,) else ''
    if rc == 2:
        res['alln_err'] = (out + err).strip()[-300:]
    for model in (('tso',) if os.environ.get('CUB_NOSC') else ('tso', 'sc')):
        if model == 'tso' and os.environ.get('CUB_ONLY_SAFE') and res['alln'] != 'safe':
            res['tso'] = 'skipped'
            continue
        rc2, out2, err2, dt2 = run([tool, 'param', path, '--procs', os.environ.get('CUB_PROCS', '2..3'), '--model', model,
                                    '--timeout', str(tmo), '--jobs', '1', '--json'], tmo + 15)
        v = verdict_of(rc2)
        res[model] = v
        res[model + '_t'] = round(dt2, 2)
        try:
            j = json.loads(out2)
            res[model + '_per_n'] = {str(x['n']): x['verdict'] for x in j.get('procs', [])}
        except Exception:
            res[model + '_err'] = (out2 + err2).strip()[-300:]
        if model == 'tso' and not (res['alln'] == 'safe' and v == 'unsafe') and res['alln'] != 'unsafe':
            pass
    return res


def main():
    if sys.argv[1] == 'gen':
        sys.stdout.write(generate(int(sys.argv[2])))
        return
    if sys.argv[1] == 'run':
        outdir, start, count = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        tool = 'build/tsoreach'
        tmo = 20
        args = sys.argv[5:]
        if '--tool' in args:
            tool = args[args.index('--tool') + 1]
        if '--timeout' in args:
            tmo = float(args[args.index('--timeout') + 1])
        os.makedirs(os.path.join(outdir, 'cases'), exist_ok=True)
        with open(os.path.join(outdir, 'results.jsonl'), 'a') as log:
            for seed in range(start, start + count):
                text = generate(seed)
                path = os.path.join(outdir, 'cases', 's%d.cub' % seed)
                with open(path, 'w') as f:
                    f.write(text)
                res = check(path, tool, tmo)
                res['seed'] = seed
                res.setdefault('sc', 'skipped')
                bad = []
                if res['alln'] == 'safe' and res['tso'] == 'unsafe':
                    bad.append('SOUNDNESS')
                if res['alln'] in ('crash',) or res['alln'].startswith('signal') or res['alln'] == 'hang':
                    bad.append('ALLN-CRASH')
                if res['tso'] in ('crash',) or res['tso'].startswith('signal') or res['sc'] in ('crash',):
                    bad.append('FIXED-CRASH')
                if res['alln'] == 'input-error' and res['tso'] != 'input-error':
                    bad.append('ALLN-INPUT-ERROR')
                if res['tso'] == 'input-error':
                    bad.append('FIXED-INPUT-ERROR')
                if res['alln'] == 'unsafe' and res['tso'] == 'safe':
                    bad.append('ALLN-UNSAFE-FIXED-SAFE')
                res.setdefault('sc', 'skipped')
                if res['sc'] == 'unsafe' and res['tso'] == 'safe':
                    bad.append('SC-UNSAFE-TSO-SAFE')
                res['flags'] = bad
                if res['alln'] == 'safe' and res['tso'] != 'safe':
                    res['unverified'] = True
                if not bad and not res.get('unverified'):
                    res.pop('alln_out', None)
                    os.unlink(path)
                log.write(json.dumps(res) + '\n')
                log.flush()


if __name__ == '__main__':
    main()
