#!/usr/bin/env bash
# The differential campaign (docs/testing.md): N random programs from seed
# SEED (default 0) through every engine of every model and the brute-force
# explorer. Findings (program, minimised program, note) go to
# DIFFERENTIAL_OUT (default differential-out/, gitignored); the last line is
# the summary. PROGRAM_SECONDS (default 10) bounds all runs on one program.
# Usage: scripts/differential.sh N [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: scripts/differential.sh N [SEED]" >&2
  exit 2
fi
BUILD_DIR=${BUILD_DIR:-build}
make --no-print-directory configure BUILD_DIR="$BUILD_DIR"
cmake --build "$BUILD_DIR" --target differential_campaign >/dev/null
exec "$BUILD_DIR/tests/differential_campaign" "$1" "${2:-0}" \
  --out "${DIFFERENTIAL_OUT:-differential-out}" --program-seconds "${PROGRAM_SECONDS:-10}"
