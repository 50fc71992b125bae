package scorer

// The library components against the libraries themselves: PyTorch's
// cascade sum and binary_cross_entropy, and scikit-learn's log_loss, run
// by Debian's /usr/bin/python3 on random inputs with the edge cases of
// each (sizes around the vector, row and level boundaries; tiny,
// subnormal, near-1, exactly 0 and 1 predictions; values at the clipping
// constants). The models must agree bit for bit. Under CI=true a missing
// python3-torch or python3-sklearn is a failure; elsewhere the test skips
// saying what to install.

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/internal/testrand"
)

const python = "/usr/bin/python3"

func needModule(t *testing.T, module, pkg string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: importing %s takes seconds; run without -short", module)
	}
	err := exec.Command(python, "-c", "import "+module).Run()
	if err == nil {
		return
	}
	msg := fmt.Sprintf("%s cannot import %s (%v): apt-get install -y %s", python, module, err, pkg)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (CI=true makes that a failure)")
	}
	t.Skip(msg)
}

// runPython runs script on in (as JSON in a file, argv[1]) with extra
// environment variables and decodes its JSON output into out.
func runPython(t *testing.T, script string, in, out any, env ...string) {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", script, path)
	cmd.Env = append(os.Environ(), env...)
	res, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("python: %v: %s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	if err := json.Unmarshal(res, out); err != nil {
		t.Fatalf("python output: %v", err)
	}
}

// edgeProb returns a probability drawn to hit the edge cases.
func edgeProb(r *rand.Rand) float64 {
	switch r.IntN(12) {
	case 0:
		return float64(r.IntN(2)) // exactly 0 or 1
	case 1:
		return math.Ldexp(r.Float64(), -r.IntN(1075)) // down to float64 subnormals
	case 2:
		return math.Ldexp(r.Float64(), -r.IntN(150)) // float32's subnormal range
	case 3:
		return 1 - math.Ldexp(r.Float64(), -r.IntN(60)) // near 1
	case 4: // at and next to the clipping constants
		return []float64{0x1p-52, 1 - 0x1p-52, math.Nextafter(0x1p-52, 0), math.Nextafter(1-0x1p-52, 1), 1e-7, 1 - 1e-7, 1e-15}[r.IntN(7)]
	case 5: // near glibc log's near-1 path ends (1 − 2^−4, 1 + 0x1.09p−4 is above 1)
		return 1 - 0x1p-4 + (r.Float64()-0.5)*0x1p-20
	}
	return r.Float64()
}

// cascadeSizes are array sizes at the cascade's boundaries: fewer than a
// vector, vectors, rows of 4 vectors, a level-0 block of 16 rows, plus a
// remainder of each.
func cascadeSizes(lanes int) []int {
	var out []int
	for n := 0; n <= 3*lanes; n++ {
		out = append(out, n)
	}
	for _, rows := range []int{15, 16, 17, 255, 256, 257, 300, 1000} {
		out = append(out, rows*4*lanes, rows*4*lanes+3*lanes+lanes-1)
	}
	return append(out, 20000, 25000)
}

const pySum = `
import json, sys
import torch
d = json.load(open(sys.argv[1]))
out = []
for a, f32 in zip(d["arrays"], d["f32"]):
    t = torch.tensor(a, dtype=torch.float64)
    if f32:
        t = t.float()
    out.append(repr(float(t.sum().item())))
json.dump(out, sys.stdout)
`

// TestTorchCascadeReal checks fpa.CascadeSum (natively and in fpa's
// emulated binary32 and binary64) against torch.sum, with PyTorch's AVX2
// kernels (8 float32 or 4 float64 lanes), its default ones (the same
// widths) and its AVX-512 ones (16 and 8).
func TestTorchCascadeReal(t *testing.T) {
	needModule(t, "torch", "python3-torch")
	r := testrand.New(t)
	for _, c := range []struct {
		capability string
		lanes      [2]int // float32, float64 lanes; 0: not checked
	}{{"avx2", [2]int{8, 4}}, {"avx512", [2]int{16, 8}}, {"default", [2]int{8, 0}}} {
		var arrays [][]float64
		var f32s []bool
		var lanes []int
		for k, l := range c.lanes {
			if l == 0 {
				continue
			}
			for _, n := range cascadeSizes(l) {
				a := make([]float64, n)
				scale := math.Ldexp(1, r.IntN(40)-20)
				for j := range a {
					a[j] = edgeProb(r) * scale
					if k == 0 {
						a[j] = float64(float32(a[j]))
					}
				}
				arrays, f32s, lanes = append(arrays, a), append(f32s, k == 0), append(lanes, l)
			}
		}
		var want []string
		runPython(t, pySum, map[string]any{"f32": f32s, "arrays": arrays}, &want, "ATEN_CPU_CAPABILITY="+c.capability)
		bad := 0
		for i, a := range arrays {
			var got float64
			format := fpa.Binary64
			if f32s[i] {
				x := make([]float32, len(a))
				for j := range a {
					x[j] = float32(a[j])
				}
				got = float64(cascade(x, lanes[i]))
				format = fpa.Binary32
			} else {
				got = cascade(a, lanes[i])
			}
			xs := make([]fpa.Float, len(a))
			for j := range a {
				xs[j] = *fpa.New(format).SetFloat64(a[j])
			}
			z, err := fpa.Sum(fpa.New(format), xs, fpa.SumOptions{Order: fpa.Cascade, Lanes: lanes[i]})
			if err != nil {
				t.Fatal(err)
			}
			emu, _ := z.Float64()
			if !sameFloat(new(big.Rat).SetFloat64(got), want[i]) || math.Float64bits(emu) != math.Float64bits(got) {
				if bad++; bad <= 5 {
					t.Errorf("%s float32=%v n=%d: native %v, emulated %v, torch.sum %s", c.capability, f32s[i], len(a), got, emu, want[i])
				}
			}
		}
		t.Logf("ATEN_CPU_CAPABILITY=%s: %d sums (float32 with %d lanes, float64 with %d), %d differ", c.capability, len(arrays), c.lanes[0], c.lanes[1], bad)
	}
}

