package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/datasets"
	"github.com/labelinf/labelinf/passive"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBLIAJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"blia", "-data", "wdbc", "-model", "mlp", "-epochs", "3",
		"-epsilon", "inf,1", "-seeds", "2", "-json"}, &out, &errb)
	require.Equal(t, 0, code, errb.String())
	var rep passive.Report
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	assert.Equal(t, "wdbc", rep.Dataset)
	assert.Equal(t, "mlp", rep.Model)
	require.Len(t, rep.Epsilons, 2)
	assert.Equal(t, 1.0, rep.Epsilons[0].Keep)
	assert.InDelta(t, 0.7311, rep.Epsilons[1].Keep, 1e-4)
	require.Len(t, rep.Epsilons[0].Runs, 2)
	assert.Equal(t, 9, rep.Epsilons[0].Runs[0].Canaries)
	assert.Equal(t, 18, rep.Epsilons[0].Pooled[0].N)
	assert.Contains(t, out.String(), `"epsilon": "inf"`)
}

func TestBLIATable(t *testing.T) {
	// A generic CSV file: the titanic table, all categorical, with a header.
	b, err := datasets.ReadFile("titanic.csv")
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "titanic.csv")
	require.NoError(t, os.WriteFile(file, b, 0o644))
	var out, errb bytes.Buffer
	code := run([]string{"blia", "-data", file, "-epsilon", "inf", "-seeds", "1", "-canaries", "0.05"}, &out, &errb)
	require.Equal(t, 0, code, errb.String())
	s := out.String()
	for _, want := range []string{"BLIA on titanic.csv: 1760 training rows, 88 canaries, 8 features", "train acc %", "threshold", "delta-margin(α=1,β=1)", "p(null)"} {
		assert.Contains(t, s, want)
	}
	assert.NotContains(t, s, "BLIA Table 2", "the CENSUS reference is printed for adult only")
}

// TestBLIAAnyDirectory runs a built-in data set from a directory with no
// data in or near it: the binary carries the files (package datasets).
func TestBLIAAnyDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	var out, errb bytes.Buffer
	code := run([]string{"blia", "-data", "titanic", "-epsilon", "inf", "-seeds", "1", "-canaries", "0.05"}, &out, &errb)
	require.Equal(t, 0, code, errb.String())
	assert.Contains(t, out.String(), "BLIA on titanic: 1760 training rows, 88 canaries, 8 features")
}

func TestBLIAUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("1,2,0\n3,x\n"), 0o644))
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-epsilon", "-1"}, 2, "-epsilon"},
		{[]string{"-epsilon", "inf,x"}, 2, "-epsilon"},
		{[]string{"-seeds", "0"}, 2, "-seeds"},
		{[]string{"-model", "svm"}, 2, "-model"},
		{[]string{"-hidden", "64,a"}, 2, "-hidden"},
		{[]string{"-canaries", "1.5"}, 2, "-canaries"},
		{[]string{"-beta", "0"}, 2, "-beta"},
		{[]string{"extra"}, 2, "unexpected argument"},
		{[]string{"-data", filepath.Join(dir, "missing.csv")}, 1, "not found"},
		{[]string{"-data", bad}, 1, "bad.csv:2: 2 fields"},
		{[]string{"-data", "adult", "-datadir", dir}, 1, "adult_train.csv not found in " + dir},
		{[]string{"-data", "census"}, 1, "built-in names: adult, wdbc, titanic, banknote, haberman"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"blia"}, tt.args...), &out, &errb)
		assert.Equal(t, tt.code, code, "%v", tt.args)
		assert.Contains(t, errb.String(), tt.want, "%v", tt.args)
		assert.Empty(t, strings.TrimSpace(out.String()), "%v", tt.args)
	}
}
