package main

import (
	"context"
	"errors"
	"io"
)

func restore(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	return errors.New("TODO")
}
