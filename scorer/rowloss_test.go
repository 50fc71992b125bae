package scorer

import (
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/internal/testrand"
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
		if err != nil {
			t.Fatal(err)
		}
		lp := make([]*big.Float, k)
		p := make([]*big.Float, k)
		for c := range z {
			lp[c] = new(big.Float).SetPrec(prec+32).Sub(z[c], lse)
			if lp[c].Sign() > 0 {
				lp[c].SetInt64(0)
			}
			p[c], err = apa.Exp(new(big.Float).SetPrec(prec+32), lp[c])
			if err != nil {
				t.Fatal(err)
			}
		}
		y := r.IntN(k)
		a, err := Logits.RowLoss(new(big.Float).SetPrec(prec), z, y, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := LogProbs.RowLoss(new(big.Float).SetPrec(prec), lp, y, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Probs.RowLoss(new(big.Float).SetPrec(prec), p, y, nil)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Logits.RowLoss(new(big.Float).SetPrec(prec), z, y, lse)
		if err != nil {
			t.Fatal(err)
		}
		tol := new(big.Float).SetMantExp(big.NewFloat(1), -prec+8) // a few ulps of a loss below 64
		for _, o := range []*big.Float{b, c, d} {
			diff := new(big.Float).Sub(a, o)
			if !(diff.Abs(diff).Cmp(tol) <= 0) {
				t.Errorf("row %v, label %d: %s against %s", z, y, a.Text('g', 30), o.Text('g', 30))
			}
		}
	}
	bad := []*big.Float{big.NewFloat(0), big.NewFloat(1)}
	_, err := Probs.RowLoss(new(big.Float), bad, 0, nil)
	if err == nil {
		t.Errorf("probability 0 accepted: no error")
	}
	_, err = Probs.RowLoss(new(big.Float), []*big.Float{big.NewFloat(1.5), big.NewFloat(0.5)}, 0, nil)
	if err == nil {
		t.Errorf("probability 1.5 accepted: no error")
	}
	_, err = LogProbs.RowLoss(new(big.Float), []*big.Float{big.NewFloat(0.1), big.NewFloat(-1)}, 0, nil)
	if err == nil {
		t.Errorf("positive log-probability accepted: no error")
	}
	_, err = Encoding(9).RowLoss(new(big.Float), bad, 0, nil)
	if err == nil {
		t.Errorf("unknown encoding accepted: no error")
	}
}

// TestClip: the constants ParseModel parses once are those a model built
// by hand parses where they are used, and a constant that does not parse
// is an error, not a silent zero.
func TestClip(t *testing.T) {
	for _, name := range []string{Float64Sklearn, Float32Keras, TorchBCE, Leaderboard} {
		m, err := ParseModel(name)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := m.Clip()
		if err != nil {
			t.Fatal(err)
		}
		hand := &Model{Name: m.Name, Loss: m.Loss, Decimals: m.Decimals}
		fresh, err := hand.Clip()
		if err != nil {
			t.Fatal(err)
		}
		built, err := NewModel(*hand)
		if err != nil {
			t.Fatal(err)
		}
		once, err := built.Clip()
		if err != nil {
			t.Fatal(err)
		}
		again, _ := built.Clip()
		if once != again {
			t.Errorf("%s: NewModel's clip parsed twice", name)
		}
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
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = NewModel(*bad)
	if err == nil {
		t.Errorf("NewModel accepts an eps that does not parse: no error")
	}
	// A parsed model whose Loss is changed: NewModel parses the new eps.
	changed := *m
	changed.Loss.Eps = "0.25"
	cm, err := NewModel(changed)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cm.Clip()
	if err != nil {
		t.Fatal(err)
	}
	if f, _ := c.Eps.Float64(); f != 0.25 {
		t.Errorf("NewModel kept the old eps: %v", f)
	}
	_, err = bad.Eval([]int{0}, &Pred{K: 2, P: []float64{0.5}})
	if err == nil {
		t.Errorf("a model whose eps does not parse evaluated: no error")
	}
	a, _ := ParseModel("apa:64")
	c, err = a.Clip()
	if err != nil {
		t.Fatal(err)
	}
	if c.Eps != nil {
		t.Errorf("exact models do not clip: %v, want nil", c.Eps)
	}
}
