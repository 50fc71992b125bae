// This file implements the exact single-query attack of [AKXFT21, Theorems
// 1, 3 and 8].

package single

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"sync"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/bigmul"
	"github.com/labelinf/labelinf/internal/ctxwait"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/primes"
	"github.com/labelinf/labelinf/scorer"
)

// MaxPredictionBits bounds the memory of a single-query prediction: row i
// holds p_i^c for every class c < K, about K(K−1)/2·log2 p_i bits, so N
// rows need up to K(K−1)/2·N·log2 p_N bits. 2^33 bits is 1 GiB.
const MaxPredictionBits = 1 << 33

// PrecisionError reports a score with too few bits for the attack to be
// sound: the score carries Have bits and the plan needs Need.
type PrecisionError struct {
	Have, Need uint
}

func (e *PrecisionError) Error() string {
	return fmt.Sprintf("single: score precision %d bits, the attack needs at least %d", e.Have, e.Need)
}

// Query is the plan of the exact single-query attack for N labels in
// [0, K): the primes, the prediction, and the precision the score must have.
type Query struct {
	N, K   int
	Primes []uint64 // p_i, the first N primes

	den      *big.Int // Π_i D_i; X ≤ Π p_i^(K−1) < D
	treeOnce sync.Once
	tree     *primes.ProductTree // of the p_i^(K−1), for factoring X; built by the first Decode
	prec     uint                // planned score precision
	pred     *loss.Rat
	consts   apa.Consts // π and ln 2 for Decode's exponential
}

// NewQuery plans the attack for n labels and k classes. It returns an
// error for n < 1, n > MaxN, k < 2, or a prediction over MaxPredictionBits.
//
// The planned precision P (see [Query.Prec]) is derived as follows.
// Write L = N·ℓ = ln(D/X) with D = Π D_i, so X = D·e^(−L), and L ≥ L_min =
// ln(D/X_max) with X_max = Π p_i^(K−1). A score rounded to nearest at P bits
// is off by at most ulp/2 ≤ ℓ·2^−P, so L is off by at most L·2^−P and X by
// at most 2·X·L·2^−P = 2·D·g(L)·2^−P with g(L) = L·e^(−L) (|e^δ−1| ≤ 2|δ|
// for |δ| ≤ 1). Rounding to the right integer needs that below 1/4, the
// other 1/4 being left to the computation:
//
//	P = BitLen(D) + ⌈log2 max_{L ≥ L_min} g(L)⌉ + 3,
//
// where the maximum is g(1) = 1/e if L_min ≤ 1, else g(L_min). Large X
// (labels near K−1) means small L, so the worst case is X = X_max, not the
// largest loss; TestPlannedPrecisionIsTight shows the plan is tight there.
func NewQuery(n, k int) (*Query, error) {
	if n < 1 || n > decode.MaxN {
		return nil, fmt.Errorf("single: N = %d outside [1, %d]", n, decode.MaxN)
	}
	if k < 2 {
		return nil, fmt.Errorf("single: K = %d, need at least 2 classes", k)
	}
	// The sizes are checked together, up front: N·K² grows past memory
	// long before either does alone.
	if bits := float64(k) * float64(k-1) / 2 * float64(n) * math.Log2(float64(primes.NthUpperBound(uint64(n)))); bits > MaxPredictionBits {
		return nil, fmt.Errorf("single: N = %d, K = %d: the prediction would hold about %.3g GiB (K(K−1)/2·N·log2 p_N bits), over the limit of %d GiB", n, k, bits/(1<<33), MaxPredictionBits>>33)
	}
	ps, err := primes.FirstN(n)
	if err != nil {
		return nil, err
	}
	pred := primePrediction(ps, k)
	q := &Query{N: n, K: k, Primes: ps, pred: pred, den: primes.Product(pred.Den)}
	// D_i = Σ_c p_i^c > p_i^(K−1), so X ≤ X_max < D. The tree that
	// factors X is built by Decode, after its exponential: while the
	// server's logarithm and the exponential run, their memory peaks,
	// and the tree (about N·log2 p_N bits per level) would add to it.
	// L_min = Σ ln(D_i/p_i^(K−1)) = Σ ln(1 + 1/p + … + 1/p^(K−1)), summed in
	// float64 and lowered by a relative 10^-9 (g decreases for L > 1, so a
	// low L_min only raises P).
	lmin := 0.0
	for _, p := range ps {
		inv, s := 1/float64(p), 0.0
		pw := 1.0
		for range k - 1 {
			pw *= inv
			s += pw
		}
		lmin += math.Log1p(s)
	}
	lmin *= 1 - 1e-9
	g := 1 / math.E
	if lmin > 1 {
		g = lmin * math.Exp(-lmin)
	}
	q.prec = uint(max(q.den.BitLen()+int(math.Ceil(math.Log2(g)+1e-9))+3, 2))
	return q, nil
}

