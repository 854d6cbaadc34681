// Package httpdoor is the door of an HTTP port: how long a connection may
// take over each part of a request, how many connections the port holds at
// once, and who is let in first when it is full.
//
// A server's HTTP connections share the process's file descriptors with
// everything else it serves: on the hall, the clocks' gRPC connections,
// the database and NATS. Four hundred request bodies sent slowly, or not
// at all, once held their connections for minutes; with a low descriptor
// limit, health checks and new clocks were refused meanwhile. So:
//
//   - Every part of a request is bounded in time (Limits): its headers,
//     its body, the answer, and the wait between two requests of a
//     connection. An event stream (server-sent events) lifts the bound on
//     its answer once its request is read:
//     http.NewResponseController(w).SetWriteDeadline(time.Time{}).
//   - The port holds at most Limits.Conns connections, so the rest of the
//     process's descriptors stay for the clocks. Of those, at most
//     Limits.Anonymous are connections on which no request has yet shown a
//     credential (Door.Trusted decides); a connection that shows one is
//     trusted from then on.
//   - Limits.Reserve connections are kept for health checks: a connection
//     that arrives when the others are full gets one, and on it only the
//     health checks (Door.Health) are answered — anything else is 503 with
//     Retry-After, unless it shows a credential and the port has room for
//     a trusted connection — and it is closed after one request. A reserve
//     connection that is not answering a health check (it has asked
//     nothing yet, or was refused) makes way for a newcomer.
//   - Every refusal is counted (Stats), by reason.
//
// # Usage
//
//	d := httpdoor.New(limits, trusted, health)
//	srv := &http.Server{Handler: mux}
//	d.Configure(srv)               // timeouts, and the handler behind the door
//	srv.Serve(d.Listen(listener))  // the connections, counted
//
// # Concurrency
//
// A Door is safe for concurrent use; its accounting takes one mutex per
// connection opened, closed or trusted, never per byte.
package httpdoor
