package libm

// This file models glibc's log and logf (glibc 2.28 to 2.40, written by
// Szabolcs Nagy for ARM's optimized-routines: sysdeps/ieee754/dbl-64/
// e_log.c and sysdeps/ieee754/flt-32/e_logf.c) operation for operation, in
// both of the x86-64 variants glibc's ifunc picks from
// (sysdeps/x86_64/fpu/multiarch/e_log.c, e_logf.c): __log_fma and
// __logf_fma, the same C compiled with -mfma -mavx2 (GCC contracts a*b+c
// into one fused multiply-add wherever the expression allows), on CPUs
// with FMA and AVX2; and the baseline SSE2 build, without fused
// operations, elsewhere. Which products GCC fused was read from the
// machine code of Debian 12's libm.so.6 (glibc 2.36-9+deb12u14,
// objdump -d of __ieee754_log_fma and __logf_fma); every fused operation
// below is math.FMA, every other product is rounded on its own (an
// explicit float64 conversion, so that the Go compiler fuses nothing).

import "math"

// Log returns log(x) as glibc's x86-64 log computes it on a CPU with FMA
// and AVX2 (__log_fma), bit for bit: within 0.52 ulp of ln x, not always
// correctly rounded.
//
// Special cases are:
//
//	Log(+Inf) = +Inf
//	Log(0) = −Inf
//	Log(x < 0) = NaN
//	Log(NaN) = NaN
//	Log(1) = +0
func Log(x float64) float64 { return glibcLog(x, true) }

// LogNoFMA is [Log] as glibc computes it on a CPU without FMA (the
// baseline build, __log_sse2): the same algorithm with every product
// rounded, and 1/c applied to z − c split in two words (tab2).
func LogNoFMA(x float64) float64 { return glibcLog(x, false) }

func glibcLog(x float64, fma bool) float64 {
	const (
		lo  = 0x3fee000000000000 // asuint64(1 − 2^−4)
		hi  = 0x3ff1090000000000 // asuint64(1 + 0x1.09p−4)
		off = 0x3fe6000000000000
	)
	ix := math.Float64bits(x)
	top := uint32(ix >> 48)
	if ix-lo < hi-lo {
		if ix == 0x3ff0000000000000 {
			return 0
		}
		return log1Near(x, fma)
	}
	if top-0x0010 >= 0x7ff0-0x0010 {
		switch {
		case ix<<1 == 0:
			return math.Inf(-1)
		case ix == 0x7ff0000000000000:
			return x
		case top&0x8000 != 0 || top&0x7ff0 == 0x7ff0:
			return math.NaN()
		}
		// Subnormal: scale by 2^52 (exact) and take 52 off the exponent.
		ix = math.Float64bits(x*0x1p52) - 52<<52
	}
	B := &logData
	tmp := ix - off
	i := int(tmp>>(52-7)) % 128
	k := int64(tmp) >> 52 // arithmetic shift
	iz := ix - tmp&(0xfff<<52)
	invc, logc := B.tab[i][0], B.tab[i][1]
	z := math.Float64frombits(iz)
	kd := float64(k)
	A := &B.poly
	var r, w, lo1, y float64
	if fma {
		r = math.FMA(z, invc, -1)
		w = math.FMA(kd, B.ln2hi, logc)
		h := r + w
		lo1 = math.FMA(kd, B.ln2lo, (w-h)+r)
		r2 := float64(r * r)
		r3 := float64(r * r2)
		p := math.FMA(math.FMA(r, A[4], A[3]), r2, math.FMA(r, A[2], A[1]))
		y = math.FMA(r3, p, math.FMA(r2, A[0], lo1))
		return y + h
	}
	r = float64((z-B.tab2[i][0])-B.tab2[i][1]) * invc
	w = float64(kd*B.ln2hi) + logc
	h := w + r
	lo1 = ((w - h) + r) + float64(kd*B.ln2lo)
	r2 := float64(r * r)
	r3 := float64(r * r2)
	p := (A[1] + float64(r*A[2])) + float64(r2*(A[3]+float64(r*A[4])))
	y = (lo1 + float64(r2*A[0])) + float64(r3*p)
	return y + h
}

