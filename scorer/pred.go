package scorer

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// A Pred is a prediction submitted to a scorer as float64 probabilities, the
// form real scoring code receives. For K = 2 (binary) P holds one value per
// point, the probability of class 1; for K > 2 it holds N rows of K
// probabilities, row-major.
type Pred struct {
	K int
	P []float64
}

// N returns the number of points of p.
func (p *Pred) N() int {
	if p.K <= 2 {
		return len(p.P)
	}
	return len(p.P) / p.K
}

// Row returns row i of p as K class probabilities, in dst if it is long
// enough (binary: [1−P[i], P[i]] with 1−P[i] rounded to float64; it is only
// a view, servers compute 1−p themselves).
func (p *Pred) Row(dst []float64, i int) []float64 {
	if p.K <= 2 {
		return append(dst[:0], 1-p.P[i], p.P[i])
	}
	return append(dst[:0], p.P[i*p.K:(i+1)*p.K]...)
}

// Check returns an error unless p has n points of k classes, all finite.
func (p *Pred) Check(n, k int) error {
	if p == nil {
		return errors.New("scorer: nil prediction")
	}
	if p.K != k {
		return fmt.Errorf("scorer: prediction has %d classes, the scorer %d", p.K, k)
	}
	want := n
	if k > 2 {
		want = n * k
	}
	if len(p.P) != want {
		return fmt.Errorf("scorer: prediction has %d values, want %d (%d points of %d classes)", len(p.P), want, n, k)
	}
	for i, v := range p.P {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("scorer: prediction value %d is %v", i, v)
		}
	}
	return nil
}

// AppendJSON appends p as the JSON object {"predictions": [...]} that
// external scorers read: binary, one number per point; K classes, one array
// of K numbers per point. Numbers are written in the shortest form that
// reads back to the same float64. A binary value equal (bit for bit) to
// the one before it is copied from that one's text rather than formatted
// again: attack queries repeat one value over most rows.
func (p *Pred) AppendJSON(b []byte) []byte {
	b = append(b, `{"predictions":[`...)
	n := p.N()
	prevStart, prevEnd, prevBits := 0, 0, uint64(0)
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		if p.K <= 2 {
			if bits := math.Float64bits(p.P[i]); i > 0 && bits == prevBits {
				start := len(b)
				b = append(b, b[prevStart:prevEnd]...)
				prevStart, prevEnd = start, len(b)
			} else {
				prevStart = len(b)
				b = strconv.AppendFloat(b, p.P[i], 'g', -1, 64)
				prevEnd, prevBits = len(b), bits
			}
			continue
		}
		b = append(b, '[')
		for c := range p.K {
			if c > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, p.P[i*p.K+c], 'g', -1, 64)
		}
		b = append(b, ']')
	}
	return append(b, "]}"...)
}
