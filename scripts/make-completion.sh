#!/usr/bin/env bash
# Writes a bash completion script for tsoreach from the built binary's help
# texts: the subcommands, each subcommand's options, and the values of the
# options that list them ({sc,tso,pso}); files otherwise.
# Usage: scripts/make-completion.sh BINARY OUT
set -euo pipefail
bin=$1
out=$2

subcommands=$("$bin" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
{
  echo '# bash completion for tsoreach (made by scripts/make-completion.sh from --help)'
  echo '_tsoreach() {'
  echo '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} sub=${COMP_WORDS[1]}'
  echo '  if [ "$COMP_CWORD" -eq 1 ]; then'
  echo "    COMPREPLY=(\$(compgen -W \"$(echo $subcommands) --help --version\" -- \"\$cur\"))"
  echo '    return'
  echo '  fi'
  echo '  local opts="" values=""'
  echo '  case "$sub" in'
  for s in $subcommands; do
    help=$("$bin" "$s" --help)
    opts=$(grep -oE '^ +(-[a-zA-Z],)?--[a-z][a-z-]*' <<< "$help" | sed -E 's/^ +(-[a-zA-Z],)?//' | tr '\n' ' ')
    echo "    $s)"
    echo "      opts=\"$opts\""
    echo '      case "$prev" in'
    # --model TEXT:{sc,tso,pso}=tso: the braces list the values.
    grep -oE '^ +--[a-z-]+ [A-Z]+:\{[^}]*\}' <<< "$help" | while read -r line; do
      opt=$(awk '{ print $1 }' <<< "$line")
      vals=$(sed -E 's/.*\{([^}]*)\}.*/\1/' <<< "$line" | tr ',' ' ')
      echo "        $opt) values=\"$vals\" ;;"
    done
    echo '      esac ;;'
  done
  echo '  esac'
  echo '  if [ -n "$values" ]; then'
  echo '    COMPREPLY=($(compgen -W "$values" -- "$cur"))'
  echo '  elif [[ $cur == -* ]]; then'
  echo '    COMPREPLY=($(compgen -W "$opts" -- "$cur"))'
  echo '  else'
  echo '    COMPREPLY=($(compgen -f -- "$cur"))'
  echo '  fi'
  echo '}'
  echo 'complete -o filenames -F _tsoreach tsoreach'
} > "$out"
