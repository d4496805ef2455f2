#!/usr/bin/env python3
"""Runs the corpus (tests/corpus) through two engines per question.

  bench/corpus.py [--timeout S] [--establish] [PATH...]

For each program with a goal (final states, or a .rmm file's `forbidden`)
and each model, two engines answer reachability: SC and PSO the explicit
engine with and without its reductions, TSO the explicit engine and the lazy
engine. Programs without a goal (Trencher's robustness examples) get the
TSO robustness question, answered by the attack engine and by dpor with
--unroll 2 (which can only say "not robust" on cyclic programs).

Prints a markdown table: verdicts, seconds, whether the engines agree and
whether the answer matches the file's `corpus` header. --establish prints
the header each file should carry instead (the agreed verdict, `unknown`
when no engine decided, `slow` when the slower engine needed more than 10 s).
"""
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("TSOREACH", os.path.join(ROOT, "build", "tsoreach"))
HEADER = re.compile(
    r"^(?:#|/\*) corpus sc=(\S+) tso=(\S+) pso=(\S+) robust-tso=(\S+) time=(fast|slow)")
FAST = 10.0


def run(args, timeout):
    start = time.monotonic()
    try:
        p = subprocess.run([BIN] + args + ["--timeout", str(timeout), "--max-memory", "3000"],
                           capture_output=True, text=True, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return "unknown", time.monotonic() - start, "killed"
    secs = time.monotonic() - start
    verdict = {0: "yes", 10: "no", 3: "unknown"}.get(p.returncode)
    if p.returncode == 2:
        # An input error: the message after "error: ", shortened.
        msg = (p.stderr.strip().splitlines() or ["?"])[0]
        return "rejected", secs, msg.split("error: ", 1)[-1][:60]
    if verdict is None:
        return "error", secs, (p.stderr.strip().splitlines() or ["?"])[0]
    return verdict, secs, ""


def reach(path, model, extra, timeout):
    v, s, why = run(["reach", path, "--model", model] + extra, timeout)
    return {"yes": "unreachable", "no": "reachable"}.get(v, v), s, why


def robust(path, extra, timeout):
    return run(["robust", path, "--model", "tso"] + extra, timeout)


def has_goal(path):
    if path.endswith(".rmm"):
        return True
    with open(path, encoding="utf-8", errors="replace") as f:
        return any(re.match(r"\s*final\b", line) for line in f)


def agree(a, b):
    decided = {x for x in (a, b) if x in ("reachable", "unreachable", "yes", "no")}
    if len(decided) > 1:
        return "DISAGREE"
    if any(x == "error" for x in (a, b)):
        return "ERROR"
    if a == b == "rejected":
        return "rejected"
    if not decided:
        return "unknown"
    return next(iter(decided))


def header(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        m = HEADER.match(f.readline())
    return m.groups() if m else None


def files(paths):
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in sorted(os.walk(p)):
                for n in sorted(names):
                    if n.endswith((".txt", ".rmm")):
                        yield os.path.join(d, n)
        else:
            yield p


def main():
    args = sys.argv[1:]
    timeout = 60.0
    establish = False
    paths = []
    while args:
        a = args.pop(0)
        if a == "--timeout":
            timeout = float(args.pop(0))
        elif a == "--establish":
            establish = True
        else:
            paths.append(a)
    if not paths:
        paths = [os.path.join(ROOT, "tests", "corpus")]
    if not establish:
        print("| program | question | engine A | engine B | agreed | header |")
        print("|---|---|---|---|---|---|")
    bad = 0
    for path in files(paths):
        rel = os.path.relpath(path, os.path.join(ROOT, "tests", "corpus"))
        got = {"sc": "none", "tso": "none", "pso": "none", "robust-tso": "-"}
        slowest = 0.0
        rows = []
        if has_goal(path):
            for model in ("sc", "tso", "pso"):
                second = ["--engine", "lazy"] if model == "tso" else ["--por", "off", "--live", "off"]
                va, sa, wa = reach(path, model, ["--engine", "explicit"], timeout)
                vb, sb, wb = reach(path, model, second, timeout)
                got[model] = agree(va, vb)
                slowest = max(slowest, sa, sb)
                names = ("explicit", "lazy" if model == "tso" else "explicit, no reductions")
                rows.append((model, f"{names[0]}: {va} ({sa:.1f} s){' ' + wa if wa else ''}",
                             f"{names[1]}: {vb} ({sb:.1f} s){' ' + wb if wb else ''}", got[model]))
        else:
            va, sa, wa = robust(path, [], timeout)
            vb, sb, wb = robust(path, ["--engine", "dpor", "--unroll", "2"], timeout)
            # dpor with --unroll says "unknown" for a robust cyclic program.
            got["robust-tso"] = agree(va, vb)
            slowest = max(slowest, sa, sb)
            rows.append(("robust tso", f"attacks: {va} ({sa:.1f} s){' ' + wa if wa else ''}",
                         f"dpor --unroll 2: {vb} ({sb:.1f} s){' ' + wb if wb else ''}",
                         got["robust-tso"]))
        speed = "fast" if slowest <= FAST else "slow"
        if establish:
            c = "/*" if path.endswith(".rmm") else "#"
            end = " */" if path.endswith(".rmm") else ""
            print(f"{rel}\t{c} corpus sc={got['sc']} tso={got['tso']} pso={got['pso']} "
                  f"robust-tso={got['robust-tso']} time={speed}{end}")
            continue
        h = header(path)
        for q, a, b, g in rows:
            key = q.replace("robust ", "robust-")
            idx = {"sc": 0, "tso": 1, "pso": 2, "robust-tso": 3}[key]
            want = h[idx] if h else "?"
            mark = "ok" if want == g else f"MISMATCH (header {want})"
            if want != g or g in ("DISAGREE", "ERROR"):
                bad += 1
            print(f"| {rel} | {q} | {a} | {b} | {g} | {mark} |")
    if not establish:
        print()
        print(f"{bad} row(s) disagree or differ from their header.")


if __name__ == "__main__":
    main()
