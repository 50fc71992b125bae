package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/serve"
)

// runServe is labelinf serve: SIGINT or SIGTERM (which cancel e.ctx)
// drain the server.
func runServe(e *env, args []string) int {
	stderr := e.stderr
	err := serve.Command(e.ctx, args, e.stdout, stderr)
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

// isHTTPScorer reports whether a -scorer names a served competition.
func isHTTPScorer(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// httpScorer connects to the served competition at url with the key in
// keyFile, and sets m's decimals to the server's.
func httpScorer(ctx context.Context, url, keyFile string, m *scorer.Model) (*serve.Client, error) {
	if keyFile == "" {
		return nil, errors.New("-scorer http://… needs -api-key-file FILE")
	}
	b, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, err
	}
	c, err := serve.NewClient(ctx, url, strings.TrimSpace(string(b)), nil)
	if err != nil {
		return nil, err
	}
	m.Decimals = c.Decimals()
	return c, nil
}
