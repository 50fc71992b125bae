package decode_test

// The result hashes: every query a strategy sends (each probability's
// bits) and every score it gets back (exactly), then the labels it
// returns, the count of queries and whether it verified, hashed with
// SHA-256 per (strategy, scorer, labeling). A refactor of the engine keeps
// results when it keeps these hashes (testdata/hashes_n2000.txt, written
// on the main branch before the refactor). The labelings are the 23 of
// the benchmarks: seeds 1–20 as `labelinf attack -seed` draws them, all 0,
// all K−1, i mod K.
//
//	go test -run TestResultHashes ./decode                        # all 23 labelings; under -short seed 1 of the cheaper cases
//	go test -run TestResultHashes ./decode -args -hash.update     # rewrite the file (only on the commit whose results are the reference)
//	go test -run TestResultHashes ./decode -args -hash.n 25000 -hash.out FILE   # the record at N = 25,000

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/catalog"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

var (
	hashUpdate = flag.Bool("hash.update", false, "rewrite testdata/hashes_n2000.txt from this tree")
	hashN      = flag.Int("hash.n", 2000, "labels of the hashed attacks (the committed file is at 2000)")
	hashOut    = flag.String("hash.out", "", "write the hashes to this file instead of checking them")
)

// hashCase is one strategy against one scorer: every choice catalog.Auto
// makes, and the reference strategies repro and the audit publish.
type hashCase struct {
	strategy, model string
	k, maxBlock     int
	noise           scorer.Noise
	// short: the case runs under -short (its seed 1 labeling; the
	// others at most a few tenths of a second each).
	short bool
}

func (c hashCase) String() string {
	s := fmt.Sprintf("%s/%s/k%d", c.strategy, c.model, c.k)
	if c.maxBlock > 0 {
		s += fmt.Sprintf("/block%d", c.maxBlock)
	}
	if c.noise.Kind != scorer.NoNoise {
		s += fmt.Sprintf("/%v%g", c.noise.Kind, c.noise.Tau)
	}
	return s
}

var hashCases = []hashCase{
	{strategy: "hybrid", model: "float64-sklearn", k: 2},
	{strategy: "hybrid", model: "torch-bce", k: 2, short: true},
	{strategy: "carry", model: "float32-keras", k: 2, short: true},
	{strategy: "leaderboard", model: "leaderboard", k: 2},
	{strategy: "leaderboard", model: "leaderboard,dec=4", k: 2},
	{strategy: "kbin", model: "float64-sklearn", k: 6},
	{strategy: "kbin", model: "torch-bce", k: 3, short: true},
	{strategy: "klist", model: "float64-sklearn,reduce=sum", k: 6},
	{strategy: "klist", model: "float64-sklearn", k: 3},
	// The default strategy's mixed Conway–Guy blocks, which no other case
	// reaches; recorded from 20dd35d, before issue 28's cuts of decode.
	{strategy: "cross", model: "float64-sklearn", k: 2},
	{strategy: "cross", model: "float64", k: 2, short: true},
	{strategy: "cross", model: "float64-sklearn", k: 6, short: true},
	{strategy: "cross", model: "leaderboard", k: 3, short: true},
	{strategy: "primes", model: "float64-sklearn", k: 2, maxBlock: 5, short: true},
	{strategy: "primes", model: "float64-sklearn", k: 2},
	{strategy: "blocks", model: "float64-sklearn", k: 2, short: true},
	{strategy: "alg3", model: "float64", k: 2, noise: scorer.Noise{Kind: scorer.Bounded, Tau: 1e-12}, short: true},
}

// hashLabelings returns the benchmarks' 23 labelings of n points of k
// classes, by name (catalog.BenchLabeling: labelinf sweep's).
func hashLabelings(n, k int) ([]string, [][]int) {
	names := catalog.BenchLabelingNames(20)
	out := make([][]int, len(names))
	for i, name := range names {
		y, err := catalog.BenchLabeling(name, n, k)
		if err != nil {
			panic(err)
		}
		out[i] = y
	}
	return names, out
}

// hashServer hashes every prediction and score that passes through it.
type hashServer struct {
	scorer.Server
	h   sha256Hash
	buf []byte
}

