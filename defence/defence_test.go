package defence

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad rat " + s)
	}
	return r
}

// scoreSub returns a submission whose exact score is v on any rows.
func scoreSub(team, v string, n int) Submission {
	return Submission{Team: team, Mean: func([]int) (*big.Rat, error) { return rat(v), nil }}
}

func TestRoundHalfEven(t *testing.T) {
	tests := []struct {
		name string
		x    string
		d    int
		want string
	}{
		{"tie down to even", "0.125", 2, "0.12"},
		{"tie up to even", "0.135", 2, "0.14"},
		{"tie 0.145", "0.145", 2, "0.14"},
		{"above tie", "0.12500001", 2, "0.13"},
		{"third", "1/3", 5, "0.33333"},
		{"two thirds to 0 decimals", "2/3", 0, "1"},
		{"Kaggle tie", "0.427455", 5, "0.42746"}, // 42745.5 → 42746 (even)
		{"negative tie", "-0.125", 2, "-0.12"},
		{"negative", "-0.126", 2, "-0.13"},
		// 0.1 as a float64 is 0.1000000000000000055…: exactly, it is above the tie.
		{"float64 0.15", "0.1499999999999999944488848768742172978818416595458984375", 1, "0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRound(tt.d)
			require.NoError(t, err)
			c, err := NewChain(1, r)
			require.NoError(t, err)
			got, err := c.Release(scoreSub("", tt.x, 1))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.Text(), "round(%s, %d)", tt.x, tt.d)
			assert.Equal(t, tt.d, got.Decimals)
			// On the grid: the released value times 10^d is an integer.
			m := new(big.Rat).Mul(got.Score, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(tt.d)), nil)))
			assert.True(t, m.IsInt(), "released %s not on the 10^-%d grid", got.Score.RatString(), tt.d)
		})
	}
	_, err := NewRound(-1)
	assert.Error(t, err)
	_, err = NewRound(MaxDecimals + 1)
	assert.Error(t, err)
}

func TestExactMean(t *testing.T) {
	// 0.1 + 0.2 as float64 values, exactly: their dyadic sum over 2.
	got, err := ExactMean([]float64{0.1, 0.2})
	require.NoError(t, err)
	want := new(big.Rat).Add(new(big.Rat).SetFloat64(0.1), new(big.Rat).SetFloat64(0.2))
	want.Quo(want, big.NewRat(2, 1))
	assert.Equal(t, want.RatString(), got.RatString())
	// Wide exponent range: 1e300 + 1e-300 − 1e300 would lose the small
	// term in float64; here the mean is exact.
	got, err = ExactMean([]float64{1e300, 5e-324, 0})
	require.NoError(t, err)
	want = new(big.Rat).Add(new(big.Rat).SetFloat64(1e300), new(big.Rat).SetFloat64(5e-324))
	want.Quo(want, big.NewRat(3, 1))
	assert.Equal(t, 0, want.Cmp(got))
	// Against a big.Rat oracle on random values of every sign and scale,
	// subnormals included.
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		x := make([]float64, 1+r.IntN(50))
		want := new(big.Rat)
		for i := range x {
			switch r.IntN(4) {
			case 0:
				x[i] = math.Float64frombits(r.Uint64() & (1<<52 - 1)) // subnormal
			case 1:
				x[i] = r.NormFloat64() * math.Ldexp(1, r.IntN(200)-100)
			case 2:
				x[i] = float64(r.IntN(3))
			default:
				x[i] = -r.ExpFloat64()
			}
			want.Add(want, new(big.Rat).SetFloat64(x[i]))
		}
		want.Quo(want, big.NewRat(int64(len(x)), 1))
		got, err := ExactMean(x)
		require.NoError(t, err)
		assert.Equal(t, want.RatString(), got.RatString(), "trial %d", trial)
	}
	_, err = ExactMean(nil)
	assert.Error(t, err)
	_, err = ExactMean([]float64{math.NaN()})
	assert.Error(t, err)
}

