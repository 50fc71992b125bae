package defence

//go:generate go run golang.org/x/tools/cmd/stringer@v0.52.0 -type=NoiseKind,NoiseKey -linecomment -output=noise_string.go

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	mrand "math/rand/v2"
)

// NoiseKind is the law of the noise added to a reported score.
type NoiseKind int

const (
	// Gaussian noise N(0, σ²); Scale is σ.
	Gaussian NoiseKind = iota + 1 // gaussian
	// Laplace noise with density e^(−|x|/b)/(2b); Scale is b (standard
	// deviation b√2), the law of the Laplace mechanism of differential
	// privacy and of Thresholdout [DFHPRR15].
	Laplace // laplace
)

// KeyLen is the length in bytes of a noise secret.
const KeyLen = 32

// NewKey returns a fresh secret of KeyLen bytes from crypto/rand.
func NewKey() ([]byte, error) {
	k := make([]byte, KeyLen)
	if _, err := rand.Read(k); err != nil {
		return nil, fmt.Errorf("defence: reading crypto/rand: %w", err)
	}
	return k, nil
}

// NoiseKey says what keyed noise is a function of.
type NoiseKey int

const (
	// Fresh draws new noise for every submission: the same prediction
	// submitted m times gets m independent draws, so their mean has
	// standard deviation σ/√m and an attacker averages the noise away
	// (adaptive.Average). Cheap for the host, and honest users see
	// independent errors.
	Fresh NoiseKey = iota // fresh
	// KeyedPrediction makes the noise a function of HMAC-SHA256(key,
	// Submission.Pred): the same prediction bytes always get the same
	// noise, on every account and after a restart with the same key, so
	// repeating a submission tells nothing new. It does not stop an
	// attacker who changes the prediction without changing its score
	// (another probability on the same side of 0.5 under 0/1 loss), nor
	// one who changes it by a hair (log-loss): both get fresh draws of
	// nearly the same score. KeyedLosses closes the first hole.
	KeyedPrediction // keyed-prediction
	// KeyedLosses keys the noise on the per-row losses of the rows scored
	// (their float64 bits, in row order) instead of the prediction bytes:
	// two predictions with the same per-row losses (every 0/1-loss
	// prediction with the same errors) get the same noise.
	KeyedLosses // keyed-losses
)

// NoiseOptions configures [NewNoise].
type NoiseOptions struct {
	// Kind is Gaussian or Laplace; required.
	Kind NoiseKind
	// Scale is σ (Gaussian) or b (Laplace) in score units, > 0 and finite.
	Scale float64
	// Key selects fresh or keyed noise; the zero value is Fresh.
	Key NoiseKey
	// Secret is the host's secret, at least 16 bytes. Nil draws one from
	// crypto/rand ([NewKey]), which is right for Fresh noise; keyed noise
	// needs a persisted secret, or a restart changes every prediction's
	// noise and lets an attacker average across restarts.
	Secret []byte
	// Nonce fixes the per-instance nonce of Fresh noise, for reproducible
	// simulations (an audit replayed with the same seed) only. A server
	// must leave it nil: a fixed nonce with a fixed secret replays the
	// same fresh noise after every restart.
	Nonce *[16]byte
}

// Noise adds noise of a given law and scale to the score, drawn from a
// CSPRNG keyed by a secret the host keeps: ChaCha8 (math/rand/v2) seeded
// with HMAC-SHA256(secret, context), where the context is a random
// 16-byte nonce drawn from crypto/rand at construction and a counter
// (Fresh), or the prediction or its per-row losses (keyed). Because the
// nonce is new for each Noise value, a restarted server never replays the
// fresh noise of a previous run even with the same secret; keyed noise is
// replayed exactly when the secret is the same, which is its purpose.
// Noise is added exactly to the rational score (every float64 is
// rational); put a [Round] after it to release a decimal.
type Noise struct {
	opts    NoiseOptions
	nonce   [16]byte
	counter uint64
}

