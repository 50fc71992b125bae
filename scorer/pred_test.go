package scorer

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

func TestPredJSON(t *testing.T) {
	p := &Pred{K: 3, P: []float64{0.1, 0.2, 0.7, 1, 0, 0}}
	var v struct{ Predictions [][]float64 }
	if err := json.Unmarshal(p.AppendJSON(nil), &v); err != nil || len(v.Predictions) != 2 || v.Predictions[0][2] != 0.7 {
		t.Errorf("AppendJSON = %s (%v)", p.AppendJSON(nil), err)
	}
}

// TestPredJSONRepeats: a binary prediction with runs of one value (which
// AppendJSON copies rather than formats again) is written as formatting
// every value would write it.
func TestPredJSONRepeats(t *testing.T) {
	vals := []float64{0.5, 0.4999999959800076, 0, 1, 1e-300, 0.25}
	var p []float64
	for i := range 200 {
		p = append(p, vals[(i*i/7)%len(vals)])
	}
	p = append(p, math.Copysign(0, -1), 0, math.Copysign(0, -1)) // -0 and 0 differ in bits and text
	want := []byte(`{"predictions":[`)
	for i, v := range p {
		if i > 0 {
			want = append(want, ',')
		}
		want = strconv.AppendFloat(want, v, 'g', -1, 64)
	}
	want = append(want, "]}"...)
	if got := (&Pred{K: 2, P: p}).AppendJSON(nil); string(got) != string(want) {
		t.Errorf("AppendJSON = %s\nwant %s", got, want)
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
