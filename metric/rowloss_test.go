package metric

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// rowPreds returns n rows of k probabilities (binary: one of class 1)
// with exact ties (0.5, equal maxima) and ends of the range among them.
func rowPreds(r *rand.Rand, n, k int) []float64 {
	w := k
	if k == 2 {
		w = 1
	}
	p := make([]float64, n*w)
	for i := range n {
		row := p[i*w : (i+1)*w]
		switch r.IntN(5) {
		case 0:
			for j := range row {
				row[j] = 1 / float64(w)
			}
			if w == 1 {
				row[0] = 0.5
			}
		case 1:
			row[r.IntN(w)] = 1
		default:
			s := 0.0
			for j := range row {
				row[j] = r.Float64()
				s += row[j]
			}
			if w > 1 {
				for j := range row {
					row[j] /= s
				}
			}
		}
	}
	return p
}

// TestRowLossesMean: the per-row losses the parameter-free Ladder reads
// average to the served score, exactly for accuracy (1 − accuracy) and,
// for the Brier score, to within the float64 sum's rounding.
func TestRowLossesMean(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 1))
	for _, k := range []int{2, 3, 5} {
		labels := randLabels(r, 400, k)
		p := rowPreds(r, 400, k)
		dst := make([]float64, len(labels))
		accuracy{}.RowLosses(dst, labels, p, k)
		sum := new(big.Rat)
		for _, v := range dst {
			if !(v == 0 || v == 1) {
				t.Fatal("v == 0 || v == 1 is false")
			}
			sum.Add(sum, new(big.Rat).SetFloat64(v))
		}
		acc := accuracy{}.Score(labels, p, k).R
		if got, want := sum.Quo(sum, big.NewRat(int64(len(labels)), 1)).String(), new(big.Rat).Sub(big.NewRat(1, 1), acc).String(); got != want {
			t.Errorf("k=%d: got %v, want %v", k, got, want)
		}
		brier{}.RowLosses(dst, labels, p, k)
		m := 0.0
		for _, v := range dst {
			m += v
		}
		b, _ := brier{}.Score(labels, p, k).R.Float64()
		if d := math.Abs(b - (m / float64(len(labels)))); !(d <= 1e-12) {
			t.Errorf("k=%d: got %v, want %v within %v", k, m/float64(len(labels)), b, 1e-12)
		}
	}
}

// TestRowLossesMatchSklearn: accuracy's per-row 0/1 loss is scikit-learn's
// zero_one_loss of the row (normalize=False, the predicted class numpy's
// argmax of [1 − p, p] or of the row), and the Brier score's per-row loss
// is brier_score_loss of the row (binary) or the row's term of the
// multiclass Brier score, np.sum((onehot − P)², axis=1), bit for bit.
func TestRowLossesMatchSklearn(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: importing scikit-learn takes 10-40 s here; run without -short")
	}
	havePython(t, "sklearn")
	const py = `
import json, sys
import numpy as np
from sklearn.metrics import zero_one_loss, brier_score_loss
d = json.load(open(sys.argv[1]))
out = []
for c in d:
    k, y = c["k"], np.array(c["labels"])
    p = np.array(c["pred"], dtype=np.float64)
    if k == 2:
        P = np.stack([1 - p, p], axis=1)
        pred = np.argmax(P, axis=1)
        z = [float(zero_one_loss([y[i]], [pred[i]], normalize=False)) for i in range(len(y))]
        b = [float(brier_score_loss([y[i]], [p[i]], pos_label=1)) for i in range(len(y))]
    else:
        P = p.reshape(len(y), k)
        pred = np.argmax(P, axis=1)
        z = [float(zero_one_loss([y[i]], [pred[i]], normalize=False)) for i in range(len(y))]
        b = [float(v) for v in np.sum((np.eye(k)[y] - P) ** 2, axis=1)]
    out.append({"zero_one": [repr(v) for v in z], "brier": [repr(v) for v in b]})
json.dump(out, sys.stdout)
`
	r := rand.New(rand.NewPCG(31, 2))
	type tcase struct {
		K      int       `json:"k"`
		Labels []int     `json:"labels"`
		Pred   []float64 `json:"pred"`
	}
	var cases []tcase
	for _, k := range []int{2, 3, 12} {
		cases = append(cases, tcase{k, randLabels(r, 300, k), rowPreds(r, 300, k)})
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	b, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "rows.py")
	if err := os.WriteFile(script, []byte(py), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("/usr/bin/python3", script, in).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []struct {
		ZeroOne []string `json:"zero_one"`
		Brier   []string `json:"brier"`
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	for c, tc := range cases {
		dst := make([]float64, len(tc.Labels))
		for name, f := range map[string]func(){
			"zero_one": func() { accuracy{}.RowLosses(dst, tc.Labels, tc.Pred, tc.K) },
			"brier":    func() { brier{}.RowLosses(dst, tc.Labels, tc.Pred, tc.K) },
		} {
			f()
			w := want[c].ZeroOne
			if name == "brier" {
				w = want[c].Brier
			}
			bad := 0
			for i, s := range w {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatal(err)
				}
				if math.Float64bits(v) != math.Float64bits(dst[i]) {
					bad++
					if bad <= 3 {
						t.Errorf("k=%d %s row %d: scikit-learn %s, serve %v", tc.K, name, i, s, dst[i])
					}
				}
			}
			if bad != 0 {
				t.Errorf("k=%d %s: %d rows differ from scikit-learn", tc.K, name, bad)
			}
		}
	}
}

// havePython fails the test under CI=true when /usr/bin/python3 or its
// module is missing, and skips it elsewhere saying what to install.
func havePython(t *testing.T, module string) {
	t.Helper()
	install := "apt-get install -y python3"
	err := exec.Command("/usr/bin/python3", "-c", "import "+module).Run()
	if err == nil {
		return
	}
	if _, serr := os.Stat("/usr/bin/python3"); serr == nil {
		install = "apt-get install -y python3-" + module
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("Python module %s is missing (CI=true makes that a failure): %s", module, install)
	}
	t.Skipf("Python module %s is missing: %s", module, install)
}
