#!/usr/bin/env python3
"""One row of bench/robust.sh's table from a `tsoreach robust --json` report.

usage: robust_row.py NAME [PROGRAM_FILE] < REPORT.json
"""
import json
import re
import sys

d = json.load(sys.stdin)
# What the file's comments claim, if anything ("IS robust" / "IS NOT robust").
claim = ""
if len(sys.argv) > 2:
    with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
        m = re.search(r"IS (NOT )?robust", f.read())
    if m:
        claim = "not-robust" if m.group(1) else "robust"
verdict = d["verdict"]
if verdict == "unknown":
    verdict += " (" + d["reason"] + ")"
a = d["attacks"]
s = d["stats"]
print(f"| {sys.argv[1]} | {verdict} | {claim} | {a['total']} | {a['feasible']} | "
      f"{s.get('sc_states', '')} | {s['time_s']:.2f} |")
