package single_test

// The result hashes of the single-query attacks: every prediction an
// attack submits (each value's bits and precision), every score it gets
// back (exactly), then the labels it returns, which are known, whether it
// verified, its queries, blocks, exact check, residual and budget, hashed
// with SHA-256 per (case, labeling). A refactor of package single keeps
// results when it keeps these hashes (testdata/hashes.txt, written on the
// main branch before the refactor). The labelings are the 23 of the
// benchmarks (catalog.BenchLabeling): seeds 1–20, all 0, all K−1, i mod K.
// The attacks run as labelinf attack runs them (the catalogue's entries
// against an oracle.Precise), and AttackFamilyMulti directly.
//
//	go test -run TestSingleResultHashes ./single                    # all 23 labelings; under -short seed 1
//	go test -run TestSingleResultHashes ./single -args -hash.update # rewrite the file (only on the reference commit)

import (
	"bufio"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"hash"
	"math"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/catalog"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/single"
)

var hashUpdate = flag.Bool("hash.update", false, "rewrite testdata/hashes.txt from this tree")

const hashFile = "testdata/hashes.txt"

// hashCase is one single-query attack on one target: a catalogue entry
// (attack) with its options, or AttackFamilyMulti (attack "family-multi",
// on the loss named by kind).
type hashCase struct {
	attack string
	n, k   int
	noise  scorer.Noise
	opt    catalog.Options
	kind   loss.Kind // family-multi's loss
	m      int       // family-multi's points per query
}

func (c hashCase) String() string {
	s := fmt.Sprintf("%s/n%d/k%d", c.attack, c.n, c.k)
	if c.noise.Kind != scorer.NoNoise {
		s += fmt.Sprintf("/%v%g", c.noise.Kind, c.noise.Tau)
	}
	if c.opt.Encoding != scorer.Logits || c.opt.Weights != single.PowerWeights || c.opt.Margin != 0 {
		s += fmt.Sprintf("/%v/%v/margin%g", c.opt.Encoding, c.opt.Weights, c.opt.Margin)
	}
	if c.attack == "family-multi" {
		s += fmt.Sprintf("/kind%d/m%d", c.kind, c.m)
	}
	return s
}

var (
	bounded = func(tau float64) scorer.Noise { return scorer.Noise{Kind: scorer.Bounded, Tau: tau} }
	gauss   = func(tau float64) scorer.Noise { return scorer.Noise{Kind: scorer.Gaussian, Tau: tau, Delta: 1e-6} }
)

var singleHashCases = []hashCase{
	{attack: "exact", n: 2000, k: 2},
	{attack: "exact", n: 300, k: 3},
	{attack: "exact", n: 100, k: 6},
	{attack: "robust-single", n: 500, k: 2, noise: bounded(1e-3)},
	{attack: "robust-single", n: 200, k: 3, noise: gauss(1e-4), opt: catalog.Options{Encoding: scorer.LogProbs}},
	{attack: "robust-single", n: 16, k: 2, noise: bounded(1e-3), opt: catalog.Options{Encoding: scorer.Probs, Margin: math.Log(3) - 1}},
	{attack: "robust-single", n: 30, k: 2, noise: bounded(1e-2), opt: catalog.Options{Weights: single.ConwayGuyWeights}},
	{attack: "loss-family", n: 300, k: 2, noise: bounded(1e-3)},
	{attack: "prime-log", n: 100, k: 2},
	{attack: "mutnet", n: 300, k: 2, noise: bounded(1e-3)},
	{attack: "family-multi", n: 300, k: 2, noise: bounded(1e-9), kind: loss.SE, m: 16},
	{attack: "family-multi", n: 200, k: 2, noise: bounded(1e-4), kind: loss.CE, m: 20},
}

// hashOracle hashes every prediction and score that passes through it.
type hashOracle[P any] struct {
	scorer.Oracle[P, *big.Float]
	h    hash.Hash
	pred func(hash.Hash, P)
}

func (o *hashOracle[P]) Score(ctx context.Context, p P) (*big.Float, error) {
	o.pred(o.h, p)
	s, err := o.Oracle.Score(ctx, p)
	if err != nil {
		fmt.Fprintf(o.h, "error %v\n", err)
		return s, err
	}
	hashFloat(o.h, s)
	fmt.Fprintln(o.h)
	return s, nil
}

// Prec forwards the view's precision (catalog checks it).
func (o *hashOracle[P]) Prec() uint { return o.Oracle.(interface{ Prec() uint }).Prec() }

func hashFloat(h hash.Hash, x *big.Float) {
	if x == nil {
		fmt.Fprint(h, "nil;")
		return
	}
	fmt.Fprintf(h, "%d:%s;", x.Prec(), x.Text('p', 0))
}

func hashFloats(h hash.Hash, xs []*big.Float) {
	for _, x := range xs {
		hashFloat(h, x)
	}
	fmt.Fprintln(h)
}

func hashBig(h hash.Hash, p *scorer.BigPred) {
	fmt.Fprintf(h, "big %v %d ", p.Enc, p.K)
	hashFloats(h, p.V)
}

func hashRat(h hash.Hash, p *loss.Rat) {
	fmt.Fprintf(h, "rat %d ", p.K)
	for i, row := range p.Num {
		for _, v := range row {
			fmt.Fprintf(h, "%x,", v)
		}
		fmt.Fprintf(h, "/%x;", p.Den[i])
	}
	fmt.Fprintln(h)
}

