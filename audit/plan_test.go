package audit

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlanRoundTrip: a plan marshalled and decoded, its cells run in a
// shuffled order and assembled, gives Run's JSON byte for byte (the
// small198 config: synthetic labels, the default grid, synthetic honest
// teams); a corrupted plan is an error, never a panic. Under -short the
// grid is one cell of each kind (the configured one, rounding, noise, a
// per-team Ladder, a split and a subset) instead of all 16.
func TestPlanRoundTrip(t *testing.T) {
	ctx := context.Background()
	cfg, err := LoadConfig("testdata/small198.yaml")
	require.NoError(t, err)
	cfg.Measure = 300
	if testing.Short() {
		for _, c := range DefaultGrid(cfg.Rows, cfg.PublicFraction) {
			switch c.Name {
			case "round 2", "gauss 0.07", "ladder free/team", "split 0.3", "subset 99":
				cfg.Grid = append(cfg.Grid, c)
			}
		}
		require.Len(t, cfg.Grid, 5)
	}
	rep, err := Run(ctx, cfg, Options{Workers: 2})
	require.NoError(t, err)
	var want bytes.Buffer
	require.NoError(t, rep.WriteJSON(&want))

	p, err := NewPlan(ctx, cfg, Options{})
	require.NoError(t, err)
	b, err := p.MarshalBinary()
	require.NoError(t, err)
	q, err := UnmarshalPlan(b)
	require.NoError(t, err)
	cells := make([]CellResult, len(q.Cells()))
	for _, i := range rand.New(rand.NewPCG(1, 2)).Perm(len(cells)) {
		cr, err := q.RunCell(ctx, i, nil, nil)
		require.NoError(t, err)
		cells[i] = *cr
	}
	got, err := p.Report(cells)
	require.NoError(t, err)
	var gb bytes.Buffer
	require.NoError(t, got.WriteJSON(&gb))
	assert.Equal(t, want.String(), gb.String(), "report from a decoded plan's cells differs from Run's")

	_, err = p.Report(cells[1:])
	assert.Error(t, err, "Report with a cell missing")
	for _, bad := range [][]byte{nil, b[:len(b)/2], append([]byte("x"), b...)} {
		_, err := UnmarshalPlan(bad)
		assert.Error(t, err, "UnmarshalPlan of %d corrupt bytes", len(bad))
	}
	_, err = q.RunCell(ctx, len(cells), nil, nil)
	assert.Error(t, err, "RunCell out of range")
}
