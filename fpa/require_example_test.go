package fpa_test

import (
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/fpa"
)

// The fewest bits φ of the papers' FPA(φ) in which a server summing 100
// cross-entropy terms pairwise, each at most ln 2^20 ≈ 13.9 (no prediction
// below 2^−20), still lets an attack tell apart scores 10^−3 apart: its
// evaluation error must stay below the decoder's slack, half of that.
// FPA(φ) has ⌊(φ−1)/2⌋ exponent bits and the rest of φ−1 in the fraction,
// so the 18 fraction bits the bound demands bring 17 exponent bits along.
func ExampleMinPhi() {
	need := fpa.Need{
		N:       100,
		MaxTerm: big.NewFloat(13.87),
		MinProb: big.NewFloat(0x1p-20),
		Slack:   big.NewFloat(0.5e-3),
	}
	phi, f, err := fpa.MinPhi(fpa.Loss{Sum: fpa.SumOptions{Order: fpa.Pairwise}}, need)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("FPA(%d): %d exponent bits, %d fraction bits\n", phi, f.ExpBits, f.FracBits)
	// FPA(φ) splits its bits evenly; the narrowest format needs far fewer
	// exponent bits.
	g, err := fpa.MinFormat(fpa.Loss{Sum: fpa.SumOptions{Order: fpa.Pairwise}}, need)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("MinFormat: %d exponent bits, %d fraction bits\n", g.ExpBits, g.FracBits)
	// Output:
	// FPA(36): 17 exponent bits, 18 fraction bits
	// MinFormat: 6 exponent bits, 18 fraction bits
}