// hashPrecise is an oracle.Precise whose views hash what they see.
type hashPrecise struct {
	*oracle.Precise
	h hash.Hash
}

func (p *hashPrecise) Big(prec uint) (scorer.BigServer, error) {
	s, err := p.Precise.Big(prec)
	if err != nil {
		return nil, err
	}
	return &hashOracle[*scorer.BigPred]{Oracle: s, h: p.h, pred: hashBig}, nil
}

func (p *hashPrecise) Rat(prec uint) (scorer.RatServer, error) {
	s, err := p.Precise.Rat(prec)
	if err != nil {
		return nil, err
	}
	return &hashOracle[*loss.Rat]{Oracle: s, h: p.h, pred: hashRat}, nil
}

func (p *hashPrecise) Family(l *loss.Binary, prec uint) (scorer.FamilyServer, error) {
	s, err := p.Precise.Family(l, prec)
	if err != nil {
		return nil, err
	}
	return &hashOracle[[]*big.Float]{Oracle: s, h: p.h, pred: hashFloats}, nil
}

var _ catalog.Precise = (*hashPrecise)(nil)

// singleHashRun runs c on labeling y and returns its hash.
func singleHashRun(t *testing.T, c hashCase, y []int) string {
	ctx := context.Background()
	h := sha256.New()
	o, err := oracle.NewPrecise(y, c.k, 0, c.noise, 7)
	if err != nil {
		t.Fatal(err)
	}
	hp := &hashPrecise{Precise: o, h: h}
	var res *decode.Result
	if c.attack == "family-multi" {
		l, err := loss.NewBinary(c.kind, 0, [4]float64{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := single.PlanFamily(ctx, single.FamilyOptions{Loss: l, N: c.m, Tau: c.noise.Tau * float64(c.n) / float64(c.m)})
		if err != nil {
			t.Fatal(err)
		}
		fs, err := hp.Family(l, p.Prec()+64)
		if err != nil {
			t.Fatal(err)
		}
		res, err = single.AttackFamilyMulti(ctx, fs, single.FamilyMultiOptions{FamilyOptions: single.FamilyOptions{Loss: l, N: c.n, Tau: c.noise.Tau}, M: c.m})
		if err != nil {
			fmt.Fprintf(h, "error %v\n", err)
		}
	} else {
		m, err := scorer.ParseModel("apa")
		if err != nil {
			t.Fatal(err)
		}
		m.Prec = 0 // the server answers with the bits the plan asks for (labelinf attack -scorer apa)
		a := catalog.Lookup(c.attack)
		if a == nil {
			t.Fatalf("no attack %q", c.attack)
		}
		tg := catalog.Target{Model: m, N: c.n, K: c.k, Noise: c.noise}
		if err := a.Applies(tg); err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		opt := c.opt
		opt.Seed = 11
		res, err = a.Run(ctx, hp, tg, opt)
		if err != nil {
			fmt.Fprintf(h, "error %v\n", err)
		}
	}
	if res == nil || !res.Verified || !slices.Equal(res.Labels, y) {
		t.Errorf("%v: the attack did not recover the labels", c)
	}
	if res != nil {
		fmt.Fprintf(h, "labels %v known %v verified %v queries %d blocks %v exact %v residual %x budget %x\n",
			res.Labels, res.Known, res.Verified, res.Queries, res.Blocks, res.ExactCheck,
			math.Float64bits(res.Residual), math.Float64bits(res.Budget))
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestSingleResultHashes(t *testing.T) {
	t.Parallel()
	want := map[string]string{}
	if !*hashUpdate {
		f, err := os.Open(hashFile)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if fs := strings.Fields(sc.Text()); len(fs) == 3 && !strings.HasPrefix(fs[0], "#") {
				want[fs[0]+" "+fs[1]] = fs[2]
			}
		}
		f.Close()
		if len(want) == 0 {
			t.Fatalf("%s holds no hashes", hashFile)
		}
	}
	lines := make([][]string, len(singleHashCases))
	t.Run("case", func(t *testing.T) {
		for ci, c := range singleHashCases {
			t.Run(strings.ReplaceAll(c.String(), "/", "_"), func(t *testing.T) {
				t.Parallel()
				for _, name := range catalog.BenchLabelingNames(20) {
					if testing.Short() && !*hashUpdate && name != "seed1" {
						continue
					}
					y, err := catalog.BenchLabeling(name, c.n, c.k)
					if err != nil {
						t.Fatal(err)
					}
					got := singleHashRun(t, c, y)
					lines[ci] = append(lines[ci], fmt.Sprintf("%s %s %s", c, name, got))
					if *hashUpdate {
						continue
					}
					if w, ok := want[c.String()+" "+name]; !ok {
						t.Errorf("%s %s: no recorded hash", c, name)
					} else if w != got {
						t.Errorf("%s %s: hash %s, recorded %s", c, name, got, w)
					}
				}
			})
		}
	})
	if *hashUpdate && !t.Failed() {
		out := []string{"# single-query result hashes: go test -run TestSingleResultHashes ./single -args -hash.update"}
		for _, l := range lines {
			out = append(out, l...)
		}
		if err := os.WriteFile(hashFile, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
