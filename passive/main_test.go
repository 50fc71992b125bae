package passive

import (
	"os"
	"testing"

	"github.com/labelinf/labelinf/internal/testmain"
)

// TestMain runs the tests with the collector tuned for the short-lived
// slices of their model fits (see package testmain).
func TestMain(m *testing.M) { os.Exit(testmain.Run(m)) }