// PlanOptions configures [Plan]: N labels in [0, K).
type PlanOptions struct {
	N, K int
}

// Plan is [NewQuery] with the attacks' shape: options in, and
// ctx's error within a second of ctx being done (the plan's products of N
// primes are one big-number step, abandoned to finish in the background).
func Plan(ctx context.Context, opt PlanOptions) (*Query, error) {
	var q *Query
	if err := ctxwait.Do(ctx, func() (err error) {
		q, err = NewQuery(opt.N, opt.K)
		return err
	}); err != nil {
		return nil, err
	}
	return q, nil
}

// Prec returns the score precision in bits that the plan needs.
func (q *Query) Prec() uint { return q.prec }

// Prediction returns the prediction to submit. The caller must not modify it.
func (q *Query) Prediction() *loss.Rat { return q.pred }

// Consts returns the cache of π and ln 2 that Decode's exponential uses.
// They are public constants, not secrets: a server that scores with the
// same cache ([oracle.Exact.UseConsts]) computes them once for both
// sides, as an attacker who kept them from an earlier run would.
func (q *Query) Consts() *apa.Consts { return &q.consts }

// primePrediction returns the prediction of [AKXFT21, Theorem 1] for the
// primes ps and k classes: row i is Num[i][c] = p_i^c, Den[i] = Σ_c p_i^c.
// Its integers are allocated in a few slabs instead of one by one (N·K of
// them, millions at N = 10^6): the class-0 numerator 1 is one shared
// integer, and every value below 2^64 takes one word of a shared word
// slab. The prediction is read-only, so the sharing is invisible.
func primePrediction(ps []uint64, k int) *loss.Rat {
	n := len(ps)
	pred := &loss.Rat{K: k, Num: make([][]*big.Int, n), Den: make([]*big.Int, n)}
	one := big.NewInt(1)
	ptrs := make([]*big.Int, n*k)
	ints := make([]big.Int, n*k) // p^c for c ≥ 1, then Den, per row
	words := make([]big.Word, n*k)
	for i, p := range ps {
		row := ptrs[i*k : (i+1)*k : (i+1)*k]
		slab := ints[i*k : (i+1)*k]
		ws := words[i*k : (i+1)*k]
		row[0] = one
		var pb *big.Int // p as a big.Int, made only once a power passes 2^64
		small := true   // every p^c so far below 2^64
		pw, sum := uint64(1), uint64(1)
		for c := 1; c < k; c++ {
			if small {
				hi, lo := bits.Mul64(pw, p)
				s, carry := bits.Add64(sum, lo, 0)
				if hi == 0 && carry == 0 {
					pw, sum = lo, s
					ws[c-1] = big.Word(lo)
					row[c] = slab[c-1].SetBits(ws[c-1 : c : c])
					continue
				}
				small = false
			}
			if pb == nil {
				pb = new(big.Int).SetUint64(p)
			}
			row[c] = slab[c-1].Mul(row[c-1], pb)
		}
		d := &slab[k-1]
		if small {
			ws[k-1] = big.Word(sum)
			d.SetBits(ws[k-1 : k : k])
		} else {
			for _, v := range row {
				d.Add(d, v)
			}
		}
		pred.Num[i], pred.Den[i] = row, d
	}
	return pred
}

// Options tunes decoding. The zero value is ready to use.
type Options struct {
	// ScorePrec is the precision in bits to which the scorer rounded the
	// score (to nearest). 0 means the score's own precision, Score.Prec().
	ScorePrec uint
	// AllowLowPrecision decodes even when ScorePrec is below the plan's
	// precision. The labels returned still reproduce the score, but may
	// not be the only labeling that does. For experiments on the bound.
	AllowLowPrecision bool
}

