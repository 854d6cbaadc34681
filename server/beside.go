package server

import (
	"net/http"

	"github.com/chesshall/hallclock/server/hallerr"
)

// For packages beside the server that serve the hall's read-only feeds
// from elsewhere (server/gateway, following the hall's stream): errors
// map to gRPC codes and HTTP statuses in the one place, here.

// GRPCStatus returns the gRPC status error of err, as the hall's own
// services answer it.
func GRPCStatus(err error) error { return hallerr.Codes{}.Status(err) }

// HTTPError writes err as the hall's HTTP endpoints do: the status its
// gRPC code maps to, and its message.
func HTTPError(w http.ResponseWriter, err error) { hallerr.Codes{}.WriteHTTP(w, err) }

// CheckResume refuses a watcher resuming after a change the hub has not
// seen (hallerr.ErrBeyondHead), as the hall's Watch does.
func CheckResume(h *Hub, from uint64) error { return checkResume(h, from) }
