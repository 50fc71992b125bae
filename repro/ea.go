// This file implements the EA items: Prop 3 against the observed bit
// requirement, and the family's multi-query attack (Thm 5, App J).

package repro

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/datasets"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/precision"
	"github.com/labelinf/labelinf/single"
)

// runProp3 plots φ against N: EA Prop 3's bound, our planner's, and the
// lowest φ observed to decode every labeling (precision.Bits).
func runProp3(ctx context.Context, c *Config, r *Result) error {
	taus := []float64{1e-4, 1e-2, 1}
	ns := []int{2, 4, 6, 8, 10}
	fig := Figure{Name: "ea-prop3", Title: "EA Prop 3: bits φ of FPA(φ) for the robust single query (cross-entropy, K = 2)",
		XLabel: "labels N", YLabel: "φ (bits of the float format)", YMin: 0, YMax: 84,
		// Headroom above the data (at most 34 bits) for the nine-line legend.
		YTicks: []float64{0, 10, 20, 30, 40}}
	fails := 0
	first := ""
	for ti, tau := range taus {
		var xs, paper, ours, obs []float64
		for _, n := range ns {
			c.progress("ea-prop3", fmt.Sprintf("τ = %g, N = %d", tau, n))
			rep, err := precision.Bits(ctx, precision.BitsOptions{Loss: "ce", N: n, Tau: tau})
			if err != nil {
				return err
			}
			xs = append(xs, float64(n))
			paper = append(paper, float64(rep.Paper.Bits))
			ours = append(ours, float64(rep.Ours.Bits))
			o := math.NaN()
			if rep.Observed.Bits > 0 {
				o = float64(rep.Observed.Bits)
			}
			obs = append(obs, o)
			row := Row{What: fmt.Sprintf("τ = %g, N = %d: φ (paper / ours vs observed)", tau, n), Paper: fmt.Sprint(rep.Paper.Bits),
				Ours: fmt.Sprintf("planner %d, observed %d", rep.Ours.Bits, rep.Observed.Bits)}
			switch {
			case rep.Observed.Bits == 0:
				row.Status, row.Note = NotYetMeasured, rep.Observed.Missing
			case rep.Paper.Bits >= rep.Observed.Bits:
				row.Status, row.Note = Match, "Prop 3's φ suffices (≥ observed)"
			default:
				row.Status = Differs
				row.Note = fmt.Sprintf("Prop 3's φ = %d is %d bits short: some labeling fails to decode at it", rep.Paper.Bits, rep.Observed.Bits-rep.Paper.Bits)
				fails++
				if first == "" {
					first = fmt.Sprintf("τ = %g, N = %d", tau, n)
				}
			}
			r.Rows = append(r.Rows, row)
		}
		fig.Series = append(fig.Series,
			Series{Name: fmt.Sprintf("EA Prop 3, τ = %g", tau), X: xs, Y: paper, Color: ti + 1, Dashed: true},
			Series{Name: fmt.Sprintf("observed (lowest φ that works), τ = %g", tau), X: xs, Y: obs, Points: true, Color: ti + 1},
			Series{Name: fmt.Sprintf("our planner (fpa.MinPhi), τ = %g", tau), X: xs, Y: ours, Color: ti + 1})
	}
	if err := fig.save(c.Out, r); err != nil {
		return err
	}
	r.Status, r.Why = Match, "Prop 3's φ ≥ the lowest φ observed at every (τ, N)"
	if fails > 0 {
		r.Status = Differs
		r.Why = fmt.Sprintf("Prop 3's φ has no N in it; it is below the observed requirement at %d of %d points, first at %s (observed by emulating every labeling in FPA(φ))", fails, len(taus)*len(ns), first)
	}
	r.Notes = append(r.Notes,
		"Observed: the lowest φ at which every one of the 2^N labelings, with noise −τ', 0 and +τ', decodes when the server computes in FPA(φ) (precision.Bits, emulated by package fpa; N ≤ 10 keeps it to 1,024 labelings). Our planner is fpa.MinPhi on the rigorous error bound, never below the observed value.")
	return nil
}

