package serve

// This file converts the decimal digits the JSON scanner has already
// accumulated into the nearest float64 with the Eisel–Lemire algorithm
// [Lemire21], as Go's strconv does (internal/strconv/atofeisel.go, after
// Nigel Tao's write-up [Tao20]; the step comments name its sections), so
// that each number is read once rather than twice. Inputs the fast path
// cannot decide (more than 19 significant digits, exponents out of table
// range, subnormal or overflowing results, exact halfway ambiguities)
// fall back to strconv.ParseFloat; parsefloat_test.go checks every path
// against it.

import (
	"math"
	"math/big"
	"math/bits"
	"sync"
)

// pow10Min and pow10Max bound the table: 10^q for q outside underflows or
// overflows float64 for any 19-digit mantissa [Lemire21, §5].
const (
	pow10Min = -348
	pow10Max = 347
)

// pow10Tab[q−pow10Min] is ⌊10^q·2^b⌋ for the b that puts it in
// [2^127, 2^128), as {hi, lo} 64-bit words; computed once with math/big
// (the same values as Go's generated internal/strconv/pow10tab.go).
var pow10Tab = sync.OnceValue(func() [][2]uint64 {
	tab := make([][2]uint64, pow10Max-pow10Min+1)
	one := big.NewInt(1)
	b128 := new(big.Int).Lsh(one, 128)
	mask := new(big.Int).Sub(new(big.Int).Lsh(one, 64), one)
	for q := pow10Min; q <= pow10Max; q++ {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(q))), nil)
		var d *big.Int
		if q >= 0 {
			// Shift 10^q to 128 bits, rounding down.
			s := p.BitLen() - 128
			if s >= 0 {
				d = new(big.Int).Rsh(p, uint(s))
			} else {
				d = new(big.Int).Lsh(p, uint(-s))
			}
		} else {
			// ⌊2^k / 10^|q|⌋ with k chosen for a 128-bit quotient.
			k := 127 + p.BitLen()
			d = new(big.Int).Quo(new(big.Int).Lsh(one, uint(k)), p)
			if d.Cmp(b128) >= 0 {
				d.Rsh(d, 1)
			}
			for d.BitLen() < 128 {
				k++
				d = new(big.Int).Quo(new(big.Int).Lsh(one, uint(k)), p)
			}
		}
		tab[q-pow10Min] = [2]uint64{new(big.Int).Rsh(d, 64).Uint64(), new(big.Int).And(d, mask).Uint64()}
	}
	return tab
})

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// eiselLemire returns man·10^exp10 (negated if neg) correctly rounded to
// float64, or ok false when the fast path cannot decide.
func eiselLemire(man uint64, exp10 int, neg bool) (float64, bool) {
	// Exp10 Range.
	if man == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	if exp10 < pow10Min || exp10 > pow10Max {
		return 0, false
	}
	pow := pow10Tab()[exp10-pow10Min]
	// 10^exp10 = (pow/2^128)·2^exp2, exp2 = 1 + ⌊exp10·log2(10)⌋;
	// 108853/2^15 ≈ log2(10), exact for |exp10| ≤ 500.
	exp2 := 1 + (exp10*108853)>>15
	// Normalization.
	clz := bits.LeadingZeros64(man)
	man <<= uint(clz)
	retExp2 := uint64(exp2+63+1023) - uint64(clz) // biased exponent of man·10^exp10
	// Multiplication.
	xHi, xLo := bits.Mul64(man, pow[0])
	// Wider Approximation.
	if xHi&0x1FF == 0x1FF && xLo+man < man {
		yHi, yLo := bits.Mul64(man, pow[1])
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+man < man {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}
	// Shifting to 54 Bits.
	msb := xHi >> 63
	retMantissa := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb
	// Half-way Ambiguity.
	if xLo == 0 && xHi&0x1FF == 0 && retMantissa&3 == 1 {
		return 0, false
	}
	// From 54 to 53 Bits.
	retMantissa += retMantissa & 1
	retMantissa >>= 1
	if retMantissa>>53 > 0 {
		retMantissa >>= 1
		retExp2++
	}
	// retExp2 − 1 wraps for subnormals; ≥ 0x7FF is Inf: both fall back.
	if retExp2-1 >= 0x7FF-1 {
		return 0, false
	}
	b := retExp2<<52 | retMantissa&(1<<52-1)
	if neg {
		b |= 1 << 63
	}
	return math.Float64frombits(b), true
}