func TestLadderFixedRepeatsBest(t *testing.T) {
	// η = 0.01; each row is (team, exact score, released, event).
	steps := []struct {
		team, score, want string
	}{
		{"a", "0.5037", "1/2"},   // R_0 = ∞: moves, [0.5037]_η = 0.50
		{"a", "0.495", "1/2"},    // not < 0.50 − 0.01: repeat
		{"a", "0.49", "1/2"},     // equal to 0.50 − η is not below it: repeat
		{"b", "0.4849", "12/25"}, // < 0.49: [0.4849]_η = 0.48
		{"a", "0.4701", "12/25"}, // global best 0.48: 0.4701 ≥ 0.47, repeat
		{"a", "0.3", "3/10"},     // large improvement
		{"b", "0.29999", "3/10"}, // tiny improvement: repeat
		{"b", "0.285", "7/25"},   // < 0.29: [0.285]_η = 0.28 (half even)
	}
	l, err := NewLadder(LadderOptions{Kind: FixedStep, Eta: big.NewRat(1, 100)})
	require.NoError(t, err)
	c, err := NewChain(10, l)
	require.NoError(t, err)
	for i, st := range steps {
		got, err := c.Release(scoreSub(st.team, st.score, 10))
		require.NoError(t, err)
		assert.Equal(t, st.want, got.Score.RatString(), "step %d: ladder(%s)", i, st.score)
	}

	// Per team, as the authors' code: b's first submission moves b's ladder.
	pl, err := NewLadder(LadderOptions{Kind: FixedStep, Eta: big.NewRat(1, 100), PerTeam: true})
	require.NoError(t, err)
	c, err = NewChain(10, pl)
	require.NoError(t, err)
	for _, st := range []struct{ team, score, want string }{
		{"a", "0.30", "3/10"},
		{"b", "0.50", "1/2"}, // global would repeat 0.30
		{"a", "0.295", "3/10"},
		{"b", "0.45", "9/20"},
	} {
		got, err := c.Release(scoreSub(st.team, st.score, 10))
		require.NoError(t, err)
		assert.Equal(t, st.want, got.Score.RatString(), "team %s: ladder(%s)", st.team, st.score)
	}
	assert.Equal(t, "3/10", pl.Best("a").RatString())

	// The authors' FixedLadder rounds to round(log10 n) decimals.
	assert.Equal(t, "1/10000", CodeGrid(4000).RatString())
	assert.Equal(t, "1/1000", CodeGrid(1000).RatString())
	cl, err := NewLadder(LadderOptions{Kind: FixedStep, Eta: big.NewRat(1, 100), Grid: CodeGrid(4000)})
	require.NoError(t, err)
	c, err = NewChain(4000, cl)
	require.NoError(t, err)
	got, err := c.Release(scoreSub("", "0.123456", 4000))
	require.NoError(t, err)
	assert.Equal(t, "0.1235", got.Score.FloatString(4))
}

