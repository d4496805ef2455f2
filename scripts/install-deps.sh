#!/usr/bin/env bash
# Installs the Debian packages tsoreach needs, for one purpose:
#   tool  build and install the tsoreach executable (make run, make install)
#   test  the tool and its test suite (make test, make check-sanitize)
#   fuzz  the tool and the libFuzzer targets (make fuzz)
# Usage: scripts/install-deps.sh [tool|test|fuzz]... (default: tool)
# Idempotent: does nothing (and needs no network) when all are present.
set -euo pipefail

packages=(
  cmake ninja-build g++ make
  libboost-graph-dev   # Boost.Graph: cycles, SCCs, control-flow reachability
  libcli11-dev         # command line
  nlohmann-json3-dev   # JSON reports
  help2man             # the man page, made from --help (make install)
  libz3-dev            # Z3: the mcr engine's solver (reach/mcr)
  libclang-dev         # libclang's C API: the C front end (frontends/c)
)
for purpose in "${@:-tool}"; do
  case "$purpose" in
    tool) ;;
    # unit tests; dot renders the DOT output and lays out the HTML graphs;
    # headless Chromium renders the HTML pages (tests/html_render_test.sh),
    # with a font to draw their text and python3 to read the screenshots;
    # python3-jsonschema checks the JSON reports (tests/json_schema_check.py)
    test) packages+=(libgtest-dev graphviz chromium fonts-dejavu-core python3
                     python3-jsonschema) ;;
    fuzz) packages+=(clang libclang-rt-dev) ;;       # clang++ and libFuzzer's runtime
    *) echo "install-deps: unknown purpose '$purpose' (tool, test or fuzz)" >&2; exit 2 ;;
  esac
done

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
