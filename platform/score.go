package platform

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/internal/bigint"
	"github.com/labelinf/labelinf/scorer"
)

// MinSecretBytes is the least length of the host's secret, as labelinf
// serve's defence_secret_file: 32 bytes, the key of the HMAC-SHA256 that
// derives the noise.
const MinSecretBytes = 32

// ScoreOptions configure [Score].
type ScoreOptions struct {
	// Metric is a log-loss scorer model name (float64-sklearn,
	// float32-keras, torch-bce, leaderboard, …), as labelinf serve's
	// metric.
	Metric string
	// Defence holds the stateless defences: decimals, noise and subset.
	// The Ladder, Thresholdout and limits keep state between submissions
	// and are labelinf serve's (Stateless refuses them); the split is
	// the platform's (Score's public rows).
	Defence defence.Settings
	// Secret keys the noise (at least MinSecretBytes), as serve's
	// defence_secret_file; required when Defence has noise.
	Secret []byte
}

// Stateless reports why s cannot run in a platform's scoring step, or
// nil.
func Stateless(s defence.Settings) error {
	switch {
	case s.Ladder != nil:
		return errors.New("platform: the Ladder keeps state between submissions: run it in labelinf serve (docs/PLATFORMS.md)")
	case s.Thresholdout != nil:
		return errors.New("platform: Thresholdout keeps a budget between submissions: run it in labelinf serve (docs/PLATFORMS.md)")
	case s.Limits != (defence.LimitSettings{}):
		return errors.New("platform: the platform counts submissions (its own limits); labelinf's limits are labelinf serve's")
	case s.Split != nil:
		return errors.New("platform: the public rows are the platform's (Hugging Face's split column, EvalAI's dataset splits, a Codabench phase's reference data); drop defence.split")
	}
	return nil
}

// Result is what a platform's scoring step releases: the public score
// as labelinf serve formats a released score (the decimal of the
// rounding's digits, or the float64's shortest form unrounded; "inf" for
// an infinite loss), and the private score on the private rows (HasPrivate
// when there are private rows).
type Result struct {
	Public     string
	Private    string
	HasPrivate bool
}

// Score scores pred (n rows of k values row-major; binary: one
// probability of class 1 per row) against labels with the stateless
// defences of o, as labelinf serve releases a public score: the exact
// metric on the public rows, then the chain (subset, noise keyed on the
// canonical prediction bytes with o.Secret, rounding). public marks the
// public rows (nil: all); the private score is the exact metric on the
// others, rounded to the same decimals and never noised (it decides the
// final ranking).
func Score(labels []int, k int, pred []float64, public []bool, o ScoreOptions) (Result, error) {
	if err := Stateless(o.Defence); err != nil {
		return Result{}, err
	}
	n := len(labels)
	per := 1
	if k > 2 {
		per = k
	}
	switch {
	case n == 0:
		return Result{}, errors.New("platform: no labels")
	case len(pred) != n*per:
		return Result{}, fmt.Errorf("platform: %d prediction values for %d rows of %d", len(pred), n, per)
	case public != nil && len(public) != n:
		return Result{}, fmt.Errorf("platform: split of %d rows for %d labels", len(public), n)
	}
	for i, v := range pred {
		if !(v >= 0 && v <= 1) {
			return Result{}, fmt.Errorf("platform: prediction value %d is %v; want a probability in [0, 1]", i, v)
		}
	}
	if o.Defence.Noise != nil && len(o.Secret) < MinSecretBytes {
		return Result{}, fmt.Errorf("platform: noise needs the host's secret of at least %d bytes (labelinf score -secret-file, serve's defence_secret_file)", MinSecretBytes)
	}
	m, err := scorer.ParseModel(o.Metric)
	if err != nil {
		return Result{}, fmt.Errorf("platform: metric: %w", err)
	}
	if m.Exact {
		return Result{}, fmt.Errorf("platform: metric %q: arbitrary-precision scorers are a research tool, not a served metric", o.Metric)
	}
	// As metric.Parse (what serve scores with): the model unrounded, the chain rounding to
	// the defence's decimals, else the model's.
	def := m.Decimals
	m, err = scorer.NewModel(scorer.Model{Name: m.Name, Exact: m.Exact, Prec: m.Prec, Loss: m.Loss, Decimals: -1, Desc: m.Desc})
	if err != nil {
		return Result{}, fmt.Errorf("platform: metric %q: %w", o.Metric, err)
	}
	s := o.Defence
	if s.Decimals == nil && def >= 0 {
		s.Decimals = &def
	}
	dec := -1
	if s.Decimals != nil {
		dec = *s.Decimals
	}
	var pubRows, privRows []int
	for i := range n {
		if public == nil || public[i] {
			pubRows = append(pubRows, i)
		} else {
			privRows = append(privRows, i)
		}
	}
	sel := func(rows []int) ([]int, []float64) {
		l := make([]int, 0, len(rows))
		p := make([]float64, 0, len(rows)*per)
		for _, i := range rows {
			l = append(l, labels[i])
			p = append(p, pred[i*per:(i+1)*per]...)
		}
		return l, p
	}
	pl, pp := sel(pubRows)
	eval := func(l []int, p []float64) (*big.Rat, bool) {
		r, err := m.Eval(l, &scorer.Pred{K: k, P: p})
		if err != nil {
			return nil, true // an infinite or NaN term: an infinite loss, as serve
		}
		return r, false
	}
	ch, err := s.Chain(len(pl), o.Secret, nil)
	if err != nil {
		return Result{}, err
	}
	sub := defence.Submission{}
	if ch.NeedsPred() {
		sub.Pred = defence.CanonicalPred(pp)
	}
	errInf := errors.New("infinite")
	sub.Mean = func(rows []int) (*big.Rat, error) {
		l, p := pl, pp
		if len(rows) != len(pl) {
			l, p = make([]int, 0, len(rows)), make([]float64, 0, len(rows)*per)
			for _, i := range rows {
				l = append(l, pl[i])
				p = append(p, pp[i*per:(i+1)*per]...)
			}
		}
		r, inf := eval(l, p)
		if inf {
			return nil, errInf
		}
		return r, nil
	}
	var res Result
	rel, err := ch.Release(sub)
	switch {
	case errors.Is(err, errInf):
		res.Public = "inf"
	case err != nil:
		return Result{}, err
	default:
		res.Public = Format(rel.Score, dec)
	}
	if len(privRows) > 0 {
		res.HasPrivate = true
		l, p := sel(privRows)
		r, inf := eval(l, p)
		if inf {
			res.Private = "inf"
		} else {
			if dec >= 0 {
				r = roundHalfEven(r, dec)
			}
			res.Private = Format(r, dec)
		}
	}
	return res, nil
}

