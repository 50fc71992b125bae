package serve

import (
	"fmt"
	"net/http"
	"strings"
)

// routes lists the whole HTTP surface.
func (s *Server) routes() {
	s.mux = http.NewServeMux()
	// JSON API.
	s.handle("GET /v1/competitions", s.apiCompetitions())
	s.handle("GET /v1/competitions/{id}", s.apiCompetition())
	s.handle("POST /v1/competitions/{id}/submissions", s.apiSubmit())
	s.handle("POST /v1/competitions/{id}/host/submissions", s.apiHostSubmit())
	s.handle("GET /v1/competitions/{id}/leaderboard", s.apiLeaderboard())
	// Operations.
	s.handle("GET /healthz", s.healthz())
	s.handle("GET /metrics", s.met.handler())
	// Web pages (html/template, no JavaScript).
	s.handle("GET /{$}", s.webIndex())
	s.handle("GET /competitions/{id}", s.webCompetition())
	s.handle("POST /competitions/{id}/submit", s.webSubmit())
	// Everything else: a JSON 405 when the path exists for another
	// method, else a JSON 404.
	s.handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range []string{"GET", "POST"} {
			r2 := r.Clone(r.Context())
			r2.Method = m
			if _, pat := s.mux.Handler(r2); pat != "/" && m != r.Method {
				allow = append(allow, m)
			}
		}
		if len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, reject(http.StatusMethodNotAllowed, "method", fmt.Sprintf("%s %s: want %s", r.Method, clipText(r.URL.Path, 100), strings.Join(allow, " or "))))
			return
		}
		writeError(w, reject(http.StatusNotFound, "not_found", "no such route: "+clipText(r.URL.Path, 100)))
	}))
}
