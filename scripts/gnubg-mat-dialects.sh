#!/usr/bin/env bash
# The gnubg oracle for .mat dialects: imports every file given (or every
# file under the directories given) with Debian's gnubg 1.07 ("import mat",
# then "save match" to SGF) and prints one line per file:
#   <file name> <TAB> <length> <TAB> <games> <TAB> <final gnubg ID>
# where <games> is, per game gnubg imported, "<left score>-<right score>:<result>"
# separated by spaces, <result> gnubg's SGF result (RE: "W+2" the left
# player won 2 points, "B+1R" the right player by resignation, "-" none: the
# game unfinished), <length> the match length gnubg read ("?" when gnubg
# imported nothing), <final gnubg ID> the Position ID:Match ID gnubg shows
# after the import (for an unfinished game, the dice it keeps to play).
# The left player of the .mat is gnubg's SGF "W".
# CI does not run this (no gnubg there): its output for our own samples is
# committed as testdata/backgammon/mat/dialects/gnubg.tsv, which
# TestDialectsAgreeWithGnubg compares our import with; for public archives
# (which are not committed) run it on them and set GAMERULES_MAT_ORACLE and
# GAMERULES_MAT_DIR for the same test.
set -euo pipefail
gnubg=${GNUBG:-/usr/games/gnubg}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
files=()
for a in "$@"; do
  if [ -d "$a" ]; then
    while IFS= read -r f; do files+=("$f"); done < <(find "$a" -type f \( -name '*.mat' -o -name '*.txt' \) | LC_ALL=C sort)
  else
    files+=("$a")
  fi
done
for f in "${files[@]}"; do
  rm -f "$tmp/m.sgf"
  printf 'import mat %s\nsave match %s\n' "$f" "$tmp/m.sgf" | timeout 60 "$gnubg" -t -q >"$tmp/out" 2>&1 || true
  if [ ! -s "$tmp/m.sgf" ]; then
    printf '%s\t?\t\t\n' "$(basename "$f")"
    continue
  fi
  # One SGF game tree per game: its MI (length, score) and RE (result).
  id="$(awk '/Position ID:/{p=$NF} /Match ID   :/{m=p":"$NF} END{print m}' "$tmp/out")"
  awk -v name="$(basename "$f")" -v id="$id" '
    { text = text $0 "\n" }
    END {
      n = split(text, parts, /\(;FF\[4\]/)
      len = "?"; games = ""
      for (i = 2; i <= n; i++) {
        p = parts[i]
        ws = "?"; bs = "?"; re = "-"
        if (match(p, /MI\[length:[0-9]+\]/)) { len = substr(p, RSTART + 10, RLENGTH - 11) }
        if (match(p, /\[ws:[0-9]+\]/)) { ws = substr(p, RSTART + 4, RLENGTH - 5) }
        if (match(p, /\[bs:[0-9]+\]/)) { bs = substr(p, RSTART + 4, RLENGTH - 5) }
        if (match(p, /RE\[[^]]*\]/)) { re = substr(p, RSTART + 3, RLENGTH - 4) }
        games = games (games == "" ? "" : " ") ws "-" bs ":" re
      }
      printf "%s\t%s\t%s\t%s\n", name, len, games, id
    }' "$tmp/m.sgf"
done
