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
		sums := make([]int64, 1<<n)
		for m := 1; m < len(sums); m++ {
			low := m & -m
			i := 0
			for 1<<i != low {
				i++
			}
			sums[m] = sums[m^low] + s[i]
		}
		slices.Sort(sums)
		for i := 1; i < len(sums); i++ {
			if sums[i] == sums[i-1] {
				t.Fatalf("n = %d: two subsets sum to %d", n, sums[i])
			}
		}
		// Never worse than powers of two.
		if s[n-1] > 1<<(n-1) {
			t.Errorf("n = %d: largest element %d > 2^(n-1)", n, s[n-1])
		}
	}
}
