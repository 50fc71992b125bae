package defence

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
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
			if err != nil {
				t.Fatal(err)
			}
			c, err := NewChain(1, r)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Release(scoreSub("", tt.x, 1))
			if err != nil {
				t.Fatal(err)
			}
			if got := got.Text(); got != tt.want {
				t.Errorf("round(%s, %d): got %v, want %v", tt.x, tt.d, got, tt.want)
			}
			if got.Decimals != tt.d {
				t.Errorf("got.Decimals = %v, want %v", got.Decimals, tt.d)
			}
			// On the grid: the released value times 10^d is an integer.
			m := new(big.Rat).Mul(got.Score, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(tt.d)), nil)))
			if !m.IsInt() {
				t.Errorf("released %s not on the 10^-%d grid", got.Score.RatString(), tt.d)
			}
		})
	}
	_, err := NewRound(-1)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = NewRound(MaxDecimals + 1)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

func TestExactMean(t *testing.T) {
	// 0.1 + 0.2 as float64 values, exactly: their dyadic sum over 2.
	got, err := ExactMean([]float64{0.1, 0.2})
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Rat).Add(new(big.Rat).SetFloat64(0.1), new(big.Rat).SetFloat64(0.2))
	want.Quo(want, big.NewRat(2, 1))
	if got, want := got.RatString(), want.RatString(); got != want {
		t.Errorf("got.RatString() = %v, want %v", got, want)
	}
	// Wide exponent range: 1e300 + 1e-300 − 1e300 would lose the small
	// term in float64; here the mean is exact.
	got, err = ExactMean([]float64{1e300, 5e-324, 0})
	if err != nil {
		t.Fatal(err)
	}
	want = new(big.Rat).Add(new(big.Rat).SetFloat64(1e300), new(big.Rat).SetFloat64(5e-324))
	want.Quo(want, big.NewRat(3, 1))
	if want.Cmp(got) != 0 {
		t.Errorf("want = %v, want %v", want, got)
	}
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
		if err != nil {
			t.Fatal(err)
		}
		if got, want := got.RatString(), want.RatString(); got != want {
			t.Errorf("trial %d: got %v, want %v", trial, got, want)
		}
	}
	_, err = ExactMean(nil)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = ExactMean([]float64{math.NaN()})
	if err == nil {
		t.Error("want an error, got nil")
	}
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
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChain(10, l)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range steps {
		got, err := c.Release(scoreSub(st.team, st.score, 10))
		if err != nil {
			t.Fatal(err)
		}
		if got := got.Score.RatString(); got != st.want {
			t.Errorf("step %d: ladder(%s): got %v, want %v", i, st.score, got, st.want)
		}
	}

	// Per team, as the authors' code: b's first submission moves b's ladder.
	pl, err := NewLadder(LadderOptions{Kind: FixedStep, Eta: big.NewRat(1, 100), PerTeam: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err = NewChain(10, pl)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []struct{ team, score, want string }{
		{"a", "0.30", "3/10"},
		{"b", "0.50", "1/2"}, // global would repeat 0.30
		{"a", "0.295", "3/10"},
		{"b", "0.45", "9/20"},
	} {
		got, err := c.Release(scoreSub(st.team, st.score, 10))
		if err != nil {
			t.Fatal(err)
		}
		if got := got.Score.RatString(); got != st.want {
			t.Errorf("team %s: ladder(%s): got %v, want %v", st.team, st.score, got, st.want)
		}
	}
	if got := pl.Best("a").RatString(); got != "3/10" {
		t.Errorf("pl.Best(\"a\").RatString() = %v, want %v", got, "3/10")
	}

	// The authors' FixedLadder rounds to round(log10 n) decimals.
	if got := CodeGrid(4000).RatString(); got != "1/10000" {
		t.Errorf("CodeGrid(4000).RatString() = %v, want %v", got, "1/10000")
	}
	if got := CodeGrid(1000).RatString(); got != "1/1000" {
		t.Errorf("CodeGrid(1000).RatString() = %v, want %v", got, "1/1000")
	}
	cl, err := NewLadder(LadderOptions{Kind: FixedStep, Eta: big.NewRat(1, 100), Grid: CodeGrid(4000)})
	if err != nil {
		t.Fatal(err)
	}
	c, err = NewChain(4000, cl)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Release(scoreSub("", "0.123456", 4000))
	if err != nil {
		t.Fatal(err)
	}
	if got := got.Score.FloatString(4); got != "0.1235" {
		t.Errorf("got.Score.FloatString(4) = %v, want %v", got, "0.1235")
	}
}

func TestLadderParameterFree(t *testing.T) {
	// Four rows. Leader losses (1,0,1,0): s = sd = √(1/3), margin s/2.
	l, err := NewLadder(LadderOptions{Kind: ParameterFree})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChain(4, l)
	if err != nil {
		t.Fatal(err)
	}
	first := []float64{1, 0, 1, 0}
	got, err := c.Release(Submission{Losses: first})
	if err != nil {
		t.Fatal(err)
	}
	if got := got.Score.RatString(); got != "1/2" {
		t.Errorf("first submission releases its score unrounded: got %v, want %v", got, "1/2")
	}

	// One row better: differences (−1,0,0,0), s = 1/2, margin 1/4;
	// score 1/4 < 1/2 − 1/4 is false: repeat.
	got, err = c.Release(Submission{Losses: []float64{0, 0, 1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if got := got.Score.RatString(); got != "1/2" {
		t.Errorf("improvement equal to s/√n repeats the best: got %v, want %v", got, "1/2")
	}

	// Two rows better: differences (−1,0,−1,0), s = √(1/3), margin ≈ 0.2887;
	// 0 < 0.5 − 0.2887: moves.
	got, err = c.Release(Submission{Losses: []float64{0, 0, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if got := got.Score.RatString(); got != "0" {
		t.Errorf("got.Score.RatString() = %v, want %v", got, "0")
	}

	// The test is paired: a challenger close to the leader row by row moves
	// the ladder even though its own losses spread widely. Leader
	// (2,0,2,0), challenger (1.8,0,1.8,0): paired sd 0.1155, margin 0.058,
	// 0.9 < 1 − 0.058 moves; an unpaired sd (1.04, margin 0.52) would not.
	lp, err := NewLadder(LadderOptions{Kind: ParameterFree})
	if err != nil {
		t.Fatal(err)
	}
	cp, err := NewChain(4, lp)
	if err != nil {
		t.Fatal(err)
	}
	_, err = cp.Release(Submission{Losses: []float64{2, 0, 2, 0}})
	if err != nil {
		t.Fatal(err)
	}
	got, err = cp.Release(Submission{Losses: []float64{1.8, 0, 1.8, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ladder: moved"}; !slices.Equal(got.Events, want) {
		t.Errorf("got.Events = %v, want %v", got.Events, want)
	}
	if dev := math.Abs(0.9 - got.Float64()); !(dev <= 1e-15) {
		t.Errorf("got %v, want %v within %v", got.Float64(), 0.9, 1e-15)
	}

	// With a Grid the parameter-free Ladder rounds what it releases:
	// 0.3 on the 1/4 grid is 1/4.
	lg, err := NewLadder(LadderOptions{Kind: ParameterFree, Grid: big.NewRat(1, 4)})
	if err != nil {
		t.Fatal(err)
	}
	cg, err := NewChain(4, lg)
	if err != nil {
		t.Fatal(err)
	}
	got, err = cg.Release(Submission{Losses: []float64{0.25, 0.25, 0.5, 0.2}})
	if err != nil {
		t.Fatal(err)
	}
	if got := got.Score.RatString(); got != "1/4" {
		t.Errorf("got.Score.RatString() = %v, want %v", got, "1/4")
	}

	// AUC has no per-row losses: the paired test refuses.
	_, err = c.Release(Submission{Mean: func([]int) (*big.Rat, error) { return big.NewRat(1, 3), nil }})
	if !errors.Is(err, ErrNoPerRow) {
		t.Errorf("error %v, want %v", err, ErrNoPerRow)
	}

	// A Subset before a parameter-free Ladder is refused at construction.
	sb, err := NewSubset(2, &[32]byte{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewChain(4, sb, l)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

func TestThresholdout(t *testing.T) {
	seed := [32]byte{7}
	o := ThresholdoutOptions{T: 0.05, Sigma: 1e-6, Budget: 2, Seed: &seed}
	th, err := NewThresholdout(o)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChain(1, th)
	if err != nil {
		t.Fatal(err)
	}
	sub := func(h, tr string) Submission {
		s := scoreSub("", h, 1)
		s.TrainScore = rat(tr)
		return s
	}
	// |0.40 − 0.42| = 0.02 < T: the training score, exactly, no budget spent.
	// (The noise is Lap(4σ) = Lap(4e−6): P(it exceeds 0.03) = e^(−7500)/2.)
	for range 5 {
		got, err := c.Release(sub("0.40", "0.42"))
		if err != nil {
			t.Fatal(err)
		}
		if got := got.Score.RatString(); got != "21/50" {
			t.Errorf("below threshold answers the training score: got %v, want %v", got, "21/50")
		}
	}
	if got := th.Remaining(); got != 2 {
		t.Errorf("th.Remaining() = %v, want %v", got, 2)
	}
	// |0.40 − 0.30| = 0.10 > T: the holdout score plus Lap(σ), budget spent.
	for want := 1; want >= 0; want-- {
		got, err := c.Release(sub("0.40", "0.30"))
		if err != nil {
			t.Fatal(err)
		}
		if dev := math.Abs(0.40 - got.Float64()); !(dev <= 1e-4) {
			t.Errorf("above threshold answers the noisy holdout: got %v, want %v within %v", got.Float64(), 0.40, 1e-4)
		} // 1e−4 = 100σ
		if "2/5" == got.Score.RatString() {
			t.Errorf("the holdout answer carries noise: both %v", "2/5")
		}
		if got := th.Remaining(); got != want {
			t.Errorf("th.Remaining() = %v, want %v", got, want)
		}
	}
	_, err = c.Release(sub("0.40", "0.42"))
	if !errors.Is(err, ErrExhausted) {
		t.Errorf("stops answering once B is spent: error %v, want %v", err, ErrExhausted)
	}
	if th.Restore(3) == nil {
		t.Error("want an error, got nil")
	}
	if err := th.Restore(1); err != nil {
		t.Fatal(err)
	}
	_, err = c.Release(sub("0.40", "0.42"))
	if err != nil {
		t.Errorf("a restored budget answers: %v", err)
	}

	d, err := ThresholdoutDefaults(0.1, 1000, 0.05, 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	if dev := math.Abs(0.075 - d.T); !(dev <= 1e-15) {
		t.Errorf("got %v, want %v within %v", d.T, 0.075, 1e-15)
	}
	if dev := math.Abs((0.1 / (96 * math.Log(4000/0.05))) - d.Sigma); !(dev <= 1e-15) {
		t.Errorf("got %v, want %v within %v", d.Sigma, 0.1/(96*math.Log(4000/0.05)), 1e-15)
	}
	sc, err := ThresholdoutScienceCode(10000, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	if dev := math.Abs(0.04 - sc.T); !(dev <= 1e-15) {
		t.Errorf("got %v, want %v within %v", sc.T, 0.04, 1e-15)
	}
	if dev := math.Abs(0.01 - sc.Sigma); !(dev <= 1e-15) {
		t.Errorf("got %v, want %v within %v", sc.Sigma, 0.01, 1e-15)
	}
	if !sc.Gaussian {
		t.Error("sc.Gaussian is false")
	}
	_, err = NewThresholdout(ThresholdoutOptions{T: 0.1, Sigma: 0, Budget: 1})
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = c.Release(scoreSub("", "0.4", 1)) // no training score
	if err == nil {
		t.Error("want an error, got nil")
	}
}

type fakeClock struct{ t time.Time }

func (f *fakeClock) now() time.Time { return f.t }

func TestBudget(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC)}
	b, err := NewBudget(Limits{PerDay: 2, Total: 3, MinInterval: time.Hour}, clk.now)
	if err != nil {
		t.Fatal(err)
	}
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
		if d.Reason != st.want {
			t.Errorf("step %d at %v: got %v, want %v", i, clk.t, d.Reason, st.want)
		}
	}
	// Another account has its own budget; refused requests spent nothing.
	if !b.Spend("bob").OK() {
		t.Error("b.Spend(\"bob\").OK() is false")
	}

	d := Limits{PerDay: 5}.Decide(Usage{Today: 5, Total: 5}, time.Date(2026, 3, 1, 13, 0, 0, 0, time.UTC))
	if d.Reason != DailyLimit {
		t.Errorf("d.Reason = %v, want %v", d.Reason, DailyLimit)
	}
	if want := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC); d.RetryAt != want {
		t.Errorf("d.RetryAt = %v, want %v", d.RetryAt, want)
	}
	d = Limits{PerDay: 5, Total: 10}.Decide(Usage{Today: 1, Total: 1}, time.Now())
	if d.LeftToday != 3 {
		t.Errorf("d.LeftToday = %v, want %v", d.LeftToday, 3)
	}
	if d.LeftTotal != 8 {
		t.Errorf("d.LeftTotal = %v, want %v", d.LeftTotal, 8)
	}
	_, err = NewBudget(Limits{PerDay: -1}, nil)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

func TestSplitHidesPrivateRows(t *testing.T) {
	const n = 200
	clk := &fakeClock{t: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	closeAt := clk.t.Add(24 * time.Hour)
	sp, err := NewSplit(n, 0.3, [32]byte{1}, closeAt, clk.now)
	if err != nil {
		t.Fatal(err)
	}
	if len(sp.Public()) != 60 {
		t.Errorf("len %d, want %d", len(sp.Public()), 60)
	}
	if len(sp.Private()) != 140 {
		t.Errorf("len %d, want %d", len(sp.Private()), 140)
	}
	seen := map[int]bool{}
	for _, i := range append(sp.Public(), sp.Private()...) {
		if seen[i] {
			t.Errorf("row %d twice", i)
		}
		seen[i] = true
	}
	c, err := NewChain(n, sp)
	if err != nil {
		t.Fatal(err)
	}
	y := make([]int, n)
	for i := range y {
		y[i] = i % 2
	}
	b, err := NewBoard(BoardOptions{Metric: ZeroOne{}, Labels: y, Chain: c})
	if err != nil {
		t.Fatal(err)
	}
	pred := make([]float64, n)
	baseR, err := b.Submit(context.Background(), pred)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := baseR.Float64()
	if dev := math.Abs(0.5 - base); !(dev <= 0.2) {
		t.Errorf("got %v, want %v within %v", base, 0.5, 0.2)
	}
	// Flipping any private row leaves the public score unchanged; flipping
	// a public row moves it by exactly 1/60.
	for _, i := range sp.Private() {
		pred[i] = 1
		got, err := b.Submit(context.Background(), pred)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(baseR) != 0 {
			t.Errorf("private row %d moved the public score", i)
		}
		pred[i] = 0
	}
	i := sp.Public()[0]
	pred[i] = 1
	gotR, err := b.Submit(context.Background(), pred)
	if err != nil {
		t.Fatal(err)
	}
	if d := new(big.Rat).Sub(gotR, baseR); d.Abs(d).Cmp(big.NewRat(1, 60)) != 0 {
		t.Errorf("a public row moves the score by %v, want exactly 1/60", d)
	}
	pred[i] = 0

	_, err = b.PrivateScore(pred)
	if !errors.Is(err, ErrNotClosed) {
		t.Errorf("private score before close: error %v, want %v", err, ErrNotClosed)
	}
	clk.t = closeAt
	ps, err := b.PrivateScore(pred)
	if err != nil {
		t.Fatal(err)
	}
	e := 0
	for _, i := range sp.Private() {
		if y[i] == 1 {
			e++
		}
	}
	if got, want := ps.RatString(), big.NewRat(int64(e), 140).RatString(); got != want {
		t.Errorf("ps.RatString() = %v, want %v", got, want)
	}

	_, err = NewSplit(n, 0, [32]byte{}, time.Time{}, nil)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = NewSplit(n, 0.001, [32]byte{}, time.Time{}, nil)
	if err == nil {
		t.Errorf("no public row: no error")
	}
}

func TestSubset(t *testing.T) {
	const n = 100
	sb, err := NewSubset(20, &[32]byte{3})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChain(n, sb)
	if err != nil {
		t.Fatal(err)
	}
	losses := make([]float64, n)
	for i := range losses {
		losses[i] = float64(i)
	}
	// The same submission gets a different subset each time: over 10
	// releases the scores are not all equal (P(all 10 equal) is negligible).
	scores := map[string]bool{}
	for range 10 {
		got, err := c.Release(Submission{Losses: losses})
		if err != nil {
			t.Fatal(err)
		}
		if got.Rows != 20 {
			t.Errorf("got.Rows = %v, want %v", got.Rows, 20)
		}
		scores[got.Score.RatString()] = true
	}
	if !(len(scores) > 5) {
		t.Errorf("len(scores) = %v, want > %v", len(scores), 5)
	}
	big, err := NewSubset(200, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err = NewChain(n, big)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Release(Submission{Losses: losses})
	if err == nil {
		t.Errorf("subset larger than the rows: no error")
	}
}

func TestNoise(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	mk := func(key NoiseKey, secret []byte) *Chain {
		z, err := NewNoise(NoiseOptions{Kind: Gaussian, Scale: 0.01, Key: key, Secret: secret})
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewChain(4, z)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	p1 := CanonicalPred([]float64{0.1, 0.9, 0.2, 0.7})
	p2 := CanonicalPred([]float64{0.1, 0.9, 0.2, 0.71})
	l1 := []float64{0.1, 0.1, 0.2, 0.3}
	rel := func(c *Chain, pred []byte, l []float64) string {
		r, err := c.Release(Submission{Pred: pred, Losses: l})
		if err != nil {
			t.Fatal(err)
		}
		return r.Score.RatString()
	}

	fresh := mk(Fresh, secret)
	if rel(fresh, p1, l1) == rel(fresh, p1, l1) {
		t.Errorf("fresh noise differs for the same prediction: both %v", rel(fresh, p1, l1))
	}
	// A restart with the same secret does not replay fresh noise.
	if rel(mk(Fresh, secret), p1, l1) == rel(mk(Fresh, secret), p1, l1) {
		t.Errorf("fresh noise replayed after a restart: both %v", rel(mk(Fresh, secret), p1, l1))
	}

	keyed := mk(KeyedPrediction, secret)
	a := rel(keyed, p1, l1)
	if got := rel(keyed, p1, l1); got != a {
		t.Errorf("keyed noise is a function of the prediction: got %v, want %v", got, a)
	}
	if got := rel(mk(KeyedPrediction, secret), p1, l1); got != a {
		t.Errorf("keyed noise survives a restart with the same secret: got %v, want %v", got, a)
	}
	if a == rel(keyed, p2, l1) {
		t.Errorf("another prediction gets other noise: both %v", a)
	}
	other := []byte("another secret, 32 bytes long!!!")
	if a == rel(mk(KeyedPrediction, other), p1, l1) {
		t.Errorf("a new secret does not replay the noise: both %v", a)
	}
	_, err := keyed.Release(Submission{Losses: l1})
	if err == nil {
		t.Errorf("keyed noise without Pred: no error")
	}

	// Keyed on the losses: two predictions with the same per-row losses
	// get the same noise.
	kl := mk(KeyedLosses, secret)
	if got, want := rel(kl, p2, l1), rel(kl, p1, l1); got != want {
		t.Errorf("rel(kl, p2, l1) = %v, want %v", got, want)
	}

	// The law: 4,000 fresh draws of Gaussian(0, 0.01) and Laplace(0.01).
	for _, kind := range []NoiseKind{Gaussian, Laplace} {
		z, err := NewNoise(NoiseOptions{Kind: kind, Scale: 0.01})
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewChain(4, z)
		if err != nil {
			t.Fatal(err)
		}
		const m = 4000
		var s, s2 float64
		for range m {
			r, err := c.Release(Submission{Losses: []float64{0, 0, 0, 0}})
			if err != nil {
				t.Fatal(err)
			}
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
		if dev := math.Abs(s / m); !(dev <= 5*want/math.Sqrt(m)) {
			t.Errorf("%v mean: got %v, want 0 within %v", kind, s/m, 5*want/math.Sqrt(m))
		}
		if dev := math.Abs(want - sd); !(dev <= 0.25*want) {
			t.Errorf("%v sd: got %v, want %v within %v", kind, sd, want, 0.25*want)
		}
	}

	// A scale near the float64 limit overflows a draw: an error, not a panic.
	huge, err := NewNoise(NoiseOptions{Kind: Laplace, Scale: math.MaxFloat64})
	if err != nil {
		t.Fatal(err)
	}
	hc, err := NewChain(1, huge)
	if err != nil {
		t.Fatal(err)
	}
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
		if err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func TestAUCLoss(t *testing.T) {
	// Positives at 0.35 and 0.8, negatives at 0.1 and 0.4: 3 of 4 pairs
	// right, AUC 3/4 (the scikit-learn roc_auc_score doc example).
	got, err := AUCLoss{}.Score([]float64{0.1, 0.4, 0.35, 0.8}, []int{0, 0, 1, 1}, []int{0, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := got.RatString(); got != "1/4" {
		t.Errorf("got.RatString() = %v, want %v", got, "1/4")
	}
	// A tie between a positive and a negative counts one half.
	got, err = AUCLoss{}.Score([]float64{0.5, 0.5}, []int{0, 1}, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := got.RatString(); got != "1/2" {
		t.Errorf("got.RatString() = %v, want %v", got, "1/2")
	}
	_, err = AUCLoss{}.Score([]float64{0.5, 0.5}, []int{1, 1}, []int{0, 1})
	if err == nil {
		t.Error("want an error, got nil")
	}
}

func TestLogLossHygiene(t *testing.T) {
	if (LogLoss{}).Check([]float64{0.5, 0}) == nil {
		t.Errorf("p = 0 without clipping is refused label-independently: no error")
	}
	if err := (LogLoss{Eps: 1e-3}).Check([]float64{0.5, 0}); err != nil {
		t.Error(err)
	}
	l := make([]float64, 2)
	if err := (LogLoss{Eps: 1e-3}).PerRow(l, []float64{0, 1}, []int{1, 1}); err != nil {
		t.Fatal(err)
	}
	if dev := math.Abs((-math.Log(1e-3)) - l[0]); !(dev <= 1e-12) {
		t.Errorf("got %v, want %v within %v", l[0], -math.Log(1e-3), 1e-12)
	}
	if dev := math.Abs((-math.Log(1 - 1e-3)) - l[1]); !(dev <= 1e-12) {
		t.Errorf("got %v, want %v within %v", l[1], -math.Log(1-1e-3), 1e-12)
	}
	if dev := math.Abs((math.Log(999) / 25000) - MaxLabelShift(1e-3, 25000)); !(dev <= 1e-18) {
		t.Errorf("got %v, want %v within %v", MaxLabelShift(1e-3, 25000), math.Log(999)/25000, 1e-18)
	}
	if !math.IsInf(MaxLabelShift(0, 10), 1) {
		t.Error("math.IsInf(MaxLabelShift(0, 10), 1) is false")
	}
	// Unclipped, a subnormal probability has its true loss (Go's amd64
	// math.Log gives 709.09 for 2^−1074).
	if err := (LogLoss{}).PerRow(l, []float64{0x1p-1074, 0.5}, []int{1, 1}); err != nil {
		t.Fatal(err)
	}
	if l[0] != 744.4400719213812 {
		t.Errorf("l[0] = %v, want %v", l[0], 744.4400719213812)
	}
}

func TestChainValidation(t *testing.T) {
	r, _ := NewRound(2)
	sp, err := NewSplit(10, 0.5, [32]byte{}, time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := NewSubset(2, nil)
	_, err = NewChain(10, r, sp)
	if err == nil {
		t.Errorf("row stage after a score stage: no error")
	}
	_, err = NewChain(10, sb, sp)
	if err == nil {
		t.Errorf("split after subset: no error")
	}
	_, err = NewChain(11, sp)
	if err == nil {
		t.Errorf("split over other rows: no error")
	}
	_, err = NewChain(0)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = NewChain(10, nil)
	if err == nil {
		t.Error("want an error, got nil")
	}
	c, err := NewChain(10, sp, sb, r)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Release(Submission{Losses: make([]float64, 9)})
	if err == nil {
		t.Errorf("wrong length: no error")
	}
	_, err = c.Release(Submission{Losses: append(make([]float64, 9), -1)})
	if err == nil {
		t.Errorf("negative loss: no error")
	}
	_, err = c.Release(Submission{})
	if err == nil {
		t.Errorf("no losses and no mean: no error")
	}
	bad := Submission{Mean: func([]int) (*big.Rat, error) { return nil, errors.New("x") }}
	_, err = c.Release(bad)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

func TestLadderSnapshot(t *testing.T) {
	l, err := NewLadder(LadderOptions{Kind: ParameterFree, PerTeam: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChain(4, l)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Release(Submission{Team: "a", Losses: []float64{1, 0, 1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	snap := l.Snapshot()
	if len(snap) != 1 {
		t.Fatalf("len %d, want %d", len(snap), 1)
	}

	// A restarted server restores the state: the same tiny improvement
	// repeats the best instead of starting a new ladder.
	l2, err := NewLadder(LadderOptions{Kind: ParameterFree, PerTeam: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := l2.Restore(snap); err != nil {
		t.Fatal(err)
	}
	c2, err := NewChain(4, l2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c2.Release(Submission{Team: "a", Losses: []float64{0, 0, 1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if got := got.Score.RatString(); got != "1/2" {
		t.Errorf("got.Score.RatString() = %v, want %v", got, "1/2")
	}

	if l2.Restore(map[string]LadderEntry{"a": {}}) == nil {
		t.Error("want an error, got nil")
	}
	if l2.Restore(map[string]LadderEntry{"a": {Best: big.NewRat(1, 2), Leader: []float64{math.NaN(), 0}}}) == nil {
		t.Error("want an error, got nil")
	}
	if l2.Restore(map[string]LadderEntry{"a": {Best: big.NewRat(1, 2)}}) == nil {
		t.Error("want an error, got nil")
	}
}

func TestHygiene(t *testing.T) {
	h := Hygiene{Decimals: 2, Clip: 1e-3}
	if err := h.Validate(); err != nil {
		t.Fatal(err)
	}
	if !h.LabelBelowStep(25000) {
		t.Error("ln(999)/25000 = 2.8e−4 < 0.01")
	}
	if h.LabelBelowStep(198) {
		t.Error("ln(999)/198 = 0.035 > 0.01")
	}
	if (Hygiene{Decimals: 5, Clip: 1e-3}).LabelBelowStep(25000) {
		t.Error("Kaggle's 5 decimals show every label")
	}
	if (Hygiene{Decimals: 2}).LabelBelowStep(25000) {
		t.Error("no clipping: unbounded")
	}
	r, err := h.Round()
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Decimals(); got != 2 {
		t.Errorf("r.Decimals() = %v, want %v", got, 2)
	}
	if got, want := h.Metric().Eps, 1e-3; got != want {
		t.Errorf("h.Metric().Eps = %v, want %v", got, want)
	}
	if (Hygiene{Decimals: -1}).Validate() == nil {
		t.Error("want an error, got nil")
	}
	if (Hygiene{Clip: 0.5}).Validate() == nil {
		t.Error("want an error, got nil")
	}
	if (Hygiene{Clip: math.NaN()}).Validate() == nil {
		t.Error("want an error, got nil")
	}
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
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChain(nh, th)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBoard(BoardOptions{Metric: ZeroOne{}, Labels: hold, Train: train, Chain: c})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := b.Rows(), nt+nh; got != want {
		t.Errorf("b.Rows() = %v, want %v", got, want)
	}

	// Predict 0 everywhere: train and holdout losses are both ≈ 1/2.
	pred := make([]float64, nt+nh)
	got, err := b.SubmitAs(context.Background(), "x", pred)
	if err != nil {
		t.Fatal(err)
	}
	ones := 0
	for _, v := range train {
		ones += v
	}
	if got, want := got.Score.RatString(), big.NewRat(int64(ones), nt).RatString(); got != want {
		t.Errorf("training score answered: got %v, want %v", got, want)
	}
	if got := th.Remaining(); got != 3 {
		t.Errorf("th.Remaining() = %v, want %v", got, 3)
	}

	// Fit the training labels exactly: train loss 0, holdout ≈ 1/2.
	for i, v := range train {
		pred[i] = float64(v)
	}
	got, err = b.SubmitAs(context.Background(), "x", pred)
	if err != nil {
		t.Fatal(err)
	}
	if got := th.Remaining(); got != 2 {
		t.Errorf("overfitting spends budget: got %v, want %v", got, 2)
	}
	hs, err := ZeroOne{}.Score(pred[nt:], hold, seq(nh))
	if err != nil {
		t.Fatal(err)
	}
	hf, _ := hs.Float64()
	if dev := math.Abs(hf - got.Float64()); !(dev <= 0.01) {
		t.Errorf("noisy holdout answered (σ = 1e−4, 100σ): got %v, want %v within %v", got.Float64(), hf, 0.01)
	}
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
	if err != nil {
		t.Fatal(err)
	}
	z, err := NewNoise(NoiseOptions{Kind: Gaussian, Scale: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := NewRound(5)
	c, err := NewChain(50, lad, z, r)
	if err != nil {
		t.Fatal(err)
	}
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
	if len(lad.Snapshot()) != 2 {
		t.Errorf("len %d, want %d", len(lad.Snapshot()), 2)
	}
}
