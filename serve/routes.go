package serve

import "net/http"

// routes lists the whole HTTP surface.
func (s *Server) routes() {
	s.mux = http.NewServeMux()
	// JSON API.
	s.handle("GET /v1/competitions", s.apiCompetitions())
	s.handle("GET /v1/competitions/{id}", s.apiCompetition())
	s.handle("POST /v1/competitions/{id}/submissions", s.apiSubmit())
	s.handle("GET /v1/competitions/{id}/leaderboard", s.apiLeaderboard())
	// Operations.
	s.handle("GET /healthz", s.healthz())
	s.handle("GET /metrics", s.met.handler())
	// Web pages (html/template, no JavaScript).
	s.handle("GET /{$}", s.webIndex())
	s.handle("GET /competitions/{id}", s.webCompetition())
	s.handle("POST /competitions/{id}/submit", s.webSubmit())
	// Everything else: a JSON 404 (or 405 from the mux).
	s.handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, reject(http.StatusNotFound, "not_found", "no such route: "+clipText(r.URL.Path, 100)))
	}))
}
