#!/bin/sh
# Makes the screenshots of the HTML report that the README shows
# (docs/images/html-*.png) with the same pages and checks as the ctest test
# HtmlRender. Needs Chromium (scripts/install-deps.sh test) and a built
# tsoreach. Usage: scripts/make-screenshots.sh [TSOREACH]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
exec sh "$root/tests/html_render_test.sh" "${1:-$root/build/tsoreach}" "$root" "$root/docs/images"
