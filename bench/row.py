#!/usr/bin/env python3
"""Turns one `tsoreach reach --json` report into a row of bench/run.sh's table.

usage: row.py NAME SEARCH REPORT.json
"""
import json
import sys

name, search, path = sys.argv[1:4]
with open(path) as f:
    j = json.load(f)
s = j["stats"]
verdict = j["verdict"]
if verdict == "unknown":
    verdict += " (" + j["reason"] + ")"
rate = s["states"] / s["time_s"] if s["time_s"] > 0 else 0
print(f"| {name} | {j['model']} | {search} | {verdict} | {s['states']:,} | {s['transitions']:,} | "
      f"{s['time_s']:.2f} | {rate:,.0f} | {s['peak_rss_mb']:.0f} |")
