#!/usr/bin/env bash
# Installs the Debian packages tsoreach needs to build and test.
# Idempotent: does nothing (and needs no network) when all are present.
set -euo pipefail

packages=(
  cmake ninja-build g++ make
  libboost-graph-dev   # Boost.Graph: cycles, SCCs, control-flow reachability
  libcli11-dev         # command line
  nlohmann-json3-dev   # JSON reports
  libgtest-dev         # unit tests
  clang libclang-rt-dev # make fuzz: clang++ and libFuzzer's runtime (fuzz/)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
