package decode

import (
	"os"
	"testing"
)

func TestTmpProf(t *testing.T) {
	m := os.Getenv("CARRY_PROF")
	if m == "" {
		t.Skip()
	}
	res := attackSim(t, m, seededLabels(t, 25000, 2), 2, MultiOptions{Strategy: Carry})
	t.Logf("%d queries", res.Queries)
}
