package adaptive

import (
	"context"
	"fmt"
	"math"
	"math/big"
)

// AverageResult is the outcome of [Average].
type AverageResult struct {
	// Submissions used (m).
	Submissions int
	// Mean and SD are the mean and sample standard deviation of the m
	// released scores; SD/√m estimates the noise left in Mean.
	Mean, SD float64
	// Distinct counts the distinct released values: 1 when the noise is
	// keyed on the prediction (or absent), so averaging gained nothing.
	Distinct int
}

// Average submits pred m ≥ 1 times and averages the released scores.
// Against fresh noise of standard deviation σ the mean's error is σ/√m:
// m = (σ/ε)² submissions buy an ε-accurate score. Against noise keyed
// on the prediction every answer is the same and the error stays σ.
func Average(ctx context.Context, lb Leaderboard, pred []float64, m int) (*AverageResult, error) {
	if m < 1 {
		return nil, fmt.Errorf("adaptive: averaging needs m ≥ 1; have %d", m)
	}
	res := &AverageResult{}
	seen := map[string]bool{}
	var sum, sum2 float64
	for range m {
		r, err := lb.Submit(ctx, pred)
		if err != nil {
			return res, err
		}
		res.Submissions++
		seen[r.RatString()] = true
		s, _ := r.Float64()
		sum += s
		sum2 += s * s
	}
	k := float64(res.Submissions)
	res.Mean = sum / k
	if res.Submissions > 1 {
		res.SD = math.Sqrt(math.Max(0, (sum2-k*res.Mean*res.Mean)/(k-1)))
	}
	res.Distinct = len(seen)
	return res, nil
}

// AverageOptions configures [AverageLabels].
type AverageOptions struct {
	// N is the number of rows (prediction values), ≥ 2.
	N int
	// Eps is the probing probability, in (0, 1/2): the server's clipping
	// if it clips.
	Eps float64
	// Rows are the rows whose labels to estimate; nil means all N.
	Rows []int
	// Repeats is the number m ≥ 1 of submissions averaged per label; see
	// [RepeatsFor].
	Repeats int
	// Perturb makes each repeat a different prediction by moving another
	// row's 1/2 by a few ulps (a score change below 10⁻¹⁵), so that noise
	// keyed on the prediction is drawn afresh for each repeat.
	Perturb bool
}

// AverageLabelsResult is the outcome of [AverageLabels].
type AverageLabelsResult struct {
	Submissions int
	// Labels holds the estimated labels, Unknown for rows not probed. None
	// is verified: each is a statistical decision whose error probability
	// RepeatsFor bounds under its assumptions.
	Labels []int8
	Known  int
	// Repeated counts labels whose m answers were all equal (m ≥ 2): the
	// noise did not average (keyed, or absent).
	Repeated int
}

// AverageLabels estimates labels against a noisy log-loss leaderboard by
// averaging: for row i it submits, m times, the prediction 1/2 on every
// row but ε on row i, whose exact score is ln 2 + (t_y − ln 2)/N with t_1
// = −ln ε and t_0 = −ln(1−ε); the mean of the m answers is compared with
// the midpoint of the two. The gap between the hypotheses is
// ln((1−ε)/ε)/N.
func AverageLabels(ctx context.Context, lb Leaderboard, o AverageOptions) (*AverageLabelsResult, error) {
	if o.N < 2 || !(o.Eps > 0 && o.Eps < 0.5) || o.Repeats < 1 {
		return nil, fmt.Errorf("adaptive: averaging needs N ≥ 2, 0 < ε < 1/2, m ≥ 1; have N=%d ε=%v m=%d", o.N, o.Eps, o.Repeats)
	}
	rows, err := attackRows(o.Rows, o.N)
	if err != nil {
		return nil, err
	}
	res := &AverageLabelsResult{Labels: make([]int8, o.N)}
	for i := range res.Labels {
		res.Labels[i] = Unknown
	}
	n := float64(o.N)
	mid := math.Ln2 + ((-math.Log(o.Eps)-math.Log1p(-o.Eps))/2-math.Ln2)/n
	pred := make([]float64, o.N)
	for _, i := range rows {
		var sum float64
		var first *big.Rat
		same := true
		for r := range o.Repeats {
			for j := range pred {
				pred[j] = 0.5
			}
			pred[i] = o.Eps
			if o.Perturb {
				j := (i + 1) % o.N
				pred[j] = 0.5 + float64(r)*0x1p-52
			}
			rs, err := lb.Submit(ctx, pred)
			if err != nil {
				res.Known, _ = count(res.Labels, nil)
				return res, err
			}
			res.Submissions++
			if r == 0 {
				first = rs
			} else if rs.Cmp(first) != 0 {
				same = false
			}
			s, _ := rs.Float64()
			sum += s
		}
		if same && o.Repeats > 1 {
			res.Repeated++
		}
		res.Labels[i] = 0
		if sum/float64(o.Repeats) > mid {
			res.Labels[i] = 1 // the larger term −ln ε
		}
	}
	res.Known, _ = count(res.Labels, nil)
	return res, nil
}

// RepeatsFor returns the number of averaged submissions that decides one
// label with error probability at most delta against Gaussian noise of
// standard deviation sigma, the two hypotheses gap apart: the mean of m
// answers errs when the noise exceeds gap/2, which has probability at
// most exp(−m·gap²/(8σ²)), so m = ⌈8σ²·ln(1/δ)/gap²⌉. For Laplace(b)
// noise pass σ = b√2 and read the bound as the Gaussian approximation of
// the mean (it is not a tail bound for small m).
func RepeatsFor(sigma, gap, delta float64) (int, error) {
	if !(sigma >= 0) || !(gap > 0) || !(delta > 0 && delta < 1) || math.IsInf(sigma, 0) {
		return 0, fmt.Errorf("adaptive: RepeatsFor needs σ ≥ 0, gap > 0, 0 < δ < 1; have σ=%v gap=%v δ=%v", sigma, gap, delta)
	}
	m := math.Ceil(8 * sigma * sigma * math.Log(1/delta) / (gap * gap))
	if m > math.MaxInt32 {
		return 0, fmt.Errorf("adaptive: %g repeats per label", m)
	}
	return max(1, int(m)), nil
}
