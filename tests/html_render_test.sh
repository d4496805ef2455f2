#!/bin/sh
# Renders the --html pages of an SB trace, a robustness witness (with its
# graph laid out by Graphviz when installed, and by tsoreach's own layout)
# and a fence report in headless Chromium, and checks what a person would see: each
# picture is not blank and shows the colours that carry its meaning (the
# red verdict, the orange delayed store, the red cycle, the green fences),
# and the rendered document holds the report's text.
#
# usage: html_render_test.sh TSOREACH SOURCE_DIR [OUT_DIR]
# With OUT_DIR the screenshots are kept there (scripts/make-screenshots.sh
# makes docs/images/ this way). Exits 77 (ctest: skipped) without Chromium
# or python3; `scripts/install-deps.sh test` installs both.
set -eu
tsoreach=$1
src=$2
out=${3:-}

browser=
for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser=$candidate
        break
    fi
done
if [ -z "$browser" ]; then
    echo "skipped: Chromium is not installed (scripts/install-deps.sh test installs it)"
    exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "skipped: python3 is not installed"
    exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# page NAME EXPECTED_EXIT TSOREACH_ARGS... (PAGE_PATH: tsoreach's PATH)
page() {
    name=$1
    want=$2
    shift 2
    code=0
    env PATH="${PAGE_PATH:-$PATH}" "$tsoreach" "$@" --html "$tmp/$name.html" >/dev/null || code=$?
    if [ "$code" != "$want" ]; then
        echo "FAIL: tsoreach $* exited $code, not $want"
        exit 1
    fi
}

# render NAME HEIGHT: a PNG and the document as Chromium rendered it.
render() {
    for what in "--screenshot=$tmp/$1.png" "--dump-dom"; do
        timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
            --hide-scrollbars --user-data-dir="$tmp/profile" --window-size="1200,$2" \
            "$what" "file://$tmp/$1.html" >"$tmp/$1.dom.part" 2>"$tmp/$1.log" || {
            echo "FAIL: $browser could not render $1.html"
            cat "$tmp/$1.log"
            exit 1
        }
        [ "$what" = "--dump-dom" ] && mv "$tmp/$1.dom.part" "$tmp/$1.dom"
    done
    if [ ! -s "$tmp/$1.png" ]; then
        echo "FAIL: no screenshot of $1.html"
        cat "$tmp/$1.log"
        exit 1
    fi
}

# shows NAME TEXT...: the rendered document holds each text.
shows() {
    name=$1
    shift
    for text in "$@"; do
        if ! grep -qF -- "$text" "$tmp/$name.dom"; then
            echo "FAIL: the rendered $name.html lacks: $text"
            exit 1
        fi
    done
}

# From the source folder, so that the pages name the examples as a user
# in a checkout would.
tsoreach=$(cd "$(dirname "$tsoreach")" && pwd)/$(basename "$tsoreach")
cd "$src"
page sb 10 reach examples/sb.txt
page robust 10 robust examples/peterson.txt
page fences 0 fences examples/sb.txt --target robustness
# Without Graphviz on its PATH, tsoreach draws the graph itself.
PAGE_PATH=/nonexistent page builtin 10 robust examples/peterson.txt

render sb 1150
render robust 2250
render fences 950
render builtin 2250

# Verdict badge red, delayed store orange, overtaking load red.
python3 "$src/tests/png_check.py" "$tmp/sb.png" "#c62828" "#ef6c00" "#ffebee"
# The cycle: red arcs and boxes (Graphviz's red or the built-in layout's).
if grep -q "drawn by Graphviz dot" "$tmp/robust.dom"; then
    python3 "$src/tests/png_check.py" "$tmp/robust.png" "#c62828" "#ff0000"
else
    python3 "$src/tests/png_check.py" "$tmp/robust.png" "#c62828" "#d62728"
fi
python3 "$src/tests/png_check.py" "$tmp/builtin.png" "#c62828" "#d62728"
# The fences in the source: green.
python3 "$src/tests/png_check.py" "$tmp/fences.png" "#2e7d32" "#e8f5e9"

shows sb "reachable" "delayed: still buffered at the load of step 5" "overtakes x=1 (step 4)" \
    "the goal holds after this step" "<th>t0</th><th>t1</th>"
shows robust "not robust" "Attack: thread t0 delays" "Happens-before cycle" "<svg" \
    "W turn = 1"
shows builtin "drawn by the built-in layout" "W turn = 1" "<svg"
shows fences "2 fences (verified, minimum)" "fence 1: t0 at state stored" \
    "cuts attack: t1 delays"

if [ -n "$out" ]; then
    mkdir -p "$out"
    cp "$tmp/sb.png" "$out/html-sb-trace.png"
    cp "$tmp/robust.png" "$out/html-robustness-witness.png"
    cp "$tmp/fences.png" "$out/html-fences.png"
    echo "screenshots in $out"
fi
echo "ok: four pages rendered by $browser"
