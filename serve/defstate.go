package serve

// This file keeps a competition's defence state (the Ladder's bests and
// leaders, Thresholdout's remaining budget) in a file across restarts: a
// server that forgot it would give every team a fresh ladder and
// Thresholdout a fresh budget.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"

	"github.com/labelinf/labelinf/defence"
)

// defenceState is the state file's content.
type defenceState struct {
	Version int `json:"version"`
	// Ladder holds each team's best (an exact rational, "num/den") and,
	// for the parameter-free Ladder, its leader's per-row losses.
	Ladder map[string]ladderState `json:"ladder,omitempty"`
	// ThresholdoutRemaining is Thresholdout's budget left; nil without
	// Thresholdout.
	ThresholdoutRemaining *int `json:"thresholdout_remaining,omitempty"`
	// ThresholdoutTeams is, for a per-team Thresholdout, each team's
	// budget left (teams absent have all of it); nil otherwise.
	ThresholdoutTeams map[string]int `json:"thresholdout_teams,omitempty"`
}

type ladderState struct {
	Best   string    `json:"best"`
	Leader []float64 `json:"leader,omitempty"`
}

// stateVersion is the state file's format version.
const stateVersion = 1

// loadState restores ch's state from path, if the file exists.
func loadState(ch *defence.Chain, path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("defence_state_file: %w", err)
	}
	var st defenceState
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("defence_state_file %s: %w", path, err)
	}
	if st.Version != stateVersion {
		return fmt.Errorf("defence_state_file %s: version %d, want %d", path, st.Version, stateVersion)
	}
	lad, th := ch.Ladder(), ch.Thresholdout()
	switch {
	case st.Ladder != nil && lad == nil:
		return fmt.Errorf("defence_state_file %s holds a Ladder's state and the competition has no Ladder (remove the file to start afresh)", path)
	case (st.ThresholdoutRemaining != nil || st.ThresholdoutTeams != nil) && th == nil:
		return fmt.Errorf("defence_state_file %s holds a Thresholdout budget and the competition has no Thresholdout (remove the file to start afresh)", path)
	case st.ThresholdoutRemaining != nil && th.PerTeam():
		return fmt.Errorf("defence_state_file %s holds a global Thresholdout budget and the competition's is per team (thresholdout.per_team): a spent global budget must not become fresh per-team ones", path)
	case st.ThresholdoutTeams != nil && !th.PerTeam():
		return fmt.Errorf("defence_state_file %s holds per-team Thresholdout budgets and the competition's is global", path)
	}
	if lad != nil && st.Ladder != nil {
		snap := make(map[string]defence.LadderEntry, len(st.Ladder))
		for team, e := range st.Ladder {
			r, ok := new(big.Rat).SetString(e.Best)
			if !ok {
				return fmt.Errorf("defence_state_file %s: team %q: best %q is not a number", path, team, e.Best)
			}
			snap[team] = defence.LadderEntry{Best: r, Leader: e.Leader}
		}
		if err := lad.Restore(snap); err != nil {
			return fmt.Errorf("defence_state_file %s: %w", path, err)
		}
	}
	if th != nil && st.ThresholdoutRemaining != nil {
		if err := th.Restore(*st.ThresholdoutRemaining); err != nil {
			return fmt.Errorf("defence_state_file %s: %w", path, err)
		}
	}
	if th != nil && st.ThresholdoutTeams != nil {
		if err := th.RestoreTeams(st.ThresholdoutTeams); err != nil {
			return fmt.Errorf("defence_state_file %s: %w", path, err)
		}
	}
	return nil
}

// saveState writes ch's state to path atomically: a temporary file in
// the same directory, synced, then renamed over it.
func saveState(ch *defence.Chain, path string) error {
	st := defenceState{Version: stateVersion}
	if lad := ch.Ladder(); lad != nil {
		st.Ladder = map[string]ladderState{}
		for team, e := range lad.Snapshot() {
			st.Ladder[team] = ladderState{Best: e.Best.RatString(), Leader: e.Leader}
		}
	}
	if th := ch.Thresholdout(); th != nil && th.PerTeam() {
		st.ThresholdoutTeams = th.RemainingByTeam()
	} else if th != nil {
		r := th.Remaining()
		st.ThresholdoutRemaining = &r
	}
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("serve: defence state: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("serve: defence state: %w", err)
	}
	_, werr := f.Write(b)
	if werr == nil {
		werr = f.Sync()
	}
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("serve: defence state: %w", werr)
	}
	return nil
}
