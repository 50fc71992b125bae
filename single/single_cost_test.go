package single

import (
	"strings"
	"testing"
	"time"
)

// TestNewSingleQueryRefusesHugePrediction checks that N and K are checked
// together and up front: N = 20, K = 65536 passes each size check alone,
// but its prediction would hold about 30 GiB (labelinf demo -n 1 -kn 20
// -k 65536 grew past 7 GB and printed nothing before the check).
func TestNewSingleQueryRefusesHugePrediction(t *testing.T) {
	t0 := time.Now()
	_, err := NewQuery(20, 65536)
	if err == nil || !strings.Contains(err.Error(), "GiB") {
		t.Fatalf("NewQuery(20, 65536) = %v; want an error giving the memory needed", err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("refusing took %v; the check must come before any work", d)
	}
	// A case just inside the limit still plans.
	if _, err := NewQuery(1, 4096); err != nil {
		t.Errorf("NewQuery(1, 4096): %v", err)
	}
}
