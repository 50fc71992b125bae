// Package ln128 computes natural logarithms of big.Float values to about
// 128 bits, fast: an attacker's planner needs thousands of them per run at
// a fixed, modest precision, where apa.Log (correctly rounded, constants
// recomputed per call by design) costs tens of microseconds.
//
// ln x = e·ln 2 + ln c + 2·atanh((m−c)/(m+c)), x = m·2^e with
// m ∈ [3/4, 3/2), c = i/128 the table point nearest m (c = 1 near 1, so
// that there is no cancellation there), so the atanh argument is below
// 1/384 and its series gains 17 bits a term [MCA, §4.4]; it is summed by
// Horner's rule in y² with the reciprocals 1/(2j+1) precomputed (no
// division inside the series), its length set from y's exponent. The table
// and ln 2 are computed once with apa.Log at 200 bits. The working
// precision is 160 bits; the result's relative error is below 2^−128 (the
// tests check 2^−128 against apa.Log).
package ln128

import (
	"math"
	"math/big"
	"sync"

	"github.com/labelinf/labelinf/apa"
)

// Prec is the precision of the results.
const Prec = 128

const work = 160

var (
	once  sync.Once
	ln2   *big.Float
	table [193]*big.Float // ln(i/128) for i in [96, 192]
	inv   [maxTerms + 1]*big.Float
)

// scratch holds Log's temporaries, kept between calls (scratchPool) so
// that their mantissas are reused.
type scratch struct {
	m, c, num, den, y, y2, sum, t big.Float
}

var scratchPool = sync.Pool{New: func() any {
	w := new(scratch)
	for _, f := range []*big.Float{&w.c, &w.den, &w.y, &w.y2, &w.sum, &w.t} {
		f.SetPrec(work)
	}
	return w
}}

// maxTerms is the series' longest length: with |y| < 1/384 < 2^−8 the
// first omitted term y^(2J+2)/(2J+3) is below 2^−(work+4) relative to the
// sum once (2J+2)·8 ≥ work+4, J = 10.
const maxTerms = 10

func setup() {
	for j := range inv {
		inv[j] = new(big.Float).SetPrec(work).Quo(big.NewFloat(1), big.NewFloat(float64(2*j+1)))
	}
	ln2 = new(big.Float).SetPrec(200)
	if _, err := apa.Log(ln2, big.NewFloat(2)); err != nil {
		panic(err) // unreachable: ln 2 is in range
	}
	for i := 96; i < len(table); i++ {
		c := new(big.Float).SetPrec(200).SetFloat64(float64(i) / 128)
		table[i] = new(big.Float).SetPrec(200)
		if _, err := apa.Log(table[i], c); err != nil {
			panic(err)
		}
	}
}

// Log sets z to ln x to Prec bits (z's precision is set to Prec) and
// returns z. x must be finite and > 0; Log returns nil otherwise.
func Log(z, x *big.Float) *big.Float {
	if x.Sign() <= 0 || x.IsInf() {
		return nil
	}
	once.Do(setup)
	w := scratchPool.Get().(*scratch)
	defer scratchPool.Put(w)
	// m keeps all of x's bits so that m−c is exact near 1.
	hp := max(work, x.Prec()+8)
	m := w.m.SetPrec(hp)
	e := x.MantExp(m) // x = m·2^e, m ∈ [0.5, 1)
	if f, _ := m.Float64(); f < 0.75 {
		m.SetMantExp(m, 1)
		e--
	}
	f, _ := m.Float64()
	i := min(max(int(math.Round(f*128)), 96), 192)
	c := w.c.SetFloat64(float64(i) / 128)
	// y = (m−c)/(m+c), ln(m/c) = 2(y + y³/3 + y⁵/5 + …).
	num := w.num.SetPrec(hp).Sub(m, c)
	den := w.den.Add(m, c)
	y := w.y.Quo(num, den)
	sum, t := w.sum.SetInt64(0), &w.t
	if y.Sign() != 0 {
		// 2y·Σ_{j≤J} y^(2j)/(2j+1) by Horner's rule in y²: with |y| < 2^ey
		// the first omitted term is below 2^−(work+4) of the sum once
		// (2J+2)·(−ey) ≥ work+4.
		d := -y.MantExp(nil)
		J := maxTerms
		if d > 8 {
			J = min(J, (work+4+2*d-1)/(2*d)-1)
		}
		y2 := w.y2.Mul(y, y)
		sum.Set(inv[J])
		for j := J - 1; j >= 0; j-- {
			// t and sum alternate: an aliased operand costs big.Float an
			// allocation.
			sum.Add(t.Mul(sum, y2), inv[j])
		}
		t.Mul(sum, y)
		sum.SetMantExp(t, 1)
	}
	t.Add(sum, table[i])
	if e != 0 {
		sum.SetInt64(int64(e))
		w.y2.Mul(sum, ln2)
		sum.Add(t, &w.y2)
	} else {
		sum.Set(t)
	}
	return z.SetPrec(Prec).Set(sum)
}
