package defence

// This file is what a host persists of a chain between submissions, so
// that several processes serving one competition behave as one: the
// Ladder's entries (ladder.go), Thresholdout's budget and noisy threshold,
// and, for simulations only, the positions of the chain's random streams.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	mrand "math/rand/v2"
)

// ThresholdoutState is what a [Thresholdout] remembers between
// submissions besides its noise stream: the budget left and the noisy
// threshold T̂ in force (redrawn after each holdout answer).
type ThresholdoutState struct {
	Remaining int
	Threshold float64
}

// State returns the global budget left and the threshold in force
// (PerTeam: B and the initial threshold T; see [Thresholdout.TeamState]).
func (t *Thresholdout) State() ThresholdoutState {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.opts.PerTeam {
		return ThresholdoutState{Remaining: t.opts.Budget, Threshold: t.opts.T}
	}
	return ThresholdoutState{Remaining: t.all.budget, Threshold: t.all.that}
}

// SetState replaces the budget left and the threshold in force, for a
// host that keeps them in a database shared by several processes (each
// keeps its own noise stream). It returns an error, and changes nothing,
// if Remaining is outside [0, B] or Threshold is NaN or infinite.
func (t *Thresholdout) SetState(st ThresholdoutState) error {
	if t.opts.PerTeam {
		return errors.New("defence: Thresholdout keeps one state per team: set each with SetTeamState")
	}
	if err := t.checkState(st); err != nil {
		return err
	}
	t.mu.Lock()
	t.all = thState{that: st.Threshold, budget: st.Remaining}
	t.mu.Unlock()
	return nil
}

// checkState reports a state outside what the Thresholdout can hold.
func (t *Thresholdout) checkState(st ThresholdoutState) error {
	if st.Remaining < 0 || st.Remaining > t.opts.Budget {
		return fmt.Errorf("defence: Thresholdout budget %d out of [0, %d]", st.Remaining, t.opts.Budget)
	}
	if math.IsNaN(st.Threshold) || math.IsInf(st.Threshold, 0) {
		return fmt.Errorf("defence: Thresholdout threshold %v", st.Threshold)
	}
	return nil
}

// streamStateVersion is the first byte of [Chain.StreamState].
const streamStateVersion = 1

// StreamState returns the positions of the chain's sequential random
// streams: Subset's and Thresholdout's ChaCha8 states and fresh Noise's
// counter, in stage order. With [Chain.SetStreamState] it lets processes
// that share a database continue one another's streams, so that a
// simulation ([Settings.SimulationChain]) served by several replicas
// releases what one process would. A server with secret seeds must never
// store it where another process or person can read it: whoever holds it
// predicts the next draws.
func (c *Chain) StreamState() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := []byte{streamStateVersion}
	for _, st := range c.stages {
		var b []byte
		var err error
		switch t := st.(type) {
		case *Subset:
			b, err = t.src.MarshalBinary()
		case *Thresholdout:
			t.mu.Lock()
			b, err = t.src.MarshalBinary()
			t.mu.Unlock()
		case *Noise:
			if t.opts.Key != Fresh {
				continue
			}
			b = binary.BigEndian.AppendUint64(nil, t.counter)
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("defence: stream state: %w", err)
		}
		out = binary.BigEndian.AppendUint32(out, uint32(len(b)))
		out = append(out, b...)
	}
	return out, nil
}

// SetStreamState restores what [Chain.StreamState] returned for a chain
// of the same stages. It returns an error, and changes nothing, if b does
// not fit the chain.
func (c *Chain) SetStreamState(b []byte) error {
	if len(b) < 1 || b[0] != streamStateVersion {
		return errors.New("defence: stream state: wrong version")
	}
	b = b[1:]
	c.mu.Lock()
	defer c.mu.Unlock()
	// Parse everything first, then apply: a bad state changes nothing.
	type pending struct {
		st Stage
		b  []byte
	}
	var todo []pending
	for _, st := range c.stages {
		switch t := st.(type) {
		case *Subset, *Thresholdout:
		case *Noise:
			if t.opts.Key != Fresh {
				continue
			}
		default:
			continue
		}
		if len(b) < 4 {
			return errors.New("defence: stream state too short for the chain")
		}
		n := binary.BigEndian.Uint32(b)
		if uint64(len(b)-4) < uint64(n) {
			return errors.New("defence: stream state too short for the chain")
		}
		todo = append(todo, pending{st, b[4 : 4+n]})
		b = b[4+n:]
	}
	if len(b) != 0 {
		return errors.New("defence: stream state longer than the chain's streams")
	}
	for _, p := range todo {
		switch t := p.st.(type) {
		case *Subset:
			if err := checkChaCha(p.b); err != nil {
				return err
			}
		case *Thresholdout:
			if err := checkChaCha(p.b); err != nil {
				return err
			}
		case *Noise:
			if len(p.b) != 8 {
				return fmt.Errorf("defence: stream state: %v counter of %d bytes", t, len(p.b))
			}
		}
	}
	for _, p := range todo {
		switch t := p.st.(type) {
		case *Subset:
			_ = t.src.UnmarshalBinary(p.b)
		case *Thresholdout:
			t.mu.Lock()
			_ = t.src.UnmarshalBinary(p.b)
			t.mu.Unlock()
		case *Noise:
			t.counter = binary.BigEndian.Uint64(p.b)
		}
	}
	return nil
}

// checkChaCha reports whether b is a ChaCha8 state UnmarshalBinary takes.
func checkChaCha(b []byte) error {
	probe := new(mrand.ChaCha8)
	if err := probe.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("defence: stream state: %w", err)
	}
	return nil
}
