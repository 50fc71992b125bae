package fingerprint

import (
	"context"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

func TestIdentifySim(t *testing.T) {
	r := testrand.New(t)
	for _, name := range []string{
		scorer.Float64Sklearn, scorer.Leaderboard, scorer.Float32Keras, scorer.TorchBCE,
		"float64,clip=1e-15,renorm",
		"float64,clip=eps,dec=5",
		"float64,clip=eps,renorm,dec=5",
		"float32,clip=keras2",
		"float64,clip=eps,sum=naive",
		"float64,clip=eps,sum=fsum",
		"float64,floor=-100,reduce=sum",
	} {
		want, err := scorer.ParseSpec(name)
		if err != nil {
			t.Fatal(err)
		}
		sizes := []int{198, 1000}
		if testing.Short() {
			sizes = sizes[:1]
		}
		for _, n := range sizes {
			labels := make([]int, n)
			for i := range labels {
				labels[i] = r.IntN(2)
			}
			m, _ := scorer.ParseModel(name)
			sim, err := oracle.NewSim(m, labels, 2)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Identify(context.Background(), sim)
			if err != nil {
				t.Fatal(err)
			}
			if res.Model == nil {
				hs, _ := hypotheses(n, 2, big.NewRat(1, 3))
				var mask uint16
				for i := 0; i < 4; i++ {
					mask |= uint16(labels[i]) << i
				}
				for _, p := range res.Probes {
					for _, h := range hs {
						if h.spec.String() == want.String() || (name == scorer.Float64Sklearn && h.spec.String() == "binary64,clip=eps,renorm") {
							br, ok := h.brackets(n, 0, p.P, mask)
							f, _ := p.Score.Float64()
							t.Logf("probe %v: %v fits %d; true model predicts %v %v", p.P, f, p.Fits, br, ok)
						}
					}
				}
				t.Fatalf("%s N=%d: no model fits: %s", name, n, res.NoFit)
			}
			learned := 0
			for i, c := range res.Labels {
				if c >= 0 {
					learned++
					if c != labels[i] {
						t.Errorf("%s N=%d: the probes learned label %d of row %d, want %d", name, n, c, i, labels[i])
					}
				}
			}
			if len(res.Labels) != n {
				t.Errorf("%s N=%d: %d labels", name, n, len(res.Labels))
			}
			got := res.Spec
			got.Decimals = -1
			for _, c := range res.Components {
				if c.Value != "undetermined" && c.Value != want0(want, c.Name, res) {
					t.Errorf("%s N=%d: %s = %s, want %s (%s)", name, n, c.Name, c.Value, want0(want, c.Name, res), c.Evidence)
				}
			}
			var und []string
			for _, c := range res.Components {
				if c.Value == "undetermined" {
					und = append(und, c.Name+"∈"+strings.Join(c.Fits, "|"))
				}
			}
			t.Logf("%-34s N=%-5d %d probes → %s  undetermined %v, %d labels learned", name, n, res.Queries(), res.Model.Name, und, learned)
			if res.Queries() > MaxProbes {
				t.Errorf("%d probes", res.Queries())
			}
		}
	}
}

// want0 returns the true value of component c of sp.
func want0(sp scorer.Spec, c string, _ *Result) string {
	h := &hyp0{spec: sp}
	v := h.value(c, sp.Decimals)
	if c == "clip" && sp.Clip == "2.220446049250313e-16" {
		return "eps"
	}
	return v
}

// TestEvidence checks what Identify says about a 5-decimal leaderboard:
// every component has a value, and each value ruled out names its probe.
func TestEvidence(t *testing.T) {
	n := 198
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i * 7 % 3 % 2
	}
	m, _ := scorer.ParseModel("leaderboard")
	sim, _ := oracle.NewSim(m, labels, 2)
	res, err := Identify(context.Background(), sim)
	if err != nil || res.Model == nil {
		t.Fatalf("%v %+v", err, res)
	}
	for _, p := range res.Probes {
		t.Logf("%s %v fits %d: %s", floatsText(p.P), ratText(p.Score), p.Fits, p.Purpose)
	}
	want := map[string]string{"format": "binary64", "clip": "1e-15", "floor": "none", "reduce": "mean", "dec": "5"}
	for _, c := range res.Components {
		t.Logf("%s = %s: %s", c.Name, c.Value, c.Evidence)
		if w, ok := want[c.Name]; ok && (c.Value != w || !strings.Contains(c.Evidence, "ruled out by probe")) {
			t.Errorf("%s = %s (%s), want %s with the probes that ruled out the rest", c.Name, c.Value, c.Evidence, w)
		}
	}
	if sim.Queries() != res.Queries() || res.Queries() > 3 {
		t.Errorf("%d queries, %d probes", sim.Queries(), res.Queries())
	}
}

// TestIdentifyMulticlass identifies K-class scorers: scikit-learn's
// multiclass log_loss (1.2–1.4, ≤ 1.1, ≥ 1.5), Keras's categorical
// cross-entropy and PyTorch's NLL of log-probabilities as modelled, at
// K = 3 and 10; the labels the probes learn are right.
func TestIdentifyMulticlass(t *testing.T) {
	r := testrand.New(t)
	names := []string{
		scorer.Float64Sklearn, // sklearn 1.2–1.4: eps, rows renormalised
		"float64,clip=1e-15,renorm",
		"float64,clip=eps", // sklearn ≥ 1.5
		scorer.Leaderboard,
		scorer.Float32Keras, // Keras categorical_crossentropy
		scorer.TorchBCE,     // PyTorch nll_loss(log p): float32, log clamped at -100
		"float64,clip=eps,renorm,dec=5",
	}
	ks := []int{3, 10}
	if testing.Short() {
		names, ks = names[:5], ks[:1]
	}
	for _, name := range names {
		want, err := scorer.ParseSpec(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range ks {
			n := 300
			labels := make([]int, n)
			for i := range labels {
				labels[i] = r.IntN(k)
			}
			m, _ := scorer.ParseModel(name)
			sim, err := oracle.NewSim(m, labels, k)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Identify(context.Background(), sim)
			if err != nil {
				t.Fatal(err)
			}
			if res.Model == nil {
				t.Fatalf("%s K=%d: no model fits: %s", name, k, res.NoFit)
			}
			for _, c := range res.Components {
				if c.Value != "undetermined" && c.Value != want0(want, c.Name, res) {
					t.Errorf("%s K=%d: %s = %s, want %s (%s)", name, k, c.Name, c.Value, want0(want, c.Name, res), c.Evidence)
				}
				if c.Value == "undetermined" && !slices.Contains(c.Fits, want0(want, c.Name, res)) {
					t.Errorf("%s K=%d: %s undetermined among %v, without the true %s", name, k, c.Name, c.Fits, want0(want, c.Name, res))
				}
			}
			learned := 0
			for i, c := range res.Labels {
				if c >= 0 {
					learned++
					if c != labels[i] {
						t.Errorf("%s K=%d: row %d learned %d, want %d", name, k, i, c, labels[i])
					}
				}
			}
			if res.Queries() > MaxProbes {
				t.Errorf("%s K=%d: %d probes", name, k, res.Queries())
			}
			t.Logf("%-32s K=%-2d %d probes → %s (exact %v), %d labels learned", name, k, res.Queries(), res.Model.Name, res.Exact, learned)
		}
	}
}
