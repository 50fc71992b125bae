package scorer

import (
	"encoding/json"
	"testing"
)

func TestPredJSON(t *testing.T) {
	p := &Pred{K: 3, P: []float64{0.1, 0.2, 0.7, 1, 0, 0}}
	var v struct{ Predictions [][]float64 }
	if err := json.Unmarshal(p.AppendJSON(nil), &v); err != nil || len(v.Predictions) != 2 || v.Predictions[0][2] != 0.7 {
		t.Errorf("AppendJSON = %s (%v)", p.AppendJSON(nil), err)
	}
}
