package discrete

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/metric"
)

// TestSubsetScoreIsServe: the closed forms the attacks decode with are
// serve's metrics, exactly, on random labelings and subsets (the AUC's
// ties, the Brier score's float64 arithmetic included).
func TestSubsetScoreIsServe(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, m := range []Metric{Accuracy, AUC, Brier} {
		sm, err := metric.Parse(m.String(), "")
		if err != nil {
			t.Fatal(err)
		}
		for trial := range 300 {
			n := 2 + r.IntN(3000)
			y := make([]int, n)
			t1 := 0
			for i := range y {
				y[i] = r.IntN(2)
				t1 += y[i]
			}
			if m == AUC && (t1 == 0 || t1 == n) {
				continue
			}
			run := newRun(nil, Options{Metric: m, N: n, K: 2, Decimals: -1})
			run.total = t1
			in := make([]bool, n)
			s, o := 0, 0
			for i := range in {
				if r.IntN(4) == 0 {
					in[i] = true
					s++
					o += y[i]
				}
			}
			p := run.subsetPred(func(i int) bool { return in[i] })
			want := sm.Score(y, p, 2)
			if want.Inf {
				t.Fatal("want.Inf is true")
			}
			got := run.subsetScore(s, o)
			if got.Cmp(want.R) != 0 {
				t.Errorf("%v trial %d: N = %d, T = %d, |S| = %d, o = %d: closed form %s, metric %s", m, trial, n, t1, s, o, got.FloatString(20), want.R.FloatString(20))
				return
			}
		}
	}
}

// TestRightScoreIsServe: the K-class closed forms (accuracy, the
// multiclass Brier score of one-hot rows) are serve's.
func TestRightScoreIsServe(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 6))
	for _, m := range []Metric{Accuracy, Brier} {
		sm, err := metric.Parse(m.String(), "")
		if err != nil {
			t.Fatal(err)
		}
		for range 100 {
			n, k := 1+r.IntN(2000), 3+r.IntN(6)
			y := make([]int, n)
			p := make([]float64, n*k)
			right := 0
			for i := range y {
				y[i] = r.IntN(k)
				c := r.IntN(k)
				p[i*k+c] = 1
				if c == y[i] {
					right++
				}
			}
			run := newRun(nil, Options{Metric: m, N: n, K: k, Decimals: -1})
			want := sm.Score(y, p, k)
			if got := run.rightScore(right).Cmp(want.R); got != 0 {
				t.Errorf("%v N = %d K = %d: got %v, want %v", m, n, k, got, 0)
			}
		}
	}
}

// TestDesign: every design decodes every 0/1 vector of small levels
// exhaustively and random ones of large levels, and refuses answers no
// vector explains.
func TestDesign(t *testing.T) {
	for lv := range 4 {
		d := newDesign(lv)
		nn, q := levelSize(lv)
		if d.n != nn {
			t.Fatalf("d.n = %v, want %v", d.n, nn)
		}
		if len(d.rows) != q {
			t.Fatalf("len %d, want %d", len(d.rows), q)
		}
		if nn > 20 {
			continue
		}
		for v := range 1 << nn {
			x := make([]int, nn)
			for i := range x {
				x[i] = v >> i & 1
			}
			got, err := d.decode(weigh(d, x))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, x) {
				t.Fatalf("got %v, want %v", got, x)
			}
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	d := newDesign(8)
	for range 20 {
		x := make([]int, d.n)
		for i := range x {
			x[i] = r.IntN(2)
		}
		ans := weigh(d, x)
		got, err := d.decode(ans)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, x) {
			t.Fatalf("got %v, want %v", got, x)
		}
		// One weighing off by one: another vector's answers or none's;
		// whatever decode returns must reproduce them.
		j := r.IntN(len(ans))
		ans[j]++
		if got, err := d.decode(ans); err == nil {
			if got := weigh(d, got); !slices.Equal(got, ans) {
				t.Errorf("weigh(d, got) = %v, want %v", got, ans)
			}
		}
		// A weighing heavier than its coins: no vector.
		ans[j] = len(d.rows[j]) + 1
		_, err = d.decode(ans)
		if !errors.Is(err, errWeigh) {
			t.Errorf("error %v, want %v", err, errWeigh)
		}
	}
	var pl planner
	_, q := pl.plan(1000)
	if q != 312 {
		t.Errorf("weighings for 1,000 rows: got %v, want %v", q, 312)
	}
}

func weigh(d *design, x []int) []int {
	ans := make([]int, len(d.rows))
	for r, row := range d.rows {
		for _, c := range row {
			ans[r] += x[c]
		}
	}
	return ans
}
