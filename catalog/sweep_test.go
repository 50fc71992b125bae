package catalog

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBenchLabelings: the 23 labelings, by name, and the names that are
// none.
func TestBenchLabelings(t *testing.T) {
	names := BenchLabelingNames(20)
	require.Len(t, names, 23)
	assert.Equal(t, []string{"seed1", "seed20", "all0", "allK-1", "imodK"}, []string{names[0], names[19], names[20], names[21], names[22]})
	y, err := BenchLabeling("seed7", 50, 3)
	require.NoError(t, err)
	assert.Equal(t, SeededLabels(7, 50, 3), y)
	y, err = BenchLabeling("imodK", 7, 3)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 2, 0, 1, 2, 0}, y)
	y, err = BenchLabeling("allK-1", 3, 6)
	require.NoError(t, err)
	assert.Equal(t, []int{5, 5, 5}, y)
	for _, bad := range []string{"seed0", "seed", "seed01", "seedx", "all1", ""} {
		_, err := BenchLabeling(bad, 5, 2)
		assert.Error(t, err, "%q", bad)
	}
}

// TestSweep: a small sweep's cells, runs and report; a bad
// configuration is an error.
func TestSweep(t *testing.T) {
	for _, bad := range []Sweep{
		{N: 100, K: 2, Strategy: AutoName},
		{Scorers: []string{"float64-sklearn"}, N: 0, K: 2, Strategy: AutoName},
		{Scorers: []string{"float64-sklearn"}, N: 100, K: 1, Strategy: AutoName},
		{Scorers: []string{"no-such-model"}, N: 100, K: 2, Strategy: AutoName},
		{Scorers: []string{"float64-sklearn"}, N: 100, K: 2, Strategy: "no-such-attack"},
		{Scorers: []string{"float64-sklearn"}, N: 100, K: 2, Strategy: AutoName, Seeds: -1},
	} {
		assert.Error(t, bad.Validate(), "%+v", bad)
	}
	s := &Sweep{Scorers: []string{"float64-sklearn", "torch-bce"}, N: 150, K: 2, Strategy: AutoName, Seeds: 1}
	require.NoError(t, s.Validate())
	cells := s.Cells()
	require.Len(t, cells, 8)
	assert.Equal(t, SweepCell{"torch-bce", "seed1"}, cells[4])
	runs := make([]SweepRun, len(cells))
	for i := range cells {
		r, err := s.RunCell(context.Background(), i)
		require.NoError(t, err)
		assert.True(t, r.Verified, "%v: %s", r.SweepCell, r.Error)
		assert.Equal(t, "hybrid", r.Attack)
		runs[i] = r
	}
	_, err := s.RunCell(context.Background(), len(cells))
	assert.Error(t, err)
	rep, err := s.Report(runs, false)
	require.NoError(t, err)
	require.Len(t, rep.Rows, 2)
	q := func(rs []SweepRun) (qs []int) {
		for _, r := range rs {
			qs = append(qs, r.Queries)
		}
		return qs
	}
	for j, row := range rep.Rows {
		qs := q(runs[4*j : 4*j+4])
		assert.Equal(t, 4, row.Verified)
		assert.Equal(t, slices.Max(qs), row.MaxQueries)
		assert.Equal(t, slices.Min(qs), row.MinQueries)
		assert.Nil(t, row.CPUMedian, "-cpu=false")
	}
	// A run that did not verify counts in Runs, not in the queries.
	runs[0].Verified, runs[0].Queries = false, 1
	rep, err = s.Report(runs, true)
	require.NoError(t, err)
	assert.Equal(t, 3, rep.Rows[0].Verified)
	assert.NotEqual(t, 1, rep.Rows[0].MinQueries)
	_, err = s.Report(runs[1:], true)
	assert.Error(t, err)
}