type sha256Hash interface {
	Write([]byte) (int, error)
	Sum([]byte) []byte
}

func (s *hashServer) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	s.buf = binary.LittleEndian.AppendUint64(s.buf[:0], uint64(p.K))
	for _, v := range p.P {
		s.buf = binary.LittleEndian.AppendUint64(s.buf, math.Float64bits(v))
	}
	s.h.Write(s.buf)
	r, err := s.Server.Score(ctx, p)
	if err != nil {
		fmt.Fprintf(s.h, "error %v\n", err)
		return r, err
	}
	fmt.Fprintf(s.h, "score %s\n", r.RatString())
	return r, nil
}

// hashRun runs c on labeling y and returns its hash and queries.
func hashRun(t *testing.T, c hashCase, y []int) (string, int) {
	m, err := scorer.ParseModel(c.model)
	if err != nil {
		t.Fatal(err)
	}
	st, err := decode.ParseStrategy(c.strategy)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := oracle.NewSim(m, y, c.k)
	if err != nil {
		t.Fatal(err)
	}
	var srv scorer.Server = sim
	if c.noise.Kind != scorer.NoNoise {
		if srv, err = oracle.NewNoisy(sim, c.noise, 7); err != nil {
			t.Fatal(err)
		}
	}
	// As labelinf attack: a summed score is read as the mean.
	hs := &hashServer{Server: scorer.PerPoint(srv, m), h: sha256.New()}
	res, err := decode.AttackMulti(context.Background(), hs, decode.MultiOptions{Strategy: st, Model: m, Noise: c.noise, MaxBlock: c.maxBlock})
	if err != nil {
		fmt.Fprintf(hs.h, "error %v\n", err)
	}
	if res != nil {
		fmt.Fprintf(hs.h, "labels %v known %v verified %v queries %d retries %d blocks %v partial %d\n",
			res.Labels, res.Known, res.Verified, res.Queries, res.Retries, res.Blocks, res.Partial)
		return fmt.Sprintf("%x", hs.h.Sum(nil)), res.Queries
	}
	return fmt.Sprintf("%x", hs.h.Sum(nil)), -1
}

const hashFile = "testdata/hashes_n2000.txt"

func TestResultHashes(t *testing.T) {
	t.Parallel()
	n := *hashN
	writing := *hashUpdate || *hashOut != ""
	if n != 2000 && !writing {
		t.Skip("-hash.n other than 2000 only writes (-hash.out)")
	}
	want := map[string]string{}
	if !writing {
		f, err := os.Open(hashFile)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) == 4 && !strings.HasPrefix(fs[0], "#") {
				want[fs[0]+" "+fs[1]] = fs[3]
			}
		}
		f.Close()
		if len(want) == 0 {
			t.Fatalf("%s holds no hashes", hashFile)
		}
	}
	lines := make([][]string, len(hashCases))
	t.Run("case", func(t *testing.T) {
		for ci, c := range hashCases {
			t.Run(strings.ReplaceAll(c.String(), "/", "_"), func(t *testing.T) {
				if testing.Short() && !writing && !c.short {
					t.Skip("not under -short")
				}
				t.Parallel()
				names, ys := hashLabelings(n, c.k)
				for i, y := range ys {
					if testing.Short() && !writing && names[i] != "seed1" {
						continue
					}
					h, q := hashRun(t, c, y)
					lines[ci] = append(lines[ci], fmt.Sprintf("%s %s %d %s", c, names[i], q, h))
					if writing {
						continue
					}
					w, ok := want[c.String()+" "+names[i]]
					if !ok {
						t.Errorf("%s %s: no recorded hash", c, names[i])
					} else if w != h {
						t.Errorf("%s %s: hash %s…, recorded %s… (%d queries): the results changed", c, names[i], h[:12], w[:12], q)
					}
				}
			})
		}
	})
	if !writing {
		return
	}
	out := *hashOut
	if out == "" {
		out = hashFile
	}
	body := fmt.Sprintf("# decode result hashes (hash_test.go): case labeling queries sha256, N = %d\n", n) + strings.Join(slices.Concat(lines...), "\n") + "\n"
	if err := os.WriteFile(out, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
