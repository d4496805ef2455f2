#!/usr/bin/env bash
# A longer run of tests/mcr_test's brute-force comparison: mcr's verdicts on
# COMPARISONS (program, model) pairs of random acyclic programs (locks,
# fences, checks) from seed FIRST, against the brute force.
#   scripts/mcr_campaign.sh [COMPARISONS] [FIRST]   (defaults 9000, 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/tests/mcr_test ] || { echo "build first: make build" >&2; exit 2; }
TSOREACH_MCR_COMPARISONS=${1:-9000} TSOREACH_MCR_FIRST=${2:-1000} \
  build/tests/mcr_test --gtest_filter=Mcr.VerdictsEqualBruteForceOnRandomPrograms
