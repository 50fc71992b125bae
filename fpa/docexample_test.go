package fpa_test

import (
	"testing"

	"github.com/labelinf/labelinf/internal/doctest"
)

// TestDocExample checks that the code the package doc shows is Example's
// body, whose output go test checks.
func TestDocExample(t *testing.T) { doctest.Check(t, "Example") }