// log1Near is glibc's log for 1 − 2^−4 ≤ x < 1 + 0x1.09p−4, x ≠ 1: a
// degree-12 polynomial in r = x − 1 whose leading terms r − r²/2 are
// summed in two words.
func log1Near(x float64, fma bool) float64 {
	B := &logData.poly1
	r := x - 1
	r2 := float64(r * r)
	r3 := float64(r * r2)
	if fma {
		q1 := math.FMA(r2, B[3], math.FMA(r, B[2], B[1]))
		q2 := math.FMA(r2, B[6], math.FMA(r, B[5], B[4]))
		q3 := math.FMA(r3, B[10], math.FMA(r2, B[9], math.FMA(r, B[8], B[7])))
		p := math.FMA(math.FMA(q3, r3, q2), r3, q1)
		t := math.FMA(r, 0x1p27, r)
		rhi := math.FMA(-0x1p27, r, t)
		rlo := r - rhi
		rhi2 := float64(rhi * rhi)
		h := math.FMA(rhi2, B[0], r)
		lo := math.FMA(rhi2, B[0], r-h)
		lo = math.FMA(float64(B[0]*rlo), r+rhi, lo)
		y := math.FMA(p, r3, lo)
		return h + y
	}
	q3 := (B[7] + float64(r*B[8])) + float64(r2*B[9]) + float64(r3*B[10])
	q2 := (B[4] + float64(r*B[5])) + float64(r2*B[6]) + float64(r3*q3)
	q1 := (B[1] + float64(r*B[2])) + float64(r2*B[3]) + float64(r3*q2)
	y := float64(r3 * q1)
	w := float64(r * 0x1p27)
	rhi := (r + w) - w
	rlo := r - rhi
	w = float64(float64(rhi*rhi) * B[0])
	h := r + w
	lo := (r - h) + w
	lo += float64(float64(B[0]*rlo) * (rhi + r))
	y += lo
	y += h
	return y
}

// Logf returns logf(x) as glibc's x86-64 logf computes it on a CPU with
// FMA and AVX2 (__logf_fma), bit for bit: a double-precision evaluation
// rounded once to float32, within 0.82 ulp of ln x and often not
// correctly rounded.
//
// Special cases are:
//
//	Logf(+Inf) = +Inf
//	Logf(0) = −Inf
//	Logf(x < 0) = NaN
//	Logf(NaN) = NaN
//	Logf(1) = +0
func Logf(x float32) float32 { return glibcLogf(x, true) }

// LogfNoFMA is [Logf] on a CPU without FMA (__logf_sse2): every product
// rounded on its own.
func LogfNoFMA(x float32) float32 { return glibcLogf(x, false) }

func glibcLogf(x float32, fma bool) float32 {
	const off = 0x3f330000
	ix := math.Float32bits(x)
	if ix == 0x3f800000 {
		return 0
	}
	if ix-0x00800000 >= 0x7f800000-0x00800000 {
		switch {
		case ix<<1 == 0:
			return float32(math.Inf(-1))
		case ix == 0x7f800000:
			return x
		case ix&0x80000000 != 0 || ix<<1 >= 0xff000000:
			return float32(math.NaN())
		}
		// Subnormal: scale by 2^23 (exact) and take 23 off the exponent.
		ix = math.Float32bits(x*0x1p23) - 23<<23
	}
	T := &logfData
	tmp := ix - off
	i := int(tmp>>(23-4)) % 16
	k := int32(tmp) >> 23 // arithmetic shift
	iz := ix - tmp&(0x1ff<<23)
	invc, logc := T.tab[i][0], T.tab[i][1]
	z := float64(math.Float32frombits(iz))
	A := &T.poly
	var y float64
	if fma {
		r := math.FMA(z, invc, -1)
		y0 := math.FMA(float64(k), T.ln2, logc)
		r2 := float64(r * r)
		y = math.FMA(r, A[1], A[2])
		y = math.FMA(r2, A[0], y)
		y = math.FMA(r2, y, y0+r)
	} else {
		r := float64(z*invc) - 1
		y0 := logc + float64(float64(k)*T.ln2)
		r2 := float64(r * r)
		y = float64(A[1]*r) + A[2]
		y = float64(A[0]*r2) + y
		y = float64(y*r2) + (y0 + r)
	}
	return float32(y)
}
