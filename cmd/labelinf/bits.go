package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/precision"
)

// runBits is labelinf bits: the bits the papers' bound asks for, the bits
// our planner asks for, and the lowest bits observed to work by emulating
// every labeling (precision.Bits).
func runBits(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet("bits", stderr)
	lossName := fs.String("loss", "cross-entropy", "loss `name`: cross-entropy (ce, log-loss), sigmoid-ce, itakura-saito, squared-euclidean, norm-like[:α]")
	n := fs.Int("n", 0, "labels `N` (≥ 1; required)")
	k := fs.Int("k", 2, "classes `K` (≥ 2; 2 when -tau > 0)")
	tau := fs.Float64("tau", 0, "noise bound `T` (≥ 0; 0 is the exact single-query attack)")
	observe := fs.Int("observe-max", precision.MaxObserveLabelings, "emulate at most this many `labelings` per candidate (0: never)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	usage := func(format string, a ...any) int {
		return usageError(stderr, "bits", fmt.Errorf(format, a...))
	}
	switch {
	case *n < 1:
		return usage("-n %d: need N ≥ 1 labels", *n)
	case *k < 2:
		return usage("-k %d: need K ≥ 2 classes", *k)
	case !(*tau >= 0) || math.IsInf(*tau, 0):
		return usage("-tau %v: need a finite τ ≥ 0", *tau)
	case *observe < 0:
		return usage("-observe-max %d: need ≥ 0", *observe)
	case *tau == 0 && *n > decode.MaxN:
		return usage("-n %d: the exact attack plans at most %d labels", *n, decode.MaxN)
	case *tau > 0 && *k != 2:
		return usage("-k %d with -tau %v: the robust attack here is binary; use -k 2", *k, *tau)
	}
	opt := precision.BitsOptions{Loss: *lossName, N: *n, K: *k, Tau: *tau, ObserveMax: *observe}
	if *observe == 0 {
		opt.ObserveMax = 1 // no labeling space is that small: never observe
	}
	rep, err := precision.Bits(e.ctx, opt)
	if err != nil {
		if errors.Is(err, precision.ErrUnsupportedLoss) || errors.Is(err, precision.ErrBitsRequest) {
			return usage("%v", err)
		}
		return failure(stderr, "bits", err)
	}
	if *asJSON {
		writeJSON(stdout, rep)
	} else {
		printBits(stdout, rep)
	}
	return 0
}

// printBits prints the report as a small table.
func printBits(w io.Writer, rep *precision.BitsReport) {
	fmt.Fprintf(w, "%s, N = %d, K = %d, τ = %g\n", rep.Loss, rep.N, rep.K, rep.Tau)
	fmt.Fprintf(w, "setting: %s\n", rep.Setting)
	unit := "P"
	if rep.Unit == "phi" {
		unit = "φ"
		fmt.Fprintf(w, "unit: φ, the papers' FPA(φ): 1 sign bit, ⌊(φ−1)/2⌋ exponent bits, the rest fraction\n\n")
	} else {
		fmt.Fprintf(w, "unit: P, significand bits of the score\n\n")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\t%s\tgap\tevery labeling decodes\tsource\n", unit)
	row := func(name string, v precision.BitsValue, gap *int) {
		bits, g, works := "—", "—", "—"
		if v.Bits > 0 {
			bits = fmt.Sprint(v.Bits)
		}
		if gap != nil {
			g = fmt.Sprintf("%+d", *gap)
			if *gap == 0 {
				g = "0"
			}
		}
		if v.Works != nil {
			works = "no"
			if *v.Works {
				works = "yes"
			}
		}
		src := v.Source
		if v.Missing != "" {
			src = v.Missing
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", name, bits, g, works, src)
	}
	row("paper", rep.Paper, rep.GapPaper)
	row("ours", rep.Ours, rep.GapOurs)
	obs := rep.Observed
	if obs.Bits > 0 {
		yes := true
		obs.Works = &yes
		zero := 0
		row("observed", obs, &zero)
	} else {
		row("observed", obs, nil)
	}
	tw.Flush()
	if rep.Observed.Bits > 0 {
		per := fmt.Sprintf("%d labelings", rep.Labelings)
		if rep.Tau > 0 {
			per += " × 3 noise values (−τ', 0, +τ')"
		}
		fmt.Fprintf(w, "\nobserved over %s per candidate; gap = bits − observed (negative: too few bits, some labeling fails)\n", per)
	}
}
