//go:build !amd64 || purego

package fpa

import "math/big"

// useADX is false without the amd64 assembly kernels: the pure-Go paths
// run.
var useADX = false

// mulShortADX is mulShortGo where there is no assembly.
func mulShortADX(z, x, y []big.Word, c int) { mulShortGo(z, x, y, c) }

// subMulADX is subMulVW where there is no assembly.
func subMulADX(z, x []big.Word, y big.Word) big.Word {
	return big.Word(subMulVW(z, x, uint64(y)))
}

// divShortADX is divShortGo where there is no assembly.
func divShortADX(q, u, v []big.Word, P int) { divShortGo(q, u, v, P) }

// shlVU is shlVUGo where there is no assembly.
func shlVU(z, x []big.Word, s uint) { shlVUGo(z, x, s) }

// shrVU is shrVUGo where there is no assembly.
func shrVU(z, x []big.Word, s uint) { shrVUGo(z, x, s) }

// addShrADX is addShrGo where there is no assembly.
func addShrADX(z, x, y []big.Word, s uint, cin big.Word) big.Word {
	return addShrGo(z, x, y, s, cin)
}

// subShrADX is subShrGo where there is no assembly.
func subShrADX(z, x, y []big.Word, s uint, bin big.Word) big.Word {
	return subShrGo(z, x, y, s, bin)
}
