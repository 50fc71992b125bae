package decode

import (
	"context"
	"fmt"
	"testing"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// Strictness of KBin by brute force (klStrict): after every query, every
// label reported known is that of every labeling that explains every
// score, and each of those lies in the attack's state. The room is shrunk
// (radix.room scales the top's weights and so the digits' room) and the
// digits' least unit lowered, so that at N ≤ 8 a query holds a few
// digits of unit two spacings and a score leaves several readings; K = 3
// with digits of radix 3 and with binary digits only (three labels split
// 2:1), K = 4 (every question 2:2 or 1:1); the last points of an attack
// are digits of their whole sets. The test fails if no digit value was
// carried, or no binary digit or none of radix 3 or more asked.
func TestKBinStrict(t *testing.T) {
	t.Parallel()
	m, err := scorer.ParseModel("float64-sklearn")
	if err != nil {
		t.Fatal(err)
	}
	tune := defaultKBin()
	tune.klist.minN = 0
	tune.minUnit = 0x1p-60
	// A unit of a quarter of the resolution: several readings of a top
	// candidate explain one score, so that the digits' window, readings
	// and carried values are put to the test.
	tune.unit = 0.25
	type tc struct {
		k, n, fresh  int
		room, target float64
		radix3       bool
	}
	// A target of 10^4 lets a query take every point it can as a digit,
	// so that the digits' room is far wider than the budget.
	cases := []tc{
		{3, 8, 3, 0x1p-47, 16, true}, {3, 8, 3, 0x1p-50, 16, true}, {3, 8, 3, 0x1p-47, 16, false},
		{3, 8, 16, 0x1p-47, 16, true}, {4, 6, 2, 0x1p-47, 16, true},
		{3, 8, 1, 0x1p-42, 1e4, true}, {3, 8, 1, 0x1p-42, 1e4, false}, {4, 6, 1, 0x1p-42, 1e4, true},
	}
	if testing.Short() {
		cases = []tc{{3, 6, 2, 0x1p-47, 16, true}, {4, 5, 2, 0x1p-47, 16, true}}
	}
	var all klSeen
	for _, c := range cases {
		tune.klist.radix.room, tune.klist.maxFresh, tune.radix3, tune.target = c.room, c.fresh, c.radix3, c.target
		labelings := map[string][]int{"random": seededLabels(t, c.n, c.k), "zero": make([]int, c.n), "alt": make([]int, c.n)}
		for i := range c.n {
			labelings["alt"][i] = i % c.k
		}
		if testing.Short() {
			delete(labelings, "zero")
		}
		s := klStrict(t, m, kbin{p: &tune}, c.k, labelings, fmt.Sprintf("K = %d, room %g, %d fresh, target %g, radix 3 %v", c.k, c.room, c.fresh, c.target, c.radix3))
		all.carried, all.tailVals, all.digits, all.radix3 = all.carried+s.carried, all.tailVals+s.tailVals, all.digits+s.digits, all.radix3+s.radix3
	}
	if all.carried == 0 || all.tailVals == 0 || all.radix3 == 0 || all.digits == all.radix3 {
		t.Errorf("%+v: the test does not reach KBin's lists and digits (binary and of radix 3 or more)", all)
	}
	t.Logf("carried points (summed over queries): %d, digit values in lists: %d, digits: %d, of radix 3 or more: %d", all.carried, all.tailVals, all.digits, all.radix3)
}

// Arbitrary scores (junkServer) stop KBin with an error and nothing
// verified: K = 3 at N ≥ klistParams.minN (below it KBin is Cross).
func FuzzKBinJunk(f *testing.F) {
	f.Add(uint64(1), uint8(40))
	f.Add(uint64(7), uint8(3))
	m, err := scorer.ParseModel("float64-sklearn")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, seed uint64, n8 uint8) {
		n := defaultKList().minN + int(n8)
		sim, err := oracle.NewSim(m, make([]int, n), 3)
		if err != nil {
			t.Fatal(err)
		}
		res, err := AttackMulti(context.Background(), &junkServer{Server: sim, x: seed}, MultiOptions{Strategy: KBin, Model: m, MaxQueries: 8})
		if err == nil || res == nil || res.Verified {
			t.Fatalf("junk scores: %+v, %v; want an error and nothing verified", res, err)
		}
	})
}