// familyServer holds labels and answers θ with the exact loss of the
// family (big.Float at prec bits) plus noise uniform in (−τ, τ), from a
// seeded source.
type familyServer struct {
	l      *loss.Binary
	labels []int
	prec   uint
	tau    float64
	rng    *rand.Rand
	// cache holds the terms of a θ value shared by many points (the
	// neutral prediction), keyed by the pointer the attack submits.
	cache map[*big.Float][2]*big.Float
}

// term returns the loss of label y at θ, cached for a θ seen before.
func (s *familyServer) term(y int, theta *big.Float) (*big.Float, error) {
	if s.cache == nil {
		s.cache = map[*big.Float][2]*big.Float{}
	}
	c := s.cache[theta]
	if c[y] == nil {
		t, err := s.l.Term(new(big.Float).SetPrec(s.prec), y, theta)
		if err != nil {
			return nil, err
		}
		c[y] = t
		s.cache[theta] = c
	}
	return c[y], nil
}

func (s *familyServer) N() int { return len(s.labels) }
func (s *familyServer) K() int { return 2 }

func (s *familyServer) Score(ctx context.Context, theta []*big.Float) (*big.Float, error) {
	sum := new(big.Float).SetPrec(s.prec)
	for i, y := range s.labels {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		t, err := s.term(y, theta[i])
		if err != nil {
			return nil, err
		}
		apa.Add(sum, sum, t) // terms down to e^(−2^31) beside z: no exact alignment
	}
	sum.Quo(sum, new(big.Float).SetInt64(int64(len(s.labels))))
	noise := (2*s.rng.Float64() - 1) * s.tau
	return sum.Add(sum, new(big.Float).SetFloat64(noise)), nil
}

// thm5MaxCandidates bounds the subset sums each ea-thm5 attack may
// examine (single.FamilyMultiOptions.MaxCandidates), a deterministic cost
// bound in place of a wall-clock limit: 2^22, the two half-lists of one
// meet-in-the-middle over a 42-point Conway–Guy block (32 MiB of sums).
// Powers-of-two blocks need N candidates in all (a superincreasing walk);
// EA's exhaustive LABELINF would need ⌈N/M⌉·2^M, over the bound from M = 22
// on Titanic.
const thm5MaxCandidates = 1 << 22

// labelInfCount returns ⌈n/m⌉·2^m, the labelings EA's exhaustive LABELINF
// examines in the ⌈n/m⌉-query attack [EA, Section 3], as text.
func labelInfCount(n, m int) string {
	c := new(big.Int).Lsh(big.NewInt(int64((n+m-1)/m)), uint(m))
	if c.BitLen() <= 30 {
		return fmt.Sprint(c)
	}
	f, _ := new(big.Float).SetInt(c).Float64()
	if math.IsInf(f, 0) {
		return fmt.Sprintf("%d·2^%d", (n+m-1)/m, m)
	}
	return fmt.Sprintf("%.2g", f)
}

// runThm5 runs the family's multi-query attack [EA, Theorem 5] on Titanic
// for the losses it names, with ⌈N/M⌉ queries of M points each, against
// an exact server with noise uniform in (−τ, τ), and records accuracy
// against M; the paper's App J claims for cross-entropy are checked
// against what an exact server allows.
func runThm5(ctx context.Context, c *Config, r *Result) error {
	y, err := datasets.Labels("titanic")
	if err != nil {
		return err
	}
	ms := []int{2, 5, 10, 22, 55, 220, 550}
	if c.Quick {
		ms = []int{5}
	}
	return thm5(ctx, c, r, y, ms, thm5MaxCandidates)
}

