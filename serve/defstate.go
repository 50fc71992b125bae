package serve

// This file keeps what a competition's defence remembers (the Ladder's
// bests and leaders, Thresholdout's budget and noisy threshold, and under
// simulation_seed the positions of the random streams) in the
// competition's database, read and written in the transaction that
// charges and stores the submission. Any number of server processes on
// one database then release what one would: the state is locked (a row
// lock on PostgreSQL, the one writer on SQLite) from before the release
// until the commit, and a transaction that fails leaves it unchanged.
//
// Scopes, locked in this order by every transaction:
//
//	thresholdout      Thresholdout's budget left and threshold T̂ (JSON)
//	thresholdout/TEAM the same for one team, with thresholdout.per_team
//	ladder/TEAM       a per-team Ladder's entry (TEAM = the key's name)
//	ladder/           the global Ladder's entry
//	streams           defence.Chain.StreamState, under simulation_seed only
//	import            the SHA-256 of an imported defence_state_file
//
// A Ladder entry is binary (ladderBlob): a version byte, the best as an
// exact rational in text, then the leader's per-row losses as
// little-endian float64 bits (8 bytes a row, exact).
//
// The chain itself (package defence) is used as scratch under served.mu:
// restored from the locked values, released, read back. What is never
// stored is each process's own randomness outside a simulation: fresh
// noise's nonce and counter, the Subset's and Thresholdout's noise
// streams. Two replicas therefore never share a noise stream, and
// whoever reads the database cannot predict the next draw.
//
// Before this, the state lived in defence_state_file, rewritten after
// every release; an upgraded server imports that file once (importState)
// and renames it.

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"math/big"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/labelinf/labelinf/defence"
)

// Scope names (see the file comment).
const (
	scopeThresholdout = "thresholdout"
	scopeLadder       = "ladder/"
	scopeStreams      = "streams"
	scopeImport       = "import"
)

// ladderBlobVersion is a Ladder entry's first byte.
const ladderBlobVersion = 1

