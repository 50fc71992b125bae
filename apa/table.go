// This file reads the generated table of π and ln 2 (consttab.go).

package apa

import "sync"

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
		_, ok1 := tPi.m.SetString(piTable.hex, 16)
		_, ok2 := tLn2.m.SetString(ln2Table.hex, 16)
		tPi.e, tLn2.e = piTable.e, ln2Table.e
		tableAvailable = ok1 && ok2 && tPi.m.BitLen() == tableBits && tLn2.m.BitLen() == tableBits
	})
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