// Format writes a released score as labelinf serve does: d decimals, or
// the float64's shortest form when d < 0.
func Format(r *big.Rat, d int) string {
	if d >= 0 {
		return r.FloatString(d)
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// roundHalfEven rounds r to d decimals, ties to even, exactly (as
// package defence's Round does); d outside [0, defence.MaxDecimals]
// leaves r unrounded.
func roundHalfEven(r *big.Rat, d int) *big.Rat {
	if d < 0 || d > defence.MaxDecimals {
		return r
	}
	return bigint.RoundHalfEven(r, bigint.Pow10(d))
}

// maxValues bounds a prediction's values (1 GiB of float64).
const maxValues = 1 << 27

// ReadPredictions reads a prediction file for a reference of n rows and
// k classes: a CSV with a header (an id column matched to ids when both
// have one, then one probability column for binary labels or k), or
// rows without a header of one value (binary) or k values.
func ReadPredictions(r io.Reader, name string, n, k int, ids []string) ([]float64, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxReference+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxReference {
		return nil, fmt.Errorf("platform: %s is larger than %d bytes", name, maxReference)
	}
	per := 1
	if k > 2 {
		per = k
	}
	if n <= 0 || n > maxValues/per {
		return nil, fmt.Errorf("platform: %d rows of %d values: want 1 to %d values in all", n, per, maxValues)
	}
	text := strings.TrimPrefix(strings.ReplaceAll(string(data), "\r\n", "\n"), "\ufeff")
	lines := strings.Split(text, "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("platform: %s: no rows", name)
	}
	out := make([]float64, n*per)
	parse := func(s string, line int) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(v) || v < 0 || v > 1 {
			return 0, fmt.Errorf("platform: %s:%d: %q is not a probability in [0, 1]", name, line, s)
		}
		return v, nil
	}
	if !isHeader(lines[0]) {
		if len(lines) != n {
			return nil, fmt.Errorf("platform: %s: %d rows; the reference has %d", name, len(lines), n)
		}
		for i, l := range lines {
			f := strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
			if len(f) != per {
				return nil, fmt.Errorf("platform: %s:%d: %d values; want %d", name, i+1, len(f), per)
			}
			for j, s := range f {
				if out[i*per+j], err = parse(s, i+1); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
	cr := csv.NewReader(strings.NewReader(text))
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("platform: %s: %w", name, err)
	}
	idCol := -1
	var cols []int
	for i, h := range head {
		if slices.Contains(idColumns, strings.TrimSpace(h)) && idCol < 0 {
			idCol = i
		} else {
			cols = append(cols, i)
		}
	}
	if len(cols) != per {
		return nil, fmt.Errorf("platform: %s has columns %s; want an id column and %d prediction column(s)", name, strings.Join(head, ", "), per)
	}
	var index map[string]int
	if ids != nil && idCol >= 0 {
		index = make(map[string]int, len(ids))
		for i, id := range ids {
			index[id] = i
		}
	}
	seen := make([]bool, n)
	row := 0
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("platform: %s: %w", name, err)
		}
		i := row
		if index != nil {
			id := strings.TrimSpace(rec[idCol])
			var ok bool
			if i, ok = index[id]; !ok {
				return nil, fmt.Errorf("platform: %s:%d: id %q is not in the reference", name, line, id)
			}
		}
		if i >= n {
			return nil, fmt.Errorf("platform: %s: more than %d rows", name, n)
		}
		if seen[i] {
			return nil, fmt.Errorf("platform: %s:%d: row %q twice", name, line, rec[max(idCol, 0)])
		}
		seen[i] = true
		for j, c := range cols {
			if out[i*per+j], err = parse(rec[c], line); err != nil {
				return nil, err
			}
		}
		row++
	}
	if row != n {
		return nil, fmt.Errorf("platform: %s: %d rows; the reference has %d", name, row, n)
	}
	return out, nil
}