// encodeLadder writes a Ladder entry.
func encodeLadder(e defence.LadderEntry) []byte {
	best := e.Best.RatString()
	b := make([]byte, 0, 1+4+len(best)+4+8*len(e.Leader))
	b = append(b, ladderBlobVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(best)))
	b = append(b, best...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(e.Leader)))
	for _, v := range e.Leader {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// decodeLadder reads what encodeLadder wrote.
func decodeLadder(b []byte) (defence.LadderEntry, error) {
	bad := func(why string) (defence.LadderEntry, error) {
		return defence.LadderEntry{}, fmt.Errorf("serve: stored ladder entry: %s", why)
	}
	if len(b) < 9 || b[0] != ladderBlobVersion {
		return bad("wrong version or too short")
	}
	n := binary.LittleEndian.Uint32(b[1:])
	b = b[5:]
	if uint64(len(b)) < uint64(n)+4 {
		return bad("truncated")
	}
	best, ok := new(big.Rat).SetString(string(b[:n]))
	if !ok {
		return bad("best is not a number")
	}
	b = b[n:]
	rows := binary.LittleEndian.Uint32(b)
	b = b[4:]
	if uint64(len(b)) != 8*uint64(rows) {
		return bad("leader length")
	}
	var leader []float64
	if rows > 0 {
		leader = make([]float64, rows)
		for i := range leader {
			leader[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
		}
	}
	return defence.LadderEntry{Best: best, Leader: leader}, nil
}

// thresholdoutBlob is Thresholdout's stored state; Threshold is written
// as its float64 bits so that it reads back exactly.
type thresholdoutBlob struct {
	Remaining int    `json:"remaining"`
	Threshold string `json:"threshold_bits"`
}

func encodeThresholdout(st defence.ThresholdoutState) []byte {
	b, _ := json.Marshal(thresholdoutBlob{Remaining: st.Remaining, Threshold: fmt.Sprintf("%016x", math.Float64bits(st.Threshold))})
	return b
}

func decodeThresholdout(b []byte) (defence.ThresholdoutState, error) {
	var tb thresholdoutBlob
	if err := json.Unmarshal(b, &tb); err != nil {
		return defence.ThresholdoutState{}, fmt.Errorf("serve: stored Thresholdout state: %w", err)
	}
	var bits uint64
	if _, err := fmt.Sscanf(tb.Threshold, "%016x", &bits); err != nil {
		return defence.ThresholdoutState{}, fmt.Errorf("serve: stored Thresholdout threshold %q: %w", tb.Threshold, err)
	}
	return defence.ThresholdoutState{Remaining: tb.Remaining, Threshold: math.Float64frombits(bits)}, nil
}

// thScope is the scope of team's Thresholdout state.
func (s *served) thScope(team string) string {
	if s.thPerTeam {
		return scopeThresholdout + "/" + team
	}
	return scopeThresholdout
}

// ladderScope is the scope of team's ladder.
func (s *served) ladderScope(team string) string {
	if s.ladderPerTeam {
		return scopeLadder + team
	}
	return scopeLadder
}

// release runs sub through the chain with the state stored in st:
// lock the scopes sub touches, restore them into the chain, release, and
// write back what changed. A failed release writes nothing (and the
// caller's transaction rolls back).
func (s *served) release(st StateTx, sub defence.Submission) (defence.Released, error) {
	th, lad := s.chain.Thresholdout(), s.chain.Ladder()
	var thB, ladB, strB []byte
	var err error
	thScope := s.thScope(sub.Team)
	if th != nil {
		if thB, err = st.Lock(thScope); err != nil {
			return defence.Released{}, err
		}
	}
	ladScope := s.ladderScope(sub.Team)
	if lad != nil {
		if ladB, err = st.Lock(ladScope); err != nil {
			return defence.Released{}, err
		}
	}
	if s.sim {
		if strB, err = st.Lock(scopeStreams); err != nil {
			return defence.Released{}, err
		}
	}
	// Decode before taking the chain: nothing below can fail half-way.
	// thSt nil: a team's first submission under a per-team budget (B,
	// and a threshold drawn from the stream then).
	var thSt *defence.ThresholdoutState
	if len(thB) > 0 {
		v, err := decodeThresholdout(thB)
		if err != nil {
			return defence.Released{}, err
		}
		thSt = &v
	} else if !s.thPerTeam {
		v := s.thInit
		thSt = &v
	}
	snap := map[string]defence.LadderEntry{}
	if len(ladB) > 0 {
		e, err := decodeLadder(ladB)
		if err != nil {
			return defence.Released{}, err
		}
		snap[ladderTeam(s.ladderPerTeam, sub.Team)] = e
	}
	if len(strB) == 0 {
		strB = s.streamsInit
	}

	s.mu.Lock()
	r, newTh, newLad, newStr, err := s.releaseLocked(th, lad, thSt, snap, strB, sub)
	s.mu.Unlock()
	if err != nil {
		return defence.Released{}, err
	}

	if th != nil {
		if err := st.Put(thScope, encodeThresholdout(newTh)); err != nil {
			return defence.Released{}, err
		}
	}
	if lad != nil && slices.Contains(r.Events, "ladder: moved") {
		e, ok := newLad[ladderTeam(s.ladderPerTeam, sub.Team)]
		if !ok {
			return defence.Released{}, errors.New("serve: the Ladder moved and holds no entry")
		}
		if err := st.Put(ladScope, encodeLadder(e)); err != nil {
			return defence.Released{}, err
		}
	}
	if s.sim {
		if err := st.Put(scopeStreams, newStr); err != nil {
			return defence.Released{}, err
		}
	}
	return r, nil
}

// releaseLocked is release's part under s.mu: the chain holds the
// submission's state only between Restore and the read-back.
func (s *served) releaseLocked(th *defence.Thresholdout, lad *defence.Ladder, thSt *defence.ThresholdoutState,
	snap map[string]defence.LadderEntry, streams []byte, sub defence.Submission) (r defence.Released, newTh defence.ThresholdoutState, newLad map[string]defence.LadderEntry, newStr []byte, err error) {
	if th != nil {
		if err = th.SetTeamState(sub.Team, thSt); err != nil {
			return
		}
	}
	if lad != nil {
		if err = lad.Restore(snap); err != nil {
			return
		}
	}
	if s.sim {
		if err = s.chain.SetStreamState(streams); err != nil {
			return
		}
	}
	if r, err = s.chain.Release(sub); err != nil {
		return
	}
	if th != nil {
		var ok bool
		if newTh, ok = th.TeamState(sub.Team); !ok {
			err = errors.New("serve: Thresholdout released and holds no state for the team")
			return
		}
	}
	if lad != nil && slices.Contains(r.Events, "ladder: moved") {
		newLad = lad.Snapshot()
	}
	if s.sim {
		newStr, err = s.chain.StreamState()
	}
	return
}

// ladderTeam is the Ladder's own key for team (package defence keys the
// global ladder "").
func ladderTeam(perTeam bool, team string) string {
	if perTeam {
		return team
	}
	return ""
}

// legacyState is the content of a defence_state_file as servers before
// the database state wrote it (version 1).
type legacyState struct {
	Version int `json:"version"`
	// Ladder holds each team's best ("num/den") and, for the
	// parameter-free Ladder, its leader's per-row losses.
	Ladder map[string]struct {
		Best   string    `json:"best"`
		Leader []float64 `json:"leader,omitempty"`
	} `json:"ladder,omitempty"`
	// ThresholdoutRemaining is Thresholdout's budget left.
	ThresholdoutRemaining *int `json:"thresholdout_remaining,omitempty"`
}

// legacyScopes reads a defence_state_file into the values it stands for,
// by scope (Thresholdout's threshold, which the file did not keep, is
// drawn afresh: the chain's initial one).
func (s *served) legacyScopes(b []byte, path string) (map[string][]byte, error) {
	var ls legacyState
	if err := json.Unmarshal(b, &ls); err != nil {
		return nil, fmt.Errorf("defence_state_file %s: %w", path, err)
	}
	if ls.Version != 1 {
		return nil, fmt.Errorf("defence_state_file %s: version %d, want 1", path, ls.Version)
	}
	lad, th := s.chain.Ladder(), s.chain.Thresholdout()
	switch {
	case ls.Ladder != nil && lad == nil:
		return nil, fmt.Errorf("defence_state_file %s holds a Ladder's state and the competition has no Ladder", path)
	case ls.ThresholdoutRemaining != nil && th == nil:
		return nil, fmt.Errorf("defence_state_file %s holds a Thresholdout budget and the competition has no Thresholdout", path)
	case ls.ThresholdoutRemaining != nil && s.thPerTeam:
		return nil, fmt.Errorf("defence_state_file %s holds a global Thresholdout budget and the competition's is per team (thresholdout.per_team): a spent global budget must not become fresh per-team ones", path)
	}
	out := map[string][]byte{}
	for team, e := range ls.Ladder {
		r, ok := new(big.Rat).SetString(e.Best)
		if !ok {
			return nil, fmt.Errorf("defence_state_file %s: team %q: best %q is not a number", path, team, e.Best)
		}
		if team != "" && !s.ladderPerTeam {
			return nil, fmt.Errorf("defence_state_file %s: a per-team entry %q and the competition's Ladder is global", path, team)
		}
		// Check it as the Ladder would take it.
		entry := defence.LadderEntry{Best: r, Leader: e.Leader}
		if err := lad.Restore(map[string]defence.LadderEntry{team: entry}); err != nil {
			return nil, fmt.Errorf("defence_state_file %s: %w", path, err)
		}
		if len(e.Leader) == 0 {
			entry.Leader = nil
		}
		out[s.ladderScope(team)] = encodeLadder(entry)
	}
	if th != nil && ls.ThresholdoutRemaining != nil {
		st := s.thInit
		st.Remaining = *ls.ThresholdoutRemaining
		if err := th.SetState(st); err != nil {
			return nil, fmt.Errorf("defence_state_file %s: %w", path, err)
		}
		out[scopeThresholdout] = encodeThresholdout(st)
	}
	return out, nil
}

// importState imports competition c's defence_state_file into the
// database once, then renames it to FILE.imported-TIME: the database
// holds the state from then on. It refuses (an error naming both) when
// the database already holds a state that differs from the file's, for
// a stale file beside a live database would mean one of them is wrong.
// Without a file (already imported, or none) it does nothing.
func importState(ctx context.Context, st Store, c *Competition, log *slog.Logger) error {
	s := c.defence
	path := s.stateFile
	if path == "" {
		return nil
	}
	var retire bool
	err := st.DefenceState(ctx, c.ID, func(tx StateTx) error {
		// The import scope serialises replicas importing at once; the
		// file is read under it.
		mark, err := tx.Lock(scopeImport)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("defence_state_file: %w", err)
		}
		sum := sha256.Sum256(b)
		want, err := s.legacyScopes(b, path)
		if err != nil {
			return err
		}
		// Lock every scope the file or the database holds, in scope order.
		have, err := tx.Scopes()
		if err != nil {
			return err
		}
		all := map[string]bool{}
		for _, sc := range have {
			if sc != scopeImport && sc != scopeStreams {
				all[sc] = true
			}
		}
		for sc := range want {
			all[sc] = true
		}
		scopes := lockOrder(all)
		got := map[string][]byte{}
		for _, sc := range scopes {
			v, err := tx.Lock(sc)
			if err != nil {
				return err
			}
			if len(v) > 0 {
				got[sc] = v
			}
		}
		if len(got) == 0 {
			for _, sc := range scopes {
				if err := tx.Put(sc, want[sc]); err != nil {
					return err
				}
			}
			if err := tx.Put(scopeImport, []byte(hex.EncodeToString(sum[:]))); err != nil {
				return err
			}
			log.Warn("defence state imported from defence_state_file into the database; the file is retired (renamed): the database holds the state from now on",
				"competition", c.ID, "file", path, "scopes", len(want))
			retire = true
			return nil
		}
		if diff := stateDiff(want, got); diff != "" {
			return fmt.Errorf("serve: competition %s: defence_state_file %s and the database disagree (%s): refusing to start; keep the one that is right (remove the file, or restore the database) and start again", c.ID, path, diff)
		}
		log.Warn("defence_state_file holds what the database holds (imported before); retiring it",
			"competition", c.ID, "file", path, "imported_sha256", string(mark))
		retire = true
		return nil
	})
	if err != nil {
		return err
	}
	if retire {
		to := fmt.Sprintf("%s.imported-%s", path, time.Now().UTC().Format("20060102T150405Z"))
		if err := os.Rename(path, to); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("serve: retiring defence_state_file: %w", err)
		}
		log.Warn("defence_state_file retired", "competition", c.ID, "renamed_to", to)
	}
	return nil
}

