package discrete

// This file runs the binary Brier score through the loss family's
// multi-query attack (single.AttackFamilyMulti, [EA, Theorem 5]): the
// Brier score is [EA]'s squared Euclidean loss g(x) = (1 − x)², whose
// term for label y and prediction p is (y − p)².

import (
	"context"
	"errors"
	"math"
	"math/big"

	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/single"
)

// maxFamilyBlock bounds M, the rows per family query: the weights 2^j
// need 2M + 12 bits below float64's 53 for the server's terms to stay
// exact enough, and the plan's search grows with M.
const maxFamilyBlock = 20

// familyTau is the noise half-width the family attack plans for: the
// caller's τ, half a unit of the last decimal, and scikit-learn's float64
// rounding: the predictions rounded to float64, each term's difference
// and square, the pairwise sum ((log₂N + 1)·N ulps at most [Higham02,
// §4.2]) and the division, all below (16 + log₂N)·2⁻⁵² of the mean.
func familyTau(o Options) float64 {
	t := o.Tau + (16+math.Log2(float64(o.N)))*0x1p-52
	if o.Decimals >= 0 {
		t += 0.5 * math.Pow(10, -float64(o.Decimals))
	}
	return t
}

// familyBlock returns the largest M ≤ maxFamilyBlock whose family plan
// separates M rows at the noise of o (an error if not even one).
func familyBlock(ctx context.Context, o Options) (int, error) {
	l, err := loss.NewBinary(loss.SE, 0, [4]float64{})
	if err != nil {
		return 0, err
	}
	tau := familyTau(o)
	var last error
	for m := min(o.N, maxFamilyBlock); m >= 1; m-- {
		_, err := single.PlanFamily(ctx, single.FamilyOptions{Loss: l, N: m, Tau: tau * float64(o.N) / float64(m)})
		if err == nil {
			return m, nil
		}
		last = err
	}
	return 0, last
}

// familyServer is what decode's family attack sees of the served Brier
// score: θ rounded to float64, the score as a big.Float.
type familyServer struct {
	r *run
}

func (f familyServer) N() int { return f.r.n }
func (f familyServer) K() int { return 2 }

func (f familyServer) Score(ctx context.Context, theta []*big.Float) (*big.Float, error) {
	p := make([]float64, len(theta))
	for i, t := range theta {
		p[i], _ = t.Float64()
	}
	v, err := f.r.score(ctx, p)
	if err != nil {
		return nil, err
	}
	return new(big.Float).SetPrec(256).SetRat(v), nil
}

var _ single.FamilyServer = familyServer{}

// family runs single.AttackFamilyMulti with the largest block it can
// separate.
func (r *run) family(ctx context.Context) error {
	if r.o.Metric != Brier || r.o.K != 2 {
		return errors.New("discrete: the family attack needs the binary Brier score")
	}
	m, err := familyBlock(ctx, r.o)
	if err != nil {
		return err
	}
	l, err := loss.NewBinary(loss.SE, 0, [4]float64{})
	if err != nil {
		return err
	}
	res, err := single.AttackFamilyMulti(ctx, familyServer{r}, single.FamilyMultiOptions{
		FamilyOptions: single.FamilyOptions{Loss: l, N: r.n, Tau: familyTau(r.o)}, M: m})
	if res != nil {
		for i, k := range res.Known {
			if k {
				r.setLabel(i, res.Labels[i])
			}
		}
		r.res.Blocks = res.Blocks
		r.res.Residual, r.res.Budget = res.Residual, res.Budget
	}
	return err
}