// thm5 is runThm5 on labels y, with M in ms and the decoding bounded by
// maxCand candidates per attack.
func thm5(ctx context.Context, c *Config, r *Result, y []int, ms []int, maxCand int64) error {
	n := len(y)
	type lk struct {
		kind loss.Kind
		tau  float64
	}
	fig := Figure{Name: "ea-thm5", Title: fmt.Sprintf("EA Thm 5: multi-query attack on Titanic (N = %d), exact server + uniform noise\nno point: refused; each loss shifted ±20%% in M to stay visible", n),
		XLabel: "M, points per query (log scale; ⌈N/M⌉ queries)", YLabel: "accuracy", LogX: true, YMin: 0, YMax: 1.05, LegendBottom: true}
	var summary, sigPrec []string
	nOver := 0 // attacks refused by the cost bound
	for ki, k := range []lk{{loss.CE, 1e-4}, {loss.CE, 1}, {loss.SigmoidCE, 1}, {loss.IS, 1e-4}, {loss.SE, 1e-9}} {
		l, err := loss.NewBinary(k.kind, 0, [4]float64{})
		if err != nil {
			return err
		}
		name := fmt.Sprintf("%v, τ = %g", l, k.tau)
		var xs, ys []float64
		maxOK := 0
		var fails, oks []string
		for _, m := range ms {
			c.progress("ea-thm5", fmt.Sprintf("%s, M = %d", name, m))
			// A fresh server per run: its cache keys on θ pointers.
			srv := &familyServer{l: l, labels: y, prec: 64, tau: k.tau, rng: rand.New(rand.NewPCG(1, uint64(m)))}
			opt := single.FamilyMultiOptions{FamilyOptions: single.FamilyOptions{Loss: l, N: n, Tau: k.tau}, M: m, MaxCandidates: maxCand}
			// The server computes at the block plan's precision.
			if p, err := single.PlanFamily(ctx, single.FamilyOptions{Loss: l, N: m, Tau: k.tau * float64(n) / float64(m)}); err == nil {
				srv.prec = p.Prec() + 64
				if k.kind == loss.SigmoidCE {
					sigPrec = append(sigPrec, fmt.Sprintf("%d at M = %d", p.Prec(), m))
				}
			}
			res, err := single.AttackFamilyMulti(ctx, srv, opt)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			acc := math.NaN()
			switch {
			case err == nil:
				acc = accuracy(res.Labels, y)
				if acc == 1 && res.Verified {
					maxOK = max(maxOK, m)
					oks = append(oks, fmt.Sprint(m))
				}
			default:
				var ns *single.NotSeparableError
				var ce *single.CostError
				if errors.As(err, &ce) {
					nOver++
					fails = append(fails, fmt.Sprintf("M = %d: over the cost bound (%d %s > %d)", m, ce.Need, ce.What, ce.Limit))
				} else if errors.As(err, &ns) {
					fails = append(fails, fmt.Sprintf("M = %d: not separable (sup |d| = %g < the %g needed)", m, ns.Sup, ns.Need))
				} else {
					fails = append(fails, fmt.Sprintf("M = %d: %v", m, err))
				}
			}
			xs, ys = append(xs, float64(m)), append(ys, acc)
		}
		// Every accuracy is 1 or refused: shift each loss a little in M so
		// that the points do not hide one another (the CSV keeps M).
		fig.Series = append(fig.Series, Series{Name: name, X: xs, Y: ys, XShift: 1 + 0.1*float64(ki-2)})
		row := Row{What: "largest M tried with 100%, verified (exact server): " + name, Paper: "—", Ours: fmt.Sprint(maxOK), Status: Match,
			Note: strings.Join(append([]string{"100%, verified, at M ∈ {" + strings.Join(oks, ", ") + "}"}, fails...), "; ")}
		if k.kind == loss.CE && k.tau == 1e-4 {
			row.Paper, row.Status = "100% with M ≥ 220 (App J)", NotReproduced
		}
		if k.kind == loss.CE && k.tau == 1 {
			row.Paper, row.Status = "100% with M ≥ 550 (App J)", NotReproduced
		}
		r.Rows = append(r.Rows, row)
		summary = append(summary, fmt.Sprintf("%s: M ∈ {%s}", name, strings.Join(oks, ", ")))
	}
	if err := fig.save(c.Out, r); err != nil {
		return err
	}
	overBound := "none is over the cost bound"
	if nOver > 0 {
		overBound = fmt.Sprintf("%d over the cost bound", nOver)
	}
	r.Status = NotReproduced
	r.Why = "App J (cross-entropy on Titanic: 100% with M ≥ 220 at τ = 1e−4, M ≥ 550 at τ = 1) is not reproduced as stated: with an exact server the attack recovers every label, verified, at these M (" + strings.Join(summary, "; ") + ") and refuses the others before any query (weights beyond sup |d| or big.Float's range; " + overBound + "); cross-entropy on probabilities leaves big.Float's range from M ≈ 22–55 on, while the same loss on logits (sigmoid-ce) can succeed at M = 550, τ = 1; ea-appj-float64 runs App J's claims under a float64 server"
	var li []string
	over := 0 // the first M at which LABELINF is over the bound
	for _, m := range ms {
		li = append(li, fmt.Sprintf("%s at M = %d", labelInfCount(n, m), m))
		if c := new(big.Int).Lsh(big.NewInt(int64((n+m-1)/m)), uint(m)); over == 0 && c.Cmp(big.NewInt(maxCand)) > 0 {
			over = m
		}
	}
	overText := "within the bound at every M tried"
	if over > 0 {
		overText = fmt.Sprintf("over the bound from M = %d on: the blocks need exponential work only with that decoder", over)
	}
	cgMax := 1 // the largest Conway–Guy block the bound admits
	for int64(1)<<((cgMax+2)/2)+int64(1)<<((cgMax+1)/2) <= maxCand {
		cgMax++
	}
	r.Notes = append(r.Notes,
		fmt.Sprintf("Cost bound (deterministic; it replaced a 20 s wall-clock limit whose verdicts changed with the machine's load): each attack may examine at most %d subset sums (single.FamilyMultiOptions.MaxCandidates), counted from the block plans before the first query, so the table is the same on any machine. Powers-of-two weights W·2^j are superincreasing: a block of M points is decoded by a walk of M steps, N = %d candidates per attack at every M (%s). Conway–Guy blocks (bounded losses) list 2^⌈M/2⌉ + 2^⌊M/2⌋ sums, so the bound admits one block of up to %d points. EA's exhaustive LABELINF (Section 3: O(N·2^M/M) local computations) would examine ⌈N/M⌉·2^M: %s; %s.", maxCand, n, map[bool]string{true: "within the bound", false: "over it"}[int64(n) <= maxCand], cgMax, strings.Join(li, ", "), overText),
		fmt.Sprintf("Arithmetic: the plan's score precision is log₂ W + M + O(1) bits (sigmoid-ce: %s), and the server sums N terms at that precision plus 64 bits. ", strings.Join(sigPrec, ", "))+"The sigmoid-ce rows at M = 22 and 55 used to time out (and M = 220, 550 under load) for a reason outside the attack: the exact server sums e^(−z) beside z for logits z up to 1.5·10⁹, which math/big's Float.Add aligns bit by bit (1.3 s per addition at a 10⁹-bit gap), and apa.Log1p of e^(−z) worked at 10⁹ bits; likewise cross-entropy's planner spent tens of seconds on each M it then refused, aligning 1 with e^(±10⁹) in its inverse and in apa.Log. apa.Add and apa.Sub (math/big's rounding in O(precision)), Log1p's small-input shortcut and Log's check for x near 1 remove that: sigmoid-ce at M = 22 and 55 takes a fraction of a second, and the slowest attack is now itakura-saito at M = 550, whose planner bisects 550 roots through apa.Log at 567+ bits (a few seconds of CPU; the item's peak memory fell from 3.7 GB to 38 MB).",
		"Each query predicts θ_i = x*(W·2^j) on its M points (W = 2Nτ(1+1/8)) and the neutral ½ (logit 0) elsewhere; the block's share N·ℓ − (N−M)·ℓ(½) is decoded by the single-query attack at noise Nτ/M (single.AttackFamilyMulti).",
		"App J's sentence \"100% accuracy using M ≥ 220\" reads backwards for M = points per query (fewer points per query is easier); under an exact server, success depends on whether the weights W·2^(M−1) fit the loss and the arithmetic, not on a lower bound on M. A float64 server is what produces one: see ea-appj-float64.")
	return nil
}
