#!/usr/bin/env bash
# Writes the man page tsoreach.1 from the built binary's help texts with
# help2man: the main --help, then each subcommand's --help as a section.
# Usage: scripts/make-manpage.sh BINARY OUT
set -euo pipefail
bin=$1
out=$2
include=$(mktemp)
trap 'rm -f "$include"' EXIT

# roff-safe preformatted text: backslashes and leading dots/quotes escaped.
roff() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }

subcommands=$("$bin" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
{
  echo '[DESCRIPTION]'
  echo 'tsoreach decides whether a concurrent program can reach a bad state under'
  echo 'sequential consistency (SC), x86 TSO or PSO, and prints a replayed trace'
  echo 'when it can. Programs are thread automata (docs/language.md), Memorax .rmm'
  echo 'tests or herd x86 litmus tests. A FILE of - is read from standard input.'
  echo '[SUBCOMMANDS]'
  for s in $subcommands; do
    echo ".SS $s"
    echo '.nf'
    "$bin" "$s" --help | sed -e "s|$bin|tsoreach|g" | roff
    echo '.fi'
  done
  echo '[SEE ALSO]'
  echo 'The documentation in /usr/share/doc/tsoreach (or PREFIX/share/doc/tsoreach):'
  echo 'README.md, docs/language.md, docs/litmus.md, docs/rmm.md, docs/json.md.'
} > "$include"

help2man --no-info --no-discard-stderr --name='model checker for programs under SC, TSO and PSO' \
  --section=1 --include="$include" --output="$out" "$bin"
