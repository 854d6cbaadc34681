#!/usr/bin/env bash
# Regenerates the Go code of proto/ from its .proto files.
#
#   tools/protogen/gen.sh          # regenerate
#   tools/protogen/gen.sh -check   # fail if the committed code is not current
#
# Generator versions are pinned: protoc-gen-go and protoc-gen-go-grpc are
# `tool` dependencies in go.mod (run with `go tool`), and protoc is Debian's
# protobuf-compiler (3.21.12 on bookworm). No network registry is used.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v protoc >/dev/null || { echo "protoc not found: apt-get install -y protobuf-compiler" >&2; exit 1; }

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/protoc-gen-go" google.golang.org/protobuf/cmd/protoc-gen-go
go build -o "$bin/protoc-gen-go-grpc" google.golang.org/grpc/cmd/protoc-gen-go-grpc

out=proto
if [ "${1:-}" = "-check" ]; then
  out="$bin/out"
  mkdir -p "$out"
fi
PATH="$bin:$PATH" protoc -I proto \
  --go_out="$out" --go_opt=paths=source_relative \
  --go-grpc_out="$out" --go-grpc_opt=paths=source_relative \
  $(cd proto && find . -name "*.proto" | sed "s|^\./||" | sort | sed "s|^|proto/|")

# The gRPC stubs are left out of js/wasm builds: a browser's clock speaks
# ClockLink over WebSocket (clockdev/wsdial) and must not link gRPC (20 MB
# of WebAssembly); the messages are the same.
while IFS= read -r f; do
  { printf '//go:build !js\n\n'; cat "$f"; } >"$f.tmp" && mv "$f.tmp" "$f"
done < <(find "$out" -name '*_grpc.pb.go')

if [ "${1:-}" = "-check" ]; then
  status=0
  while IFS= read -r f; do
    rel=${f#"$out"/}
    if ! cmp -s "$f" "proto/$rel"; then
      echo "proto/$rel is not current: run tools/protogen/gen.sh" >&2
      status=1
    fi
  done < <(find "$out" -name '*.go')
  exit $status
fi
