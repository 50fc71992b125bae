package defence

import (
	"slices"
	"testing"
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
	if err != nil {
		t.Fatal(err)
	}
	if got := s.String(); got != "split(0.5)+ladder(fixed,η=0.01,per-team)+noise(laplace,0.001,prediction)+round(3)+clip(0.001)+5/day+100-total+every-10m" {
		t.Errorf("s.String() = %v, want %v", got, "split(0.5)+ladder(fixed,η=0.01,per-team)+noise(laplace,0.001,prediction)+round(3)+clip(0.001)+5/day+100-total+every-10m")
	}
	c, err := s.Chain(10, []byte("0123456789abcdef0123456789abcdef"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Split() == nil {
		t.Fatal("c.Split() is nil")
	}
	if len(c.Split().Public()) != 5 {
		t.Errorf("len %d, want %d", len(c.Split().Public()), 5)
	}
	if !c.NeedsPred() {
		t.Error("c.NeedsPred() is false")
	}
	r, err := c.Release(Submission{Pred: []byte{1}, Losses: make([]float64, 10)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Decimals != 3 {
		t.Errorf("r.Decimals = %v, want %v", r.Decimals, 3)
	}
	l, err := s.Limits.Limits()
	if err != nil {
		t.Fatal(err)
	}
	if want := (Limits{PerDay: 5, Total: 100, MinInterval: 600e9}); l != want {
		t.Errorf("l = %v, want %v", l, want)
	}

	// Simulation chains from the same seed release the same scores;
	// another seed, or a server chain, does not.
	sim := `{"subset": 6, "noise": {"kind": "gaussian", "scale": 0.01}, "thresholdout": {"t": 0.0, "sigma": 0.01, "budget": 50}, "decimals": 6}`
	ss, err := ParseSettings([]byte(sim))
	if err != nil {
		t.Fatal(err)
	}
	run := func(c *Chain) []string {
		var out []string
		for k := range 5 {
			l := []float64{0, 1, 0.5, 2, 0, 0, 1, 3, 0.25, float64(k)}
			r, err := c.Release(Submission{Losses: l, Train: []float64{5, 5}})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r.Text())
		}
		return out
	}
	c1, err := ss.SimulationChain(10, [32]byte{1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := ss.SimulationChain(10, [32]byte{1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c3, err := ss.SimulationChain(10, [32]byte{2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c4, err := ss.Chain(10, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := run(c1)
	if got := run(c2); !slices.Equal(got, a) {
		t.Errorf("same seed, same releases: got %v, want %v", got, a)
	}
	if slices.Equal(a, run(c3)) {
		t.Errorf("another seed: both %v", a)
	}
	if slices.Equal(a, run(c4)) {
		t.Errorf("a server chain is not the simulation's: both %v", a)
	}

	zero, err := ParseSettings([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := zero.String(); got != "none" {
		t.Errorf("zero.String() = %v, want %v", got, "none")
	}
	c, err = zero.Chain(3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err = c.Release(Submission{Losses: []float64{1, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Score.RatString(); got != "1/3" {
		t.Errorf("no defence: the exact score: got %v, want %v", got, "1/3")
	}

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
		if err == nil {
			t.Errorf("%v: no error", name)
		}
	}
	for name, p := range Presets() {
		if p.Split != nil {
			p.Split.Seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		}
		_, err := p.Chain(100, nil, nil)
		if err != nil {
			t.Errorf("%v: %v", name, err)
		}
	}
}
