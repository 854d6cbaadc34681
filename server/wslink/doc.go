// Package wslink is ClockLink over WebSocket, for clocks that cannot speak
// gRPC (a browser's): one WebSocket per connected clock at Path on the
// hall's HTTP port, one binary frame per DeviceMessage (device to hall)
// or ServerMessage (hall to device) — the same messages, sequence
// numbers, acknowledgements, heartbeats and refusals as the gRPC stream.
// It is a thin transport: the stream is served by package devlink (the
// same door as package link's), and this package only reads and writes
// frames and says why the stream ended in its close frame.
//
// # Authentication
//
// The device token goes in the request's "Authorization: Bearer <token>"
// header, or — since a browser cannot set headers on a WebSocket — as a
// subprotocol "bearer.<token>" offered beside Subprotocol
// ("clocklink.v1"); the hall selects Subprotocol and never echoes the
// token. A token in the URL is refused (URLs end up in logs).
//
// # Close codes
//
// A stream ends with a close frame whose code is CloseBase plus the gRPC
// status code the gRPC stream would have ended with (4016 for
// UNAUTHENTICATED, 4011 for OUT_OF_RANGE: a sequence gap, 4014 for
// UNAVAILABLE, 4004 for DEADLINE_EXCEEDED: silence), and whose reason is
// the status message; a retry delay the hall names (google.rpc.RetryInfo
// over gRPC) is the reason's prefix "retry-after-ms=<n>; ". A device that
// closes the stream in order is answered 1000 (normal closure). A frame
// larger than MaxFrame ends the stream with 1009 (message too big), a
// text frame with 4003 (INVALID_ARGUMENT). docs/protocol.md describes the
// binding for other clients.
//
// # Usage
//
//	ws := wslink.New(ctx, devlink.Options{Hall: h, ...}, wslink.Config{Tokens: tokens, Codes: codes})
//	mux.Handle("GET "+wslink.Path, ws)
package wslink
