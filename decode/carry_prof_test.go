package decode

import (
	"os"
	"testing"
)

func TestCarryProfTmp(t *testing.T) {
	if os.Getenv("CARRY_PROF") == "" {
		t.Skip()
	}
	res := attackSim(t, "float32-keras", seededLabels(t, 25000, 2), 2, MultiOptions{Strategy: Carry})
	t.Logf("%d queries", res.Queries)
}
