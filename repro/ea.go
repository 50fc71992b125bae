// This file implements the EA items: Prop 3 against the observed bit
// requirement, and the family's multi-query attack (Thm 5, App J).

package repro

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"

	"github.com/labelinf/labelinf/bench"
	"github.com/labelinf/labelinf/datasets"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/loss"
)

// runProp3 plots φ against N: EA Prop 3's bound, our planner's, and the
// lowest φ observed to decode every labeling (bench.Bits).
func runProp3(ctx context.Context, c *Config, r *Result) error {
	taus := []float64{1e-4, 1e-2, 1}
	ns := []int{2, 4, 6, 8, 10}
	fig := Figure{Name: "ea-prop3", Title: "EA Prop 3: bits φ of FPA(φ) for the robust single query (cross-entropy, K = 2)",
		XLabel: "labels N", YLabel: "φ (bits of the float format)", YMin: 0, YMax: 64}
	fails := 0
	first := ""
	for ti, tau := range taus {
		var xs, paper, ours, obs []float64
		for _, n := range ns {
			c.progress("ea-prop3", fmt.Sprintf("τ = %g, N = %d", tau, n))
			rep, err := bench.Bits(ctx, bench.BitsOptions{Loss: "ce", N: n, Tau: tau})
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
		"Observed: the lowest φ at which every one of the 2^N labelings, with noise −τ', 0 and +τ', decodes when the server computes in FPA(φ) (bench.Bits, emulated by package fpa; N ≤ 10 keeps it to 1,024 labelings). Our planner is fpa.MinPhi on the rigorous error bound, never below the observed value.")
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
}

func (s *familyServer) N() int { return len(s.labels) }

func (s *familyServer) Score(ctx context.Context, theta []*big.Float) (*big.Float, error) {
	sum := new(big.Float).SetPrec(s.prec)
	for i, y := range s.labels {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		t, err := s.l.Term(new(big.Float).SetPrec(s.prec), y, theta[i])
		if err != nil {
			return nil, err
		}
		sum.Add(sum, t)
	}
	sum.Quo(sum, new(big.Float).SetInt64(int64(len(s.labels))))
	noise := (2*s.rng.Float64() - 1) * s.tau
	return sum.Add(sum, new(big.Float).SetFloat64(noise)), nil
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
	n := len(y)
	ms := []int{1, 2, 5, 10, 22, 55, 110, 220, 550, 1100, 2201}
	if c.Quick {
		ms = []int{5, 22, 220}
	}
	type lk struct {
		kind  loss.Kind
		alpha float64
		tau   float64
	}
	fig := Figure{Name: "ea-thm5", Title: fmt.Sprintf("EA Thm 5: multi-query attack on Titanic (N = %d), exact server + uniform noise", n),
		XLabel: "M, points per query (log scale; ⌈N/M⌉ queries)", YLabel: "accuracy (fraction of labels)", LogX: true, YMin: 0, YMax: 1.05}
	var summary []string
	for _, k := range []lk{{loss.CE, 0, 1e-4}, {loss.CE, 0, 1}, {loss.SigmoidCE, 0, 1}, {loss.IS, 0, 1e-4}, {loss.SE, 0, 1e-9}, {loss.NL, 3, 1e-9}} {
		l, err := loss.NewBinary(k.kind, k.alpha, [4]float64{})
		if err != nil {
			return err
		}
		var xs, ys []float64
		maxOK := 0
		for _, m := range ms {
			if k.kind == loss.NL && m > 110 {
				continue // d through exp and log at thousands of bits: minutes
			}
			c.progress("ea-thm5", fmt.Sprintf("%v τ = %g, M = %d", l, k.tau, m))
			srv := &familyServer{l: l, labels: y, prec: 64, tau: k.tau, rng: rand.New(rand.NewPCG(1, uint64(m)))}
			opt := decode.FamilyMultiOptions{FamilyOptions: decode.FamilyOptions{Loss: l, N: n, Tau: k.tau}, M: m}
			// The server computes at the block plan's precision.
			if p, err := decode.PlanFamily(ctx, decode.FamilyOptions{Loss: l, N: min(m, n), Tau: k.tau * float64(n) / float64(min(m, n))}); err == nil {
				srv.prec = p.Prec() + 64
			}
			res, err := decode.AttackFamilyMulti(ctx, srv, opt)
			acc := 0.0
			if res != nil {
				acc = accuracy(res.Labels, y)
			}
			if err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			if err == nil && acc == 1 {
				maxOK = max(maxOK, m)
			}
			xs, ys = append(xs, float64(m)), append(ys, acc)
		}
		name := fmt.Sprintf("%v, τ = %g", l, k.tau)
		fig.Series = append(fig.Series, Series{Name: name, X: xs, Y: ys})
		row := Row{What: "largest M with 100% (exact server): " + name, Paper: "—", Ours: fmt.Sprint(maxOK), Status: Match, Note: "every M tried up to it recovers all labels, verified"}
		if k.kind == loss.CE && k.tau == 1e-4 {
			row.Paper = "100% with M ≥ 220 (App J)"
		}
		if k.kind == loss.CE && k.tau == 1 {
			row.Paper = "100% with M ≥ 550 (App J)"
		}
		r.Rows = append(r.Rows, row)
		summary = append(summary, fmt.Sprintf("%s: M ≤ %d", name, maxOK))
	}
	if err := fig.save(c.Out, r); err != nil {
		return err
	}
	r.Status = Differs
	r.Why = "App J's thresholds (M ≥ 220 at τ = 1e−4, M ≥ 550 at τ = 1) are not what an exact server shows: 100% at every M up to a loss-dependent limit (" + strings.Join(summary, "; ") + "), failing above it; App J's float64 server is not simulated yet"
	r.Notes = append(r.Notes,
		"Each query predicts θ_i = x*(W·2^j) on its M points (W = 2Nτ(1+1/8)) and the neutral ½ (logit 0) elsewhere; the block's share N·ℓ − (N−M)·ℓ(½) is decoded by the single-query attack at noise Nτ/M (decode.AttackFamilyMulti).",
		"App J's sentence \"100% accuracy using M ≥ 220\" reads backwards for M = points per query (fewer points per query is easier); under an exact server there is no threshold at all. A float64 server (θ rounded to binary64, terms summed in binary64) is what would produce one; that simulation is not done yet.")
	return nil
}
