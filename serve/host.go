package serve

// This file is the host's route for platforms that run their own
// submission pages (Codabench, EvalAI, Hugging Face competitions;
// docs/PLATFORMS.md): the platform's scoring step posts each submission
// with the host's token, the team it is charged to and the platform's
// stable submission id as its Idempotency-Key, and gets the released
// score, exactly once per submission however often the platform
// retries. The stateful defences (the Ladder, Thresholdout, labelinf's
// limits) then hold across the platform's submissions as they do for
// serve's own.

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

// HostTeamHeader names the team a host submission is charged to.
const HostTeamHeader = "Labelinf-Team"

// minHostToken is the least length of a host token.
const minHostToken = 32

// readHostToken reads a host_token_file: its text, surrounding space
// removed, at least minHostToken bytes.
func readHostToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("host_token_file: %w", err)
	}
	t := strings.TrimSpace(string(b))
	if len(t) < minHostToken {
		return "", fmt.Errorf("host_token_file %s: %d bytes; want at least %d (e.g. head -c 48 /dev/urandom | base64 > FILE)", path, len(t), minHostToken)
	}
	return t, nil
}

// apiHostSubmit: POST /v1/competitions/{id}/host/submissions with
// Authorization: Bearer HOST_TOKEN (the competition's host_token_file),
// Labelinf-Team: TEAM (the platform's stable team id, 1 to 100
// characters on one line), Idempotency-Key: the platform's stable
// submission id (required: a platform retries), and the body of
// POST /v1/competitions/{id}/submissions. The submission is charged to
// the team's key, which the first submission creates (its id derives
// from the host token's hash and the team; it has no usable secret); the
// answer is that route's receipt, and a retry with the same
// Idempotency-Key and prediction answers it again (Idempotent-Replayed:
// true).
func (s *Server) apiHostSubmit() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := s.comp(w, r)
		if c == nil {
			return
		}
		if c.hostToken == "" {
			s.fail(w, r, reject(http.StatusNotFound, "not_found", "competition "+c.ID+" takes no host submissions (no host_token_file)"))
			return
		}
		ip := "ip:" + s.clientIP(r)
		if e := s.preflight(ip); e != nil {
			s.fail(w, r, e)
			return
		}
		if subtle.ConstantTimeCompare([]byte(hashSecret(bearer(r))), []byte(c.hostToken)) != 1 {
			s.limits.charge(ip, time.Now())
			s.fail(w, r, reject(http.StatusUnauthorized, "bad_host_token", "invalid host token: want Authorization: Bearer HOST_TOKEN (the competition's host_token_file)"))
			return
		}
		team := r.Header.Get(HostTeamHeader)
		idem := r.Header.Get("Idempotency-Key")
		switch {
		case team == "" || len(team) > 100 || strings.ContainsAny(team, "\n\r\t"):
			s.fail(w, r, reject(http.StatusBadRequest, "bad_team", HostTeamHeader+": want the team's stable id, 1 to 100 characters on one line"))
			return
		case idem == "":
			s.fail(w, r, reject(http.StatusBadRequest, "missing_idempotency_key", "Idempotency-Key is required on host submissions: the platform's stable submission id, so that a retry is not charged twice"))
			return
		}
		k, err := s.teamKey(r.Context(), c, team)
		if err != nil {
			s.fail(w, r, s.storeFailure(err))
			return
		}
		if !k.Revoked.IsZero() {
			s.fail(w, r, reject(http.StatusForbidden, "revoked_key", "team "+clipText(team, 100)+"'s key is revoked"))
			return
		}
		body, e := s.readBody(w, r)
		if e != nil {
			s.fail(w, r, e)
			return
		}
		defer putBody(body)
		rc, e := s.score(r.Context(), c, k, body, r.Header.Get("Content-Type"), idem)
		if e != nil {
			s.fail(w, r, e)
			return
		}
		if rc.Replay {
			w.Header().Set("Idempotent-Replayed", "true")
		}
		writeJSON(w, http.StatusCreated, rc)
	})
}

// teamKey returns the key of a host-submitted team, creating it on its
// first submission. Its id is the first 8 bytes of HMAC-SHA256(host
// token hash, team), so every replica finds the same key; its secret is
// random and never shown, so nobody can submit with it directly.
func (s *Server) teamKey(ctx context.Context, c *Competition, team string) (Key, error) {
	m := hmac.New(sha256.New, []byte(c.hostToken))
	m.Write([]byte("labelinf/serve host team\x00" + team))
	id := hex.EncodeToString(m.Sum(nil)[:8])
	for range 2 {
		k, err := s.o.Store.Key(ctx, id)
		if err == nil {
			return k, nil
		}
		if !errors.Is(err, ErrNotFound) {
			return Key{}, err
		}
		nk, _, err := NewKey(team, s.o.Now())
		if err != nil {
			return Key{}, err
		}
		nk.ID = id
		if err := s.o.Store.AddKey(ctx, nk); err == nil {
			return nk, nil
		}
		// Another request (or replica) added it meanwhile: read it.
	}
	return Key{}, fmt.Errorf("serve: host team key %s: neither found nor added", id)
}
