package decode

import (
	"context"
	"errors"
	"testing"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// recordAttack attacks a simulated server of model truth with the model
// assume, recording every query.
func recordAttack(t *testing.T, truth, assume string, labels []int, k int) (*Result, error, *Transcript) {
	t.Helper()
	return recordAttackWith(t, partialBlocks, truth, assume, labels, k)
}

// recordAttackWith is recordAttack with strategy st. recordAttack records
// the block code with partial decoding (partialBlocks), whose blocks are sized by the faithful bracket the
// replay decodes with; Cross's blocks, sized on exact terms, leave the
// faithful replay more candidates to bracket (TestReplayCross).
func recordAttackWith(t *testing.T, st Strategy, truth, assume string, labels []int, k int) (*Result, error, *Transcript) {
	t.Helper()
	mt, err := scorer.ParseModel(truth)
	if err != nil {
		t.Fatal(err)
	}
	ma, err := scorer.ParseModel(assume)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := oracle.NewSim(mt, labels, k)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(sim)
	res, aerr := AttackMulti(context.Background(), scorer.PerPoint(rec, ma), MultiOptions{Model: ma, Check: true, Strategy: st})
	if rec.Transcript().Len() != sim.Queries() {
		t.Fatalf("recorded %d queries, the server answered %d", rec.Transcript().Len(), sim.Queries())
	}
	return res, aerr, rec.Transcript()
}

// A Cross transcript (exact terms, paired tops, ties) replayed under the
// server's own model: every label it reads is the truth, nothing is
// refuted.
func TestReplayCross(t *testing.T) {
	t.Parallel()
	n := 300
	if testing.Short() {
		n = 80
	}
	for _, model := range []string{"float64-sklearn", "torch-bce"} {
		labels := seededLabels(t, n, 2)
		res, err, tr := recordAttackWith(t, Cross, model, model, labels, 2)
		if err != nil || !res.Verified {
			t.Fatalf("%s: %v", model, err)
		}
		m, _ := scorer.ParseModel(model)
		rp, err := ReplayTranscript(context.Background(), tr, 0, m, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		learned := 0
		for i, c := range rp.Labels {
			if c >= 0 {
				learned++
				if c != labels[i] {
					t.Errorf("%s: replay read label %d of point %d, want %d", model, c, i, labels[i])
				}
			}
		}
		if rp.Refuted >= 0 {
			t.Errorf("%s: its own transcript refutes it: %s", model, rp.Reason)
		}
		t.Logf("%s N=%d: %d queries replayed, %d labels, %d undecided", model, n, tr.Len(), learned, rp.Undecided)
	}
}

// Replaying an attack's transcript under the server's own model reads
// the labels the attack read, and refutes nothing; under a model the
// attack refuted, it refutes the same score.
func TestReplay(t *testing.T) {
	t.Parallel()
	cases := []struct {
		model string
		k, n  int
	}{
		{"float64-sklearn", 2, 500},
		{"leaderboard", 2, 198},
		{"float32-keras", 2, 300},
		{"float64,clip=eps,renorm,sum=naive", 2, 300},
		{"float64,floor=-100,reduce=sum", 2, 300},
		{"float64-sklearn", 3, 200},
	}
	if testing.Short() {
		cases = []struct {
			model string
			k, n  int
		}{cases[1], cases[5]}
	}
	for _, tc := range cases {
		labels := seededLabels(t, tc.n, tc.k)
		res, err, tr := recordAttack(t, tc.model, tc.model, labels, tc.k)
		if err != nil || !res.Verified {
			t.Fatalf("%s: %v", tc.model, err)
		}
		m, _ := scorer.ParseModel(tc.model)
		rp, err := ReplayTranscript(context.Background(), tr, 0, m, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		learned := 0
		for i, c := range rp.Labels {
			if c >= 0 {
				learned++
				if c != labels[i] {
					t.Errorf("%s K=%d: replay read label %d of point %d, want %d", tc.model, tc.k, c, i, labels[i])
				}
			}
		}
		if rp.Refuted >= 0 {
			t.Errorf("%s K=%d: its own transcript refutes it: %s", tc.model, tc.k, rp.Reason)
		}
		if learned != tc.n {
			t.Errorf("%s K=%d: replay learned %d of %d labels (%d queries undecided)", tc.model, tc.k, learned, tc.n, rp.Undecided)
		}
		t.Logf("%-36s K=%d N=%d: %d queries replayed, %d labels, %d undecided", tc.model, tc.k, tc.n, tr.Len(), learned, rp.Undecided)
	}
	// A server clipping at 1e-15 attacked as the dtype's eps: the attack
	// fails, and its transcript refutes eps but not 1e-15.
	labels := seededLabels(t, 300, 2)
	_, err, tr := recordAttack(t, "float64,clip=1e-15,renorm", "float64-sklearn", labels, 2)
	if !errors.Is(err, ErrInconsistent) {
		t.Fatalf("wrong model: %v", err)
	}
	wrong, _ := scorer.ParseModel("float64-sklearn")
	rp, err := ReplayTranscript(context.Background(), tr, 0, wrong, nil, false)
	if err != nil || rp.Refuted < 0 {
		t.Errorf("the assumed model is not refuted by the transcript of its failed attack: %v %+v", err, rp)
	}
	right, _ := scorer.ParseModel("float64,clip=1e-15,renorm")
	rp, err = ReplayTranscript(context.Background(), tr, 0, right, nil, false)
	if err != nil || rp.Refuted >= 0 {
		t.Fatalf("the server's model is refuted: %v %s", err, rp.Reason)
	}
	for i, c := range rp.Labels {
		if c >= 0 && c != labels[i] {
			t.Errorf("replay under the right model read label %d of point %d, want %d", c, i, labels[i])
		}
	}
	if _, err := ReplayTranscript(context.Background(), tr, tr.Len()+1, right, nil, false); err == nil {
		t.Error("replay past the end: no error")
	}
}

// An unclipped model takes the log of 0 for a class predicted 0: the
// replay leaves that class out as a label instead of refuting the model
// (the attack's known rows predict 1 for their class). K = 3: at K = 2
// the attack on an unclipped binary64 scorer fails against its own model
// at the branch point of this test (9 retries, then 7 failed blocks), a
// decode matter apart from the replay.
func TestReplayUnclipped(t *testing.T) {
	t.Parallel()
	n := 300
	if testing.Short() {
		n = 100
	}
	for _, k := range []int{3} {
		labels := seededLabels(t, n, k)
		name := "float64,floor=none"
		res, err, tr := recordAttack(t, name, name, labels, k)
		if err != nil || !res.Verified {
			t.Fatalf("K=%d: %v", k, err)
		}
		m, _ := scorer.ParseModel(name)
		rp, err := ReplayTranscript(context.Background(), tr, 0, m, nil, false)
		if err != nil || rp.Refuted >= 0 {
			t.Fatalf("K=%d: refuted by its own transcript: %v %s", k, err, rp.Reason)
		}
		for i, c := range rp.Labels {
			if c != labels[i] {
				t.Fatalf("K=%d: label %d read %d, want %d", k, i, c, labels[i])
			}
		}
	}
}

// Known labels outside [−1, K) are an error, not an index past a row's
// terms.
func TestReplayBadKnown(t *testing.T) {
	t.Parallel()
	const n = 20
	_, err, tr := recordAttack(t, "float64-sklearn", "float64-sklearn", seededLabels(t, n, 2), 2)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := scorer.ParseModel("float64-sklearn")
	for _, bad := range []int{2, -2} {
		known := make([]int, n)
		known[3] = bad
		if _, err := ReplayTranscript(context.Background(), tr, 0, m, known, false); err == nil {
			t.Errorf("known label %d: no error", bad)
		}
	}
	if _, err := ReplayTranscript(context.Background(), tr, 0, m, make([]int, n-1), false); err == nil {
		t.Error("N − 1 known labels: no error")
	}
}
