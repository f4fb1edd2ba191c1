#!/usr/bin/env bash
# Refreshes third_party/google/api/*.proto (the HTTP annotations and field
# behaviour the API imports) from the npm package google-proto-files, which
# ships Google's API protos with their Apache-2.0 licence. Run it by hand when
# bumping the version; the result is committed.
set -euo pipefail
version="${1:-6.0.1}"
top="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "google-proto-files@${version}" >/dev/null)
tar -xzf "$tmp"/google-proto-files-*.tgz -C "$tmp"
dest="$top/third_party/google/api"
mkdir -p "$dest"
for f in annotations http field_behavior httpbody; do
  cp "$tmp/package/google/api/$f.proto" "$dest/$f.proto"
done
cp "$tmp/package/LICENSE" "$top/third_party/google/LICENSE"
echo "third_party/google/api refreshed from google-proto-files@${version}"