func TestLadderParameterFree(t *testing.T) {
	// Four rows. Leader losses (1,0,1,0): s = sd = √(1/3), margin s/2.
	l, err := NewLadder(LadderOptions{Kind: ParameterFree})
	require.NoError(t, err)
	c, err := NewChain(4, l)
	require.NoError(t, err)
	first := []float64{1, 0, 1, 0}
	got, err := c.Release(Submission{Losses: first})
	require.NoError(t, err)
	assert.Equal(t, "1/2", got.Score.RatString(), "first submission releases its score unrounded")

	// One row better: differences (−1,0,0,0), s = 1/2, margin 1/4;
	// score 1/4 < 1/2 − 1/4 is false: repeat.
	got, err = c.Release(Submission{Losses: []float64{0, 0, 1, 0}})
	require.NoError(t, err)
	assert.Equal(t, "1/2", got.Score.RatString(), "improvement equal to s/√n repeats the best")

	// Two rows better: differences (−1,0,−1,0), s = √(1/3), margin ≈ 0.2887;
	// 0 < 0.5 − 0.2887: moves.
	got, err = c.Release(Submission{Losses: []float64{0, 0, 0, 0}})
	require.NoError(t, err)
	assert.Equal(t, "0", got.Score.RatString())

	// The test is paired: a challenger close to the leader row by row moves
	// the ladder even though its own losses spread widely. Leader
	// (2,0,2,0), challenger (1.8,0,1.8,0): paired sd 0.1155, margin 0.058,
	// 0.9 < 1 − 0.058 moves; an unpaired sd (1.04, margin 0.52) would not.
	lp, err := NewLadder(LadderOptions{Kind: ParameterFree})
	require.NoError(t, err)
	cp, err := NewChain(4, lp)
	require.NoError(t, err)
	_, err = cp.Release(Submission{Losses: []float64{2, 0, 2, 0}})
	require.NoError(t, err)
	got, err = cp.Release(Submission{Losses: []float64{1.8, 0, 1.8, 0}})
	require.NoError(t, err)
	assert.Equal(t, []string{"ladder: moved"}, got.Events)
	assert.InDelta(t, 0.9, got.Float64(), 1e-15)

	// With a Grid the parameter-free Ladder rounds what it releases:
	// 0.3 on the 1/4 grid is 1/4.
	lg, err := NewLadder(LadderOptions{Kind: ParameterFree, Grid: big.NewRat(1, 4)})
	require.NoError(t, err)
	cg, err := NewChain(4, lg)
	require.NoError(t, err)
	got, err = cg.Release(Submission{Losses: []float64{0.25, 0.25, 0.5, 0.2}})
	require.NoError(t, err)
	assert.Equal(t, "1/4", got.Score.RatString())

	// AUC has no per-row losses: the paired test refuses.
	_, err = c.Release(Submission{Mean: func([]int) (*big.Rat, error) { return big.NewRat(1, 3), nil }})
	assert.ErrorIs(t, err, ErrNoPerRow)

	// A Subset before a parameter-free Ladder is refused at construction.
	sb, err := NewSubset(2, &[32]byte{})
	require.NoError(t, err)
	_, err = NewChain(4, sb, l)
	assert.Error(t, err)
}

func TestThresholdout(t *testing.T) {
	seed := [32]byte{7}
	o := ThresholdoutOptions{T: 0.05, Sigma: 1e-6, Budget: 2, Seed: &seed}
	th, err := NewThresholdout(o)
	require.NoError(t, err)
	c, err := NewChain(1, th)
	require.NoError(t, err)
	sub := func(h, tr string) Submission {
		s := scoreSub("", h, 1)
		s.TrainScore = rat(tr)
		return s
	}
	// |0.40 − 0.42| = 0.02 < T: the training score, exactly, no budget spent.
	// (The noise is Lap(4σ) = Lap(4e−6): P(it exceeds 0.03) = e^(−7500)/2.)
	for range 5 {
		got, err := c.Release(sub("0.40", "0.42"))
		require.NoError(t, err)
		assert.Equal(t, "21/50", got.Score.RatString(), "below threshold answers the training score")
	}
	assert.Equal(t, 2, th.Remaining())
	// |0.40 − 0.30| = 0.10 > T: the holdout score plus Lap(σ), budget spent.
	for want := 1; want >= 0; want-- {
		got, err := c.Release(sub("0.40", "0.30"))
		require.NoError(t, err)
		assert.InDelta(t, 0.40, got.Float64(), 1e-4, "above threshold answers the noisy holdout") // 1e−4 = 100σ
		assert.NotEqual(t, "2/5", got.Score.RatString(), "the holdout answer carries noise")
		assert.Equal(t, want, th.Remaining())
	}
	_, err = c.Release(sub("0.40", "0.42"))
	assert.ErrorIs(t, err, ErrExhausted, "stops answering once B is spent")
	assert.Error(t, th.Restore(3))
	require.NoError(t, th.Restore(1))
	_, err = c.Release(sub("0.40", "0.42"))
	assert.NoError(t, err, "a restored budget answers")

	d, err := ThresholdoutDefaults(0.1, 1000, 0.05, 1, 10)
	require.NoError(t, err)
	assert.InDelta(t, 0.075, d.T, 1e-15)
	assert.InDelta(t, 0.1/(96*math.Log(4000/0.05)), d.Sigma, 1e-15)
	sc, err := ThresholdoutScienceCode(10000, 1, 5)
	require.NoError(t, err)
	assert.InDelta(t, 0.04, sc.T, 1e-15)
	assert.InDelta(t, 0.01, sc.Sigma, 1e-15)
	assert.True(t, sc.Gaussian)
	_, err = NewThresholdout(ThresholdoutOptions{T: 0.1, Sigma: 0, Budget: 1})
	assert.Error(t, err)
	_, err = c.Release(scoreSub("", "0.4", 1)) // no training score
	assert.Error(t, err)
}

