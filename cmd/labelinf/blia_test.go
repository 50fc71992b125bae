package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/passive"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sharedData is the shared datasets folder: $LABELINF_DATA (as for
// labelinf blia), else beside the repository, seen from this package.
var sharedData = cmp.Or(os.Getenv("LABELINF_DATA"), "../../../shared/datasets")

func TestBLIAJSON(t *testing.T) {
	if _, err := os.Stat(sharedData); err != nil {
		t.Skip("shared datasets not found")
	}
	var out, errb bytes.Buffer
	code := run([]string{"blia", "-datadir", sharedData, "-data", "wdbc", "-model", "mlp", "-epochs", "3",
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
	if _, err := os.Stat(sharedData); err != nil {
		t.Skip("shared datasets not found")
	}
	// A generic CSV file: the titanic table, all categorical, with a header.
	var out, errb bytes.Buffer
	code := run([]string{"blia", "-data", filepath.Join(sharedData, "titanic.csv"), "-epsilon", "inf", "-seeds", "1", "-canaries", "0.05"}, &out, &errb)
	require.Equal(t, 0, code, errb.String())
	s := out.String()
	for _, want := range []string{"BLIA on titanic.csv: 1760 training rows, 88 canaries, 8 features", "train acc %", "threshold", "delta-margin(α=1,β=1)", "p(null)"} {
		assert.Contains(t, s, want)
	}
	assert.NotContains(t, s, "BLIA Table 2", "the CENSUS reference is printed for adult only")
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
		{[]string{"-data", "adult", "-datadir", dir}, 1, "adult_train.csv not found"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"blia"}, tt.args...), &out, &errb)
		assert.Equal(t, tt.code, code, "%v", tt.args)
		assert.Contains(t, errb.String(), tt.want, "%v", tt.args)
		assert.Empty(t, strings.TrimSpace(out.String()), "%v", tt.args)
	}
}
