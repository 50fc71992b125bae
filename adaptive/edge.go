package adaptive

import (
	"context"
	"errors"
	"fmt"
	"math/big"
)

// EdgeOptions configures [Edge].
type EdgeOptions struct {
	// N is the number of rows (prediction values), ≥ 1.
	N int
	// Eps is the smallest probability the attack submits, in (0, 1/2):
	// the server's clipping if it clips (submitting beyond it changes
	// nothing), else any small value.
	Eps float64
	// Rows are the rows whose labels to read; nil means all N.
	Rows []int
	// Verify reads every label a second time from the other side of the
	// edge, with a different prediction; a label is verified when both
	// readings agree. It doubles the submissions.
	Verify bool
	// MaxSubmissions stops the attack after that many submissions
	// (0: no limit); labels read so far are returned.
	MaxSubmissions int
}

// EdgeResult is the outcome of [Edge].
type EdgeResult struct {
	// Submissions used: the bisection onto the edge, then one per label
	// read (two with Verify).
	Submissions int
	// Bisection is the number of submissions spent finding the edge.
	Bisection int
	// Labels holds the label read for each row, Unknown if not read.
	Labels []int8
	// Verified marks the labels whose two readings agreed (Verify only).
	Verified []bool
	// Conflicts counts rows whose two readings disagreed as a row that
	// does not enter the score does (1 from below, 0 from above: a
	// private row behind a split). Their Labels entry is Unknown.
	Conflicts int
	// Contradictions counts rows read 0 from below and 1 from above,
	// which no deterministic rounded score can produce (the score rose
	// with one move and fell with the same move): the leaderboard is
	// noisy, and then no label is marked verified.
	Contradictions int
	// Known and NumVerified count the read and the verified labels.
	Known, NumVerified int
}

