package serve

// This file is the one path every submission takes, from the API and from
// the web form: authenticate, decode, validate (none of which reads the
// labels), then charge the budget and score in one store transaction.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labelinf/labelinf/defence"
)

// maxIdempotencyLen bounds the Idempotency-Key header.
const maxIdempotencyLen = 128

// A receipt is an accepted submission as answered.
type receipt struct {
	ID          string    `json:"id"`
	Competition string    `json:"competition"`
	Board       string    `json:"board"`
	Rows        int       `json:"rows"`
	Score       *jsonNum  `json:"score"` // null when infinite
	Infinite    bool      `json:"infinite,omitempty"`
	Decimals    int       `json:"decimals"`
	SubmittedAt time.Time `json:"submitted_at"`
	Replay      bool      `json:"-"` // answered with the header Idempotent-Replayed: true
	Used        int       `json:"used"`
}

// jsonNum is a number written as its exact decimal text.
type jsonNum string

func (n jsonNum) MarshalJSON() ([]byte, error) { return []byte(n), nil }

// authKey authenticates the request's key (Authorization: Bearer TOKEN),
// or the token given.
func (s *Server) authKey(ctx context.Context, token string) (Key, *apiError) {
	k, err := Authenticate(ctx, s.o.Store, token)
	switch {
	case errors.Is(err, errBadKey):
		return Key{}, reject(http.StatusUnauthorized, "bad_key", "invalid API key: want Authorization: Bearer lik_…")
	case errors.Is(err, errRevokedKey):
		return Key{}, reject(http.StatusUnauthorized, "revoked_key", "API key revoked")
	case err != nil:
		return Key{}, s.storeFailure(err)
	}
	return k, nil
}

func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if t, ok := strings.CutPrefix(h, "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	return ""
}

// storeFailure logs a database error and answers 503: the request was not
// charged (the transaction did not commit) and may be retried.
func (s *Server) storeFailure(err error) *apiError {
	s.log.Error("store", "err", err)
	return &apiError{Status: http.StatusServiceUnavailable, Reason: "unavailable", Message: "the database is unavailable; nothing was charged, retry later", RetryAfter: time.Second}
}

// preflight refuses a client or key with no rejection tokens left.
func (s *Server) preflight(id string) *apiError {
	if blocked, wait := s.limits.blocked(id, time.Now()); blocked {
		return &apiError{Status: http.StatusTooManyRequests, Reason: "rate_limited",
			Message: fmt.Sprintf("too many rejected requests; retry in %v", wait.Round(time.Millisecond)), RetryAfter: wait}
	}
	return nil
}

// score decodes, checks, charges and scores one submission of body (of
// Content-Type ct) to c by key k.
func (s *Server) score(ctx context.Context, c *Competition, k Key, body []byte, ct, idem string) (*receipt, *apiError) {
	if len(idem) > maxIdempotencyLen {
		return nil, reject(http.StatusBadRequest, "bad_idempotency_key", fmt.Sprintf("Idempotency-Key longer than %d bytes", maxIdempotencyLen))
	}
	now := s.o.Now()
	if c.Closed(now) {
		return nil, reject(http.StatusForbidden, "closed", fmt.Sprintf("competition %s closed at %s", c.ID, c.Closes.UTC().Format(time.RFC3339)))
	}
	per := 1
	if c.K > 2 {
		per = c.K
	}
	pp := predPool.Get().(*[]float64)
	defer predPool.Put(pp)
	if cap(*pp) < c.Rows()*per {
		*pp = make([]float64, c.Rows()*per)
	}
	// Every value is written by the parse, or the submission is refused.
	pred := (*pp)[:c.Rows()*per]
	mediaType, ae := contentType(ct)
	if ae != nil {
		return nil, ae
	}
	var err error
	switch mediaType {
	case "application/json":
		err = parseJSON(pred, body, c.Rows(), c.K)
	case "text/csv":
		err = parseCSV(pred, bytes.NewReader(body), c.Rows(), c.K)
	default:
		return nil, reject(http.StatusUnsupportedMediaType, "media_type", fmt.Sprintf("Content-Type %q: want application/json or text/csv", mediaType))
	}
	if err != nil {
		return nil, reject(http.StatusBadRequest, "malformed", err.Error())
	}
	if err := c.Metric.Check(pred, c.Rows(), c.K); err != nil {
		return nil, reject(http.StatusUnprocessableEntity, "invalid_prediction", err.Error())
	}
	id, err := s.newID("sub_")
	if err != nil {
		return nil, s.storeFailure(err)
	}
	req := SubmitRequest{ID: id, Competition: c.ID, KeyID: k.ID, At: now, PredHash: predHash(pred), Idempotency: idem, Limits: c.Limits}
	sub, replay, err := s.o.Store.Submit(ctx, req, func(seq int64, st StateTx) (Scores, error) {
		return c.scoreBoards(pred, k, seq, st)
	})
	var be *BudgetError
	var ie *IdempotencyError
	if errors.As(err, &ie) {
		return nil, reject(http.StatusUnprocessableEntity, "idempotency_key_reused", ie.Error())
	}
	if errors.Is(err, ErrOutcomeUnknown) {
		s.log.Error("store", "err", err)
		return nil, &apiError{Status: http.StatusServiceUnavailable, Reason: "outcome_unknown",
			Message: "the database failed while committing this submission and its outcome is not known yet: it may have been charged and stored; retry with the same Idempotency-Key, which returns it if it was stored and submits it otherwise", RetryAfter: time.Second}
	}
	if errors.Is(err, defence.ErrExhausted) {
		// Thresholdout has spent its budget and answers no more (the
		// paper's ⊥); the transaction rolled back, so nothing was charged.
		return nil, c.exhausted()
	}
	if errors.As(err, &be) {
		return nil, &apiError{Status: http.StatusTooManyRequests, Reason: "budget_" + be.Reason, Message: be.Error(), RetryAfter: be.RetryAfter}
	}
	if err != nil {
		return nil, s.storeFailure(err)
	}
	if !replay {
		s.met.submissions.WithLabelValues(c.ID).Inc()
	}
	rc := &receipt{ID: sub.ID, Competition: c.ID, Board: "public", Rows: c.PublicRows(), Decimals: c.Decimals,
		SubmittedAt: sub.At, Replay: replay, Used: int(sub.Seq) + 1}
	if sub.Public == "inf" {
		rc.Infinite = true
	} else {
		n := jsonNum(sub.Public)
		rc.Score = &n
	}
	return rc, nil
}

