package server

import (
	"errors"

	"google.golang.org/grpc/codes"

	"github.com/chesshall/hallclock/storage"
)

// storeCode is the gRPC code of each kind of the store's errors
// (hallerr.Codes.Store; its faults are storage.IsFault).
func storeCode(err error) (codes.Code, bool) {
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return codes.NotFound, true
	case errors.Is(err, storage.ErrDuplicate), errors.Is(err, storage.ErrConflict):
		return codes.AlreadyExists, true
	case errors.Is(err, storage.ErrGap):
		return codes.OutOfRange, true
	}
	return codes.Unknown, false
}