// Edge runs the threshold-crossing attack against a rounded log-loss
// leaderboard ([Whitehill16]; arXiv:1707.01825 for log-loss). A rounded
// score hides a label's effect ln((1−ε)/ε)/N when it is far below the
// rounding step 10^−D; but rounding is a monotone step function, so:
//
//  1. Dial: every row predicts the same q. The score S(q) is continuous in
//     q; the attack bisects q between 1/2 and a q whose released score
//     differs (ε or 1−ε; one of them does unless both classes have about
//     10% of the rows), keeping two values q_lo, q_hi whose released
//     scores differ. By the intermediate value theorem a rounding edge
//     lies between S(q_lo) and S(q_hi), and after ≈ 55 halvings they are
//     adjacent, so the score at the lower side L sits within a hair of the
//     edge.
//  2. Read: for each row i, submit L's prediction with row i moved from q
//     to q′ > q. If y_i = 0 its term −ln(1−q) rises, the score crosses
//     the edge, and the released score rises; if y_i = 1 its term −ln q
//     falls and the released score does not rise. One submission, one
//     label. (Verify: the same from the upper side U, where y_i = 1 makes
//     the released score fall.)
//
// A row that does not enter the score (a private row) reads as y = 1
// from L and y = 0 from U, so with Verify it is a conflict and never
// verified. A label is verified when its two readings agree and no row
// anywhere gave a contradiction (0 from L, 1 from U), which only noise
// produces: noise larger than one label's move ln((1−q)/(1−q′))/N makes
// each reading a coin, about a quarter of the rows then contradict, and
// Edge returns ErrNoisy with no label verified (see [AverageLabels]).
// Noise well below that move does not stop the attack. The dial needs a
// score continuous in the prediction (log-loss); against 0/1 loss, a step
// function of it, every row conflicts and nothing is verified.
func Edge(ctx context.Context, lb Leaderboard, o EdgeOptions) (*EdgeResult, error) {
	if o.N < 1 {
		return nil, fmt.Errorf("adaptive: edge attack needs N ≥ 1; have %d", o.N)
	}
	if !(o.Eps > 0 && o.Eps < 0.5) {
		return nil, fmt.Errorf("adaptive: edge attack needs 0 < ε < 1/2; have %v", o.Eps)
	}
	rows, err := attackRows(o.Rows, o.N)
	if err != nil {
		return nil, err
	}
	res := &EdgeResult{Labels: make([]int8, o.N), Verified: make([]bool, o.N)}
	for i := range res.Labels {
		res.Labels[i] = Unknown
	}
	pred := make([]float64, o.N)
	submit := func(q float64, row int, qr float64) (*big.Rat, error) {
		if o.MaxSubmissions > 0 && res.Submissions >= o.MaxSubmissions {
			return nil, ErrSubmissionLimit
		}
		for i := range pred {
			pred[i] = q
		}
		if row >= 0 {
			pred[row] = qr
		}
		s, err := lb.Submit(ctx, pred)
		if err != nil {
			return nil, err
		}
		res.Submissions++
		return s, nil
	}
	finish := func(err error) (*EdgeResult, error) {
		res.Known, res.NumVerified = count(res.Labels, res.Verified)
		return res, err
	}

	// 1. Dial onto an edge.
	qa := 0.5
	ra, err := submit(qa, -1, 0)
	if err != nil {
		return finish(err)
	}
	var qb float64
	var rb *big.Rat
	found := false
	for _, q := range []float64{o.Eps, 1 - o.Eps} {
		r, err := submit(q, -1, 0)
		if err != nil {
			return finish(err)
		}
		if r.Cmp(ra) != 0 {
			qb, rb, found = q, r, true
			break
		}
	}
	if !found {
		res.Bisection = res.Submissions
		return finish(errors.New("adaptive: no rounding edge between the dial's ends"))
	}
	for {
		m := qa + (qb-qa)/2
		if m == qa || m == qb {
			break // adjacent float64s
		}
		r, err := submit(m, -1, 0)
		if err != nil {
			res.Bisection = res.Submissions
			return finish(err)
		}
		if r.Cmp(ra) != 0 {
			qb, rb = m, r
		} else {
			qa, ra = m, r
		}
	}
	res.Bisection = res.Submissions
	qLo, rLo, qHi, rHi := qa, ra, qb, rb
	if rLo.Cmp(rHi) > 0 {
		qLo, rLo, qHi, rHi = qb, rb, qa, ra
	}
	// 2. Read. From the lower side, move row i up by a quarter of the way
	// to 1−ε: y = 0 raises the score across the edge. The rise is
	// ln((1−q)/(1−q′))/N, which dwarfs the distance to the edge
	// (|q_hi − q_lo|·max(1/q, 1/(1−q)) with adjacent float64s).
	up := func(q float64) float64 { return q + (1-o.Eps-q)/4 }
	for _, i := range rows {
		r, err := submit(qLo, i, up(qLo))
		if err != nil {
			return finish(err)
		}
		lab := int8(1)
		if r.Cmp(rLo) > 0 {
			lab = 0
		}
		if !o.Verify {
			res.Labels[i] = lab
			continue
		}
		// From the upper side: y = 1 lowers the score across the edge.
		r2, err := submit(qHi, i, up(qHi))
		if err != nil {
			return finish(err)
		}
		lab2 := int8(0)
		if r2.Cmp(rHi) < 0 {
			lab2 = 1
		}
		switch {
		case lab == lab2:
			res.Labels[i] = lab
			res.Verified[i] = true
		case lab == 1:
			res.Conflicts++
		default:
			res.Contradictions++
		}
	}
	if res.Contradictions > 0 {
		clear(res.Verified)
		return finish(ErrNoisy)
	}
	return finish(nil)
}

// ErrNoisy is returned by [Edge] when its readings contradict a
// deterministic leaderboard.
var ErrNoisy = errors.New("adaptive: readings contradict a deterministic leaderboard (noise); nothing verified")

// ErrSubmissionLimit is returned when an attack reaches its own
// MaxSubmissions.
var ErrSubmissionLimit = errors.New("adaptive: submission limit reached")

// attackRows returns the rows an attack works on: rows, checked to lie in
// [0, n), or every row when rows is nil.
func attackRows(rows []int, n int) ([]int, error) {
	if rows == nil {
		rows = make([]int, n)
		for i := range rows {
			rows[i] = i
		}
	}
	for _, i := range rows {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("adaptive: row %d out of [0, %d)", i, n)
		}
	}
	return rows, nil
}
