package single

import (
	"os"
	"testing"

	"github.com/labelinf/labelinf/internal/testmain"
)

// TestMain runs the tests with the collector tuned for their short-lived
// big-number garbage (see package testmain).
func TestMain(m *testing.M) { os.Exit(testmain.Run(m)) }