// Decode recovers the labels from the score ℓ̂ returned for the plan's
// prediction, as a verified [decode.Result] (every label known; Queries is left
// to the caller). It computes X' = round(Π D_i · exp(−N·ℓ̂)) with a correctly
// rounded exponential [apa.Exp], factors X' over the planned primes with a
// remainder tree ([primes.ProductTree.Multiplicities] on the tree of the
// p_i^(K−1), built by the first Decode) and verifies that the labels
// reproduce ℓ̂ (see verify). It returns a *PrecisionError if the score has
// fewer bits than the plan needs, and ErrInconsistent if no labeling
// explains the score.
func (q *Query) Decode(score *big.Float, opts Options) (*decode.Result, error) {
	if score == nil || score.IsInf() || score.Sign() <= 0 {
		return nil, fmt.Errorf("%w: score %v is not a positive finite loss", decode.ErrInconsistent, score)
	}
	p := opts.ScorePrec
	if p == 0 {
		p = score.Prec()
	}
	if p < q.prec && !opts.AllowLowPrecision {
		return nil, &PrecisionError{Have: p, Need: q.prec}
	}
	if score.MinPrec() > p {
		return nil, fmt.Errorf("single: score has %d significant bits, more than its stated precision %d", score.MinPrec(), p)
	}
	// t = −N·ℓ̂ exactly (N < 2^27 adds at most 27 bits).
	t := new(big.Float).SetPrec(score.MinPrec() + 64).SetInt64(int64(q.N))
	t.Mul(t, score).Neg(t)
	// Y = D·e^t with e^t correctly rounded to wp bits: relative error
	// below 2^-wp. wp = P + 8 keeps the verification slack far inside the
	// rounding window of the score.
	wp := max(p, uint(q.den.BitLen())) + 8
	ex, err := q.consts.Exp(new(big.Float).SetPrec(wp), t)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", decode.ErrInconsistent, err)
	}
	// Ŷ = v·2^s exactly, with v = D·mant(e^t).
	s := ex.MantExp(nil) - int(wp)
	m, _ := new(big.Float).SetMantExp(ex, -s).Int(nil)
	v := bigmul.Mul(new(big.Int), q.den, m)
	// X' = round(Ŷ) = round(v·2^s), ties up.
	x := new(big.Int)
	if s >= 0 {
		x.Lsh(v, uint(s))
	} else {
		x.Rsh(v, uint(-s-1)) // floor(v·2^(s+1))
		x.Rsh(x.Add(x, big.NewInt(1)), 1)
	}
	if x.Sign() <= 0 {
		return nil, fmt.Errorf("%w: decoded integer %v", decode.ErrInconsistent, x.Sign())
	}
	q.treeOnce.Do(func() { q.tree = primes.NewPowerTree(q.Primes, q.K-1) })
	labels, err := q.tree.Multiplicities(x)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", decode.ErrInconsistent, err)
	}
	ok, sure := verifyExp(x, v, s, wp, score, p, q.N)
	if !sure {
		// The fast bound was inconclusive: recompute the score exactly.
		got, err := loss.CrossEntropy(new(big.Float).SetPrec(p), labels, q.pred)
		if err != nil {
			return nil, err
		}
		ok = got.Cmp(score) == 0
	}
	if !ok {
		return nil, fmt.Errorf("%w: the decoded labeling does not reproduce the score", decode.ErrInconsistent)
	}
	res := allKnown(labels)
	res.ExactCheck = !sure
	return res, nil
}

