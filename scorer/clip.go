package scorer

// This file parses a float model's clipping constants once into values of
// its format: every later use (the simulated server, the exact terms, the
// emulator, the attack's extreme row) reads them from there.

import (
	"fmt"

	"github.com/labelinf/labelinf/fpa"
)

// Clip holds a float model's clipping constants as values of its format,
// parsed once from the decimal strings of its [FloatLoss] (Eps, LogFloor).
// A nil field means the model does not clip (Eps) or clamp (Floor).
type Clip struct {
	// Eps and OneMinus bound each probability to [Eps, OneMinus];
	// OneMinus is 1 − Eps computed in the format and rounding mode.
	Eps, OneMinus *fpa.Float
	// Floor is the log clamp (negative): each log is raised to ≥ Floor.
	Floor *fpa.Float

	eps64, oneMinus64, floor64 float64 // the same values as float64
}

// parseClip parses l's constants in l's format. An exact model has none.
func parseClip(l *FloatLoss) (*Clip, error) {
	c := new(Clip)
	if l.Eps != "" {
		eps, err := fpa.Parse(l.Eps, l.Format, fpa.ToNearestEven)
		if err != nil {
			return nil, fmt.Errorf("scorer: clipping constant %q: %w", l.Eps, err)
		}
		c.Eps = eps
		c.OneMinus = fpa.New(l.Format).SetMode(l.Mode).Sub(fpa.New(l.Format).SetInt64(1), eps)
		c.eps64, _ = eps.Float64()
		c.oneMinus64, _ = c.OneMinus.Float64()
	}
	if l.LogFloor != "" {
		fl, err := fpa.Parse(l.LogFloor, l.Format, fpa.ToNearestEven)
		if err != nil {
			return nil, fmt.Errorf("scorer: log floor %q: %w", l.LogFloor, err)
		}
		c.Floor = fl
		c.floor64, _ = fl.Float64()
	}
	return c, nil
}

// Clip returns m's clipping constants: those [ParseModel] parsed, or, for
// a model built by hand, parsed now. An exact model has none (an empty
// Clip). It returns an error if a constant does not parse in the format.
func (m *Model) Clip() (*Clip, error) {
	if m.clip != nil {
		return m.clip, nil
	}
	if m.Exact {
		return new(Clip), nil
	}
	return parseClip(&m.Loss)
}