// NewNoise returns a noise stage.
func NewNoise(o NoiseOptions) (*Noise, error) {
	if o.Kind != Gaussian && o.Kind != Laplace {
		return nil, fmt.Errorf("defence: noise kind %v", o.Kind)
	}
	if !(o.Scale > 0) || math.IsInf(o.Scale, 0) {
		return nil, fmt.Errorf("defence: noise scale %v; want finite and > 0", o.Scale)
	}
	if o.Key < Fresh || o.Key > KeyedLosses {
		return nil, fmt.Errorf("defence: noise key %v", o.Key)
	}
	if o.Secret == nil {
		k, err := NewKey()
		if err != nil {
			return nil, err
		}
		o.Secret = k
	} else if len(o.Secret) < 16 {
		return nil, fmt.Errorf("defence: noise secret of %d bytes; want ≥ 16", len(o.Secret))
	}
	o.Secret = append([]byte(nil), o.Secret...)
	z := &Noise{opts: o}
	if o.Nonce != nil {
		z.nonce = *o.Nonce
		z.opts.Nonce = nil
	} else if _, err := rand.Read(z.nonce[:]); err != nil {
		return nil, fmt.Errorf("defence: reading crypto/rand: %w", err)
	}
	return z, nil
}

func (z *Noise) String() string {
	return fmt.Sprintf("noise(%v, %g, %v)", z.opts.Kind, z.opts.Scale, z.opts.Key)
}
func (z *Noise) kind() stageKind { return scoreStage }

func (z *Noise) apply(s *state) error {
	v, err := s.value()
	if err != nil {
		return err
	}
	src, err := z.source(s)
	if err != nil {
		return err
	}
	e := draw(mrand.New(src), z.opts.Kind, z.opts.Scale)
	if math.IsInf(e, 0) || math.IsNaN(e) {
		return fmt.Errorf("defence: noise draw overflowed (scale %g)", z.opts.Scale)
	}
	s.score = new(big.Rat).Add(v, new(big.Rat).SetFloat64(e))
	return nil
}

// source returns the ChaCha8 stream for this submission.
func (z *Noise) source(s *state) (*mrand.ChaCha8, error) {
	mac := hmac.New(sha256.New, z.opts.Secret)
	var b [8]byte
	switch z.opts.Key {
	case Fresh:
		mac.Write([]byte("labelinf/defence fresh noise\x00"))
		mac.Write(z.nonce[:])
		binary.BigEndian.PutUint64(b[:], z.counter)
		mac.Write(b[:])
		z.counter++
	case KeyedPrediction:
		if s.sub.Pred == nil {
			return nil, errors.New("defence: noise keyed on the prediction needs Submission.Pred")
		}
		mac.Write([]byte("labelinf/defence prediction noise\x00"))
		binary.BigEndian.PutUint64(b[:], uint64(len(s.sub.Pred)))
		mac.Write(b[:])
		mac.Write(s.sub.Pred)
	case KeyedLosses:
		l, err := s.losses()
		if err != nil {
			return nil, err
		}
		mac.Write([]byte("labelinf/defence loss noise\x00"))
		// The loss bits, big-endian, each preceded by its row index when the
		// rows are a subset (all rows: the marker 0, then the bits alone);
		// written in 4 KiB chunks.
		buf := make([]byte, 0, 4096)
		if s.rows == nil {
			buf = append(buf, 0)
		} else {
			buf = append(buf, 1)
		}
		for j, v := range l {
			if v == 0 {
				v = 0 // −0 and +0 are the same loss
			}
			if s.rows != nil {
				buf = binary.BigEndian.AppendUint64(buf, uint64(s.rows[j]))
			}
			buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(v))
			if len(buf)+16 > cap(buf) {
				mac.Write(buf)
				buf = buf[:0]
			}
		}
		mac.Write(buf)
	}
	var seed [32]byte
	copy(seed[:], mac.Sum(nil))
	return mrand.NewChaCha8(seed), nil
}

// draw returns one sample of the law k with scale.
func draw(r *mrand.Rand, k NoiseKind, scale float64) float64 {
	if k == Gaussian {
		return scale * r.NormFloat64()
	}
	return laplace(r, scale)
}

// laplace returns a Laplace(0, b) sample by inversion: with U uniform on
// (−1/2, 1/2), −b·sgn(U)·ln(1 − 2|U|).
func laplace(r *mrand.Rand, b float64) float64 {
	u := r.Float64() - 0.5 // [−0.5, 0.5)
	for u == -0.5 {
		u = r.Float64() - 0.5
	}
	if u < 0 {
		return b * math.Log1p(2*u)
	}
	return -b * math.Log1p(-2*u)
}

// CanonicalPred returns the canonical bytes of a prediction for
// [Submission.Pred]: the count, then each value's IEEE-754 bits big-endian
// with −0 written as +0. Two predictions get the same bytes iff they are
// the same float64 values.
func CanonicalPred(pred []float64) []byte {
	b := make([]byte, 8, 8+8*len(pred))
	binary.BigEndian.PutUint64(b, uint64(len(pred)))
	for _, v := range pred {
		if v == 0 {
			v = 0
		}
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}
