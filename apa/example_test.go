package apa_test

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/apa"
)

// ln 2 to 200 bits, correctly rounded, and the direction of the rounding.
func ExampleLog() {
	z := new(big.Float).SetPrec(200)
	if _, err := apa.Log(z, big.NewFloat(2)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(z.Text('g', 60), z.Acc())
	// Output:
	// 0.69314718055994530941723212145817656807550013436025525412068 Below
}

// e to 100 bits; a zero-precision z takes x's precision, here 100.
func ExampleExp() {
	x := new(big.Float).SetPrec(100).SetInt64(1)
	z, err := apa.Exp(new(big.Float), x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(z.Prec(), z.Text('g', 30))
	// Output:
	// 100 2.71828182845904523536028747135
}

// ln(1+x) keeps the bits of a tiny x that 1+x would lose.
func ExampleLog1p() {
	x := new(big.Float).SetPrec(64).SetMantExp(big.NewFloat(1), -100) // 2^−100
	z, err := apa.Log1p(new(big.Float), x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(z.Text('g', 20))
	// Output:
	// 7.8886090522101180541e-31
}

// The mean log-loss of an exact scorer is the log of one rational
// product: ln(num/den)/d. Two points predicted 1/3 and 1/2 for their
// labels: (ln 3 + ln 2)/2 = ln(6)/2.
func ExampleLogRatio() {
	z := new(big.Float).SetPrec(80)
	if _, err := apa.LogRatio(z, big.NewInt(6), big.NewInt(1), 2); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(z.Text('g', 20))
	// Output:
	// 0.89587973461402750041
}

// softplus(x) = ln(1 + e^x) without forming e^x: the logistic loss of a
// logit far out of float64's range.
func ExampleSoftplus() {
	x := new(big.Float).SetPrec(64).SetInt64(-1000)
	z, err := apa.Softplus(new(big.Float), x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(z.Text('g', 10))
	// Output:
	// 5.075958898e-435
}

// A domain error is a value, never a panic or a NaN.
func ExampleLog_domain() {
	_, err := apa.Log(new(big.Float).SetPrec(53), big.NewFloat(-1))
	fmt.Println(errors.Is(err, apa.ErrDomain))
	// Output:
	// true
}
