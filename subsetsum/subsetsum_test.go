package subsetsum

import (
	"slices"
	"testing"
)

func TestConwayGuySeq(t *testing.T) {
	// OEIS A005318.
	want := []int64{0, 1, 2, 4, 7, 13, 24, 44, 84, 161, 309, 594, 1164, 2284, 4484, 8807, 17305, 34301, 68008}
	got, err := ConwayGuySeq(len(want) - 1)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("ConwayGuySeq = %v, %v; want %v", got, err, want)
	}
	if _, err := ConwayGuySeq(-1); err == nil {
		t.Error("negative index accepted")
	}
	if _, err := ConwayGuy(0); err == nil {
		t.Error("empty set accepted")
	}
}

func TestConwayGuyDistinct(t *testing.T) {
	for n := 1; n <= 20; n++ {
		s, err := ConwayGuy(n)
		if err != nil {
			t.Fatal(err)
		}
		// Every subset sum lies in [0, Σs]: mark each in a bitmap (linear,
		// where sorting the 2^n sums took most of the package's time).
		var total int64
		for _, v := range s {
			total += v
		}
		seen := make([]uint64, total/64+1)
		seen[0] = 1 // the empty set
		sums := make([]int64, 1<<n)
		for m := 1; m < len(sums); m++ {
			low := m & -m
			i := 0
			for 1<<i != low {
				i++
			}
			v := sums[m^low] + s[i]
			sums[m] = v
			if seen[v/64]&(1<<(v%64)) != 0 {
				t.Fatalf("n = %d: two subsets sum to %d", n, v)
			}
			seen[v/64] |= 1 << (v % 64)
		}
		// Never worse than powers of two.
		if s[n-1] > 1<<(n-1) {
			t.Errorf("n = %d: largest element %d > 2^(n-1)", n, s[n-1])
		}
	}
}
