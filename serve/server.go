package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Options are a [Server]'s dependencies. Store and Competitions are
// required; every other zero value works.
type Options struct {
	Store        Store
	Competitions []*Competition
	// Logger receives one line per request and every store failure
	// (default: discard).
	Logger *slog.Logger
	// Now is the clock (default time.Now): budgets per UTC day and the
	// close time read it.
	Now func() time.Time
	// Rand makes submission ids and CSRF tokens (default crypto/rand).
	Rand io.Reader
	// MaxBodyBytes bounds a request body (default 16 MiB).
	MaxBodyBytes int64
	// ClientIPHeader: see [Config.ClientIPHeader].
	ClientIPHeader string
	// MaxHeaderBytes bounds a request's line and headers (default 64
	// KiB); larger ones get a JSON 431. The http.Server in front must
	// allow more (labelinf serve: MaxHeaderBytes 1 MiB, beyond which
	// net/http itself answers a plain-text 431 and closes).
	MaxHeaderBytes int
	// RejectRate and RejectBurst bound rejected requests per key, and per
	// client address for requests without a valid key (defaults 1/s and
	// 20).
	RejectRate  float64
	RejectBurst int
}

// A Server is the scoring server's HTTP handler.
type Server struct {
	o       Options
	comps   map[string]*Competition
	order   []*Competition
	log     *slog.Logger
	met     *metrics
	mux     *http.ServeMux
	limits  *rejectLimiter
	bufs    sync.Pool // *[]byte
	csrfKey [32]byte
}

// NewServer returns a server for o.
func NewServer(o Options) (*Server, error) {
	if o.Store == nil {
		return nil, errors.New("serve: no store")
	}
	if len(o.Competitions) == 0 {
		return nil, errors.New("serve: no competitions")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = 16 << 20
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = 64 << 10
	}
	if o.RejectRate <= 0 {
		o.RejectRate = 1
	}
	if o.RejectBurst <= 0 {
		o.RejectBurst = 20
	}
	s := &Server{o: o, comps: map[string]*Competition{}, log: o.Logger, met: newMetrics(),
		limits: newRejectLimiter(rate.Limit(o.RejectRate), o.RejectBurst)}
	for _, c := range o.Competitions {
		if _, dup := s.comps[c.ID]; dup {
			return nil, fmt.Errorf("serve: competition %q twice", c.ID)
		}
		s.comps[c.ID] = c
		s.order = append(s.order, c)
		if c.defence != nil && c.defence.stateFile != "" {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			err := importState(ctx, o.Store, c, o.Logger)
			cancel()
			if err != nil {
				return nil, err
			}
		}
	}
	if _, err := io.ReadFull(o.Rand, s.csrfKey[:]); err != nil {
		return nil, fmt.Errorf("serve: random: %w", err)
	}
	s.routes()
	return s, nil
}

// ServeHTTP implements http.Handler. Before the routes it refuses, as
// JSON, what net/http's mux would otherwise answer in its own way: a
// path that is not canonical (".", ".." or empty segments, which the mux
// would redirect) and headers over MaxHeaderBytes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if n := headerBytes(r); n > s.o.MaxHeaderBytes {
		s.met.rejections.WithLabelValues("header_too_large").Inc()
		w.Header().Set("Connection", "close")
		writeError(w, reject(http.StatusRequestHeaderFieldsTooLarge, "header_too_large",
			fmt.Sprintf("request line and headers of %d bytes, over the limit of %d", n, s.o.MaxHeaderBytes)))
		return
	}
	if p := r.URL.Path; !canonicalPath(p) {
		s.met.rejections.WithLabelValues("not_found").Inc()
		writeError(w, reject(http.StatusNotFound, "not_found", "no such route: "+clipText(p, 100)+" (paths with '.', '..' or empty segments are not served)"))
		return
	}
	s.mux.ServeHTTP(w, r)
}

// canonicalPath reports whether p is a path the mux serves as it is:
// absolute, without ".", ".." or empty segments (a trailing slash
// allowed).
func canonicalPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	c := path.Clean(p)
	return c == p || c != "/" && c+"/" == p
}

// headerBytes is the size of r's request line and headers as sent.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4 // ": " and CRLF
		}
	}
	if r.Host != "" && r.Header.Get("Host") == "" {
		n += len("Host: ") + len(r.Host) + 2
	}
	return n
}

// handle registers h for pattern with metrics, a request log line and
// panic recovery (a panic is a bug: it answers 500 and is logged).
func (s *Server) handle(pattern string, h http.Handler) {
	s.mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "route", pattern, "panic", fmt.Sprint(v))
				if sw.status == 0 {
					writeError(sw, reject(http.StatusInternalServerError, "internal", "internal error"))
				}
			}
			if sw.status == 0 {
				sw.status = http.StatusOK
			}
			s.met.observe(pattern, start, sw.status)
			s.log.Info("request", "route", pattern, "path", r.URL.Path, "status", sw.status,
				"ms", float64(time.Since(start).Microseconds())/1000, "client", s.clientIP(r))
		}()
		h.ServeHTTP(sw, r)
	}))
}

// clientIP is the address rejections are limited by.
func (s *Server) clientIP(r *http.Request) string {
	if s.o.ClientIPHeader != "" {
		if v := r.Header.Get(s.o.ClientIPHeader); v != "" {
			return v
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// newID returns prefix and 16 random bytes in hex.
func (s *Server) newID(prefix string) (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(s.o.Rand, b[:]); err != nil {
		return "", err
	}
	return prefix + hex.EncodeToString(b[:]), nil
}

// rejectLimiter holds a token bucket per client address and per key:
// every rejected request takes a token, and a request arriving at an
// empty bucket is refused before any work (429).
type rejectLimiter struct {
	mu    sync.Mutex
	r     rate.Limit
	burst int
	m     map[string]*limEntry
	sweep time.Time
}

type limEntry struct {
	l    *rate.Limiter
	seen time.Time
}

func newRejectLimiter(r rate.Limit, burst int) *rejectLimiter {
	return &rejectLimiter{r: r, burst: burst, m: map[string]*limEntry{}}
}

func (l *rejectLimiter) get(id string, now time.Time) *rate.Limiter {
	e, ok := l.m[id]
	if !ok {
		// Forget idle buckets (full again by now) so the map stays bounded
		// by the clients of the last few minutes.
		if len(l.m) > 10000 && now.Sub(l.sweep) > time.Minute {
			for k, v := range l.m {
				if now.Sub(v.seen) > 5*time.Minute {
					delete(l.m, k)
				}
			}
			l.sweep = now
		}
		e = &limEntry{l: rate.NewLimiter(l.r, l.burst)}
		l.m[id] = e
	}
	e.seen = now
	return e.l
}

// blocked reports whether id has no token left, and when one comes back.
func (l *rejectLimiter) blocked(id string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim := l.get(id, now)
	if lim.TokensAt(now) >= 1 {
		return false, 0
	}
	r := lim.ReserveN(now, 1)
	d := r.DelayFrom(now)
	r.CancelAt(now)
	return true, d
}

// charge takes a token from id's bucket for a rejected request.
func (l *rejectLimiter) charge(id string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.get(id, now).AllowN(now, 1)
}
