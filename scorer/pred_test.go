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

// TestEnumStrings: the generated String methods give the names the
// parsers accept.
func TestEnumStrings(t *testing.T) {
	for e := Logits; e <= Probs; e++ {
		got, err := ParseEncoding(e.String())
		if err != nil || got != e {
			t.Errorf("ParseEncoding(%q) = %v, %v; want %v", e.String(), got, err, e)
		}
	}
	for k := NoNoise; k <= Laplace; k++ {
		n, err := ParseNoise(k.String(), 0.5, 0.1)
		if err != nil || n.Kind != k {
			t.Errorf("ParseNoise(%q) = %v, %v; want %v", k.String(), n.Kind, err, k)
		}
	}
	if s := Encoding(7).String(); s != "Encoding(7)" {
		t.Errorf("Encoding(7).String() = %q", s)
	}
}
