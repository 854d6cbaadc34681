#!/usr/bin/env bash
# Builds the browser clock (cmd/clockwasm: the device library and the law)
# to WebAssembly and writes it, compressed, where the hall embeds and
# serves it (internal/clockwasm).
#
#   tools/wasm/build.sh          # rebuild: clock.wasm.gz, clock.wasm.sha256, wasm_exec.js
#   tools/wasm/build.sh -check   # fail if the committed artifact is not current
#
# The build is reproducible: -trimpath, no build id or VCS stamp, symbols
# stripped, gzip without a name or time. -check compares the SHA-256 of
# the uncompressed WebAssembly (and wasm_exec.js, which must come from the
# Go that built it), so a different gzip cannot fail it; a different Go
# version can (the artifact is current only for the go.mod's toolchain).
# Run it after any change to rules, rules/conformance, clockdev (any of it:
# the device library is linked), proto or cmd/clockwasm.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=internal/clockwasm

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GOOS=js GOARCH=wasm go build -trimpath -buildvcs=false -ldflags="-s -w -buildid=" -o "$tmp/clock.wasm" ./cmd/clockwasm
sum=$(sha256sum "$tmp/clock.wasm" | cut -d' ' -f1)
exec_js="$(go env GOROOT)/lib/wasm/wasm_exec.js"

if [ "${1:-}" = "-check" ]; then
  status=0
  if [ "$sum" != "$(cat "$out/clock.wasm.sha256" 2>/dev/null)" ]; then
    echo "$out/clock.wasm.gz is not current ($(go env GOVERSION) builds sha256 $sum): run tools/wasm/build.sh" >&2
    status=1
  elif [ "$sum" != "$(gzip -dc "$out/clock.wasm.gz" | sha256sum | cut -d' ' -f1)" ]; then
    echo "$out/clock.wasm.gz does not hold what clock.wasm.sha256 names: run tools/wasm/build.sh" >&2
    status=1
  fi
  if ! cmp -s "$exec_js" "$out/wasm_exec.js"; then
    echo "$out/wasm_exec.js is not $(go env GOVERSION)'s: run tools/wasm/build.sh" >&2
    status=1
  fi
  exit $status
fi

gzip -9 -n -c "$tmp/clock.wasm" >"$out/clock.wasm.gz"
echo "$sum" >"$out/clock.wasm.sha256"
cp "$exec_js" "$out/wasm_exec.js"
chmod 0644 "$out/wasm_exec.js"
echo "clock.wasm: $(stat -c %s "$tmp/clock.wasm") bytes, $(stat -c %s "$out/clock.wasm.gz") gzipped, sha256 $sum ($(go env GOVERSION))"
