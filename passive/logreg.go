// This file implements L2-regularized logistic regression trained by
// Newton's method.

package passive

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// A Classifier is a trained binary classifier.
type Classifier interface {
	// Prob1 writes P(y = 1 | x) for each row of x to dst, reallocating it
	// if it is too short, and returns it. It panics if x has the wrong
	// number of columns.
	Prob1(dst []float64, x *mat.Dense) []float64
}

// LogRegOptions configures [TrainLogReg]. The zero value is usable.
type LogRegOptions struct {
	// Lambda is the L2 penalty on the weights (not the intercept) added to
	// the mean log-loss: (λ/2)·‖w‖². 0 means 1e-4; it must be > 0, which
	// also keeps Newton's Hessian positive definite when one-hot columns
	// are collinear with the intercept.
	Lambda float64
	// MaxIter bounds the Newton steps; 0 means 50.
	MaxIter int
	// Tol stops the iteration once half the squared Newton decrement,
	// λ(θ)²/2 = gᵀH⁻¹g/2, which estimates how far the objective is above
	// its minimum [BV04, §9.5.1], is below it; 0 means 1e-14.
	Tol float64
}

func (o *LogRegOptions) validate() error {
	if o.Lambda == 0 {
		o.Lambda = 1e-4
	}
	if o.MaxIter == 0 {
		o.MaxIter = 50
	}
	if o.Tol == 0 {
		o.Tol = 1e-14
	}
	if !(o.Lambda > 0) || math.IsInf(o.Lambda, 0) || o.MaxIter < 0 || !(o.Tol > 0) {
		return fmt.Errorf("passive: logistic regression options λ=%v, max iterations %d, tolerance %v; want λ > 0, iterations ≥ 0, tolerance > 0", o.Lambda, o.MaxIter, o.Tol)
	}
	return nil
}

// LogReg is a trained logistic-regression model: P(y=1|x) = σ(w·x + b).
type LogReg struct {
	W    []float64
	B    float64
	Iter int // Newton steps taken
}

// TrainLogReg fits L2-regularized logistic regression,
//
//	minimize (1/n)·Σ_i [softplus(z_i) − y_i·z_i] + (λ/2)·‖w‖²,  z_i = w·x_i + b,
//
// by Newton's method (iteratively reweighted least squares) with a
// backtracking line search [BV04, Algorithm 9.5], which converges
// quadratically on this strictly convex objective; it is deterministic and needs no seed. It
// returns an error if the labels are not 0/1, if their number differs
// from x's rows, or if the iteration does not converge.
func TrainLogReg(ctx context.Context, x *mat.Dense, y []int, opt LogRegOptions) (*LogReg, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	n, d := x.Dims()
	if err := checkLabels(n, y); err != nil {
		return nil, err
	}
	// θ = (w, b) over augmented rows (x, 1), stored sparsely: one-hot
	// encodings are mostly zeros (Census: 15 of 109 entries per row), so
	// the Hessian's n·nnz²/2 updates cost ~50× less than a dense rank-n
	// update.
	a := newCSR(x)
	theta := make([]float64, d+1)
	grad := make([]float64, d+1)
	z := make([]float64, n)
	hd := make([]float64, (d+1)*(d+1)) // upper triangle, row-major
	h := mat.NewSymDense(d+1, nil)
	var chol mat.Cholesky
	step := mat.NewVecDense(d+1, nil)
	objective := func(th []float64) float64 {
		a.mulVec(z, th)
		var f float64
		for i, zi := range z {
			f += softplus(zi) - float64(y[i])*zi
		}
		f /= float64(n)
		var r float64
		for _, w := range th[:d] {
			r += w * w
		}
		return f + opt.Lambda/2*r
	}
	f := objective(theta)
	m := &LogReg{}
	for m.Iter = 0; m.Iter < opt.MaxIter; m.Iter++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// z holds the logits at θ. g = Aᵀ(p − y)/n + λw,
		// H = Aᵀ·diag(p(1−p))·A/n + λ·diag(1, …, 1, 0).
		clear(grad)
		clear(hd)
		for i := range n {
			idx, val := a.row(i)
			p := sigmoid(z[i])
			r := (p - float64(y[i])) / float64(n)
			s := p * (1 - p) / float64(n)
			for k, j := range idx {
				v := val[k]
				grad[j] += r * v
				sv := s * v
				hr := hd[int(j)*(d+1):]
				for l, jj := range idx[k:] {
					hr[jj] += sv * val[k+l]
				}
			}
		}
		for j := range d {
			grad[j] += opt.Lambda * theta[j]
			hd[j*(d+1)+j] += opt.Lambda
		}
		for i := range d + 1 {
			for j := i; j <= d; j++ {
				h.SetSym(i, j, hd[i*(d+1)+j])
			}
		}
		if !chol.Factorize(h) {
			return nil, errors.New("passive: logistic regression Hessian is not positive definite")
		}
		if err := chol.SolveVecTo(step, mat.NewVecDense(d+1, grad)); err != nil {
			return nil, fmt.Errorf("passive: logistic regression Newton step: %w", err)
		}
		dec := 0.0 // the squared Newton decrement gᵀH⁻¹g
		for j := range grad {
			dec += grad[j] * step.AtVec(j)
		}
		if dec/2 <= opt.Tol {
			// Converged: within rounding of the minimum, where a line
			// search can no longer see the objective decrease.
			for j := range theta {
				theta[j] -= step.AtVec(j)
			}
			m.W, m.B = theta[:d], theta[d]
			return m, nil
		}
		// Backtracking (Armijo) line search along −step [BV04, Alg 9.2].
		t := 1.0
		next := make([]float64, d+1)
		for {
			for j := range theta {
				next[j] = theta[j] - t*step.AtVec(j)
			}
			fn := objective(next)
			if fn <= f-1e-4*t*dec || t < 1e-10 {
				f = fn
				break
			}
			t /= 2
		}
		copy(theta, next)
	}
	return nil, fmt.Errorf("passive: logistic regression did not converge in %d Newton steps", opt.MaxIter)
}

