package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"syscall"

	"github.com/labelinf/labelinf/serve"
)

// runServe is labelinf serve: SIGINT or SIGTERM drains the server.
func runServe(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	err := serve.Command(ctx, args, stdout, stderr)
	var ue *serve.UsageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "labelinf", ue.Msg)
		return 2
	case err != nil:
		fmt.Fprintln(stderr, "labelinf:", err)
		return 1
	}
	return 0
}
