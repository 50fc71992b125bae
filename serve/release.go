package serve

// This file is the hook where defences plug in: the exact score goes in,
// the released score comes out.

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/labelinf/labelinf/internal/bigint"
	"github.com/labelinf/labelinf/metric"
)

// A ReleaseInput is what a [Releaser] sees of one scored submission.
type ReleaseInput struct {
	// Exact is the score the metric computed.
	Exact metric.Value
	// Competition and Board ("public" or "private") say what was scored.
	Competition string
	Board       string
	// Rows is the number of rows scored.
	Rows int
	// KeyID and Seq identify the submitter and the number of submissions
	// the key made to this competition before this one (0 for the first),
	// as a defence that adapts to a key's history (the Ladder,
	// Thresholdout, noise seeded per query) needs.
	KeyID string
	Seq   int64
}

// A Releaser turns an exact score into the score reported. It must not
// fail on any Value a metric returns; it runs inside the budget
// transaction, after the submission was charged, so whatever it does may
// depend on the labels.
type Releaser interface {
	Release(in ReleaseInput) (metric.Value, error)
}

// A Chain applies its releasers in order.
type Chain []Releaser

// Release implements [Releaser].
func (c Chain) Release(in ReleaseInput) (metric.Value, error) {
	for _, r := range c {
		v, err := r.Release(in)
		if err != nil {
			return metric.Value{}, err
		}
		in.Exact = v
	}
	return in.Exact, nil
}

// Round rounds a score to Decimals decimal places, to nearest with ties
// to even (as numpy.round and fpa.RoundDecimal do); Decimals < 0 releases
// the score unrounded. +Inf stays +Inf.
type Round struct{ Decimals int }

// Release implements [Releaser].
func (r Round) Release(in ReleaseInput) (metric.Value, error) {
	if in.Exact.Inf || r.Decimals < 0 {
		return in.Exact, nil
	}
	return metric.Value{R: roundDecimal(in.Exact.R, r.Decimals)}, nil
}

// roundDecimal returns x rounded to d decimals, ties to even.
func roundDecimal(x *big.Rat, d int) *big.Rat {
	return bigint.RoundHalfEven(x, bigint.Pow10(d))
}

// formatValue writes a released score as text: "inf"; d ≥ 0 decimals
// exactly; otherwise the shortest decimal that reads back to the nearest
// float64 (exact for a float64 or float32 score).
func formatValue(v metric.Value, d int) string {
	if v.Inf {
		return "inf"
	}
	if d >= 0 {
		return v.R.FloatString(d)
	}
	f, _ := v.R.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// parseValue reads what formatValue wrote.
func parseValue(s string) (metric.Value, error) {
	if s == "inf" {
		return metric.Value{Inf: true}, nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return metric.Value{}, fmt.Errorf("serve: stored score %q is not a number", s)
	}
	return metric.Value{R: r}, nil
}

// float64Of returns v as the nearest float64 (+Inf for Inf).
func float64Of(v metric.Value) float64 {
	if v.Inf {
		return math.Inf(1)
	}
	f, _ := v.R.Float64()
	return f
}
