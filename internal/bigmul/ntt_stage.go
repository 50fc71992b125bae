// This file holds the Go butterfly stages of the transform: the
// reference for ntt_amd64.s and the code on other platforms.

package bigmul

import "math/bits"

// forward4StageGo runs forward4's butterflies over a (blocks blocks of
// four quarters of qs words; values in [0, 4p)), block k with w1 = w[k]
// and its halves with w2 = w2[2k], w3 = w2[2k+1], the Shoup quotients in
// wp and wp2.
func forward4StageGo(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64) {
	p2 := 2 * p
	if qs == 1 {
		w, wp = w[:blocks], wp[:blocks]
		w2, wp2 = w2[:2*blocks], wp2[:2*blocks]
		for k := range blocks {
			v := a[4*k : 4*k+4 : 4*k+4]
			w1, w1p := w[k], wp[k]
			A, B, C, D := v[0], v[1], v[2], v[3]
			if A >= p2 {
				A -= p2
			}
			if B >= p2 {
				B -= p2
			}
			qq, _ := bits.Mul64(C, w1p)
			tc := C*w1 - qq*p
			qq, _ = bits.Mul64(D, w1p)
			td := D*w1 - qq*p
			A, C = A+tc, A-tc+p2
			B, D = B+td, B-td+p2
			if A >= p2 {
				A -= p2
			}
			if C >= p2 {
				C -= p2
			}
			qq, _ = bits.Mul64(B, wp2[2*k])
			tb := B*w2[2*k] - qq*p
			qq, _ = bits.Mul64(D, wp2[2*k+1])
			td = D*w2[2*k+1] - qq*p
			v[0], v[1] = A+tb, A-tb+p2
			v[2], v[3] = C+td, C-td+p2
		}
		return
	}
	for k := range blocks {
		w1, w1p := w[k], wp[k]
		w2k, w2p := w2[2*k], wp2[2*k]
		w3, w3p := w2[2*k+1], wp2[2*k+1]
		base := 4 * qs * k
		qa := a[base : base+qs]
		qb := a[base+qs : base+2*qs]
		qc := a[base+2*qs : base+3*qs]
		qd := a[base+3*qs : base+4*qs]
		qb, qc, qd = qb[:len(qa)], qc[:len(qa)], qd[:len(qa)]
		for j, A := range qa {
			B, C, D := qb[j], qc[j], qd[j]
			if A >= p2 {
				A -= p2
			}
			if B >= p2 {
				B -= p2
			}
			qq, _ := bits.Mul64(C, w1p)
			tc := C*w1 - qq*p
			qq, _ = bits.Mul64(D, w1p)
			td := D*w1 - qq*p
			A, C = A+tc, A-tc+p2
			B, D = B+td, B-td+p2
			if A >= p2 {
				A -= p2
			}
			if C >= p2 {
				C -= p2
			}
			qq, _ = bits.Mul64(B, w2p)
			tb := B*w2k - qq*p
			qq, _ = bits.Mul64(D, w3p)
			td = D*w3 - qq*p
			qa[j], qb[j] = A+tb, A-tb+p2
			qc[j], qd[j] = C+td, C-td+p2
		}
	}
}

// inverse4StageGo runs inverse4's butterflies over a (values in [0, 2p)),
// block k with the inverse factors w1 = w[k], w2 = w2[2k], w3 = w2[2k+1].
func inverse4StageGo(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64) {
	p2 := 2 * p
	if qs == 1 {
		// One butterfly per block, its factors read in sequence.
		w, wp = w[:blocks], wp[:blocks]
		w2, wp2 = w2[:2*blocks], wp2[:2*blocks]
		for k := range blocks {
			v := a[4*k : 4*k+4 : 4*k+4]
			w1, w1p := w[k], wp[k]
			A, B, C, D := v[0], v[1], v[2], v[3]
			x := A + B
			if x >= p2 {
				x -= p2
			}
			d := A - B + p2
			qq, _ := bits.Mul64(d, wp2[2*k])
			B = d*w2[2*k] - qq*p
			A = x
			x = C + D
			if x >= p2 {
				x -= p2
			}
			d = C - D + p2
			qq, _ = bits.Mul64(d, wp2[2*k+1])
			D = d*w2[2*k+1] - qq*p
			C = x
			x = A + C
			if x >= p2 {
				x -= p2
			}
			d = A - C + p2
			qq, _ = bits.Mul64(d, w1p)
			v[2] = d*w1 - qq*p
			v[0] = x
			x = B + D
			if x >= p2 {
				x -= p2
			}
			d = B - D + p2
			qq, _ = bits.Mul64(d, w1p)
			v[3] = d*w1 - qq*p
			v[1] = x
		}
		return
	}
	for k := range blocks {
		w1, w1p := w[k], wp[k]
		w2k, w2p := w2[2*k], wp2[2*k]
		w3, w3p := w2[2*k+1], wp2[2*k+1]
		base := 4 * qs * k
		qa := a[base : base+qs]
		qb := a[base+qs : base+2*qs]
		qc := a[base+2*qs : base+3*qs]
		qd := a[base+3*qs : base+4*qs]
		qb, qc, qd = qb[:len(qa)], qc[:len(qa)], qd[:len(qa)]
		for j, A := range qa {
			B, C, D := qb[j], qc[j], qd[j]
			x := A + B
			if x >= p2 {
				x -= p2
			}
			d := A - B + p2
			qq, _ := bits.Mul64(d, w2p)
			B = d*w2k - qq*p
			A = x
			x = C + D
			if x >= p2 {
				x -= p2
			}
			d = C - D + p2
			qq, _ = bits.Mul64(d, w3p)
			D = d*w3 - qq*p
			C = x
			x = A + C
			if x >= p2 {
				x -= p2
			}
			d = A - C + p2
			qq, _ = bits.Mul64(d, w1p)
			qc[j] = d*w1 - qq*p
			qa[j] = x
			x = B + D
			if x >= p2 {
				x -= p2
			}
			d = B - D + p2
			qq, _ = bits.Mul64(d, w1p)
			qd[j] = d*w1 - qq*p
			qb[j] = x
		}
	}
}
