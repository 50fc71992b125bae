package bench

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/labelinf/labelinf/datasets"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// timedScorer measures the time spent in the simulated server.
type timedScorer struct {
	scorer.Server
	d time.Duration
}

func (t *timedScorer) Score(ctx context.Context, p *scorer.Pred) (r *big.Rat, err error) {
	t0 := time.Now()
	r, err = t.Server.Score(ctx, p)
	t.d += time.Since(t0)
	return
}

// runMulti attacks a simulated scorer holding labels and reports queries,
// attacker and scorer seconds; it fails b on any wrong or unverified label.
func runMulti(b *testing.B, model string, st decode.Strategy, labels []int, k int) (q int, attack, scoring time.Duration) {
	m, err := scorer.ParseModel(model)
	if err != nil {
		b.Fatal(err)
	}
	sim, err := oracle.NewSim(m, labels, k)
	if err != nil {
		b.Fatal(err)
	}
	ts := &timedScorer{Server: sim}
	t0 := time.Now()
	res, err := decode.AttackMulti(context.Background(), ts, decode.MultiOptions{Model: m, Strategy: st})
	el := time.Since(t0)
	var be *decode.BudgetError
	if errors.As(err, &be) {
		b.Skipf("%s %v N=%d: %v", model, st, len(labels), err)
	}
	if err != nil {
		b.Fatalf("%s %v N=%d: %v", model, st, len(labels), err)
	}
	if !res.Verified || !slices.Equal(res.Labels, labels) {
		b.Fatalf("%s %v N=%d: wrong or unverified labels", model, st, len(labels))
	}
	return res.Queries, el - ts.d, ts.d
}

// BenchmarkMultiQuery runs each strategy against each simulated scorer on
// random binary labelings, one labeling per iteration (-benchtime=20x for
// the 20 labelings of BENCHMARKS.md §6). Metrics: mean and max queries,
// attacker and scorer ms per attack, labels per query.
//
//	go test ./bench -run '^$' -bench 'MultiQuery/float64-sklearn/blocks/n=25000' -benchtime 20x
func BenchmarkMultiQuery(b *testing.B) {
	for _, model := range []string{"float64-sklearn", "float32-keras", "torch-bce", "leaderboard"} {
		for _, st := range []decode.Strategy{decode.Primes, decode.Alg3, decode.Blocks} {
			for _, n := range []int{198, 306, 569, 1372, 25000} {
				b.Run(fmt.Sprintf("%s/%v/n=%d", model, st, n), func(b *testing.B) {
					benchMulti(b, model, st, n, 2)
				})
			}
		}
	}
	for _, st := range []decode.Strategy{decode.Primes, decode.Alg3, decode.Blocks} {
		b.Run(fmt.Sprintf("float64-sklearn-k6/%v/n=25000", st), func(b *testing.B) {
			benchMulti(b, "float64-sklearn", st, 25000, 6)
		})
	}
}

func benchMulti(b *testing.B, model string, st decode.Strategy, n, k int) {
	var qs []int
	var att, sc time.Duration
	seed := uint64(0)
	for b.Loop() {
		seed++
		r := rand.New(rand.NewPCG(seed, uint64(n)))
		labels := make([]int, n)
		for i := range labels {
			labels[i] = r.IntN(k)
		}
		q, a, s := runMulti(b, model, st, labels, k)
		qs = append(qs, q)
		att += a
		sc += s
	}
	reportQueries(b, qs, n, att, sc)
}

func reportQueries(b *testing.B, qs []int, n int, att, sc time.Duration) {
	sum := 0
	for _, q := range qs {
		sum += q
	}
	mean := float64(sum) / float64(len(qs))
	b.ReportMetric(mean, "queries")
	b.ReportMetric(float64(slices.Max(qs)), "max-queries")
	b.ReportMetric(float64(n)/mean, "labels/query")
	b.ReportMetric(att.Seconds()*1000/float64(len(qs)), "attack-ms")
	b.ReportMetric(sc.Seconds()*1000/float64(len(qs)), "scorer-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkMultiDatasets attacks the real label files of package datasets
// (the ICML datasets' sizes: haberman 306, wdbc 569, banknote 1,372; and
// satellite, 6 classes) with each strategy and scorer.
//
//	go test ./bench -run '^$' -bench MultiDatasets -benchtime 1x
func BenchmarkMultiDatasets(b *testing.B) {
	for _, d := range []struct {
		name string
		k    int
	}{{"haberman", 2}, {"wdbc", 2}, {"banknote", 2}, {"titanic", 2}, {"satellite", 6}} {
		labels, err := datasets.Labels(d.name)
		if err != nil {
			b.Fatal(err)
		}
		for _, model := range []string{"float64-sklearn", "float32-keras", "leaderboard"} {
			for _, st := range []decode.Strategy{decode.Primes, decode.Alg3, decode.Blocks} {
				b.Run(fmt.Sprintf("%s/%s/%v", d.name, model, st), func(b *testing.B) {
					var qs []int
					var att, sc time.Duration
					for b.Loop() {
						q, a, s := runMulti(b, model, st, labels, d.k)
						qs = append(qs, q)
						att += a
						sc += s
					}
					reportQueries(b, qs, len(labels), att, sc)
				})
			}
		}
	}
}

// BenchmarkMultiLabelings measures how much the query count of each
// strategy depends on the labels themselves, at the size of the IMDB test
// split: the IMDB-like labels of package datasets (balanced, shuffled)
// against all zeros, all ones, and a seeded 10%-ones labeling.
//
//	go test ./bench -run '^$' -bench MultiLabelings -benchtime 1x
func BenchmarkMultiLabelings(b *testing.B) {
	imdb, err := datasets.Labels(datasets.IMDBLikeName)
	if err != nil {
		b.Fatal(err)
	}
	n := len(imdb)
	zeros, ones, p10 := make([]int, n), make([]int, n), make([]int, n)
	r := rand.New(rand.NewPCG(10, uint64(n)))
	for i := range n {
		ones[i] = 1
		if r.IntN(10) == 0 {
			p10[i] = 1
		}
	}
	for _, model := range []string{"float64-sklearn", "float32-keras"} {
		for _, st := range []decode.Strategy{decode.Primes, decode.Alg3, decode.Blocks} {
			for _, l := range []struct {
				name   string
				labels []int
			}{{"imdb_like", imdb}, {"zeros", zeros}, {"ones", ones}, {"p10", p10}} {
				b.Run(fmt.Sprintf("%s/%v/labels=%s", model, st, l.name), func(b *testing.B) {
					var qs []int
					var att, sc time.Duration
					for b.Loop() {
						q, a, s := runMulti(b, model, st, l.labels, 2)
						qs = append(qs, q)
						att += a
						sc += s
					}
					reportQueries(b, qs, n, att, sc)
				})
			}
		}
	}
}
