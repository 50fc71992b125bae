package platform

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSlimScorer: the scorer a bundle ships links no database and no
// plotting (BENCHMARKS.md, "Platform scorer", has its size).
func TestSlimScorer(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/labelinf/labelinf/cmd/labelinf-score").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		for _, bad := range []string{"modernc.org/sqlite", "github.com/jackc/pgx", "gonum.org/v1/plot", "github.com/labelinf/labelinf/serve", "github.com/labelinf/labelinf/audit"} {
			if strings.HasPrefix(p, bad) {
				t.Errorf("labelinf-score links %s", p)
			}
		}
	}
}
