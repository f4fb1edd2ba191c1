#!/usr/bin/env bash
# Regenerates the gnubg oracle records in testdata/backgammon/mat (needs
# Debian's gnubg, /usr/games/gnubg; CI does not run this):
# - seed<S>-match<N>.mat: an N-point match gnubg plays against itself
#   (0-ply, seed S), exported by gnubg ("export match mat");
# - seed<S>-match<N>.ids: the gnubg ID (Position ID:Match ID) of every board
#   gnubg showed while playing it (after every action);
# - gnubg-reimport/ours-*.mat: what rules/backgammon/mat writes for each of
#   those, imported into gnubg ("import mat") and exported by gnubg again;
# - gnubg-reimport/gnubg-final.txt: the gnubg ID (Position ID:Match ID)
#   gnubg shows after importing each of our files (and, for the money
#   sessions, after importing its own).
# Go 1.27.3, go.mod's toolchain line (this machine's Go 1.26 runs with GOTOOLCHAIN=local).
export GOTOOLCHAIN=go1.27.3
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
dir="$top/testdata/backgammon/mat"
gnubg=${GNUBG:-/usr/games/gnubg}
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for spec in "11 3" "12 5" "13 1" "14 7" "42 3"; do
  set -- $spec
  {
    echo "set seed $1"
    for p in 0 1; do
      echo "set player $p gnubg"
      echo "set player $p chequerplay evaluation plies 0"
      echo "set player $p cubedecision evaluation plies 0"
    done
    echo "new match $2"
    echo "play"
    echo "export match mat $dir/seed$1-match$2.mat"
  } | "$gnubg" -t -q 2>&1 | awk '/Position ID:/{p=$NF} /Match ID   :/{print p":"$NF}' >"$dir/seed$1-match$2.ids"
done
# money-seed<S>-jacoby-<on|off>.mat/.ids: a money session of two games
# (cube on, Jacoby on or off), exported with "export match mat" (gnubg
# 1.07 has no "export session mat": "Unknown keyword `mat'.").
for spec in "7 on" "8 off"; do
  set -- $spec
  {
    echo "set seed $1"
    echo "set automatic game off"
    for p in 0 1; do
      echo "set player $p gnubg"
      echo "set player $p chequerplay evaluation plies 0"
      echo "set player $p cubedecision evaluation plies 0"
    done
    echo "set jacoby $2"
    echo "new session"
    echo "play"
    echo "new game"
    echo "play"
    echo "export match mat $dir/money-seed$1-jacoby-$2.mat"
  } | "$gnubg" -t -q 2>&1 | awk '/Position ID:/{p=$NF} /Match ID   :/{print p":"$NF}' >"$dir/money-seed$1-jacoby-$2.ids"
done
# gnubg-inplay-resigned.txt: the gnubg ID gnubg shows while playing, right
# after a resignation is accepted (the first board after the last "accepts
# and wins", shown by "play" at the match's end or by "show board"), for
# records whose last game ends so.
: >"$dir/gnubg-inplay-resigned.txt"
for spec in "seed11-match3.mat|set seed 11|new match 3|play" \
  "money-seed7-jacoby-on.mat|set seed 7|set automatic game off|set jacoby on|new session|play|new game|play"; do
  name=${spec%%|*}
  rest=${spec#*|}
  {
    echo "${rest%%|*}" # the seed first, as above
    for p in 0 1; do
      echo "set player $p gnubg"
      echo "set player $p chequerplay evaluation plies 0"
      echo "set player $p cubedecision evaluation plies 0"
    done
    echo "${rest#*|}" | tr '|' '\n'
    echo "show board"
  } | "$gnubg" -t -q 2>&1 | awk -v n="$name" '/accepts and wins/{a=1} a&&/Position ID:/{p=$NF} a&&/Match ID   :/{print n" "p":"$NF; a=0}' | tail -1 >>"$dir/gnubg-inplay-resigned.txt"
done
# money-session-*.mat/.ids: money sessions of 6 to 8 games with beavers,
# raccoons and declined resignations, played by session.py through gnubg's
# Python interface.
(cd "$dir" && "$gnubg" -t -q -p session.py >/dev/null)
(cd "$top" && GAMERULES_MAT_DUMP="$tmp" go test ./rules/backgammon/mat -run 'TestGnubgMatches|TestGnubgMoneySessions' -count=1 >/dev/null)
mkdir -p "$dir/gnubg-reimport"
: >"$dir/gnubg-reimport/gnubg-final.txt"
# gnubg's import mat plays with its own settings (the format has no Jacoby
# or beaver setting): set them as the session was played. The last ID is
# what gnubg shows after importing our file; for money sessions a third,
# what it shows after importing its own export of the session ("-:" when
# its import gives up, as it does on its own money-session-s3 file).
for f in "$tmp"/ours-*.mat; do
  b=$(basename "$f")
  j=on b3=0
  case $b in *jacoby-off*) j=off ;; esac
  case $b in *beavers*) b3=3 ;; esac
  set_=$(printf 'set jacoby %s\nset beavers %s\n' "$j" "$b3")
  printf '%s\nimport mat %s\nexport match mat %s\n' "$set_" "$f" "$dir/gnubg-reimport/$b" | "$gnubg" -t -q >/dev/null 2>&1
  final() { printf '%s\nimport mat %s\nshow board\n' "$set_" "$1" | "$gnubg" -t -q 2>&1 | awk '/Position ID:/{p=$NF} /Match ID   :/{m=$NF} END{print p":"m}'; }
  line="$b $(final "$f")"
  case $b in ours-money-*) line="$line $(final "$dir/${b#ours-}")" ;; esac
  echo "$line" >>"$dir/gnubg-reimport/gnubg-final.txt"
done
echo "regenerated $dir"
