package mutnet

import (
	"math/big"

	"fmt"
	"github.com/labelinf/labelinf/apa"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/onnx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readCSV reads a numeric CSV without header.
func readCSV(t *testing.T, path string) [][]float64 {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var rows [][]float64
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r []float64
		for _, f := range strings.Split(line, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			require.NoError(t, err)
			r = append(r, v)
		}
		rows = append(rows, r)
	}
	return rows
}

func readModel(t *testing.T, path string) *onnx.Model {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	m, err := onnx.Unmarshal(b)
	require.NoError(t, err)
	return m
}

// roundTrip marshals and reads back a model, as inspect sees a file.
func roundTrip(t *testing.T, m *onnx.Model) *onnx.Model {
	b, err := m.Marshal()
	require.NoError(t, err)
	got, err := onnx.Unmarshal(b)
	require.NoError(t, err)
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
				require.NoError(t, err)
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
						require.NoError(t, err)
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
			require.NoError(t, err, name)
			assert.True(t, rep.Flagged, "%s (features %v) not flagged", name, withFeats)
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
				assert.True(t, rules[r], "%s (features %v): rule %s not raised; findings %v", name, withFeats, r, rep.Findings)
			}
			if form == Split || form == Hash {
				assert.Zero(t, rep.RowsFound, "%s: rows hidden but found verbatim", name)
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
	require.NoError(t, err)
	require.Len(t, paths, 8)
	for _, p := range paths {
		rep, err := Inspect(readModel(t, p), feats)
		require.NoError(t, err, p)
		assert.False(t, rep.Flagged, "%s flagged: %v", p, rep.Findings)
		assert.Positive(t, rep.Params, p)
	}
}

func expBig(x *big.Float) *big.Float {
	z, err := apa.Exp(new(big.Float).SetPrec(x.Prec()), x)
	if err != nil {
		panic(err)
	}
	return z
}
