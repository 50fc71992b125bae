package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/precision"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBitsTable(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"bits", "-loss", "cross-entropy", "-n", "4"}, &out, &errb)
	require.Equal(t, 0, code, errb.String())
	s := out.String()
	for _, want := range []string{
		"cross-entropy, N = 4, K = 2, τ = 0",
		"unit: P, significand bits of the score",
		"paper     10  +2   yes", // ⌈4·log2(4 ln 4)⌉ = 10; all 16 labelings decode from P = 8
		"ours      12  +4   yes",
		"observed  8   0    yes",
		"observed over 16 labelings per candidate",
	} {
		assert.Contains(t, s, want)
	}
}

func TestBitsJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"bits", "-loss", "ce", "-n", "6", "-tau", "0.01", "-json"}, &out, &errb)
	require.Equal(t, 0, code, errb.String())
	var rep precision.BitsReport
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	assert.Equal(t, "phi", rep.Unit)
	assert.Equal(t, uint(13), rep.Paper.Bits)
	assert.Equal(t, 64, rep.Labelings)
	require.NotZero(t, rep.Observed.Bits)
	require.NotNil(t, rep.GapOurs)
	assert.Equal(t, int(rep.Ours.Bits)-int(rep.Observed.Bits), *rep.GapOurs)
	require.NotNil(t, rep.Ours.Works)
	assert.True(t, *rep.Ours.Works)
	assert.Contains(t, out.String(), `"gap_paper"`)
}

func TestBitsNotMeasured(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "40", "-tau", "0.01"},
		{"-n", "4", "-observe-max", "0"},
		{"-n", "25000"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"bits", "-loss", "cross-entropy"}, args...), &out, &errb)
		require.Equal(t, 0, code, "%v: %s", args, errb.String())
		assert.Contains(t, out.String(), "not measured", "%v", args)
		assert.Contains(t, out.String(), "emulating every labeling grows", "%v", args)
	}
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"bits", "-n", "40", "-tau", "0.01", "-json"}, &out, &errb))
	assert.Contains(t, out.String(), `"missing": "not measured: 2^40 labelings exceed 1024`)
	assert.NotContains(t, out.String(), "gap_ours")
}

func TestBitsFamilyTable(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"bits", "-loss", "itakura-saito", "-n", "4", "-tau", "0.01"}, &out, &errb)
	require.Equal(t, 0, code, errb.String())
	s := out.String()
	for _, want := range []string{"itakura-saito, N = 4, K = 2, τ = 0.01", "unit: P, significand bits of the score",
		"EA Prop 3: φ = 13, read as the significand of FPA(φ)", "single.PlanFamily", "observed over 16 labelings × 3 noise values"} {
		assert.Contains(t, s, want)
	}
	// A loss no prediction can separate at this N and τ: an answer (exit 1), not a usage error.
	out.Reset()
	errb.Reset()
	assert.Equal(t, 1, run([]string{"bits", "-loss", "squared-euclidean", "-n", "10", "-tau", "0.01"}, &out, &errb))
	assert.Contains(t, errb.String(), "not τ-separable")
}

func TestBitsUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-n", "0"}, "-n 0: need N ≥ 1"},
		{nil, "-n 0: need N ≥ 1"},
		{[]string{"-n", "4", "-loss", "hinge"}, `unsupported loss "hinge"`},
		{[]string{"-n", "4", "-loss", "itakura-saito"}, "needs τ > 0"},
		{[]string{"-n", "4", "-loss", "bregman", "-tau", "1"}, "needs a matrix or a function"},
		{[]string{"-n", "4", "-tau", "-1"}, "-tau -1: need a finite τ ≥ 0"},
		{[]string{"-n", "4", "-tau", "NaN"}, "-tau NaN"},
		{[]string{"-n", "4", "-tau", "x"}, "invalid value"},
		{[]string{"-n", "4", "-k", "1"}, "-k 1"},
		{[]string{"-n", "4", "-k", "3", "-tau", "1"}, "binary"},
		{[]string{"-n", "4", "-observe-max", "-1"}, "-observe-max"},
		{[]string{"-n", "100000000"}, "at most"},
		{[]string{"-n", "4", "extra"}, "unexpected argument"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"bits"}, tt.args...), &out, &errb)
		assert.Equal(t, 2, code, "%v", tt.args)
		assert.Contains(t, errb.String(), tt.want, "%v", tt.args)
		assert.Empty(t, strings.TrimSpace(out.String()), "%v", tt.args)
	}
}
