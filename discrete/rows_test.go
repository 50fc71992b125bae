package discrete

import (
	"testing"
)

// TestPlanRows: a plan aimed at m rows costs its own plan for m rows plus
// the query that reads the held rows, every query repeated; it grows
// with m, equals the whole plan (plus that query) at m = N, and is
// refused where part of the rows is not modelled (AUC, walk).
func TestPlanRows(t *testing.T) {
	for _, o := range []Options{
		{Metric: Accuracy, N: 300, K: 3, Strategy: Group, Repeats: 36000, Check: true, MaxQueries: 4000},
		{Metric: Accuracy, N: 1000, Strategy: Flip, Repeats: 7},
		{Metric: Brier, N: 1000, Strategy: Group, Repeats: 3, Check: true},
	} {
		prev := 0
		for m := 0; m <= o.N; m += 1 + m/3 {
			q, err := PlanRows(o, m)
			if err != nil {
				t.Fatal(err)
			}
			if !(q >= prev) {
				t.Errorf("%v m=%d", o.Strategy, m)
			}
			prev = q
		}
		whole := o
		whole.MaxQueries = 0
		w, err := Plan(whole)
		if err != nil {
			t.Fatal(err)
		}
		q, err := PlanRows(o, o.N)
		if err != nil {
			t.Fatal(err)
		}
		if want := w + o.Repeats; q != want {
			t.Errorf("%v at m = N: got %v, want %v", o.Strategy, q, want)
		}
		one, err := PlanRows(o, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !(one*10 < w) {
			t.Errorf("%v: one row costs a small part of the whole", o.Strategy)
		}
	}
	_, err := PlanRows(Options{Metric: AUC, N: 100, Strategy: Group}, 5)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = PlanRows(Options{Metric: Accuracy, N: 100, Strategy: Edge}, 5)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = PlanRows(Options{Metric: Accuracy, N: 100, Strategy: Flip}, 101)
	if err == nil {
		t.Error("want an error, got nil")
	}
}
