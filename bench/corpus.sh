#!/usr/bin/env bash
# The corpus (tests/corpus) with two engines per question, slow programs
# included: the table of bench/RESULTS.md, "Corpus".
#   bench/corpus.sh [TIMEOUT]   (seconds per engine run, default 60)
set -uo pipefail
cd "$(dirname "$0")/.."
python3 bench/corpus.py --timeout "${1:-60}" tests/corpus