type fakeClock struct{ t time.Time }

func (f *fakeClock) now() time.Time { return f.t }

func TestBudget(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC)}
	b, err := NewBudget(Limits{PerDay: 2, Total: 3, MinInterval: time.Hour}, clk.now)
	require.NoError(t, err)
	steps := []struct {
		advance time.Duration
		want    Reason
	}{
		{0, Allowed},
		{30 * time.Minute, TooSoon},    // 22:30, interval 1 h
		{30 * time.Minute, Allowed},    // 23:00
		{30 * time.Minute, DailyLimit}, // 23:30, 2 today
		{31 * time.Minute, Allowed},    // 00:01 next UTC day: daily reset
		{2 * time.Hour, TotalLimit},    // 3 in total
		{48 * time.Hour, TotalLimit},
	}
	for i, st := range steps {
		clk.t = clk.t.Add(st.advance)
		d := b.Spend("alice")
		assert.Equal(t, st.want, d.Reason, "step %d at %v", i, clk.t)
	}
	// Another account has its own budget; refused requests spent nothing.
	assert.True(t, b.Spend("bob").OK())

	d := Limits{PerDay: 5}.Decide(Usage{Today: 5, Total: 5}, time.Date(2026, 3, 1, 13, 0, 0, 0, time.UTC))
	assert.Equal(t, DailyLimit, d.Reason)
	assert.Equal(t, time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC), d.RetryAt)
	d = Limits{PerDay: 5, Total: 10}.Decide(Usage{Today: 1, Total: 1}, time.Now())
	assert.Equal(t, 3, d.LeftToday)
	assert.Equal(t, 8, d.LeftTotal)
	_, err = NewBudget(Limits{PerDay: -1}, nil)
	assert.Error(t, err)
}

