package scorer

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// NoiseKind is a noise model on reported scores [AKXFT21, App. B.4–B.5].
type NoiseKind int

//go:generate go run golang.org/x/tools/cmd/stringer@v0.52.0 -type=NoiseKind,Encoding -linecomment -output=enum_string.go

const (
	NoNoise NoiseKind = iota // none
	// Bounded adds noise uniform in [−τ, τ].
	Bounded // bounded
	// Gaussian adds N(0, σ²) noise; an attacker bounds it by
	// σ·√(2 ln(2/δ')) with δ' its per-query failure probability.
	Gaussian // gaussian
	// Multiplicative multiplies the score by 1+ξ, ξ uniform in [−ε, ε]
	// [AKXFT21, Thm 11].
	Multiplicative // multiplicative
	// Laplace adds Laplace(0, b) noise, the mechanism of differential
	// privacy and a sub-exponential law: an attacker bounds it by
	// b·ln(1/δ'), its exact tail (P(|X| > t) = e^(−t/b)).
	Laplace // laplace
)

// SubExpHalfWidth returns the half-width τ = max(ν·√(2 ln(2/δ)),
// 2α·ln(2/δ)) that a sub-exponential(ν, α) noise exceeds with probability
// at most δ [AKXFT21, App. B.5] (Bernstein's tail bound). Laplace(b) is
// sub-exponential with ν = α = 2b; its exact tail, b·ln(1/δ), is smaller.
func SubExpHalfWidth(nu, alpha, delta float64) float64 {
	l := math.Log(2 / delta)
	return math.Max(nu*math.Sqrt(2*l), 2*alpha*l)
}

// Noise is a noise model with its scale: Tau is the half-width τ (Bounded),
// the standard deviation σ (Gaussian) or the relative bound ε
// (Multiplicative); Delta is the overall failure probability an attacker
// accepts for Gaussian noise.
type Noise struct {
	Kind  NoiseKind
	Tau   float64
	Delta float64
}

// ParseNoise returns the noise model called kind ("none", "bounded",
// "gaussian", "multiplicative") with scale tau and failure probability
// delta (Gaussian only; 0 means 1e−6).
func ParseNoise(kind string, tau, delta float64) (Noise, error) {
	var n Noise
	switch kind {
	case "", "none":
		return Noise{}, nil
	case "bounded", "uniform":
		n.Kind = Bounded
	case "gaussian", "normal":
		n.Kind = Gaussian
	case "multiplicative", "mult":
		n.Kind = Multiplicative
	case "laplace":
		n.Kind = Laplace
	default:
		return n, fmt.Errorf("scorer: unknown noise %q (want none, bounded, gaussian, laplace or multiplicative)", kind)
	}
	n.Tau, n.Delta = tau, delta
	if (n.Kind == Gaussian || n.Kind == Laplace) && delta == 0 {
		n.Delta = 1e-6
	}
	return n, n.Validate()
}

// Validate reports whether n's parameters are usable.
func (n Noise) Validate() error {
	if n.Kind == NoNoise {
		return nil
	}
	if !(n.Tau >= 0) || math.IsInf(n.Tau, 0) {
		return fmt.Errorf("scorer: noise scale %v is not a finite number ≥ 0", n.Tau)
	}
	if n.Kind == Multiplicative && n.Tau >= 1 {
		return fmt.Errorf("scorer: multiplicative noise ε = %v, need ε < 1", n.Tau)
	}
	if (n.Kind == Gaussian || n.Kind == Laplace) && !(n.Delta > 0 && n.Delta < 1) {
		return fmt.Errorf("scorer: failure probability δ = %v outside (0, 1)", n.Delta)
	}
	return nil
}

// HalfWidth returns τ such that |observed − true| ≤ τ for one query whose
// true score is at most smax: always for bounded and multiplicative noise,
// and with probability at least 1 − Delta/queries for Gaussian noise, so
// that a union bound over up to queries queries fails with probability at
// most Delta [AKXFT21, App. B.5]. The value is rounded up.
func (n Noise) HalfWidth(smax float64, queries int) float64 {
	switch n.Kind {
	case Bounded:
		return n.Tau
	case Gaussian:
		q := float64(max(queries, 1))
		return math.Nextafter(n.Tau*math.Sqrt(2*math.Log(2*q/n.Delta))*(1+1e-12), math.Inf(1))
	case Multiplicative:
		return math.Nextafter(n.Tau*smax*(1+1e-12), math.Inf(1))
	case Laplace:
		q := float64(max(queries, 1))
		return math.Nextafter(n.Tau*math.Log(q/n.Delta)*(1+1e-12), math.Inf(1))
	}
	return 0
}

// Additive draws one additive noise value from r (0 for NoNoise and
// Multiplicative, which is not additive: see [Noise.Factor]).
func (n Noise) Additive(r *rand.Rand) float64 {
	switch n.Kind {
	case Bounded:
		return n.Tau * (2*r.Float64() - 1)
	case Gaussian:
		return n.Tau * r.NormFloat64()
	case Laplace:
		return laplace(r, n.Tau)
	}
	return 0
}

// laplace draws from Laplace(0, b) by inversion: ±b·ln(1/U), U uniform in
// (0, 1].
func laplace(r *rand.Rand, b float64) float64 {
	u := 1 - r.Float64() // (0, 1]
	x := -b * math.Log(u)
	if r.IntN(2) == 1 {
		return -x
	}
	return x
}
