#!/usr/bin/env bash
# bench/sdkpatch.sh OUT builds gtmgate into OUT against the go-sdk version
# go.mod names with bench/go-sdk-parse-in-place.patch applied: the upstream
# fix written up in bench/sdk-decode-patch.md. For measuring only (bench/run.sh's
# GTMGATE_ALT_BIN); gtmgate itself builds against the unpatched release.
#
#   GTMGATE_ALT_BIN=$(bash bench/sdkpatch.sh /tmp/gtmgate-sdkpatch) bash bench/run.sh
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${1:?usage: bench/sdkpatch.sh OUT}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

SDK=github.com/modelcontextprotocol/go-sdk
go mod download "$SDK"
src=$(go list -m -f '{{.Dir}}' "$SDK")
version=$(go list -m -f '{{.Version}}' "$SDK")
cp -r "$src" "$WORK/go-sdk"
chmod -R u+w "$WORK/go-sdk"
patch -s -d "$WORK/go-sdk" -p1 <"$ROOT/bench/go-sdk-parse-in-place.patch"

cp go.mod "$WORK/go.mod"
cp go.sum "$WORK/go.sum"
printf '\nreplace %s => %s\n' "$SDK" "$WORK/go-sdk" >>"$WORK/go.mod"
go build -modfile="$WORK/go.mod" -o "$OUT" ./cmd/gtmgate
printf 'bench: gtmgate with go-sdk %s and bench/go-sdk-parse-in-place.patch: %s\n' "$version" "$OUT" >&2
printf '%s\n' "$OUT"
