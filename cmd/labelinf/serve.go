package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/serve"
)

// runServe is labelinf serve: SIGINT or SIGTERM (which cancel e.ctx)
// drain the server.
func runServe(e *env, args []string) int {
	stderr := e.stderr
	if slices.ContainsFunc(args, isHelpFlag) {
		return serveHelp(e, args)
	}
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

// isHelpFlag reports whether a is -h or -help.
func isHelpFlag(a string) bool {
	switch a {
	case "-h", "--h", "-help", "--help":
		return true
	}
	return false
}

// serveHelp prints serve's -h (args hold -h): its usage with the keys
// subcommands, and the flags of serve or of serve keys, which package
// serve defines (its -h lists them).
func serveHelp(e *env, args []string) int {
	keys := len(args) > 0 && args[0] == "keys"
	probe := []string{"-h"}
	if keys {
		probe = []string{"keys", "add", "-h"}
	}
	var buf bytes.Buffer
	serve.Command(e.ctx, probe, io.Discard, &buf)
	var flags []string
	for _, l := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(l, "  ") {
			flags = append(flags, l)
		}
	}
	fmt.Fprintln(e.stderr, serve.CommandUsage)
	if keys {
		fmt.Fprintln(e.stderr, "\nFlags of serve keys (-name: add only):")
	} else {
		fmt.Fprintln(e.stderr, "\nFlags:")
	}
	fmt.Fprintln(e.stderr, strings.Join(flags, "\n"))
	if !keys {
		fmt.Fprintln(e.stderr, "\nSubcommands:\n  keys add     print a new API key for a team (only its hash is stored)\n  keys list    list the keys\n  keys revoke  revoke a key by its ID\nRun 'labelinf serve keys -h' for their flags.")
	}
	fmt.Fprintln(e.stderr, "\nRun 'labelinf help serve' for the manual, 'labelinf help serve-api' for the HTTP API.")
	return 2
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

// servedModel reads the competition at sf's -scorer URL (public, no key)
// and, when -assume is not given, makes its published model the one to
// plan for; it returns the competition's N, K, model and decimals. set holds the
// flags given on the command line; -n and -k, if given, must match.
func servedModel(ctx context.Context, sf *scorerFlags, set map[string]bool) (n, k int, model string, decimals int, err error) {
	c, err := serve.NewClient(ctx, *sf.scorer, "", nil)
	if err != nil {
		return 0, 0, "", 0, err
	}
	if set["n"] && *sf.n != c.N() || set["k"] && *sf.k != c.K() {
		return 0, 0, "", 0, flagError{fmt.Errorf("-n %d -k %d, but the served competition has N = %d, K = %d", *sf.n, *sf.k, c.N(), c.K())}
	}
	if *sf.assume == "" {
		if c.Model() == "" {
			return 0, 0, "", 0, flagError{fmt.Errorf("the served competition (metric %s) publishes no scoring model: give -assume MODEL", c.Metric())}
		}
		*sf.assume = c.Model()
	}
	return c.N(), c.K(), c.Model(), c.Decimals(), nil
}

// flagError is an error in the flags given (a usage error, exit 2), as
// opposed to a failure to reach the server (exit 1).
type flagError struct{ error }

// servedError reports err as a usage error or a failure of cmd.
func servedError(e *env, cmd string, err error) int {
	var fe flagError
	if errors.As(err, &fe) {
		return usageError(e.stderr, cmd, fe.error)
	}
	return failure(e.stderr, cmd, err)
}
