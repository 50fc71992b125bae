// Package pgtest starts PostgreSQL servers for tests: one shared server
// per test binary (a fresh database per test) and servers of one test
// that the test may kill -9 and start again. Servers are initdb'd into a
// temporary directory and run as the postgres user when the test runs as
// root (PostgreSQL refuses root); they listen on a Unix socket in that
// directory and, when asked, on TCP addresses too. serve and queue share
// it.
//
// Under CI=true a missing PostgreSQL fails the test ([Need]); elsewhere
// the test is skipped saying what to install. LABELINF_PG_DSN names a
// running server to use instead of the shared one.
package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the pgx database/sql driver
)

// Need fails the test under CI=true when an outside tool is missing, and
// skips it elsewhere saying what to install.
func Need(t testing.TB, what, install string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing (CI=true makes that a failure): %s", what, install)
	}
	t.Skipf("%s is missing: %s", what, install)
}

// Bin returns the directory of the newest installed PostgreSQL's
// binaries, or "" if there is none.
func Bin() string {
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/postgres")
	if len(m) == 0 {
		return ""
	}
	return filepath.Dir(m[len(m)-1])
}

// shared is the server of the whole test binary.
var shared struct {
	once sync.Once
	srv  *Server
	dsn  string // connection string of the maintenance database
	err  error
}

// NewDB returns the DSN of a fresh, empty database on the test binary's
// shared server (started on first use; [StopShared] stops it), or on
// LABELINF_PG_DSN's. Under -short it skips, as starting PostgreSQL takes
// seconds, unless LABELINF_PG_DSN is set.
func NewDB(t testing.TB) string {
	t.Helper()
	if testing.Short() && os.Getenv("LABELINF_PG_DSN") == "" {
		t.Skip("-short: starting PostgreSQL takes ~7 s (set LABELINF_PG_DSN to use a running server)")
	}
	shared.once.Do(func() {
		if dsn := os.Getenv("LABELINF_PG_DSN"); dsn != "" {
			shared.dsn = dsn
			return
		}
		shared.srv, shared.err = start(Options{MaxConnections: 200})
		if shared.err == nil {
			shared.dsn = shared.srv.DSN
		}
	})
	if shared.err != nil {
		Need(t, "PostgreSQL", shared.err.Error())
	}
	name := fmt.Sprintf("t_%d", time.Now().UnixNano())
	if err := CreateDB(shared.dsn, name); err != nil {
		t.Fatalf("postgres: %v", err)
	}
	return ReplaceDB(shared.dsn, name)
}

// StopShared stops the shared server, if one was started (TestMain
// calls it after m.Run).
func StopShared() {
	if shared.srv != nil {
		shared.srv.Stop()
	}
}

// CreateDB creates database name on the server of dsn.
func CreateDB(dsn, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

// ReplaceDB returns the keyword/value DSN dsn with its dbname set to
// name.
func ReplaceDB(dsn, name string) string {
	var parts []string
	for _, f := range strings.Fields(dsn) {
		if !strings.HasPrefix(f, "dbname=") {
			parts = append(parts, f)
		}
	}
	return strings.Join(append(parts, "dbname="+name), " ")
}

// Options configures a server.
type Options struct {
	// MaxConnections is PostgreSQL's max_connections (default 100).
	MaxConnections int
	// Listen are TCP addresses to listen on besides the Unix socket
	// (PostgreSQL's listen_addresses), Port their port (default 5432
	// on the Unix socket, a free port when Listen is set), and HostAuth lines
	// appended to pg_hba.conf (e.g. "host all all 10.0.0.0/8
	// scram-sha-256").
	Listen   []string
	Port     int
	HostAuth []string
}

// A Server is a PostgreSQL server in a temporary directory.
type Server struct {
	// DSN is the maintenance database's connection string over the Unix
	// socket, as the superuser postgres (trusted locally).
	DSN  string
	Dir  string
	Port int

	bin       string
	startArgs []string
}

// Start starts a server of test t, stopped (-m immediate) and removed
// when t ends; it skips under -short.
func Start(t *testing.T, o Options) *Server {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: this test starts its own PostgreSQL")
	}
	if Bin() == "" {
		Need(t, "PostgreSQL", "apt-get install -y postgresql")
	}
	s, err := start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

// asPG runs a PostgreSQL binary as the postgres user when this process
// is root.
func (s *Server) asPG(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	if os.Geteuid() == 0 {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(s.bin, name)}, args...)...)
	}
	cmd.Dir = s.Dir // the postgres user may not enter the test's directory
	return cmd
}

