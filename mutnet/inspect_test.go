package mutnet

import (
	"math/big"

	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/apa"

	"github.com/labelinf/labelinf/onnx"
)

// readCSV reads a numeric CSV without header.
func readCSV(t *testing.T, path string) [][]float64 {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]float64
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r []float64
		for _, f := range strings.Split(line, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				t.Fatal(err)
			}
			r = append(r, v)
		}
		rows = append(rows, r)
	}
	return rows
}

func readModel(t *testing.T, path string) *onnx.Model {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// roundTrip marshals and reads back a model, as inspect sees a file.
func roundTrip(t *testing.T, m *onnx.Model) *onnx.Model {
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got, err := onnx.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// attackModels writes every model labelinf mutnet writes for the benign
// set's first n rows: every form, both types, one query and a block, with
// and without a base model (a trained MLP).
func attackModels(t *testing.T, n int) (map[string]*onnx.Model, [][]float64) {
	feats := readCSV(t, "testdata/benign/features.csv")[:n]
	out := map[string]*onnx.Model{}
	for _, dt := range []onnx.DataType{onnx.Double, onnx.Float} {
		base := readModel(t, fmt.Sprintf("testdata/benign/mlp2-%v.onnx", dt))
		for _, f := range Forms {
			sig := f == Theorem9
			mb := MaxBlock(n, Options{DType: dt, Sigmoid: sig})
			for _, block := range []int{mb, mb / 2} {
				p, err := NewPlan(Options{N: n, DType: dt, Block: block, Sigmoid: sig})
				if err != nil {
					t.Fatal(err)
				}
				for _, withBase := range []bool{false, true} {
					if withBase && f == Theorem9 {
						continue
					}
					opt := ModelOptions{Form: f, Features: feats, Seed: 5}
					if withBase {
						opt.Base = base
					}
					for _, q := range []int{0, len(p.Queries) - 1} {
						m, err := Build(p, q, opt)
						if err != nil {
							t.Fatal(err)
						}
						// Inspect must not read the producer or the doc string.
						m.ProducerName, m.Doc = "", ""
						out[fmt.Sprintf("%v/%s/rows=%d/base=%v", dt, f, len(p.Queries[q].Rows), withBase)] = roundTrip(t, m)
					}
				}
			}
		}
	}
	return out, feats
}

// TestInspectFlagsAttacks: every model labelinf mutnet writes is flagged,
// with and without the test features, including the variants whose rows
// are hidden (split, hash) and those carrying a trained base model; and
// each is flagged by the rule its form cannot avoid.
func TestInspectFlagsAttacks(t *testing.T) {
	models, feats := attackModels(t, 40)
	must := map[Form][]string{
		Theorem9: {RuleDeadReLU, RuleSuperincreasing},
		Rows:     {RuleLookup, RuleSearch, RuleStoredRows, RuleSuperincreasing},
		Split:    {RuleLookup, RuleSearch, RuleSuperincreasing},
		Hash:     {RuleLookup, RuleSearch, RuleSuperincreasing},
		Position: {RulePosition, RuleShapeBranch, RuleSuperincreasing},
	}
	for name, m := range models {
		for _, withFeats := range []bool{false, true} {
			var fs [][]float64
			if withFeats {
				fs = feats
			}
			rep, err := Inspect(m, fs)
			if err != nil {
				t.Fatalf("%v: %v", name, err)
			}
			if !rep.Flagged {
				t.Errorf("%s (features %v) not flagged", name, withFeats)
			}
			rules := map[string]bool{}
			for _, f := range rep.Findings {
				rules[f.Rule] = true
			}
			form := Form(strings.Split(name, "/")[1])
			for _, r := range must[form] {
				var rows int
				fmt.Sscanf(strings.Split(name, "/")[2], "rows=%d", &rows)
				if (r == RuleStoredRows && !withFeats) || (r == RuleSuperincreasing && rows < superMin) {
					continue
				}
				if !rules[r] {
					t.Errorf("%s (features %v): rule %s not raised; findings %v", name, withFeats, r, rep.Findings)
				}
			}
			if form == Split || form == Hash {
				if rep.RowsFound != 0 {
					t.Errorf("%s: rows hidden but %d found verbatim", name, rep.RowsFound)
				}
			}
		}
	}
}

// TestInspectBenign: classifiers built by onnx.helper from scikit-learn's
// trained logistic regression and MLP weights (testdata/benign.py) are not
// flagged.
func TestInspectBenign(t *testing.T) {
	feats := readCSV(t, "testdata/benign/features.csv")
	paths, err := filepath.Glob("testdata/benign/*.onnx")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 8 {
		t.Fatalf("len %d, want %d", len(paths), 8)
	}
	for _, p := range paths {
		rep, err := Inspect(readModel(t, p), feats)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		if rep.Flagged {
			t.Errorf("%s flagged: %v", p, rep.Findings)
		}
		if !(rep.Params > 0) {
			t.Errorf("%v: %v, want > 0", p, rep.Params)
		}
	}
}

func expBig(x *big.Float) *big.Float {
	z, err := apa.Exp(new(big.Float).SetPrec(x.Prec()), x)
	if err != nil {
		panic(err)
	}
	return z
}
