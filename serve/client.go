package serve

// This file is the attacker's side of a served competition: a client that
// submits predictions over HTTP and reads back the exact reported score,
// as a scorer.Server, so the attacks of package decode run against a
// real server.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labelinf/labelinf/scorer"
)

// A Client scores predictions on one served competition. It is safe for
// concurrent use; each Score is one charged submission.
type Client struct {
	url   string // …/v1/competitions/ID
	token string
	hc    *http.Client
	info  competitionInfo

	mu      sync.Mutex
	queries int
}

var _ scorer.Server = (*Client)(nil)

// A LimitError is the server refusing a submission for a limit (budget,
// interval, rate): the attack should stop and keep what it recovered.
type LimitError struct {
	Status     int
	Reason     string
	Message    string
	RetryAfter time.Duration
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("serve: limit reached (%s): %s", e.Reason, e.Message)
}

// NewClient connects to the competition at url
// (http://HOST:PORT/v1/competitions/ID) with API key token, reading its
// rows, classes and decimals, and submits nothing. An attack needs every
// row on the public board: a competition with a private split or a
// random subset scores rows the server does not disclose, which
// NewClient refuses; and it plans for the published model alone, so
// NewClient refuses a competition that publishes a defence the model
// does not describe (PublishedDefence.Unmodelled: a Ladder, noise,
// Thresholdout, a split or subset), naming it. A defence the host does
// not publish cannot be seen here.
func NewClient(ctx context.Context, url, token string, hc *http.Client) (*Client, error) {
	return newClient(ctx, url, token, hc, false)
}

// NewHostClient is [NewClient] for the host's own audit (labelinf audit's
// loopback mode): it accepts a competition with a private split. A
// submission still carries every row and Score returns the public score,
// computed on the rows the split makes public.
func NewHostClient(ctx context.Context, url, token string, hc *http.Client) (*Client, error) {
	return newClient(ctx, url, token, hc, true)
}

func newClient(ctx context.Context, url, token string, hc *http.Client, split bool) (*Client, error) {
	if hc == nil {
		hc = &http.Client{Timeout: time.Minute}
	}
	url = strings.TrimRight(url, "/")
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, fmt.Errorf("serve: GET %s: %s: %s", url, resp.Status, bytes.TrimSpace(b))
	}
	c := &Client{url: url, token: token, hc: hc}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&c.info); err != nil {
		return nil, fmt.Errorf("serve: GET %s: %w", url, err)
	}
	if c.info.Rows < 1 || c.info.Classes < 2 {
		return nil, fmt.Errorf("serve: %s: %d rows, %d classes", url, c.info.Rows, c.info.Classes)
	}
	if !split && len(c.info.Defence.Unmodelled()) > 0 {
		return nil, unmodelledError(url, c.info.Defence)
	}
	if c.info.PublicRows != c.info.Rows && !split {
		return nil, fmt.Errorf("serve: %s scores %d public rows of %d, chosen by the server (a split or a random subset it keeps secret): an attack needs every row scored", url, c.info.PublicRows, c.info.Rows)
	}
	return c, nil
}

// N returns the number of rows.
func (c *Client) N() int { return c.info.Rows }

// K returns the number of classes.
func (c *Client) K() int { return c.info.Classes }

// Decimals returns the decimals the server rounds scores to (−1: none).
func (c *Client) Decimals() int { return c.info.Decimals }

// Model returns the competition's scoring model in the composed syntax
// of scorer.ParseSpec, decimals included ("" for a metric that is not a
// log-loss, or a server that does not publish it).
func (c *Client) Model() string { return c.info.Model }

// Defence returns the defence the competition publishes (nil if none is
// published).
func (c *Client) Defence() *PublishedDefence { return c.info.Defence }

// Metric returns the competition's metric name.
func (c *Client) Metric() string { return c.info.Metric }

// Queries returns the submissions sent, refused ones included.
func (c *Client) Queries() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.queries
}

// bodyPool holds request body buffers: a submission's JSON is as large as
// its rows (about 19 bytes a row), and an attack sends thousands.
var bodyPool = sync.Pool{New: func() any { return new([]byte) }}

// A pooledBuf is a request body buffer shared by Score and the bodies the
// transport reads (the request's and any GetBody makes for a retry). It
// returns to bodyPool when Score is done and every body is closed: the
// transport may still read a body after Do returns, and closes it when
// done (net/http.RoundTripper).
type pooledBuf struct {
	buf  *[]byte
	refs atomic.Int32
}

func (p *pooledBuf) release() {
	if p.refs.Add(-1) == 0 {
		bodyPool.Put(p.buf)
	}
}