// checkLabels returns an error unless y holds n > 0 labels, each 0 or 1.
func checkLabels(n int, y []int) error {
	if n != len(y) || n == 0 {
		return fmt.Errorf("passive: %d rows but %d labels", n, len(y))
	}
	for i, v := range y {
		if v != 0 && v != 1 {
			return fmt.Errorf("passive: label %d of row %d is not 0 or 1", v, i)
		}
	}
	return nil
}

// csr holds the rows of a matrix augmented with a constant 1 column, in
// compressed sparse row form with increasing column indices.
type csr struct {
	ptr []int
	idx []int32
	val []float64
}

func newCSR(x *mat.Dense) *csr {
	n, d := x.Dims()
	a := &csr{ptr: make([]int, 1, n+1)}
	for i := range n {
		for j, v := range x.RawRowView(i) {
			if v != 0 {
				a.idx = append(a.idx, int32(j))
				a.val = append(a.val, v)
			}
		}
		a.idx = append(a.idx, int32(d))
		a.val = append(a.val, 1)
		a.ptr = append(a.ptr, len(a.idx))
	}
	return a
}

func (a *csr) row(i int) ([]int32, []float64) {
	return a.idx[a.ptr[i]:a.ptr[i+1]], a.val[a.ptr[i]:a.ptr[i+1]]
}

// mulVec writes A·θ to z.
func (a *csr) mulVec(z, theta []float64) {
	for i := range z {
		idx, val := a.row(i)
		var s float64
		for k, j := range idx {
			s += theta[j] * val[k]
		}
		z[i] = s
	}
}

// Prob1 implements [Classifier].
func (m *LogReg) Prob1(dst []float64, x *mat.Dense) []float64 {
	n, d := x.Dims()
	if d != len(m.W) {
		panic(fmt.Sprintf("passive: LogReg.Prob1: %d features, model has %d", d, len(m.W)))
	}
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	for i := range n {
		s := m.B
		for j, v := range x.RawRowView(i) {
			s += m.W[j] * v
		}
		dst[i] = sigmoid(s)
	}
	return dst
}

// sigmoid is 1/(1+e^−z), evaluated without overflow for either sign.
func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// softplus is log(1+e^z), evaluated without overflow.
func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}