// scoreBoards scores pred on both boards and releases the scores. It runs
// inside the budget transaction, after the charge. With defence settings
// the public score is released by the defence chain, with the key's name
// as the team, from the defence state st holds in the same transaction
// (a submission whose transaction fails leaves that state as it was).
func (c *Competition) scoreBoards(pred []float64, k Key, seq int64, st StateTx) (Scores, error) {
	per := 1
	if c.K > 2 {
		per = c.K
	}
	train := pred[:len(c.train)*per]
	pred = pred[len(c.train)*per:]
	board := func(name string, rows, labels []int) (string, error) {
		if len(rows) == 0 {
			return "", nil
		}
		sub := pred
		if len(rows) != c.N {
			sub = make([]float64, 0, len(rows)*per)
			for _, i := range rows {
				sub = append(sub, pred[i*per:(i+1)*per]...)
			}
		}
		v := c.Metric.Score(labels, sub, c.K)
		out, err := c.Releaser.Release(ReleaseInput{Exact: v, Competition: c.ID, Board: name, Rows: len(rows), KeyID: k.ID, Seq: seq})
		if err != nil {
			return "", err
		}
		return formatValue(out, c.Decimals), nil
	}
	var (
		pub string
		err error
	)
	// The private board first: a defended public release locks the
	// defence state until the commit, and the lock is best held briefly.
	priv, err := board("private", c.privateRows, c.privateLabels)
	if err != nil {
		return Scores{}, err
	}
	if c.defence != nil {
		pub, err = c.releasePublic(pred, train, k.Name, st)
	} else {
		pub, err = board("public", c.publicRows, c.publicLabels)
	}
	if err != nil {
		return Scores{}, err
	}
	return Scores{Public: pub, Private: priv}, nil
}

// predHash is the hex SHA-256 of the predictions' float64 bits, little
// endian: the same for the same numbers however they were written.
func predHash(pred []float64) string {
	h := sha256.New()
	var buf [8 * 512]byte
	for i := 0; i < len(pred); i += 512 {
		b := buf[:0]
		for _, v := range pred[i:min(i+512, len(pred))] {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// predPool and bodyBufPool hold a submission's predictions and request
// body between requests: both are as large as the rows, and nothing keeps
// them once the submission is answered (the store has run its scoring
// callback before Submit returns; the defence chain copies what it keeps).
var (
	predPool    = sync.Pool{New: func() any { return new([]float64) }}
	bodyBufPool = sync.Pool{New: func() any { return new([]byte) }}
)

// readBody reads a request body of at most max bytes, refusing compressed
// ones. The caller may hand the body back with putBody once done with it.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *apiError) {
	if ce := r.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		return nil, reject(http.StatusUnsupportedMediaType, "encoding", fmt.Sprintf("Content-Encoding %q: compressed bodies are not accepted", clipText(ce, 40)))
	}
	if r.ContentLength > s.o.MaxBodyBytes {
		return nil, reject(http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("body of %d bytes over the limit of %d", r.ContentLength, s.o.MaxBodyBytes))
	}
	body := http.MaxBytesReader(w, r.Body, s.o.MaxBodyBytes)
	b := (*bodyBufPool.Get().(*[]byte))[:0]
	if r.ContentLength > 0 && int64(cap(b)) <= r.ContentLength {
		// One byte more than announced, to read the EOF without growing.
		b = make([]byte, 0, r.ContentLength+1)
	}
	var err error
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		var n int
		n, err = body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			err = nil
			break
		}
		if err != nil {
			break
		}
	}
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, reject(http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("body over the limit of %d bytes", s.o.MaxBodyBytes))
	case err != nil:
		return nil, reject(http.StatusBadRequest, "read_body", "could not read the body: "+err.Error())
	}
	return b, nil
}

// putBody hands a body from readBody back for reuse.
func putBody(b []byte) {
	b = b[:0]
	bodyBufPool.Put(&b)
}
