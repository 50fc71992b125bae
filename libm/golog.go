package libm

import "math"

// GoLog returns Go's math.Log(x), except on subnormal x, where Go's amd64
// math.Log is wrong (golang/go#56600: it returns −709.09 for 2^−1074
// instead of −744.44) and GoLog returns [Log] (glibc's, faithful) instead.
// It is the log for code that wants Go's speed on normal numbers and a
// right answer on the rest.
func GoLog(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return Log(x)
	}
	return math.Log(x)
}
