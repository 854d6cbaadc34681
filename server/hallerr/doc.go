// Package hallerr holds the kinds of error the hall's services answer
// with, and maps every error a handler returns to its gRPC status and its
// HTTP status in one place (Codes). The hall (package server) and its
// followers (package server/gateway) use the same table, so a refusal
// reads the same on the hall and on a gateway, over gRPC and over HTTP.
//
// # Usage
//
// Handlers return plain errors: this package's kinds, the rules' and the
// store's, wrapped with a message that says what was wrong and what is
// allowed. The interceptor maps them once, for unary and stream calls:
//
//	c := hallerr.Codes{Store: storeCode, Fault: storage.IsFault}
//	grpc.ChainUnaryInterceptor(..., c.UnaryServerInterceptor(), auth, ...)
//	grpc.ChainStreamInterceptor(..., c.StreamServerInterceptor(), auth, ...)
//	...
//	c.WriteHTTP(w, err) // an HTTP handler's refusal: the status of its gRPC code
//
// The store's kinds (not found, duplicate, a full disk) are told by
// Codes.Store and Codes.Fault rather than imported: the store is SQLite
// (cgo), and a gateway links neither it nor the hall.
//
// # Concurrency
//
// Codes is a value; its methods are safe for concurrent use.
package hallerr
