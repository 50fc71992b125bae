package serve

// This file holds the JSON API's handlers.

import (
	"context"
	"net/http"
	"time"

	"github.com/labelinf/labelinf/metric"
)

// competitionInfo is what the API says about a competition.
type competitionInfo struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Metric string `json:"metric"`
	// Model is a log-loss metric's scoring model, decimals included, in
	// the composed syntax labelinf attack -assume and plan read
	// (scorer.ParseSpec); absent for accuracy and ROC AUC. It comes from
	// the configuration alone: it says nothing about the labels. It is
	// the metric's, published whatever the defence: a defence (published
	// or not) may release another score than the model computes.
	Model       string     `json:"model,omitempty"`
	Classes     int        `json:"classes"`
	Rows        int        `json:"rows"`
	TrainRows   int        `json:"train_rows,omitempty"`
	PublicRows  int        `json:"public_rows"`
	Decimals    int        `json:"decimals"`
	LowerBetter bool       `json:"lower_is_better"`
	Closes      *time.Time `json:"closes,omitempty"`
	Closed      bool       `json:"closed"`
	DailyLimit  int        `json:"daily_limit"`
	TotalLimit  int        `json:"total_limit"`
	MinInterval string     `json:"min_interval"`
	// Defence is the defence's allow-listed parameters, published only
	// when the host sets publish_defence.
	Defence *PublishedDefence `json:"defence,omitempty"`
}

func (s *Server) info(c *Competition) competitionInfo {
	ci := competitionInfo{ID: c.ID, Title: c.Title, Metric: c.Metric.Name(), Classes: c.K, Rows: c.Rows(), TrainRows: len(c.train), PublicRows: c.PublicRows(),
		Decimals: c.Decimals, LowerBetter: c.Metric.LowerIsBetter(), Closed: c.Closed(s.o.Now()),
		DailyLimit: c.Limits.Daily, TotalLimit: c.Limits.Total, MinInterval: c.Limits.MinInterval.String(), Defence: c.published}
	if l, ok := c.Metric.(*metric.LogLoss); ok {
		ci.Model = l.Model(c.Decimals)
	}
	if !c.Closes.IsZero() {
		t := c.Closes.UTC()
		ci.Closes = &t
	}
	return ci
}

func (s *Server) comp(w http.ResponseWriter, r *http.Request) *Competition {
	c, ok := s.comps[r.PathValue("id")]
	if !ok {
		s.fail(w, r, reject(http.StatusNotFound, "unknown_competition", "no competition "+clipText(r.PathValue("id"), 64)))
		return nil
	}
	return c
}

// fail writes a rejection and counts it.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, e *apiError) {
	s.met.rejections.WithLabelValues(e.Reason).Inc()
	writeError(w, e)
}

func (s *Server) apiCompetitions() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		out := make([]competitionInfo, 0, len(s.order))
		for _, c := range s.order {
			out = append(out, s.info(c))
		}
		writeJSON(w, http.StatusOK, map[string]any{"competitions": out})
	})
}

func (s *Server) apiCompetition() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c := s.comp(w, r); c != nil {
			writeJSON(w, http.StatusOK, s.info(c))
		}
	})
}

// apiSubmit: POST /v1/competitions/{id}/submissions with
// Authorization: Bearer KEY, a body of Content-Type application/json
// ({"predictions": [...]}) or text/csv, and an optional Idempotency-Key.
// 201 with the receipt; a repeated Idempotency-Key with the same
// prediction answers the first receipt again, 201, with the header
// Idempotent-Replayed: true.
func (s *Server) apiSubmit() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := s.comp(w, r)
		if c == nil {
			return
		}
		rc, e := s.submitRequest(w, r, c, bearer(r), r.Header.Get("Content-Type"), r.Header.Get("Idempotency-Key"), nil)
		if e != nil {
			s.fail(w, r, e)
			return
		}
		// A replay answers what the first request was answered, status
		// included; a header tells them apart.
		if rc.Replay {
			w.Header().Set("Idempotent-Replayed", "true")
		}
		writeJSON(w, http.StatusCreated, rc)
	})
}

// submitRequest runs the rejection limiter around one submission, per
// key first: a request with a valid key is limited by that key's bucket
// alone, and its rejections (over budget, malformed, invalid) take
// tokens from that bucket alone, so that users behind one address (a
// NAT, a proxy) never lock each other out. Only requests without a valid
// key (none, malformed, unknown, revoked) are limited, and charged, per
// client address; from an address out of tokens a token that cannot be a
// key is refused before the key lookup. body nil reads the request's; ct
// is its Content-Type.
func (s *Server) submitRequest(w http.ResponseWriter, r *http.Request, c *Competition, token, ct, idem string, body []byte) (*receipt, *apiError) {
	ip := "ip:" + s.clientIP(r)
	if !wellFormedToken(token) {
		if e := s.preflight(ip); e != nil {
			return nil, e
		}
	}
	k, e := s.authKey(r.Context(), token)
	if e != nil {
		if e.Status >= 500 {
			return nil, e
		}
		if pe := s.preflight(ip); pe != nil {
			return nil, pe
		}
		s.limits.charge(ip, time.Now())
		return nil, e
	}
	kid := "key:" + k.ID
	if e := s.preflight(kid); e != nil {
		return nil, e
	}
	if body == nil {
		body, e = s.readBody(w, r)
		if e == nil {
			defer putBody(body)
		}
	}
	var rc *receipt
	if e == nil {
		rc, e = s.score(r.Context(), c, k, body, ct, idem)
	}
	if e != nil && e.Status < 500 {
		s.limits.charge(kid, time.Now())
	}
	return rc, e
}

func (s *Server) apiLeaderboard() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := s.comp(w, r)
		if c == nil {
			return
		}
		lb, err := s.leaderboard(r.Context(), c)
		if err != nil {
			s.fail(w, r, s.storeFailure(err))
			return
		}
		writeJSON(w, http.StatusOK, lb)
	})
}

func (s *Server) healthz() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.o.Store.Ping(ctx); err != nil {
			s.log.Error("healthz", "err", err)
			// The shape of every error, with the probe's "status" beside it.
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "database unavailable",
				"error": map[string]string{"reason": "unavailable", "message": "the database does not answer"}})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
}
