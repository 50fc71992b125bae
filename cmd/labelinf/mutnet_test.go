package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/mutnet"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostScore64 is the host's mean log-loss of the table forms' outputs in
// float64, summed left to right (not scikit-learn's pairwise order: the
// plan's bound covers any order).
func hostScore64(t *testing.T, p *mutnet.Plan, q int, y []int) string {
	th, err := p.Theta(q)
	require.NoError(t, err)
	var s float64
	for i, v := range th {
		if y[i] == 1 {
			s -= math.Log(v)
		} else {
			s -= math.Log(1 - v)
		}
	}
	return strconv.FormatFloat(s/float64(len(th)), 'g', -1, 64)
}

// TestMutnetCommand writes a model and its plan, scores it as a float64
// host would, and decodes every label with -decode -labels; then the
// usage and failure paths.
func TestMutnetCommand(t *testing.T) {
	dir := t.TempDir()
	var xs, ys strings.Builder
	y := make([]int, 30)
	for i := range y {
		y[i] = (i*7 + 3) % 5 % 2
		fmt.Fprintf(&xs, "%d,%g,%g\n", i, float64(i)/3, float64(i*i)/7)
		fmt.Fprintln(&ys, y[i])
	}
	feats, labs := filepath.Join(dir, "x.csv"), filepath.Join(dir, "y.csv")
	require.NoError(t, os.WriteFile(feats, []byte(xs.String()), 0o644))
	require.NoError(t, os.WriteFile(labs, []byte(ys.String()), 0o644))
	model := filepath.Join(dir, "m.onnx")
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"mutnet", "-features", feats, "-out", model, "-block", "10"}, &out, &errb), errb.String())
	assert.Contains(t, out.String(), "3 model(s)")
	planPath := filepath.Join(dir, "m.plan.json")
	pb, err := os.ReadFile(planPath)
	require.NoError(t, err)
	p, err := mutnet.ReadPlan(pb)
	require.NoError(t, err)
	var scores []string
	for q := range p.Queries {
		_, err := os.Stat(filepath.Join(dir, fmt.Sprintf("m-q%d.onnx", q+1)))
		require.NoError(t, err)
		scores = append(scores, hostScore64(t, p, q, y))
	}
	out.Reset()
	errb.Reset()
	require.Equal(t, 0, run([]string{"mutnet", "-decode", "-plan", planPath, "-score", strings.Join(scores, ","), "-labels", labs}, &out, &errb), errb.String())
	assert.Contains(t, out.String(), "0 of 30 labels differ")

	// inspect flags every model written, exit 3.
	out.Reset()
	assert.Equal(t, 3, run([]string{"inspect", "-features", feats, filepath.Join(dir, "m-q1.onnx")}, &out, &errb))
	assert.Contains(t, out.String(), "FLAGGED")

	// A score off by far more than the bound: no labeling explains it.
	bad := append([]string(nil), scores...)
	v, err := strconv.ParseFloat(bad[1], 64)
	require.NoError(t, err)
	bad[1] = strconv.FormatFloat(v+1e-9, 'g', -1, 64)
	errb.Reset()
	assert.Equal(t, 1, run([]string{"mutnet", "-decode", "-plan", planPath, "-score", strings.Join(bad, ",")}, &out, &errb))
	assert.Contains(t, errb.String(), "no labeling explains")
	// Wrong labels to compare with: exit 1.
	wrong := filepath.Join(dir, "w.csv")
	require.NoError(t, os.WriteFile(wrong, []byte(strings.Repeat("1\n", 30)), 0o644))
	assert.Equal(t, 1, run([]string{"mutnet", "-decode", "-plan", planPath, "-score", strings.Join(scores, ","), "-labels", wrong}, &out, &errb))

	for _, args := range [][]string{
		{"mutnet", "-features", feats},                                  // no -out
		{"mutnet", "-form", "magic", "-features", feats, "-out", model}, // unknown form
		{"mutnet", "-form", "rows", "-n", "5", "-out", model},           // rows need features
		{"mutnet", "-decode", "-plan", planPath},                        // no score
		{"mutnet", "-decode", "-plan", planPath, "-score", "1", "-n", "3"},
		{"mutnet", "-features", feats, "-out", model, "-score", "1"},
		{"mutnet", "-form", "theorem9", "-n", "5", "-dim", "3", "-base", model, "-out", model},
		{"mutnet", "-features", feats, "-out", model, "-tau", "-1"},
		{"inspect"},
	} {
		errb.Reset()
		assert.Equal(t, 2, run(args, &out, &errb), "%v: %s", args, errb.String())
	}
	// Too many labels for one score: a failure naming the largest block.
	errb.Reset()
	assert.Equal(t, 1, run([]string{"mutnet", "-n", "50", "-dim", "3", "-form", "position", "-out", model}, &out, &errb))
	assert.Contains(t, errb.String(), "at most 45")
	// A malformed plan file.
	require.NoError(t, os.WriteFile(planPath, []byte(`{"format":"labelinf-mutnet-plan/1","n":2}`), 0o644))
	assert.Equal(t, 1, run([]string{"mutnet", "-decode", "-plan", planPath, "-score", "0.5"}, &out, &errb))
}
