// Package auth is who may do what in the hall: the roles (device,
// arbiter, chief arbiter, broadcast) and which gRPC methods each may call
// (MayCall), the tokens that carry them (Tokens: hashed in the store,
// cached in memory; Authenticate is the gRPC door), the identity a call
// carries (Identity, IdentityFrom), the web pages' sign-in and sessions
// (Sessions, Pages: kept in the store, so a restart signs nobody out), the
// one-time sign-in links and who may make one for whom (IssueLink,
// MayLinkFor), the chief arbiter's first and lost token
// (EnsureChief, ResetChief), and the open streams of each token (Streams:
// their limit, and their end when the token is revoked). Board-level
// limits — a device's own board, an arbiter's sections — are checked by
// the handlers with Identity.MaySection.
//
// # Usage
//
//	tokens, _ := auth.LoadTokens(ctx, store, clock.Now)
//	grpc.ChainUnaryInterceptor(..., grpcauth.UnaryServerInterceptor(tokens.Authenticate), ...)
//	sessions, _ := auth.LoadSessions(ctx, tokens, time.Now)
//	(&auth.Pages{Sessions: sessions, Codes: codes, Now: clock.Now}).Routes(mux)
//	...
//	id := auth.IdentityFrom(ctx)             // in a gRPC handler
//	id, err := sessions.WebIdentity(r, auth.RoleChief, auth.RoleArbiter) // in an HTTP handler
//
// # Concurrency
//
// Tokens, Sessions and Streams are safe for concurrent use. A revoked
// token stops working at once: lookups read the memory the revocation
// changed, and Streams.Cut ends its open streams.
package auth
