// Package ctxwait runs a step that cannot poll a context (one big-number
// operation of many seconds) so that its caller still returns as soon as
// the context is done.
package ctxwait

import "context"

// Do runs f and returns its error, or ctx's error as soon as ctx is done:
// f then runs to its end in a goroutine of its own and its result is
// dropped. f must write only to variables that its caller reads after a
// nil error, never after a cancellation.
func Do(ctx context.Context, f func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
