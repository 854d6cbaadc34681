// Package proto holds the hall server's gRPC contract: hall/v1/hall.proto
// and its generated Go code (package hallv1), committed. Regenerate with
// tools/protogen/gen.sh; `tools/protogen/gen.sh -check` fails when the
// committed code is not current.
package proto
