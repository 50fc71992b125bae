package serve

import (
	"os"
	"runtime"
	"testing"

	"github.com/labelinf/labelinf/internal/pgtest"
	"github.com/labelinf/labelinf/internal/testmain"
)

// need fails the test under CI=true when an outside tool is missing, and
// skips it elsewhere saying what to install.
func need(t testing.TB, what, install string) { t.Helper(); pgtest.Need(t, what, install) }

// newPostgresDB returns the DSN of a fresh, empty database on the test
// binary's PostgreSQL (package internal/pgtest).
func newPostgresDB(t testing.TB) string { t.Helper(); return pgtest.NewDB(t) }

func TestMain(m *testing.M) {
	if os.Getenv("LABELINF_SERVE_HELPER") == "1" {
		os.Exit(helperMain())
	}
	removeTmp := testmain.TmpfsTempDir() // the SQLite stores' fsyncs, see there
	testmain.Parallel(4 * runtime.GOMAXPROCS(0))
	code := m.Run()
	pgtest.StopShared()
	removeTmp()
	os.Exit(code)
}
