package serve

// This file is the one shape of every rejection: a 4xx status, a reason
// (also the Prometheus label) and a message saying what was wrong.

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// An apiError is a rejected request.
type apiError struct {
	Status     int
	Reason     string
	Message    string
	RetryAfter time.Duration
}

func (e *apiError) Error() string { return e.Message }

func reject(status int, reason, msg string) *apiError {
	return &apiError{Status: status, Reason: reason, Message: msg}
}

// writeJSON writes v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(v) // the client went away: nothing to do
}

// writeError writes e as {"error": {"reason": …, "message": …}}.
func writeError(w http.ResponseWriter, e *apiError) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64((e.RetryAfter+time.Second-1)/time.Second), 10))
	}
	type body struct {
		Reason  string `json:"reason"`
		Message string `json:"message"`
	}
	writeJSON(w, e.Status, map[string]body{"error": {Reason: e.Reason, Message: e.Message}})
}