// lockOrder returns the scopes in the order transactions lock them:
// Thresholdout's (global, then per team), then ladders.
func lockOrder(set map[string]bool) []string {
	var ths, lads []string
	for sc := range set {
		switch {
		case sc == scopeThresholdout || strings.HasPrefix(sc, scopeThresholdout+"/"):
			ths = append(ths, sc)
		case strings.HasPrefix(sc, scopeLadder):
			lads = append(lads, sc)
		}
	}
	slices.Sort(ths)
	slices.Sort(lads)
	return append(ths, lads...)
}

// stateDiff describes the first difference between the file's state and
// the database's ("" if none). Thresholdout compares its budget only (the
// file never held the threshold).
func stateDiff(file, db map[string][]byte) string {
	for _, sc := range lockOrder(union(file, db)) {
		f, d := file[sc], db[sc]
		switch {
		case f == nil:
			return fmt.Sprintf("%s only in the database", sc)
		case d == nil:
			return fmt.Sprintf("%s only in the file", sc)
		case sc == scopeThresholdout:
			fs, _ := decodeThresholdout(f)
			ds, err := decodeThresholdout(d)
			if err != nil || fs.Remaining != ds.Remaining {
				return fmt.Sprintf("Thresholdout budget left: file %d, database %d", fs.Remaining, ds.Remaining)
			}
		default:
			if string(f) != string(d) {
				fe, _ := decodeLadder(f)
				de, _ := decodeLadder(d)
				if fe.Best != nil && de.Best != nil {
					return fmt.Sprintf("%s: best %s in the file, %s in the database", sc, fe.Best.RatString(), de.Best.RatString())
				}
				return sc + " differs"
			}
		}
	}
	return ""
}

func union(a, b map[string][]byte) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