// body returns a new reader of the buffer holding a reference.
func (p *pooledBuf) body() io.ReadCloser {
	p.refs.Add(1)
	return &pooledBody{Reader: bytes.NewReader(*p.buf), p: p}
}

type pooledBody struct {
	*bytes.Reader
	once sync.Once
	p    *pooledBuf
}

func (b *pooledBody) Close() error {
	b.once.Do(b.p.release)
	return nil
}

// Score submits p and returns the reported score exactly (the decimal
// text the server sent). A limit answer (429) is a *LimitError.
//
// Each submission carries a new random Idempotency-Key. When its answer
// is lost (no response) or is a 503 (database unavailable, or the
// commit's outcome unknown), Score sends it again with the same key, up
// to clientRetries times with growing waits (honouring Retry-After and
// ctx): the server answers the stored submission, or stores it once, so a
// retry is never charged twice.
func (c *Client) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	c.mu.Lock()
	c.queries++
	c.mu.Unlock()
	pb := &pooledBuf{buf: bodyPool.Get().(*[]byte)}
	pb.refs.Store(1) // Score's own
	defer pb.release()
	*pb.buf = p.AppendJSON((*pb.buf)[:0])
	var kb [16]byte
	if _, err := rand.Read(kb[:]); err != nil {
		return nil, fmt.Errorf("serve: idempotency key: %w", err)
	}
	idem := "lic_" + hex.EncodeToString(kb[:])
	var (
		status int
		body   []byte
		hdr    http.Header
		err    error
	)
	wait := 250 * time.Millisecond
	for attempt := 0; ; attempt++ {
		status, hdr, body, err = c.post(ctx, pb, idem)
		retry := err != nil || status == http.StatusServiceUnavailable
		if !retry || attempt == clientRetries || ctx.Err() != nil {
			break
		}
		d := wait
		if ra, e := strconv.Atoi(hdr.Get("Retry-After")); e == nil && ra > 0 && time.Duration(ra)*time.Second > d {
			d = time.Duration(ra) * time.Second
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("serve: %w (the submission with Idempotency-Key %s may have been stored)", ctx.Err(), idem)
		case <-time.After(d):
		}
		wait = min(2*wait, 4*time.Second)
	}
	if err != nil {
		return nil, fmt.Errorf("serve: %w (the submission with Idempotency-Key %s may have been stored)", err, idem)
	}
	if status != http.StatusCreated {
		var e struct {
			Error struct{ Reason, Message string }
		}
		_ = json.Unmarshal(body, &e)
		if status == http.StatusTooManyRequests {
			ra, _ := strconv.Atoi(hdr.Get("Retry-After"))
			return nil, &LimitError{Status: status, Reason: e.Error.Reason, Message: e.Error.Message, RetryAfter: time.Duration(ra) * time.Second}
		}
		return nil, fmt.Errorf("serve: submission refused: %d %s: %s %s", status, http.StatusText(status), e.Error.Reason, e.Error.Message)
	}
	var rc struct {
		Score    json.RawMessage `json:"score"`
		Infinite bool            `json:"infinite"`
	}
	if err := json.Unmarshal(body, &rc); err != nil {
		return nil, fmt.Errorf("serve: answer: %w", err)
	}
	if rc.Infinite {
		return nil, errors.New("serve: the server reported an infinite loss")
	}
	if c.info.Decimals < 0 {
		// An unrounded score is written as the shortest decimal that reads
		// back to its float64 (a float32 score is a float64 too): the
		// exact value is that float64, not the decimal.
		f, err := strconv.ParseFloat(string(rc.Score), 64)
		if err != nil {
			return nil, fmt.Errorf("serve: answer: score %q: %w", rc.Score, err)
		}
		return new(big.Rat).SetFloat64(f), nil
	}
	r, ok := new(big.Rat).SetString(string(rc.Score))
	if !ok {
		return nil, fmt.Errorf("serve: answer: score %q is not a number", rc.Score)
	}
	return r, nil
}

// clientRetries bounds Score's retries of one submission.
const clientRetries = 6

// post sends one attempt of a submission and reads its answer.
func (c *Client) post(ctx context.Context, pb *pooledBuf, idem string) (int, http.Header, []byte, error) {
	rb := pb.body()
	req, err := http.NewRequestWithContext(ctx, "POST", c.url+"/submissions", rb)
	if err != nil {
		rb.Close()
		return 0, nil, nil, err
	}
	// NewRequest sets the length and the rewind of a *bytes.Reader only.
	req.ContentLength = int64(len(*pb.buf))
	req.GetBody = func() (io.ReadCloser, error) { return pb.body(), nil }
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Idempotency-Key", idem)
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return 0, nil, nil, err
	}
	return resp.StatusCode, resp.Header, body, nil
}
