#!/usr/bin/env bash
# A longer run of tests/joinwrite_random_test's comparison: COUNT random
# programs with joined stores and goals with views from seed SEED, explicit
# engine (and lazy under TSO) against the brute force under SC, TSO, PSO.
# Goals mix terms with and without views; MIXED=0 asks a view in every
# term of a goal with views.
#   scripts/joinwrite_campaign.sh [COUNT] [SEED]   (defaults 10000, 1)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
[ -x "$BUILD_DIR/tests/joinwrite_random_test" ] || {
  echo "build first: cmake --build $BUILD_DIR --target joinwrite_random_test" >&2
  exit 2
}
JOINWRITE_COUNT=${1:-10000} JOINWRITE_SEED=${2:-1} JOINWRITE_MIXED_TERMS=${MIXED:-1} \
  "$BUILD_DIR/tests/joinwrite_random_test" \
  --gtest_filter=JoinWriteRandom.ExplicitEngineAgreesWithBruteForce
