package serve

// This file serves the leaderboard pages and the submission form
// (server-rendered with html/template; no JavaScript).

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

//go:embed templates/page.html
var templateFS embed.FS

var pages = template.Must(template.ParseFS(templateFS, "templates/page.html"))

// csrfCookie holds the browser's CSRF secret; the form carries
// HMAC(server key, secret), so a page on another origin can neither read
// nor forge the field (double-submit, signed). Cross-origin POSTs are also
// refused by http.CrossOriginProtection (Sec-Fetch-Site / Origin).
const csrfCookie = "labelinf_csrf"

func (s *Server) csrfToken(secret string) string {
	m := hmac.New(sha256.New, s.csrfKey[:])
	m.Write([]byte(secret))
	return hex.EncodeToString(m.Sum(nil))
}

// csrfSecret returns the request's CSRF secret, setting a new cookie if
// it has none.
func (s *Server) csrfSecret(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(csrfCookie); err == nil && len(c.Value) == 32 {
		return c.Value
	}
	v, err := s.newID("")
	if err != nil {
		return ""
	}
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: v, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"})
	return v
}

type pageData struct {
	Title        string
	Competitions []competitionInfo
	Info         competitionInfo
	Board        *Leaderboard
	CSRF         string
	Message      string
	Error        string
	Last         int
	// Idem is the form's Idempotency-Key: new for each page, kept when
	// the last attempt's outcome is unknown, so that submitting the
	// same form again cannot be charged twice.
	Idem string
}

func (s *Server) render(w http.ResponseWriter, status int, name string, d *pageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
	w.WriteHeader(status)
	if err := pages.ExecuteTemplate(w, name, d); err != nil {
		s.log.Error("template", "err", err)
	}
}

func (s *Server) webIndex() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := &pageData{Title: "Competitions"}
		for _, c := range s.order {
			d.Competitions = append(d.Competitions, s.info(c))
		}
		s.render(w, http.StatusOK, "index", d)
	})
}

func (s *Server) competitionPage(w http.ResponseWriter, r *http.Request, c *Competition, status int, msg, errMsg, idem string) {
	lb, err := s.leaderboard(r.Context(), c)
	if err != nil {
		e := s.storeFailure(err)
		http.Error(w, e.Message, e.Status)
		return
	}
	if idem == "" {
		if idem, err = s.newID("web-"); err != nil {
			http.Error(w, "could not draw the form's submission key: "+err.Error(), http.StatusInternalServerError)
			return
		}
	}
	d := &pageData{Title: c.Title, Info: s.info(c), Board: lb, CSRF: s.csrfToken(s.csrfSecret(w, r)), Message: msg, Error: errMsg, Last: c.Rows() - 1, Idem: idem}
	s.render(w, status, "competition", d)
}

func (s *Server) webComp(w http.ResponseWriter, r *http.Request) *Competition {
	c, ok := s.comps[r.PathValue("id")]
	if !ok {
		s.met.rejections.WithLabelValues("unknown_competition").Inc()
		http.Error(w, "no such competition", http.StatusNotFound)
	}
	return c
}

func (s *Server) webCompetition() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := s.webComp(w, r)
		if c == nil {
			return
		}
		var msg string
		if id := r.URL.Query().Get("submitted"); id != "" {
			msg = "Submission " + clipText(id, 40) + " scored " + clipText(r.URL.Query().Get("score"), 40) + "."
		}
		s.competitionPage(w, r, c, http.StatusOK, msg, "", "")
	})
}

// webSubmit takes the form: key, and a CSV file or JSON text.
func (s *Server) webSubmit() http.Handler {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := s.webComp(w, r)
		if c == nil {
			return
		}
		fail := func(e *apiError) {
			s.met.rejections.WithLabelValues(e.Reason).Inc()
			if e.RetryAfter > 0 {
				w.Header().Set("Retry-After", strconv.FormatInt(int64((e.RetryAfter+time.Second-1)/time.Second), 10))
			}
			// Only an unknown outcome keeps the key: the submission may
			// be stored, and sending the form again must return it.
			// Any other rejection stored nothing.
			idem := ""
			if e.Reason == "outcome_unknown" {
				idem = r.FormValue("idempotency_key")
			}
			s.competitionPage(w, r, c, e.Status, "", e.Message, idem)
		}
		// Until the form's key is read, a rejection counts against the
		// address (limited only there: a valid key is limited per key,
		// in submitRequest).
		failAddr := func(e *apiError) {
			ip := "ip:" + s.clientIP(r)
			if pe := s.preflight(ip); pe != nil {
				e = pe
			} else {
				s.limits.charge(ip, time.Now())
			}
			fail(e)
		}
		if ce := r.Header.Get("Content-Encoding"); ce != "" && ce != "identity" {
			failAddr(reject(http.StatusUnsupportedMediaType, "encoding", "compressed bodies are not accepted"))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.o.MaxBodyBytes)
		if err := r.ParseMultipartForm(s.o.MaxBodyBytes); err != nil {
			failAddr(reject(http.StatusBadRequest, "malformed", "could not read the form: "+err.Error()))
			return
		}
		defer r.MultipartForm.RemoveAll()
		secret, err := r.Cookie(csrfCookie)
		if err != nil || subtle.ConstantTimeCompare([]byte(r.FormValue("csrf")), []byte(s.csrfToken(secret.Value))) != 1 {
			failAddr(reject(http.StatusForbidden, "csrf", "the form expired or came from another site: reload the page and submit again"))
			return
		}
		var body []byte
		mt := "application/json"
		if f, _, err := r.FormFile("file"); err == nil {
			defer f.Close()
			var buf []byte
			buf, err = readAllLimited(f, s.o.MaxBodyBytes)
			if err != nil {
				fail(reject(http.StatusBadRequest, "read_body", err.Error()))
				return
			}
			if len(buf) > 0 {
				body, mt = buf, "text/csv"
			}
		}
		if body == nil {
			body = []byte(r.FormValue("predictions"))
		}
		rc, e := s.submitRequest(w, r, c, r.FormValue("key"), mt, r.FormValue("idempotency_key"), body)
		if e != nil {
			fail(e)
			return
		}
		score := "inf"
		if rc.Score != nil {
			score = string(*rc.Score)
		}
		q := url.Values{"submitted": {rc.ID}, "score": {score}}
		http.Redirect(w, r, "/competitions/"+c.ID+"?"+q.Encode(), http.StatusSeeOther)
	})
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.met.rejections.WithLabelValues("cross_origin").Inc()
		writeError(w, reject(http.StatusForbidden, "cross_origin", "cross-origin form submissions are refused: submit from this server's own page"))
	}))
	return cop.Handler(h)
}
