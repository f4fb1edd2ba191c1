#!/usr/bin/env bash
# Refreshes third_party/google/api/*.proto (the HTTP annotations and field
# behaviour the API imports) and third_party/google/rpc/{status,
# error_details,code}.proto (the error model: clients in other languages
# need them to decode an error's ErrorInfo and BadRequest details) from the
# npm package google-proto-files, which
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
mkdir -p "$top/third_party/google/rpc"
for f in status error_details code; do
  cp "$tmp/package/google/rpc/$f.proto" "$top/third_party/google/rpc/$f.proto"
done
cp "$tmp/package/LICENSE" "$top/third_party/google/LICENSE"
echo "third_party/google/{api,rpc} refreshed from google-proto-files@${version}"
