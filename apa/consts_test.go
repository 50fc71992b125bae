package apa

import (
	"math/big"
	"sync"
	"testing"
)

// TestConstsConcurrent calls the methods of one Consts from many
// goroutines at mixed precisions (run it with -race) and checks every
// result against the package-level function, which computes its own
// constants: the cache may change only the cost, never a bit of a result.
func TestConstsConcurrent(t *testing.T) {
	defer func(v uint) { tableLimit = v }(tableLimit)
	tableLimit = 0 // compute the constants, through the cache
	var c Consts
	x := new(big.Float).SetPrec(3000)
	x.SetString("1.7182818284590452353602874713526624977572470936999595749669676277240766303535")
	precs := []uint{53, 300, 1000, 3000, 5000}
	type fn struct {
		name   string
		cached func(z, x *big.Float) (*big.Float, error)
		plain  func(z, x *big.Float) (*big.Float, error)
	}
	fns := []fn{
		{"Log", c.Log, Log},
		{"Exp", c.Exp, Exp},
		{"Log1p", c.Log1p, Log1p},
		{"Softplus", c.Softplus, Softplus},
	}
	want := make(map[[2]int]*big.Float)
	for i, f := range fns {
		for j, p := range precs {
			w, err := f.plain(new(big.Float).SetPrec(p), x)
			if err != nil {
				t.Fatal(err)
			}
			want[[2]int{i, j}] = w
		}
	}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for k := range len(fns) * len(precs) {
				i, j := (g+k)%len(fns), (g*7+k)%len(precs)
				got, err := fns[i].cached(new(big.Float).SetPrec(precs[j]), x)
				if err != nil {
					t.Errorf("Consts.%s at %d bits from goroutine %d: %v", fns[i].name, precs[j], g, err)
				} else if got.Cmp(want[[2]int{i, j}]) != 0 {
					t.Errorf("Consts.%s at %d bits from goroutine %d", fns[i].name, precs[j], g)
				}
			}
		})
	}
	wg.Wait()
	// LogRatio through the same cache.
	num, den := big.NewInt(123456789), big.NewInt(987654321)
	w, err := LogRatio(new(big.Float).SetPrec(2000), num, den, 7)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.LogRatio(new(big.Float).SetPrec(2000), num, den, 7)
	if err != nil {
		t.Fatal(err)
	}
	if got.Cmp(w) != 0 {
		t.Error("Consts.LogRatio")
	}
	if !(c.piPrec >= uint(5000)) {
		t.Errorf("the cache holds π at the highest precision asked: %v < %v", c.piPrec, uint(5000))
	}
}