func start(o Options) (*Server, error) {
	bin := Bin()
	if bin == "" {
		return nil, fmt.Errorf("no PostgreSQL server: apt-get install -y postgresql")
	}
	dir, err := os.MkdirTemp("", "labelinf-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, bin: bin, Port: o.Port}
	if s.Port == 0 {
		s.Port = 5432 // the Unix socket's name only, in a directory of its own
		if len(o.Listen) > 0 {
			if s.Port, err = freePort(o.Listen[0]); err != nil {
				os.RemoveAll(dir)
				return nil, err
			}
		}
	}
	if os.Geteuid() == 0 {
		if out, err := exec.Command("chown", "postgres:postgres", dir).CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("chown: %v: %s", err, out)
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := s.asPG("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	if len(o.HostAuth) > 0 {
		// Appended by the postgres user: the file is its own.
		cmd := exec.Command("sh", "-c", `cat >> "$1"`, "sh", filepath.Join(data, "pg_hba.conf"))
		if os.Geteuid() == 0 {
			cmd = exec.Command("runuser", "-u", "postgres", "--", "sh", "-c", `cat >> "$1"`, "sh", filepath.Join(data, "pg_hba.conf"))
		}
		cmd.Stdin = strings.NewReader(strings.Join(o.HostAuth, "\n") + "\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("pg_hba.conf: %v: %s", err, out)
		}
	}
	maxConn := o.MaxConnections
	if maxConn == 0 {
		maxConn = 100
	}
	s.startArgs = []string{"-D", data, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "start",
		"-o", fmt.Sprintf("-c listen_addresses='%s' -c port=%d -c unix_socket_directories=%s -c max_connections=%d -c fsync=on",
			strings.Join(o.Listen, ","), s.Port, dir, maxConn)}
	if err := s.start(); err != nil {
		s.Stop()
		return nil, err
	}
	s.DSN = fmt.Sprintf("host=%s port=%d user=postgres dbname=postgres sslmode=disable", dir, s.Port)
	return s, nil
}

// Restart starts the server again after [Server.Kill] or a stop.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
}

func (s *Server) start() error {
	var out []byte
	var err error
	// After a kill -9 the old backends may hold the shared memory for a
	// moment, and on a loaded machine the killed postmaster may linger as
	// a zombie whose pid still answers kill(pid, 0), so that PostgreSQL
	// takes its lock file for a live server: retry for up to a minute,
	// removing a lock file whose postmaster is gone or a zombie.
	deadline := time.Now().Add(time.Minute)
	for {
		out, err = s.asPG("pg_ctl", s.startArgs...).CombinedOutput()
		if err == nil || time.Now().After(deadline) {
			break
		}
		s.removeStaleLock()
		time.Sleep(250 * time.Millisecond)
	}
	if err == nil {
		return nil
	}
	log, _ := os.ReadFile(filepath.Join(s.Dir, "log"))
	return fmt.Errorf("pg_ctl start: %v: %s\n%s", err, out, log)
}

// Stop stops the server at once (-m immediate) and removes its
// directory.
func (s *Server) Stop() {
	if s.Dir == "" {
		return
	}
	_ = s.asPG("pg_ctl", "-D", filepath.Join(s.Dir, "data"), "-m", "immediate", "stop").Run()
	os.RemoveAll(s.Dir)
}

// postmaster returns the postmaster's pid from its lock file.
func (s *Server) postmaster() (int, error) {
	b, err := os.ReadFile(filepath.Join(s.Dir, "data", "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
}

// removeStaleLock removes data/postmaster.pid when the process it names
// no longer exists or is a zombie (killed, not yet reaped).
func (s *Server) removeStaleLock() {
	pid, err := s.postmaster()
	if err != nil || pid <= 0 {
		return
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err == nil {
		// The state follows the command name in parentheses.
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z' {
			return
		}
	}
	os.Remove(filepath.Join(s.Dir, "data", "postmaster.pid"))
}

// Kill sends SIGKILL to the postmaster and every backend.
func (s *Server) Kill(t testing.TB) {
	t.Helper()
	pid, err := s.postmaster()
	if err != nil {
		t.Fatalf("postgres: %v", err)
	}
	// Stop the postmaster first so that it forks no backend between the
	// listing of its children and the kill: a backend left alive keeps the
	// shared memory attached, and PostgreSQL then refuses to start.
	syscall.Kill(pid, syscall.SIGSTOP)
	children, _ := exec.Command("pgrep", "-P", strconv.Itoa(pid)).Output()
	for _, f := range strings.Fields(string(children)) {
		if c, err := strconv.Atoi(f); err == nil {
			syscall.Kill(c, syscall.SIGKILL)
		}
	}
	syscall.Kill(pid, syscall.SIGKILL)
}

// freePort returns a TCP port free on host at the time of the call.
func freePort(host string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return 0, fmt.Errorf("postgres: no free port on %s: %w", host, err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
