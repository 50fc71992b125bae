//go:build !amd64 || purego

package bigmul

import "math/big"

// useADX is false without the amd64 kernels: math/big multiplies below
// the Toom sizes.
var useADX = false

// mulRowsADX is mulRowsGo where there is no assembly.
func mulRowsADX(z, x, y []big.Word) { mulRowsGo(z, x, y) }

// addVV is addVVGo where there is no assembly.
func addVV(z, x, y []big.Word) big.Word { return addVVGo(z, x, y) }

// subVV is subVVGo where there is no assembly.
func subVV(z, x, y []big.Word) big.Word { return subVVGo(z, x, y) }

// sqrRowsADX is sqrRowsGo where there is no assembly.
func sqrRowsADX(z, x []big.Word) { sqrRowsGo(z, x) }

// sqrDiagADX is sqrDiagGo where there is no assembly.
func sqrDiagADX(z, x []big.Word) { sqrDiagGo(z, x) }
