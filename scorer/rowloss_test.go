package scorer

import (
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRowLoss: the three encodings of one softmax row give the same
// cross-entropy: logits z, log-probabilities z − logsumexp(z) and
// probabilities e^(z − logsumexp(z)), to within the working precision.
func TestRowLoss(t *testing.T) {
	r := testrand.New(t)
	const prec = 200
	for range 30 {
		k := 2 + r.IntN(5)
		z := make([]*big.Float, k)
		for c := range z {
			z[c] = new(big.Float).SetPrec(prec).SetFloat64((r.Float64() - 0.5) * 40)
		}
		lse, err := apa.LogSumExp(new(big.Float).SetPrec(prec+32), z)
		require.NoError(t, err)
		lp := make([]*big.Float, k)
		p := make([]*big.Float, k)
		for c := range z {
			lp[c] = new(big.Float).SetPrec(prec+32).Sub(z[c], lse)
			if lp[c].Sign() > 0 {
				lp[c].SetInt64(0)
			}
			p[c], err = apa.Exp(new(big.Float).SetPrec(prec+32), lp[c])
			require.NoError(t, err)
		}
		y := r.IntN(k)
		a, err := Logits.RowLoss(new(big.Float).SetPrec(prec), z, y, nil)
		require.NoError(t, err)
		b, err := LogProbs.RowLoss(new(big.Float).SetPrec(prec), lp, y, nil)
		require.NoError(t, err)
		c, err := Probs.RowLoss(new(big.Float).SetPrec(prec), p, y, nil)
		require.NoError(t, err)
		d, err := Logits.RowLoss(new(big.Float).SetPrec(prec), z, y, lse)
		require.NoError(t, err)
		tol := new(big.Float).SetMantExp(big.NewFloat(1), -prec+8) // a few ulps of a loss below 64
		for _, o := range []*big.Float{b, c, d} {
			diff := new(big.Float).Sub(a, o)
			assert.True(t, diff.Abs(diff).Cmp(tol) <= 0, "row %v, label %d: %s against %s", z, y, a.Text('g', 30), o.Text('g', 30))
		}
	}
	bad := []*big.Float{big.NewFloat(0), big.NewFloat(1)}
	_, err := Probs.RowLoss(new(big.Float), bad, 0, nil)
	assert.Error(t, err, "probability 0 accepted")
	_, err = Probs.RowLoss(new(big.Float), []*big.Float{big.NewFloat(1.5), big.NewFloat(0.5)}, 0, nil)
	assert.Error(t, err, "probability 1.5 accepted")
	_, err = LogProbs.RowLoss(new(big.Float), []*big.Float{big.NewFloat(0.1), big.NewFloat(-1)}, 0, nil)
	assert.Error(t, err, "positive log-probability accepted")
	_, err = Encoding(9).RowLoss(new(big.Float), bad, 0, nil)
	assert.Error(t, err, "unknown encoding accepted")
}

// TestClip: the constants ParseModel parses once are those a model built
// by hand parses where they are used, and a constant that does not parse
// is an error, not a silent zero.
func TestClip(t *testing.T) {
	for _, name := range []string{Float64Sklearn, Float32Keras, TorchBCE, Leaderboard} {
		m, err := ParseModel(name)
		require.NoError(t, err)
		parsed, err := m.Clip()
		require.NoError(t, err)
		hand := &Model{Name: m.Name, Loss: m.Loss, Decimals: m.Decimals}
		fresh, err := hand.Clip()
		require.NoError(t, err)
		built, err := NewModel(*hand)
		require.NoError(t, err)
		once, err := built.Clip()
		require.NoError(t, err)
		again, _ := built.Clip()
		assert.Same(t, once, again, "%s: NewModel's clip parsed once", name)
		for _, c := range []*Clip{fresh, once} {
			for _, pair := range [][2]*fpa.Float{{parsed.Eps, c.Eps}, {parsed.OneMinus, c.OneMinus}, {parsed.Floor, c.Floor}} {
				if (pair[0] == nil) != (pair[1] == nil) || (pair[0] != nil && pair[0].Cmp(pair[1]) != 0) {
					t.Errorf("%s: parsed %v, by hand %v", name, pair[0], pair[1])
				}
			}
		}
	}
	m, _ := ParseModel(Float32Keras)
	bad := &Model{Name: "bad", Loss: m.Loss}
	bad.Loss.Eps = "one in a million"
	_, err := bad.Clip()
	assert.Error(t, err)
	_, err = NewModel(*bad)
	assert.Error(t, err, "NewModel accepts an eps that does not parse")
	// A parsed model whose Loss is changed: NewModel parses the new eps.
	changed := *m
	changed.Loss.Eps = "0.25"
	cm, err := NewModel(changed)
	require.NoError(t, err)
	c, err := cm.Clip()
	require.NoError(t, err)
	if f, _ := c.Eps.Float64(); f != 0.25 {
		t.Errorf("NewModel kept the old eps: %v", f)
	}
	_, err = bad.Eval([]int{0}, &Pred{K: 2, P: []float64{0.5}})
	assert.Error(t, err, "a model whose eps does not parse evaluated")
	a, _ := ParseModel("apa:64")
	c, err = a.Clip()
	require.NoError(t, err)
	assert.Nil(t, c.Eps, "exact models do not clip")
}
