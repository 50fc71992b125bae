package scorer

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkEval25000 scores one N = 25,000 binary submission, as a
// served competition does, with each preset and with the same model
// taking Go's math.Log (log=faithful) or numpy's pairwise sum, the
// baselines of the library models' cost.
func BenchmarkEval25000(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 25000
	labels := make([]int, n)
	p := &Pred{K: 2, P: make([]float64, n)}
	for i := range labels {
		labels[i], p.P[i] = r.IntN(2), r.Float64()
	}
	for _, name := range []string{Float64Sklearn, Float64Sklearn + ",log=faithful", TorchBCE, TorchBCE + ",log=faithful", TorchBCE + ",log=faithful,sum=pairwise"} {
		m, err := ParseModel(name)
		if err != nil {
			b.Fatal(err)
		}
		var s Scratch
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := m.EvalScratch(&s, labels, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
