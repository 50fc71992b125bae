package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDemoJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"demo", "-json", "-n", "300", "-kn", "40", "-k", "6", "-seed", "7"}, &out, &errb)
	require.Equal(t, 0, code, "stderr: %s", errb.String())
	assert.Empty(t, errb.String(), "no progress when stderr is not a terminal")
	var rows []map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &rows))
	require.Len(t, rows, 2)
	for _, r := range rows {
		for _, f := range []string{"n", "k", "queries", "bits", "accuracy", "seconds"} {
			assert.Contains(t, r, f)
		}
		assert.Equal(t, 1.0, r["accuracy"])
		assert.Equal(t, 1.0, r["queries"])
		assert.Equal(t, true, r["verified"])
	}
	assert.Equal(t, 300.0, rows[0]["n"])
	assert.Equal(t, 6.0, rows[1]["k"])
}

func TestDemoTable(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"demo", "-n", "100", "-kn", "0"}, &out, &errb)
	require.Equal(t, 0, code, "stderr: %s", errb.String())
	// The table sits between the sentences, after a blank line, and a
	// blank line ends it.
	_, table, ok := strings.Cut(out.String(), "\n\n")
	require.True(t, ok, "no blank line before the table:\n%s", out.String())
	table, rest, _ := strings.Cut(table, "\n\n")
	lines := strings.Split(strings.TrimSpace(table), "\n")
	require.Len(t, lines, 2)
	assert.Contains(t, lines[0], "accuracy")
	f := strings.Fields(lines[1])
	assert.Equal(t, []string{"100", "2", "1", "1.0000", "true"}, []string{f[0], f[1], f[2], f[4], f[5]})
	// The story's figures are the table's: all 100 labels, from one score
	// of the row's bits, and three commands to try next.
	assert.Contains(t, rest, "All 100 labels came from one score of "+f[3]+" bits")
	assert.Equal(t, 3, strings.Count(rest, "\n  labelinf "), "commands to try next")
}

func TestCommas(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 413330: "413,330", 1234567: "1,234,567", -1350: "-1,350"} {
		assert.Equal(t, want, commas(n))
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"nope"}, {"demo", "-n", "0"}, {"demo", "-k", "1"}, {"demo", "-n", "x"}, {"demo", "extra"}, {"demo", "-kn", "-3"}} {
		var out, errb bytes.Buffer
		assert.Equal(t, 2, run(args, &out, &errb), "run(%q)", args)
		assert.NotEmpty(t, errb.String(), "run(%q) explains", args)
	}
}