func TestSplitHidesPrivateRows(t *testing.T) {
	const n = 200
	clk := &fakeClock{t: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	closeAt := clk.t.Add(24 * time.Hour)
	sp, err := NewSplit(n, 0.3, [32]byte{1}, closeAt, clk.now)
	require.NoError(t, err)
	assert.Len(t, sp.Public(), 60)
	assert.Len(t, sp.Private(), 140)
	seen := map[int]bool{}
	for _, i := range append(sp.Public(), sp.Private()...) {
		assert.False(t, seen[i], "row %d twice", i)
		seen[i] = true
	}
	c, err := NewChain(n, sp)
	require.NoError(t, err)
	y := make([]int, n)
	for i := range y {
		y[i] = i % 2
	}
	b, err := NewBoard(BoardOptions{Metric: ZeroOne{}, Labels: y, Chain: c})
	require.NoError(t, err)
	pred := make([]float64, n)
	baseR, err := b.Submit(context.Background(), pred)
	require.NoError(t, err)
	base, _ := baseR.Float64()
	assert.InDelta(t, 0.5, base, 0.2)
	// Flipping any private row leaves the public score unchanged; flipping
	// a public row moves it by exactly 1/60.
	for _, i := range sp.Private() {
		pred[i] = 1
		got, err := b.Submit(context.Background(), pred)
		require.NoError(t, err)
		assert.Zero(t, got.Cmp(baseR), "private row %d moved the public score", i)
		pred[i] = 0
	}
	i := sp.Public()[0]
	pred[i] = 1
	gotR, err := b.Submit(context.Background(), pred)
	require.NoError(t, err)
	assert.Zero(t, new(big.Rat).Sub(gotR, baseR).Abs(new(big.Rat).Sub(gotR, baseR)).Cmp(big.NewRat(1, 60)), "a public row moves the score by exactly 1/60")
	pred[i] = 0

	_, err = b.PrivateScore(pred)
	assert.ErrorIs(t, err, ErrNotClosed, "private score before close")
	clk.t = closeAt
	ps, err := b.PrivateScore(pred)
	require.NoError(t, err)
	e := 0
	for _, i := range sp.Private() {
		if y[i] == 1 {
			e++
		}
	}
	assert.Equal(t, big.NewRat(int64(e), 140).RatString(), ps.RatString())

	_, err = NewSplit(n, 0, [32]byte{}, time.Time{}, nil)
	assert.Error(t, err)
	_, err = NewSplit(n, 0.001, [32]byte{}, time.Time{}, nil)
	assert.Error(t, err, "no public row")
}

func TestSubset(t *testing.T) {
	const n = 100
	sb, err := NewSubset(20, &[32]byte{3})
	require.NoError(t, err)
	c, err := NewChain(n, sb)
	require.NoError(t, err)
	losses := make([]float64, n)
	for i := range losses {
		losses[i] = float64(i)
	}
	// The same submission gets a different subset each time: over 10
	// releases the scores are not all equal (P(all 10 equal) is negligible).
	scores := map[string]bool{}
	for range 10 {
		got, err := c.Release(Submission{Losses: losses})
		require.NoError(t, err)
		assert.Equal(t, 20, got.Rows)
		scores[got.Score.RatString()] = true
	}
	assert.Greater(t, len(scores), 5)
	big, err := NewSubset(200, nil)
	require.NoError(t, err)
	c, err = NewChain(n, big)
	require.NoError(t, err)
	_, err = c.Release(Submission{Losses: losses})
	assert.Error(t, err, "subset larger than the rows")
}

func TestNoise(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	mk := func(key NoiseKey, secret []byte) *Chain {
		z, err := NewNoise(NoiseOptions{Kind: Gaussian, Scale: 0.01, Key: key, Secret: secret})
		require.NoError(t, err)
		c, err := NewChain(4, z)
		require.NoError(t, err)
		return c
	}
	p1 := CanonicalPred([]float64{0.1, 0.9, 0.2, 0.7})
	p2 := CanonicalPred([]float64{0.1, 0.9, 0.2, 0.71})
	l1 := []float64{0.1, 0.1, 0.2, 0.3}
	rel := func(c *Chain, pred []byte, l []float64) string {
		r, err := c.Release(Submission{Pred: pred, Losses: l})
		require.NoError(t, err)
		return r.Score.RatString()
	}

	fresh := mk(Fresh, secret)
	assert.NotEqual(t, rel(fresh, p1, l1), rel(fresh, p1, l1), "fresh noise differs for the same prediction")
	// A restart with the same secret does not replay fresh noise.
	assert.NotEqual(t, rel(mk(Fresh, secret), p1, l1), rel(mk(Fresh, secret), p1, l1), "fresh noise replayed after a restart")

	keyed := mk(KeyedPrediction, secret)
	a := rel(keyed, p1, l1)
	assert.Equal(t, a, rel(keyed, p1, l1), "keyed noise is a function of the prediction")
	assert.Equal(t, a, rel(mk(KeyedPrediction, secret), p1, l1), "keyed noise survives a restart with the same secret")
	assert.NotEqual(t, a, rel(keyed, p2, l1), "another prediction gets other noise")
	other := []byte("another secret, 32 bytes long!!!")
	assert.NotEqual(t, a, rel(mk(KeyedPrediction, other), p1, l1), "a new secret does not replay the noise")
	_, err := keyed.Release(Submission{Losses: l1})
	assert.Error(t, err, "keyed noise without Pred")

	// Keyed on the losses: two predictions with the same per-row losses
	// get the same noise.
	kl := mk(KeyedLosses, secret)
	assert.Equal(t, rel(kl, p1, l1), rel(kl, p2, l1))

	// The law: 4,000 fresh draws of Gaussian(0, 0.01) and Laplace(0.01).
	for _, kind := range []NoiseKind{Gaussian, Laplace} {
		z, err := NewNoise(NoiseOptions{Kind: kind, Scale: 0.01})
		require.NoError(t, err)
		c, err := NewChain(4, z)
		require.NoError(t, err)
		const m = 4000
		var s, s2 float64
		for range m {
			r, err := c.Release(Submission{Losses: []float64{0, 0, 0, 0}})
			require.NoError(t, err)
			x := r.Float64()
			s += x
			s2 += x * x
		}
		sd := math.Sqrt(s2/m - (s/m)*(s/m))
		want := 0.01
		if kind == Laplace {
			want = 0.01 * math.Sqrt2
		}
		// 5 standard errors: se(mean) = sd/√m ≈ 2.2e−4, se(sd) ≈ sd·√(κ/4m) < 0.05·sd for κ ≤ 6.
		assert.InDelta(t, 0, s/m, 5*want/math.Sqrt(m), "%v mean", kind)
		assert.InDelta(t, want, sd, 0.25*want, "%v sd", kind)
	}

	// A scale near the float64 limit overflows a draw: an error, not a panic.
	huge, err := NewNoise(NoiseOptions{Kind: Laplace, Scale: math.MaxFloat64})
	require.NoError(t, err)
	hc, err := NewChain(1, huge)
	require.NoError(t, err)
	for range 20 {
		_, _ = hc.Release(Submission{Losses: []float64{0}})
	}
	for _, o := range []NoiseOptions{
		{Kind: 0, Scale: 1},
		{Kind: Gaussian, Scale: 0},
		{Kind: Gaussian, Scale: math.NaN()},
		{Kind: Laplace, Scale: math.Inf(1)},
		{Kind: Gaussian, Scale: 1, Secret: []byte("short")},
		{Kind: Gaussian, Scale: 1, Key: 9},
	} {
		_, err := NewNoise(o)
		assert.Error(t, err, "%+v", o)
	}
}

func TestAUCLoss(t *testing.T) {
	// Positives at 0.35 and 0.8, negatives at 0.1 and 0.4: 3 of 4 pairs
	// right, AUC 3/4 (the scikit-learn roc_auc_score doc example).
	got, err := AUCLoss{}.Score([]float64{0.1, 0.4, 0.35, 0.8}, []int{0, 0, 1, 1}, []int{0, 1, 2, 3})
	require.NoError(t, err)
	assert.Equal(t, "1/4", got.RatString())
	// A tie between a positive and a negative counts one half.
	got, err = AUCLoss{}.Score([]float64{0.5, 0.5}, []int{0, 1}, []int{0, 1})
	require.NoError(t, err)
	assert.Equal(t, "1/2", got.RatString())
	_, err = AUCLoss{}.Score([]float64{0.5, 0.5}, []int{1, 1}, []int{0, 1})
	assert.Error(t, err)
}

func TestLogLossHygiene(t *testing.T) {
	assert.Error(t, LogLoss{}.Check([]float64{0.5, 0}), "p = 0 without clipping is refused label-independently")
	assert.NoError(t, LogLoss{Eps: 1e-3}.Check([]float64{0.5, 0}))
	l := make([]float64, 2)
	require.NoError(t, LogLoss{Eps: 1e-3}.PerRow(l, []float64{0, 1}, []int{1, 1}))
	assert.InDelta(t, -math.Log(1e-3), l[0], 1e-12)
	assert.InDelta(t, -math.Log(1-1e-3), l[1], 1e-12)
	assert.InDelta(t, math.Log(999)/25000, MaxLabelShift(1e-3, 25000), 1e-18)
	assert.True(t, math.IsInf(MaxLabelShift(0, 10), 1))
	// Unclipped, a subnormal probability has its true loss (Go's amd64
	// math.Log gives 709.09 for 2^−1074).
	require.NoError(t, LogLoss{}.PerRow(l, []float64{0x1p-1074, 0.5}, []int{1, 1}))
	assert.Equal(t, 744.4400719213812, l[0])
}

func TestChainValidation(t *testing.T) {
	r, _ := NewRound(2)
	sp, err := NewSplit(10, 0.5, [32]byte{}, time.Time{}, nil)
	require.NoError(t, err)
	sb, _ := NewSubset(2, nil)
	_, err = NewChain(10, r, sp)
	assert.Error(t, err, "row stage after a score stage")
	_, err = NewChain(10, sb, sp)
	assert.Error(t, err, "split after subset")
	_, err = NewChain(11, sp)
	assert.Error(t, err, "split over other rows")
	_, err = NewChain(0)
	assert.Error(t, err)
	_, err = NewChain(10, nil)
	assert.Error(t, err)
	c, err := NewChain(10, sp, sb, r)
	require.NoError(t, err)
	_, err = c.Release(Submission{Losses: make([]float64, 9)})
	assert.Error(t, err, "wrong length")
	_, err = c.Release(Submission{Losses: append(make([]float64, 9), -1)})
	assert.Error(t, err, "negative loss")
	_, err = c.Release(Submission{})
	assert.Error(t, err, "no losses and no mean")
	bad := Submission{Mean: func([]int) (*big.Rat, error) { return nil, errors.New("x") }}
	_, err = c.Release(bad)
	assert.Error(t, err)
}

func TestLadderSnapshot(t *testing.T) {
	l, err := NewLadder(LadderOptions{Kind: ParameterFree, PerTeam: true})
	require.NoError(t, err)
	c, err := NewChain(4, l)
	require.NoError(t, err)
	_, err = c.Release(Submission{Team: "a", Losses: []float64{1, 0, 1, 0}})
	require.NoError(t, err)
	snap := l.Snapshot()
	require.Len(t, snap, 1)

	// A restarted server restores the state: the same tiny improvement
	// repeats the best instead of starting a new ladder.
	l2, err := NewLadder(LadderOptions{Kind: ParameterFree, PerTeam: true})
	require.NoError(t, err)
	require.NoError(t, l2.Restore(snap))
	c2, err := NewChain(4, l2)
	require.NoError(t, err)
	got, err := c2.Release(Submission{Team: "a", Losses: []float64{0, 0, 1, 0}})
	require.NoError(t, err)
	assert.Equal(t, "1/2", got.Score.RatString())

	assert.Error(t, l2.Restore(map[string]LadderEntry{"a": {}}))
	assert.Error(t, l2.Restore(map[string]LadderEntry{"a": {Best: big.NewRat(1, 2), Leader: []float64{math.NaN(), 0}}}))
	assert.Error(t, l2.Restore(map[string]LadderEntry{"a": {Best: big.NewRat(1, 2)}}))
}

func TestHygiene(t *testing.T) {
	h := Hygiene{Decimals: 2, Clip: 1e-3}
	require.NoError(t, h.Validate())
	assert.True(t, h.LabelBelowStep(25000), "ln(999)/25000 = 2.8e−4 < 0.01")
	assert.False(t, h.LabelBelowStep(198), "ln(999)/198 = 0.035 > 0.01")
	assert.False(t, Hygiene{Decimals: 5, Clip: 1e-3}.LabelBelowStep(25000), "Kaggle's 5 decimals show every label")
	assert.False(t, Hygiene{Decimals: 2}.LabelBelowStep(25000), "no clipping: unbounded")
	r, err := h.Round()
	require.NoError(t, err)
	assert.Equal(t, 2, r.Decimals())
	assert.Equal(t, 1e-3, h.Metric().Eps)
	assert.Error(t, Hygiene{Decimals: -1}.Validate())
	assert.Error(t, Hygiene{Clip: 0.5}.Validate())
	assert.Error(t, Hygiene{Clip: math.NaN()}.Validate())
}

// TestBoardThresholdout: a board whose predictions cover the training rows
// (public labels) then the holdout rows. A model as good on both gets the
// training score; one that fits the training rows only gets the noisy
// holdout score and spends budget.
func TestBoardThresholdout(t *testing.T) {
	const nt, nh = 200, 200
	r := rand.New(rand.NewPCG(3, 4))
	train, hold := make([]int, nt), make([]int, nh)
	for i := range train {
		train[i], hold[i] = r.IntN(2), r.IntN(2)
	}
	seed := [32]byte{1}
	th, err := NewThresholdout(ThresholdoutOptions{T: 0.1, Sigma: 1e-4, Budget: 3, Seed: &seed})
	require.NoError(t, err)
	c, err := NewChain(nh, th)
	require.NoError(t, err)
	b, err := NewBoard(BoardOptions{Metric: ZeroOne{}, Labels: hold, Train: train, Chain: c})
	require.NoError(t, err)
	assert.Equal(t, nt+nh, b.Rows())

	// Predict 0 everywhere: train and holdout losses are both ≈ 1/2.
	pred := make([]float64, nt+nh)
	got, err := b.SubmitAs(context.Background(), "x", pred)
	require.NoError(t, err)
	ones := 0
	for _, v := range train {
		ones += v
	}
	assert.Equal(t, big.NewRat(int64(ones), nt).RatString(), got.Score.RatString(), "training score answered")
	assert.Equal(t, 3, th.Remaining())

	// Fit the training labels exactly: train loss 0, holdout ≈ 1/2.
	for i, v := range train {
		pred[i] = float64(v)
	}
	got, err = b.SubmitAs(context.Background(), "x", pred)
	require.NoError(t, err)
	assert.Equal(t, 2, th.Remaining(), "overfitting spends budget")
	hs, err := ZeroOne{}.Score(pred[nt:], hold, seq(nh))
	require.NoError(t, err)
	hf, _ := hs.Float64()
	assert.InDelta(t, hf, got.Float64(), 0.01, "noisy holdout answered (σ = 1e−4, 100σ)")
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestConcurrentRelease runs releases and state reads from several
// goroutines (meaningful under -race).
func TestConcurrentRelease(t *testing.T) {
	lad, err := NewLadder(LadderOptions{Kind: ParameterFree, PerTeam: true})
	require.NoError(t, err)
	z, err := NewNoise(NoiseOptions{Kind: Gaussian, Scale: 1e-3})
	require.NoError(t, err)
	r, _ := NewRound(5)
	c, err := NewChain(50, lad, z, r)
	require.NoError(t, err)
	done := make(chan struct{})
	for g := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			l := make([]float64, 50)
			for k := range 50 {
				for i := range l {
					l[i] = float64((i+k+g)%3) / 2
				}
				if _, err := c.Release(Submission{Team: string(rune('a' + g%2)), Losses: l}); err != nil {
					t.Error(err)
				}
				_ = lad.Snapshot()
				_ = lad.Best("a")
			}
		}()
	}
	for range 4 {
		<-done
	}
	assert.Len(t, lad.Snapshot(), 2)
}
