package oracle

import (
	"context"
	"math"
	"testing"

	"github.com/labelinf/labelinf/scorer"
)

func TestSimErrors(t *testing.T) {
	m, _ := scorer.ParseModel(scorer.Float64Sklearn)
	if _, err := NewSim(m, nil, 2); err == nil {
		t.Error("no labels accepted")
	}
	if _, err := NewSim(m, []int{0, 2}, 2); err == nil {
		t.Error("label 2 of K = 2 accepted")
	}
	s, _ := NewSim(m, []int{0, 1}, 2)
	for _, p := range []*scorer.Pred{nil, {K: 2, P: []float64{0.5}}, {K: 3, P: []float64{0.5, 0.5}}, {K: 2, P: []float64{math.NaN(), 0.5}}} {
		if _, err := s.Score(context.Background(), p); err == nil {
			t.Errorf("Score(%v) accepted", p)
		}
	}
	if s.Queries() != 4 {
		t.Errorf("Queries = %d, want 4 (malformed ones count)", s.Queries())
	}
	// Unclipped exact server: log 0 is an error, not a panic.
	a, _ := scorer.ParseModel("apa:64")
	sa, _ := NewSim(a, []int{1}, 2)
	if _, err := sa.Score(context.Background(), &scorer.Pred{K: 2, P: []float64{0}}); err == nil {
		t.Error("apa: log 0 accepted")
	}
}
