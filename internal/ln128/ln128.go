// Package ln128 computes natural logarithms of big.Float values to about
// 128 bits, fast: an attacker's planner needs thousands of them per run at
// a fixed, modest precision, where apa.Log (correctly rounded, constants
// recomputed per call by design) costs tens of microseconds.
//
// ln x = e·ln 2 + ln c + 2·atanh((m−c)/(m+c)), x = m·2^e with
// m ∈ [3/4, 3/2), c = i/128 the table point nearest m (c = 1 near 1, so
// that there is no cancellation there), so the atanh argument is below
// 1/384 and its series gains 17 bits a term [MCA, §4.4]. The table
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
)

func setup() {
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
	// m keeps all of x's bits so that m−c is exact near 1.
	hp := max(work, x.Prec()+8)
	m := new(big.Float).SetPrec(hp)
	e := x.MantExp(m) // x = m·2^e, m ∈ [0.5, 1)
	if f, _ := m.Float64(); f < 0.75 {
		m.SetMantExp(m, 1)
		e--
	}
	f, _ := m.Float64()
	i := min(max(int(math.Round(f*128)), 96), 192)
	c := new(big.Float).SetPrec(work).SetFloat64(float64(i) / 128)
	// y = (m−c)/(m+c), ln(m/c) = 2(y + y³/3 + y⁵/5 + …).
	num := new(big.Float).SetPrec(hp).Sub(m, c)
	den := new(big.Float).SetPrec(work).Add(m, c)
	y := new(big.Float).SetPrec(work).Quo(num, den)
	y2 := new(big.Float).SetPrec(work).Mul(y, y)
	sum := new(big.Float).SetPrec(work).Set(y)
	p := new(big.Float).SetPrec(work).Set(y)
	t := new(big.Float).SetPrec(work)
	for k := int64(3); p.Sign() != 0; k += 2 {
		p.Mul(p, y2)
		t.Quo(p, t.SetInt64(k))
		if t.Sign() == 0 || t.MantExp(nil)-sum.MantExp(nil) < -work-4 {
			break
		}
		sum.Add(sum, t)
	}
	sum.SetMantExp(sum, 1)
	sum.Add(sum, table[i])
	if e != 0 {
		t.SetInt64(int64(e))
		sum.Add(sum, t.Mul(t, ln2))
	}
	return z.SetPrec(Prec).Set(sum)
}