const pyBCE = `
import json, sys
import torch
d = json.load(open(sys.argv[1]))
out = []
for p, y in zip(d["preds"], d["labels"]):
    x = torch.tensor(p, dtype=torch.float64).float()
    t = torch.tensor(y, dtype=torch.float32)
    terms = torch.nn.functional.binary_cross_entropy(x, t, reduction="none")
    out.append([repr(float(torch.nn.functional.binary_cross_entropy(x, t).item())), [repr(float(v)) for v in terms.tolist()]])
json.dump(out, sys.stdout)
`

// TestTorchBCEReal checks the torch-bce preset's terms (glibc's logf of p
// or of 1−p, clamped at −100) and its score (their mean by the cascade)
// against binary_cross_entropy on predictions with every edge case.
func TestTorchBCEReal(t *testing.T) {
	needModule(t, "torch", "python3-torch")
	r := testrand.New(t)
	m, err := ParseModel(TorchBCE)
	if err != nil {
		t.Fatal(err)
	}
	var preds [][]float64
	var labels [][]int
	for _, n := range append(cascadeSizes(8)[1:], 1000, 1000, 1000) {
		p := make([]float64, n)
		y := make([]int, n)
		for i := range p {
			p[i], y[i] = edgeProb(r), r.IntN(2)
		}
		preds, labels = append(preds, p), append(labels, y)
	}
	var want [][2]json.RawMessage
	runPython(t, pyBCE, map[string]any{"preds": preds, "labels": labels}, &want)
	badTerms, badScores := 0, 0
	for k, p := range preds {
		var score string
		var terms []string
		if err := json.Unmarshal(want[k][0], &score); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want[k][1], &terms); err != nil {
			t.Fatal(err)
		}
		got, err := m.Eval(labels[k], &Pred{K: 2, P: p})
		if err != nil {
			t.Fatal(err)
		}
		if !sameFloat(got, score) {
			if badScores++; badScores <= 5 {
				t.Errorf("n=%d: model %s, binary_cross_entropy %s", len(p), got.FloatString(12), score)
			}
		}
		_, log32, _ := m.Loss.LogLib.funcs()
		_, ts, err := evalNative(m, labels[k], &Pred{K: 2, P: p}, nil, log32)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range ts {
			if !sameFloat(new(big.Rat).SetFloat64(float64(v)), terms[i]) {
				if badTerms++; badTerms <= 5 {
					t.Errorf("p=%v label %d: term %v, torch %s", p[i], labels[k][i], v, terms[i])
				}
			}
		}
	}
	t.Logf("%d scores (%d differ), their terms (%d differ)", len(preds), badScores, badTerms)
}

const pySklearn = `
import json, sys
import numpy as np
from sklearn.metrics import log_loss
d = json.load(open(sys.argv[1]))
out = []
for p, y in zip(d["preds"], d["labels"]):
    a = np.array(p, dtype=np.float64)
    out.append([repr(float(log_loss(y, a, labels=[0, 1]))), repr(float(log_loss(y, a, labels=[0, 1], normalize=False)))])
json.dump(out, sys.stdout)
`

// TestSklearnReal checks float64-sklearn (mean) and float64-sklearn with
// reduce=sum against log_loss(normalize=True and False) on predictions
// with every edge case, at sizes around numpy's pairwise blocks (8, 128)
// and buffers (8,192).
func TestSklearnReal(t *testing.T) {
	needModule(t, "sklearn", "python3-sklearn")
	r := testrand.New(t)
	mean, err := ParseModel(Float64Sklearn)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := ParseModel(Float64Sklearn + ",reduce=sum")
	if err != nil {
		t.Fatal(err)
	}
	var preds [][]float64
	var labels [][]int
	for _, n := range []int{1, 2, 7, 8, 9, 127, 128, 129, 255, 1000, 8191, 8192, 8193, 20000, 300, 300, 300, 300} {
		p := make([]float64, n)
		y := make([]int, n)
		for i := range p {
			p[i], y[i] = edgeProb(r), r.IntN(2)
		}
		y[0], y[n-1] = 0, 1 // both classes present
		preds, labels = append(preds, p), append(labels, y)
	}
	var want [][2]string
	runPython(t, pySklearn, map[string]any{"preds": preds, "labels": labels}, &want)
	bad := 0
	for k, p := range preds {
		for j, m := range []*Model{mean, sum} {
			got, err := m.Eval(labels[k], &Pred{K: 2, P: p})
			if err != nil {
				t.Fatal(err)
			}
			if !sameFloat(got, want[k][j]) {
				if bad++; bad <= 5 {
					t.Errorf("n=%d %s: model %s, log_loss %s", len(p), m.Name, got.FloatString(17), want[k][j])
				}
			}
		}
	}
	t.Logf("%d log_loss scores, mean and sum: %d differ", 2*len(preds), bad)
}

// sameFloat reports whether r is exactly the float64 Python printed as s.
func sameFloat(r *big.Rat, s string) bool {
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil {
		return false
	}
	return r.Cmp(new(big.Rat).SetFloat64(v)) == 0
}
