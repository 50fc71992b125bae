package defence

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSettings(t *testing.T) {
	full := `{
	  "split": {"public": 0.5, "seed": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "close": "2026-12-31T00:00:00Z"},
	  "ladder": {"kind": "fixed", "eta": "0.01", "per_team": true},
	  "noise": {"kind": "laplace", "scale": 0.001, "key": "prediction"},
	  "decimals": 3,
	  "clip": 0.001,
	  "limits": {"per_day": 5, "total": 100, "min_interval": "10m"}
	}`
	s, err := ParseSettings([]byte(full))
	require.NoError(t, err)
	assert.Equal(t, "split(0.5)+ladder(fixed,η=0.01,per-team)+noise(laplace,0.001,prediction)+round(3)+clip(0.001)+5/day+100-total+every-10m", s.String())
	c, err := s.Chain(10, []byte("0123456789abcdef0123456789abcdef"), nil)
	require.NoError(t, err)
	require.NotNil(t, c.Split())
	assert.Len(t, c.Split().Public(), 5)
	assert.True(t, c.NeedsPred())
	r, err := c.Release(Submission{Pred: []byte{1}, Losses: make([]float64, 10)})
	require.NoError(t, err)
	assert.Equal(t, 3, r.Decimals)
	l, err := s.Limits.Limits()
	require.NoError(t, err)
	assert.Equal(t, Limits{PerDay: 5, Total: 100, MinInterval: 600e9}, l)

	// Simulation chains from the same seed release the same scores;
	// another seed, or a server chain, does not.
	sim := `{"subset": 6, "noise": {"kind": "gaussian", "scale": 0.01}, "thresholdout": {"t": 0.0, "sigma": 0.01, "budget": 50}, "decimals": 6}`
	ss, err := ParseSettings([]byte(sim))
	require.NoError(t, err)
	run := func(c *Chain) []string {
		var out []string
		for k := range 5 {
			l := []float64{0, 1, 0.5, 2, 0, 0, 1, 3, 0.25, float64(k)}
			r, err := c.Release(Submission{Losses: l, Train: []float64{5, 5}})
			require.NoError(t, err)
			out = append(out, r.Text())
		}
		return out
	}
	c1, err := ss.SimulationChain(10, [32]byte{1}, nil)
	require.NoError(t, err)
	c2, err := ss.SimulationChain(10, [32]byte{1}, nil)
	require.NoError(t, err)
	c3, err := ss.SimulationChain(10, [32]byte{2}, nil)
	require.NoError(t, err)
	c4, err := ss.Chain(10, nil, nil)
	require.NoError(t, err)
	a := run(c1)
	assert.Equal(t, a, run(c2), "same seed, same releases")
	assert.NotEqual(t, a, run(c3), "another seed")
	assert.NotEqual(t, a, run(c4), "a server chain is not the simulation's")

	zero, err := ParseSettings([]byte(`{}`))
	require.NoError(t, err)
	assert.Equal(t, "none", zero.String())
	c, err = zero.Chain(3, nil, nil)
	require.NoError(t, err)
	r, err = c.Release(Submission{Losses: []float64{1, 0, 0}})
	require.NoError(t, err)
	assert.Equal(t, "1/3", r.Score.RatString(), "no defence: the exact score")

	for name, bad := range map[string]string{
		"unknown field":   `{"decimal": 2}`,
		"bad seed":        `{"split": {"public": 0.5, "seed": "abc"}}`,
		"bad ladder kind": `{"ladder": {"kind": "up"}}`,
		"fixed no eta":    `{"ladder": {"kind": "fixed"}}`,
		"bad eta":         `{"ladder": {"kind": "fixed", "eta": "x"}}`,
		"eta exponent":    `{"ladder": {"kind": "fixed", "eta": "1e999999999"}}`,
		"negative eta":    `{"ladder": {"kind": "fixed", "eta": "-1"}}`,
		"bad noise kind":  `{"noise": {"kind": "cauchy", "scale": 1}}`,
		"bad noise key":   `{"noise": {"kind": "gaussian", "scale": 1, "key": "team"}}`,
		"zero scale":      `{"noise": {"kind": "gaussian", "scale": 0}}`,
		"decimals":        `{"decimals": -1}`,
		"clip":            `{"clip": 0.7}`,
		"interval":        `{"limits": {"min_interval": "soon"}}`,
		"negative limit":  `{"limits": {"per_day": -1}}`,
		"subset":          `{"subset": -3}`,
		"thresholdout":    `{"thresholdout": {"t": 0.1, "sigma": 0, "budget": 1}}`,
	} {
		s, err := ParseSettings([]byte(bad))
		if err == nil {
			_, err = s.Chain(10, nil, nil)
		}
		assert.Error(t, err, name)
	}
	for name, p := range Presets() {
		if p.Split != nil {
			p.Split.Seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		}
		_, err := p.Chain(100, nil, nil)
		assert.NoError(t, err, name)
	}
}
