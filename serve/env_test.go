package serve

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// need fails the test under CI=true when an outside tool is missing, and
// skips it elsewhere saying what to install.
func need(t testing.TB, what, install string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing (CI=true makes that a failure): %s", what, install)
	}
	t.Skipf("%s is missing: %s", what, install)
}

// pgServer is one PostgreSQL server for the whole test binary, started on
// a Unix socket in a temporary directory as the postgres user (PostgreSQL
// refuses to run as root), or the one LABELINF_PG_DSN names.
var pg struct {
	once sync.Once
	dsn  string // connection string of the maintenance database
	dir  string
	bin  string
	err  error
}

func pgBin() string {
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/postgres")
	if len(m) == 0 {
		return ""
	}
	return filepath.Dir(m[len(m)-1])
}

func startPostgres() (string, error) {
	if dsn := os.Getenv("LABELINF_PG_DSN"); dsn != "" {
		return dsn, nil
	}
	bin := pgBin()
	if bin == "" {
		return "", fmt.Errorf("no PostgreSQL server: apt-get install -y postgresql")
	}
	dir, err := os.MkdirTemp("", "labelinf-pg-")
	if err != nil {
		return "", err
	}
	pg.dir, pg.bin = dir, bin
	asPG := func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(filepath.Join(bin, name), args...)
		if os.Geteuid() == 0 {
			cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(bin, name)}, args...)...)
		}
		cmd.Dir = dir // the postgres user may not enter the test's directory
		return cmd
	}
	if os.Geteuid() == 0 {
		if out, err := exec.Command("chown", "postgres:postgres", dir).CombinedOutput(); err != nil {
			return "", fmt.Errorf("chown: %v: %s", err, out)
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := asPG("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8").CombinedOutput(); err != nil {
		return "", fmt.Errorf("initdb: %v: %s", err, out)
	}
	cmd := asPG("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "start",
		"-o", fmt.Sprintf("-c listen_addresses='' -c unix_socket_directories=%s -c max_connections=200 -c fsync=on", dir))
	if out, err := cmd.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		return "", fmt.Errorf("pg_ctl start: %v: %s\n%s", err, out, log)
	}
	return fmt.Sprintf("host=%s user=postgres dbname=postgres sslmode=disable", dir), nil
}

func stopPostgres() {
	if pg.dir == "" {
		return
	}
	cmd := exec.Command(filepath.Join(pg.bin, "pg_ctl"), "-D", filepath.Join(pg.dir, "data"), "-m", "immediate", "stop")
	if os.Geteuid() == 0 {
		cmd = exec.Command("runuser", "-u", "postgres", "--", filepath.Join(pg.bin, "pg_ctl"), "-D", filepath.Join(pg.dir, "data"), "-m", "immediate", "stop")
	}
	_ = cmd.Run()
	os.RemoveAll(pg.dir)
}

// newPostgresDB returns the DSN of a fresh, empty database.
func newPostgresDB(t testing.TB) string {
	t.Helper()
	if testing.Short() && os.Getenv("LABELINF_PG_DSN") == "" {
		t.Skip("-short: starting PostgreSQL takes ~7 s; the same SQL runs on SQLite here (set LABELINF_PG_DSN to use a running server)")
	}
	pg.once.Do(func() { pg.dsn, pg.err = startPostgres() })
	if pg.err != nil {
		need(t, "PostgreSQL", pg.err.Error())
	}
	name := fmt.Sprintf("t_%d", time.Now().UnixNano())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := sql.Open("pgx", pg.dsn)
	if err != nil {
		t.Fatalf("postgres: %v", err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	return replaceDB(pg.dsn, name)
}

func replaceDB(dsn, name string) string {
	var parts []string
	for _, f := range strings.Fields(dsn) {
		if !strings.HasPrefix(f, "dbname=") {
			parts = append(parts, f)
		}
	}
	return strings.Join(append(parts, "dbname="+name), " ")
}

func TestMain(m *testing.M) {
	if os.Getenv("LABELINF_SERVE_HELPER") == "1" {
		os.Exit(helperMain())
	}
	code := m.Run()
	stopPostgres()
	os.Exit(code)
}
