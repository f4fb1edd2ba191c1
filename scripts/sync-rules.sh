#!/usr/bin/env bash
# Brings the rules specifications into docs/rules/ from the folder where
# changes to them arrive (give it as the argument: the folder that holds
# rules/<game>.md). The copies differ from their sources only where a source
# names a file outside this repository: the source leaflets are named by
# their identifier (they are not shipped), and the Gravity Trap boards by
# their place in this repo. Review the diff and commit it.
set -euo pipefail
src="${1:?usage: scripts/sync-rules.sh <folder holding rules/*.md>}"
top="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$top/docs/rules"
for f in "$src"/rules/*.md; do
  sed -E \
    -e 's#\(seeds/([0-9]{3})_([0-9a-f]+)\.txt#(source text \1_\2, not shipped#' \
    -e 's#\(seeds/([0-9]{3})\)#(source text \1, not shipped)#' \
    -e 's#in `\.\./shared/testdata/gravitytrap/`#in `rules/gravitytrap/boards/` (test positions in `testdata/gravitytrap/`)#' \
    -e 's#\(board-(default|rings)\.json\)#(\1.json)#' \
    "$f" >"$top/docs/rules/$(basename "$f")"
done
if grep -nE '\.\./|seeds/' "$top"/docs/rules/*.md; then
  echo "sync-rules: the lines above still name a path outside the repo; extend the substitutions" >&2
  exit 1
fi
echo "docs/rules/ refreshed from $src/rules"
