package fingerprint

import (
	"context"
	"errors"
	"flag"
	"math/big"
	"sync/atomic"
	"testing"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// redeploy answers its first `after` queries as server a and the rest as
// b: a host that upgrades its scoring library mid-competition, so that
// the model identified by the probes stops fitting later.
type redeploy struct {
	a, b  scorer.Server
	after int64
	n     atomic.Int64
}

func (r *redeploy) N() int       { return r.a.N() }
func (r *redeploy) K() int       { return r.a.K() }
func (r *redeploy) Queries() int { return int(r.n.Load()) }
func (r *redeploy) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	if r.n.Add(1) <= r.after {
		return r.a.Score(ctx, p)
	}
	return r.b.Score(ctx, p)
}

func sims(t *testing.T, labels []int, k int, names ...string) []scorer.Server {
	t.Helper()
	var out []scorer.Server
	for _, name := range names {
		m, err := scorer.ParseModel(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := oracle.NewSim(m, labels, k)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func checkLabels(t *testing.T, what string, ar *AttackResult, labels []int) {
	t.Helper()
	res := ar.Result
	if res == nil || !res.Verified {
		t.Fatalf("%s: not verified", what)
	}
	for i, c := range labels {
		if res.Labels[i] != c {
			t.Fatalf("%s: label %d = %d, want %d", what, i, res.Labels[i], c)
		}
	}
}

// Attack on a fixed model: the labels the probes determined are not
// queried again, and every label is verified.
func TestAttackKnownModel(t *testing.T) {
	r := testrand.New(t)
	for _, name := range []string{scorer.Leaderboard, "float64,clip=eps,renorm,dec=5", scorer.Float32Keras} {
		labels := make([]int, 198)
		for i := range labels {
			labels[i] = r.IntN(2)
		}
		s := sims(t, labels, 2, name)[0]
		ar, err := Attack(context.Background(), s, AttackOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkLabels(t, name, ar, labels)
		if ar.Result.Queries != s.(*oracle.Sim).Queries() {
			t.Errorf("%s: %d queries reported, %d sent", name, ar.Result.Queries, s.(*oracle.Sim).Queries())
		}
		if len(ar.Reidentified) != 0 {
			t.Errorf("%s: re-identified %+v", name, ar.Reidentified)
		}
		t.Logf("%-32s %d queries (%d probes, %d labels from them), model %s", name, ar.Result.Queries, ar.Probes, ar.ProbeLabels, ar.Model.Name)
	}
}

// A server that changes its model after the probes: the attack under the
// model identified fails, re-identifies the scorer from the transcript
// and new probes, and resumes under the new model; every label verified.
func TestAttackReidentify(t *testing.T) {
	r := testrand.New(t)
	for _, tc := range []struct {
		a, b string
		must bool // the attack under a must fail against b
	}{
		// scikit-learn 1.1 → 1.2: the clip moves from 1e-15 to the dtype's eps.
		{"float64,clip=1e-15,renorm", "float64,clip=eps,renorm", true},
		// Keras 3 → Keras 2: eps added inside the log.
		{"float32,clip=1e-7", "float32,clip=keras2", true},
		// numpy's pairwise sum → a left-to-right sum (subtle: unrounded
		// scores differ in the last bits).
		{"float64,clip=eps,renorm", "float64,clip=eps,renorm,sum=naive", false},
	} {
		sizes := []int{198, 1000}
		if testing.Short() {
			sizes = sizes[:1]
		}
		for _, n := range sizes {
			labels := make([]int, n)
			for i := range labels {
				labels[i] = r.IntN(2)
			}
			ss := sims(t, labels, 2, tc.a, tc.b)
			s := &redeploy{a: ss[0], b: ss[1], after: 4}
			ar, err := Attack(context.Background(), s, AttackOptions{})
			what := tc.a + " → " + tc.b
			if err != nil {
				t.Fatalf("%s N=%d: %v (re-identified %+v)", what, n, err, ar.Reidentified)
			}
			checkLabels(t, what, ar, labels)
			if int64(ar.Result.Queries) != s.n.Load() {
				t.Errorf("%s: %d queries reported, %d sent", what, ar.Result.Queries, s.n.Load())
			}
			if tc.must && len(ar.Reidentified) == 0 {
				t.Errorf("%s N=%d: no re-identification", what, n)
			}
			for _, re := range ar.Reidentified {
				t.Logf("%s N=%d: after %d queries %s failed (%s); now %s: %s; %d labels from the transcript", what, n, re.AfterQuery, re.Failed, re.Why, re.Model, re.How, re.Labels)
			}
			if len(ar.Reidentified) > 0 {
				want, _ := scorer.ParseModel(tc.b)
				if ar.Model.Name != want.Name {
					t.Logf("%s N=%d: finished under %s (the server: %s)", what, n, ar.Model.Name, want.Name)
				}
			}
			t.Logf("%s N=%d: %d queries, %d probes, %d re-identifications, model %s", what, n, ar.Result.Queries, ar.Probes, len(ar.Reidentified), ar.Model.Name)
			if !testing.Short() {
				// For the log only: the cost of knowing b from the start.
				mb, _ := scorer.ParseModel(tc.b)
				kb, _ := decode.AttackMulti(context.Background(), sims(t, labels, 2, tc.b)[0], decode.MultiOptions{Model: mb, Check: true})
				t.Logf("%s N=%d: %d queries with b known from the start", what, n, kb.Queries)
			}
		}
	}
}

// A server that changes to a model outside the grid (clipping at 1e-12)
// after the probes: no model fits, and no label is reported verified.
func TestAttackReidentifyNoFit(t *testing.T) {
	r := testrand.New(t)
	labels := make([]int, 300)
	for i := range labels {
		labels[i] = r.IntN(2)
	}
	ss := sims(t, labels, 2, "float64,clip=eps,renorm", "float64,clip=1e-12,renorm")
	s := &redeploy{a: ss[0], b: ss[1], after: 4}
	ar, err := Attack(context.Background(), s, AttackOptions{})
	if !errors.Is(err, ErrNoModel) {
		t.Fatalf("err %v, want ErrNoModel", err)
	}
	if ar.Result != nil {
		if ar.Result.Verified {
			t.Fatal("verified")
		}
		for i, k := range ar.Result.Known {
			if k {
				t.Fatalf("label %d reported known", i)
			}
		}
	}
	t.Logf("%v; %d queries, re-identified %+v", err, s.n.Load(), ar.Reidentified)
}

// The transcript alone picks, among the models that fit the probes, the
// one that explains every score of a failed attack (step 1 of Attack).
func TestBestFitTranscript(t *testing.T) {
	r := testrand.New(t)
	labels := make([]int, 300)
	for i := range labels {
		labels[i] = r.IntN(2)
	}
	s := sims(t, labels, 2, "float32,clip=keras2")[0]
	rec := decode.NewRecorder(s)
	wrong, _ := scorer.ParseModel("float32,clip=1e-7")
	_, err := decode.AttackMulti(context.Background(), rec, decode.MultiOptions{Model: wrong, Check: true})
	if !errors.Is(err, decode.ErrInconsistent) {
		t.Fatalf("attack under the wrong model: %v", err)
	}
	var fits []scorer.Spec
	for _, name := range []string{"float32,clip=1e-7", "float32,clip=1e-7,sum=naive", "float32,clip=keras2"} {
		sp, _ := scorer.ParseSpec(name)
		fits = append(fits, sp)
	}
	m, rp, stale, err := bestFit(context.Background(), rec.Transcript(), fits, []string{wrong.Name}, false, false)
	if err != nil || m == nil {
		t.Fatalf("no fit: %v", err)
	}
	if want := fits[2].String(); m.Name != want || stale != 0 {
		t.Errorf("best fit %s (stale %d), want %s", m.Name, stale, want)
	}
	learned := 0
	for i, c := range rp.Labels {
		if c >= 0 {
			learned++
			if c != labels[i] {
				t.Fatalf("label %d read %d, want %d", i, c, labels[i])
			}
		}
	}
	t.Logf("%d queries of a failed attack: %s explains them all, %d labels read from them", rec.Transcript().Len(), m.Name, learned)
}

var (
	savingN         = flag.Int("saving-n", 198, "TestProbeLabelSaving: N")
	savingLabelings = flag.Int("saving-labelings", 10, "TestProbeLabelSaving: labelings")
	savingModel     = flag.String("saving-model", "float64,clip=eps,renorm,dec=5", "TestProbeLabelSaving: the simulated scorer")
)

// TestProbeLabelSaving measures the queries the probes' labels save: the
// same scorer and labelings attacked from them and from nothing.
// BENCHMARKS.md §16 runs it with -saving-n 25000 -saving-model
// float64-sklearn too.
func TestProbeLabelSaving(t *testing.T) {
	r := testrand.New(t)
	labelings := *savingLabelings
	if testing.Short() {
		labelings = 3
	}
	var with, without, learned []int
	for range labelings {
		labels := make([]int, *savingN)
		for i := range labels {
			labels[i] = r.IntN(2)
		}
		var q [2]int
		for j, ignore := range []bool{false, true} {
			s := sims(t, labels, 2, *savingModel)[0]
			ar, err := Attack(context.Background(), s, AttackOptions{IgnoreProbeLabels: ignore})
			if err != nil {
				t.Fatal(err)
			}
			checkLabels(t, *savingModel, ar, labels)
			q[j] = ar.Result.Queries
			if !ignore {
				learned = append(learned, ar.ProbeLabels)
			}
		}
		with, without = append(with, q[0]), append(without, q[1])
	}
	sw, so := 0, 0
	for i := range with {
		sw, so = sw+with[i], so+without[i]
	}
	t.Logf("%s N=%d, %d labelings: labels from the probes %v; queries from them %v (total %d), from nothing %v (total %d)", *savingModel, *savingN, labelings, learned, with, sw, without, so)
	if sw > so {
		t.Errorf("the probes' labels cost queries: %d against %d", sw, so)
	}
}

// -assume auto against K-class scorers: identified, attacked from the
// probes' labels, every label verified.
func TestAttackMulticlass(t *testing.T) {
	r := testrand.New(t)
	names, ks := []string{scorer.Float64Sklearn, scorer.Float32Keras, scorer.TorchBCE, "float64,clip=eps,renorm,dec=5"}, []int{3, 5}
	if testing.Short() {
		names, ks = names[:2], ks[:1]
	}
	for _, name := range names {
		for _, k := range ks {
			labels := make([]int, 300)
			for i := range labels {
				labels[i] = r.IntN(k)
			}
			s := sims(t, labels, k, name)[0]
			ar, err := Attack(context.Background(), s, AttackOptions{})
			if err != nil {
				t.Fatalf("%s K=%d: %v", name, k, err)
			}
			checkLabels(t, name, ar, labels)
			m, _ := scorer.ParseModel(name)
			known, _ := decode.AttackMulti(context.Background(), sims(t, labels, k, name)[0], decode.MultiOptions{Model: m, Check: true})
			t.Logf("%-30s K=%d: %d queries (%d probes, %d retries, re-identified %v) against %d (%d retries) with the model known; identified as %s", name, k, ar.Result.Queries, ar.Probes, ar.Result.Retries, ar.Reidentified, known.Queries, known.Retries, ar.Model.Name)
		}
	}
}

// A 5-decimal scorer whose first probe scores with a trailing zero is
// identified as 4 decimals (the coarsest that fit); the attack's first
// score with 5 decimals refines the model and the attack resumes under
// it, keeping the labels verified so far.
func TestAttackRefineDecimals(t *testing.T) {
	r := testrand.New(t)
	name := "float64,clip=eps,renorm,dec=5"
	refined := 0
	for trial := 0; trial < 40 && refined < 2; trial++ {
		labels := make([]int, 198)
		for i := range labels {
			labels[i] = r.IntN(3)
		}
		s := sims(t, labels, 3, name)[0]
		ar, err := Attack(context.Background(), s, AttackOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkLabels(t, name, ar, labels)
		if ar.Identifications[0].Spec.Decimals < 5 {
			if len(ar.Refined) == 0 || ar.Model.Decimals != 5 {
				t.Fatalf("identified with %d decimals, finished under %s without refining", ar.Identifications[0].Spec.Decimals, ar.Model.Name)
			}
			refined++
			m, _ := scorer.ParseModel(name)
			kn, _ := decode.AttackMulti(context.Background(), sims(t, labels, 3, name)[0], decode.MultiOptions{Model: m, Check: true})
			t.Logf("trial %d: %+v; %d queries (%d probes), %d with the model known", trial, ar.Refined, ar.Result.Queries, ar.Probes, kn.Queries)
		}
	}
	if refined == 0 {
		t.Fatal("no labeling gave a first score with a trailing zero in 40 trials")
	}
}