// verifyExp decides, in the exponential domain, whether the integer X' =
// Π p_i^σ_i reproduces the score ℓ̂ rounded to nearest at p bits, that is
// whether ℓ(σ) = ln(D/X')/N lies within ±u/2 of ℓ̂, u = ulp(ℓ̂). Since
// ℓ(σ) − ℓ̂ = −ln(X'/Y)/N with Y = D·e^(−Nℓ̂), the condition is
// |ln(X'/Y)| ≤ N·u/2. Y is known as Ŷ = v·2^s with |Ŷ − Y| ≤ Ŷ·2^(1−wp)
// =: E. With a = |X' − Ŷ| and t = (X'−Y)/Y:
//
//	|t| ≤ (a+E)/(Ŷ−E) = t⁺ and |ln(1+t)| ≤ |t|/(1−|t|): accept if t⁺/(1−t⁺) < W',
//	|t| ≥ (a−E)/(Ŷ+E) = t⁻ and |ln(1+t)| ≥ |t|/(1+|t|): reject if t⁻/(1+t⁻) > W,
//
// with W = N·u/2, and W' = W except W/2 when ℓ̂ is a power of two (the
// rounding interval is then asymmetric). Otherwise sure = false and the
// caller recomputes the score.
// The bounds are evaluated at 256 bits with a relative margin of 2^-200,
// far above their rounding error.
func verifyExp(x, v *big.Int, s int, wp uint, score *big.Float, p uint, n int) (ok, sure bool) {
	const hp = 256
	nf := func() *big.Float { return new(big.Float).SetPrec(hp) }
	// For s < 0 all quantities are scaled by 2^-s (Ŷ becomes v), which
	// leaves the ratios unchanged.
	xs, ys := x, v
	if s < 0 {
		xs = new(big.Int).Lsh(x, uint(-s))
	} else {
		ys = new(big.Int).Lsh(v, uint(s))
	}
	d := new(big.Int).Sub(xs, ys)
	a, yh := nf().SetInt(d.Abs(d)), nf().SetInt(ys)
	e := nf().SetMantExp(yh, 1-int(wp))
	// W = N·u/2, u = 2^(exp(ℓ̂) − p), the half-width of ℓ̂'s rounding
	// interval above it. If ℓ̂ is a power of two the floats below it are
	// twice as dense, so the interval is [ℓ̂ − u/4, ℓ̂ + u/2]: accept only
	// within the narrow side (wAcc), reject only beyond the wide one (w).
	w := nf().SetMantExp(big.NewFloat(float64(n)), score.MantExp(nil)-int(p)-1)
	wAcc := nf().Set(w)
	if mant := new(big.Float).SetMantExp(score, -score.MantExp(nil)); mant.Cmp(big.NewFloat(0.5)) == 0 {
		wAcc.SetMantExp(wAcc, -1)
	}
	one := nf().SetInt64(1)
	margin := nf().SetMantExp(one, -200)
	up := nf().Add(one, margin)
	down := nf().Sub(one, margin)

	tp := nf().Quo(nf().Add(a, e), nf().Sub(yh, e))
	if tp.Cmp(one) < 0 {
		b := nf().Quo(tp, nf().Sub(one, tp))
		if b.Mul(b, up).Cmp(nf().Mul(wAcc, down)) < 0 {
			return true, true
		}
	}
	am := nf().Sub(a, e)
	if am.Sign() > 0 {
		tm := nf().Quo(am, nf().Add(yh, e))
		b := nf().Quo(tm, nf().Add(one, tm))
		if b.Mul(b, down).Cmp(nf().Mul(w, up)) > 0 {
			return false, true
		}
	}
	return false, false
}

// Attack runs the exact single-query attack against s: it plans for
// s.N() labels and s.K() classes and runs the plan ([Query.Attack]). It
// returns ctx's error within a second of ctx being done: each of its
// three long steps (planning, the server's score, decoding) is one
// big-number computation that is abandoned, left to finish in the
// background, when ctx is done first.
func Attack(ctx context.Context, s scorer.RatServer, opts Options) (*decode.Result, error) {
	q, err := Plan(ctx, PlanOptions{N: s.N(), K: s.K()})
	if err != nil {
		return nil, err
	}
	return q.Attack(ctx, s, opts)
}

// Attack submits the plan's prediction to s and decodes the score with
// opts. Before querying, it returns an error if s does not hold the
// plan's N and K, or a *PrecisionError if s tells its precision and it
// is below [Query.Prec] (unless opts.AllowLowPrecision); then the
// scorer's error, [Query.Decode]'s, or ctx's within a second of ctx being
// done.
func (q *Query) Attack(ctx context.Context, s scorer.RatServer, opts Options) (*decode.Result, error) {
	need := q.prec
	if opts.AllowLowPrecision {
		need = 0
	}
	if err := fits(s, q.N, q.K, need); err != nil {
		return nil, err
	}
	return oneQuery(ctx, func() (*big.Float, error) { return s.Score(ctx, q.Prediction()) },
		func(x *big.Float) (*decode.Result, error) { return q.Decode(x, opts) })
}
