package scorer

// This file names the log functions of real math libraries that a float
// model can take bit for bit (package libm), and the log a model's
// simulated server calls.

import (
	"fmt"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/libm"
)

// A LogLib names the log function a float server calls, for a model that
// knows it bit for bit. The zero value is Go's math.Log (and math.Log
// rounded to float32), a faithful log standing for any other.
type LogLib string

// The log functions a model can name.
const (
	// LogGo is Go's math.Log (glibc's on subnormal arguments, where Go's
	// amd64 math.Log is wrong): faithful, the default simulated server.
	LogGo LogLib = ""
	// LogGlibc is glibc 2.28–2.40's log and logf on an x86-64 CPU with FMA
	// and AVX2 ([libm.Log], [libm.Logf]): what scikit-learn's xlogy and
	// PyTorch's CPU binary_cross_entropy call there.
	LogGlibc LogLib = "glibc"
	// LogGlibcNoFMA is the same on a CPU without FMA ([libm.LogNoFMA],
	// [libm.LogfNoFMA]).
	LogGlibcNoFMA LogLib = "glibc-nofma"
)

// funcs returns the float64 and float32 logs of l.
func (l LogLib) funcs() (func(float64) float64, func(float32) float32, error) {
	switch l {
	case LogGo:
		return goLog, log32, nil
	case LogGlibc:
		return libm.Log, libm.Logf, nil
	case LogGlibcNoFMA:
		return libm.LogNoFMA, libm.LogfNoFMA, nil
	}
	return nil, nil, fmt.Errorf("scorer: unknown log library %q (want glibc or glibc-nofma)", string(l))
}

// goLog is math.Log, except on subnormal arguments, where Go's amd64
// math.Log is wrong and the faithful glibc log stands in ([libm.GoLog]).
func goLog(x float64) float64 { return libm.GoLog(x) }

// check reports whether l can be the log of format f: a library log takes
// binary64 or binary32 only, and is faithful (LogULPs ≥ 1).
func (l LogLib) check(f fpa.Format, ulps float64) error {
	if _, _, err := l.funcs(); err != nil {
		return err
	}
	if l == LogGo {
		return nil
	}
	if f != fpa.Binary64 && f != fpa.Binary32 {
		return fmt.Errorf("scorer: the %s log is a binary64 or binary32 function, not a %v one", string(l), f)
	}
	if ulps < 1 {
		return fmt.Errorf("scorer: the %s log is faithful, not correctly rounded: LogULPs must be at least 1", string(l))
	}
	return nil
}

// fpaLog returns l's log as an fpa operation on binary64 or binary32
// values (for the emulated path of [FloatLoss]).
func (l LogLib) fpaLog() func(z, x *fpa.Float) *fpa.Float {
	f64, f32, _ := l.funcs()
	return func(z, x *fpa.Float) *fpa.Float {
		v, _ := x.Float64()
		if x.Format() == fpa.Binary32 {
			return z.SetFloat64(float64(f32(float32(v))))
		}
		return z.SetFloat64(f64(v))
	}
}
