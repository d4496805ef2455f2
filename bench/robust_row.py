#!/usr/bin/env python3
"""One row of bench/robust.sh's table from a `tsoreach robust --json` report.

usage: robust_row.py NAME < REPORT.json
"""
import json
import sys

d = json.load(sys.stdin)
verdict = d["verdict"]
if verdict == "unknown":
    verdict += " (" + d["reason"] + ")"
a = d["attacks"]
print(f"| {sys.argv[1]} | {verdict} | {a['total']} | {a['feasible']} | {d['stats']['time_s']:.2f} |")
