// This file reads the generated table of π and ln 2 (consttab.go).

package apa

import (
	"encoding/hex"
	"math/big"
	"sync"
)

// tableEntry is a constant m·2^e from consttab.go, m in hexadecimal.
type tableEntry struct {
	e   int64
	hex string
}

var (
	tableOnce      sync.Once
	tPi, tLn2      xf // immutable once set
	tableAvailable bool
)

func loadTable() {
	tableOnce.Do(func() {
		ok1 := setHex(&tPi.m, piTable.hex)
		ok2 := setHex(&tLn2.m, ln2Table.hex)
		tPi.e, tLn2.e = piTable.e, ln2Table.e
		tableAvailable = ok1 && ok2 && tPi.m.BitLen() == tableBits && tLn2.m.BitLen() == tableBits
	})
}

// setHex sets z to the non-negative integer written in hexadecimal in h
// and reports whether h was valid. It takes time linear in len(h):
// big.Int.SetString converts digit by digit into a growing number
// (quadratic), 10 ms per constant at tableBits = 2^19.
func setHex(z *big.Int, h string) bool {
	if len(h)%2 == 1 {
		h = "0" + h
	}
	b, err := hex.DecodeString(h)
	if err != nil || len(b) == 0 {
		return false
	}
	z.SetBytes(b)
	return true
}

// tablePi and tableLn2 return the tabulated constants (read-only), π and
// ln 2 truncated to tableBits bits, or nil if the table is unusable.
func tablePi() *xf {
	loadTable()
	if !tableAvailable {
		return nil
	}
	return &tPi
}

func tableLn2() *xf {
	loadTable()
	if !tableAvailable {
		return nil
	}
	return &tLn2
}

// tableLimit is the precision up to which the table serves; tests set it
// to 0 to exercise the computed constants and the cache.
var tableLimit uint = tableBits

// tableServes reports whether the table holds both constants to wp bits
// with a relative error below 2^(2−wp): truncation to tableBits leaves
// below 2^(1−tableBits).
func tableServes(wp uint) bool {
	if wp+1 > tableLimit {
		return false
	}
	loadTable()
	return tableAvailable
}
