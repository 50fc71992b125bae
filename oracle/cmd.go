package oracle

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/scorer"
)

// Cmd is an external scorer: a program started once through sh -c that
// reads one JSON line per query on its standard input,
// {"predictions": [...]} (see [scorer.Pred.AppendJSON]), and answers with one
// line on its standard output, the score as a decimal number. Its standard
// error is kept for error messages.
type Cmd struct {
	n, k    int
	timeout time.Duration

	// RoundTo, if set, rounds each answer to nearest in that format: a
	// server that prints a float in a form that reads back to the same
	// float (Python's repr, Go's 'g' −1) reports that float exactly.
	RoundTo *fpa.Format

	mu      sync.Mutex
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan string
	readErr error
	stderr  tail
	queries int
	dead    error
	buf     []byte
}

// maxLine is the longest answer line read: a score is a number, so 1 MiB
// is far beyond any honest answer, and bounds what a broken scorer can
// make us hold.
const maxLine = 1 << 20

// NewCmd starts program (through sh -c) as a scorer of n points of k
// classes; each answer must arrive within timeout (0 means one minute).
func NewCmd(program string, n, k int, timeout time.Duration) (*Cmd, error) {
	if strings.TrimSpace(program) == "" {
		return nil, errors.New("oracle: empty scorer command")
	}
	if n < 1 || k < 2 {
		return nil, fmt.Errorf("oracle: scorer of %d points of %d classes", n, k)
	}
	if timeout <= 0 {
		timeout = time.Minute
	}
	c := &Cmd{n: n, k: k, timeout: timeout, lines: make(chan string)}
	c.cmd = exec.Command("sh", "-c", program)
	c.cmd.Stderr = &c.stderr
	// The program's children die with it, and I/O waits end soon after.
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.cmd.WaitDelay = time.Second
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("oracle: starting scorer: %w", err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), maxLine)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		c.readErr = sc.Err()
		close(c.lines)
	}()
	return c, nil
}

func (c *Cmd) N() int { return c.n }
func (c *Cmd) K() int { return c.k }

// Queries returns the number of queries sent.
func (c *Cmd) Queries() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.queries
}

// Score sends p and reads the score. After any failure (the program died,
// answered something that is not a number, timed out, or ctx was done)
// the program's whole process group is killed, the scorer is unusable and
// every later call returns the same error.
func (c *Cmd) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead != nil {
		return nil, c.dead
	}
	c.queries++
	if err := p.Check(c.n, c.k); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, c.fail(fmt.Errorf("oracle: scorer query cancelled: %w", err))
	}
	c.buf = append(p.AppendJSON(c.buf[:0]), '\n')
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	// The write blocks while the program does not read (a pipe holds
	// 64 KiB), so it is waited for like the answer.
	wrote := make(chan error, 1)
	go func() {
		_, err := c.stdin.Write(c.buf)
		wrote <- err
	}()
	select {
	case err := <-wrote:
		if err != nil && errors.Is(err, syscall.EPIPE) {
			// The program closed its input, almost always by exiting
			// before it read the query. Which of the write and the read of
			// its output fails first is a race; report both alike, as an
			// exit, once its output is closed too.
			select {
			case _, ok := <-c.lines:
				if !ok && c.readErr == nil {
					return nil, c.fail(fmt.Errorf("oracle: scorer exited without answering (%v)", io.EOF))
				}
			case <-ctx.Done():
			case <-timer.C:
			}
		}
		if err != nil {
			return nil, c.fail(fmt.Errorf("oracle: scorer stopped reading: %w", err))
		}
	case <-ctx.Done():
		return nil, c.fail(fmt.Errorf("oracle: scorer query cancelled: %w", ctx.Err()))
	case <-timer.C:
		return nil, c.fail(fmt.Errorf("oracle: scorer did not read the query within %v", c.timeout))
	}
	select {
	case line, ok := <-c.lines:
		if !ok {
			err := c.readErr
			if errors.Is(err, bufio.ErrTooLong) {
				return nil, c.fail(fmt.Errorf("oracle: scorer answered a line longer than %d bytes, not a score", maxLine))
			}
			if err == nil {
				err = io.EOF
			}
			return nil, c.fail(fmt.Errorf("oracle: scorer exited without answering (%v)", err))
		}
		r, ok := new(big.Rat).SetString(strings.TrimSpace(line))
		if !ok {
			return nil, c.fail(fmt.Errorf("oracle: scorer answered %q, not a decimal number", clip(line, 80)))
		}
		if c.RoundTo != nil {
			b, err := fpa.New(*c.RoundTo).SetRat(r).Big(nil)
			if err != nil {
				return nil, c.fail(fmt.Errorf("oracle: scorer answered %q: %w", clip(line, 80), err))
			}
			if b.IsInf() {
				return nil, c.fail(fmt.Errorf("oracle: scorer answered %q, out of the format's range", clip(line, 80)))
			}
			r, _ = b.Rat(nil)
		}
		return r, nil
	case <-ctx.Done():
		return nil, c.fail(fmt.Errorf("oracle: scorer query cancelled: %w", ctx.Err()))
	case <-timer.C:
		return nil, c.fail(fmt.Errorf("oracle: scorer did not answer within %v", c.timeout))
	}
}

func (c *Cmd) fail(err error) error {
	c.kill()
	if s := strings.TrimSpace(c.stderr.String()); s != "" {
		err = fmt.Errorf("%w; its stderr ends: %s", err, clip(s, 300))
	}
	c.dead = err
	return err
}

func (c *Cmd) kill() {
	if c.cmd.Process != nil {
		syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		c.cmd.Process.Kill()
	}
	c.cmd.Wait()
}

// Kill ends the program and its whole process group with SIGKILL at once,
// without waiting for a query in flight (which then fails). Unlike Close it
// does not take the scorer's lock, so it may be called from another
// goroutine, for instance on a signal; calling it more than once, or after
// Close, is harmless.
func (c *Cmd) Kill() {
	if p := c.cmd.Process; p != nil {
		syscall.Kill(-p.Pid, syscall.SIGKILL)
	}
}

// Close ends the program: it closes its input and waits for it.
func (c *Cmd) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead != nil {
		return nil
	}
	c.dead = errors.New("oracle: scorer closed")
	c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(c.timeout):
		syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		return <-done
	}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// tail keeps the last 4 KiB written to it.
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = bytes.Clone(t.b[len(t.b)-4096:])
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
