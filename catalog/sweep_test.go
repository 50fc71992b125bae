package catalog

import (
	"context"
	"slices"
	"testing"
)

// TestBenchLabelings: the 23 labelings, by name, and the names that are
// none.
func TestBenchLabelings(t *testing.T) {
	names := BenchLabelingNames(20)
	if len(names) != 23 {
		t.Fatalf("len %d, want %d", len(names), 23)
	}
	if got, want := []string{names[0], names[19], names[20], names[21], names[22]}, []string{"seed1", "seed20", "all0", "allK-1", "imodK"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	y, err := BenchLabeling("seed7", 50, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := SeededLabels(7, 50, 3); !slices.Equal(y, want) {
		t.Errorf("y = %v, want %v", y, want)
	}
	y, err = BenchLabeling("imodK", 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2, 0, 1, 2, 0}; !slices.Equal(y, want) {
		t.Errorf("y = %v, want %v", y, want)
	}
	y, err = BenchLabeling("allK-1", 3, 6)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{5, 5, 5}; !slices.Equal(y, want) {
		t.Errorf("y = %v, want %v", y, want)
	}
	for _, bad := range []string{"seed0", "seed", "seed01", "seedx", "all1", ""} {
		_, err := BenchLabeling(bad, 5, 2)
		if err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestSweep: a small sweep's cells, runs and report; a bad
// configuration is an error.
func TestSweep(t *testing.T) {
	for _, bad := range []Sweep{
		{N: 100, K: 2, Strategy: AutoName},
		{Scorers: []string{"float64-sklearn"}, N: 0, K: 2, Strategy: AutoName},
		{Scorers: []string{"float64-sklearn"}, N: 100, K: 1, Strategy: AutoName},
		{Scorers: []string{"no-such-model"}, N: 100, K: 2, Strategy: AutoName},
		{Scorers: []string{"float64-sklearn"}, N: 100, K: 2, Strategy: "no-such-attack"},
		{Scorers: []string{"float64-sklearn"}, N: 100, K: 2, Strategy: AutoName, Seeds: -1},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	s := &Sweep{Scorers: []string{"float64-sklearn", "torch-bce"}, N: 150, K: 2, Strategy: AutoName, Seeds: 1}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	cells := s.Cells()
	if len(cells) != 8 {
		t.Fatalf("len %d, want %d", len(cells), 8)
	}
	if want := (SweepCell{"torch-bce", "seed1"}); cells[4] != want {
		t.Errorf("cells[4] = %v, want %v", cells[4], want)
	}
	runs := make([]SweepRun, len(cells))
	for i := range cells {
		r, err := s.RunCell(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Verified {
			t.Errorf("%v: %s", r.SweepCell, r.Error)
		}
		if r.Attack != "hybrid" {
			t.Errorf("r.Attack = %v, want %v", r.Attack, "hybrid")
		}
		runs[i] = r
	}
	_, err := s.RunCell(context.Background(), len(cells))
	if err == nil {
		t.Error("want an error, got nil")
	}
	rep, err := s.Report(runs, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 2 {
		t.Fatalf("len %d, want %d", len(rep.Rows), 2)
	}
	q := func(rs []SweepRun) (qs []int) {
		for _, r := range rs {
			qs = append(qs, r.Queries)
		}
		return qs
	}
	for j, row := range rep.Rows {
		qs := q(runs[4*j : 4*j+4])
		if row.Verified != 4 {
			t.Errorf("row.Verified = %v, want %v", row.Verified, 4)
		}
		if want := slices.Max(qs); row.MaxQueries != want {
			t.Errorf("row.MaxQueries = %v, want %v", row.MaxQueries, want)
		}
		if want := slices.Min(qs); row.MinQueries != want {
			t.Errorf("row.MinQueries = %v, want %v", row.MinQueries, want)
		}
		if row.CPUMedian != nil {
			t.Errorf("-cpu=false: %v, want nil", row.CPUMedian)
		}
	}
	// A run that did not verify counts in Runs, not in the queries.
	runs[0].Verified, runs[0].Queries = false, 1
	rep, err = s.Report(runs, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Rows[0].Verified; got != 3 {
		t.Errorf("rep.Rows[0].Verified = %v, want %v", got, 3)
	}
	if 1 == rep.Rows[0].MinQueries {
		t.Errorf("both %v", 1)
	}
	_, err = s.Report(runs[1:], true)
	if err == nil {
		t.Error("want an error, got nil")
	}
}
