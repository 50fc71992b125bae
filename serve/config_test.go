package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExampleConfig: the shipped example loads, and its competitions
// build.
func TestExampleConfig(t *testing.T) {
	cfg, err := LoadConfig("../examples/competition.json")
	require.NoError(t, err)
	require.Len(t, cfg.Competitions, 5)
	for _, cc := range cfg.Competitions {
		c, err := NewCompetition(cc, nil)
		require.NoError(t, err, cc.ID)
		assert.Positive(t, c.N)
	}
	// "open" is the README's attack target: the attack client refuses a
	// competition that keeps rows private, so every row must be public.
	assert.Equal(t, "open", cfg.Competitions[1].ID)
	assert.Equal(t, 1.0, cfg.Competitions[1].PublicFraction)
	// "defended" carries defence settings: a 30 % split, 5 decimals and
	// 5 a day from its defence field.
	d, err := NewCompetition(cfg.Competitions[3], nil)
	require.NoError(t, err)
	assert.Equal(t, 300, d.PublicRows())
	assert.Equal(t, 5, d.Decimals)
	assert.Equal(t, 5, d.Limits.Daily)
	assert.Equal(t, "sqlite", cfg.Database.Driver)
	assert.Equal(t, filepath.Join("..", "examples", "labelinf.db"), cfg.Database.DSN)
}

// exampleAbsent are the configuration fields examples/competition.json
// leaves out, as examples/README.md says (each needs a secret, a
// simulation or an old server's file).
var exampleAbsent = []string{"defence_secret_file", "defence_state_file", "simulation_seed", "host_token_file"}

// TestExampleHasEveryField: examples/competition.json sets every field of
// Config and CompetitionConfig (somewhere) except exampleAbsent, and
// examples/README.md names exactly those as absent.
func TestExampleHasEveryField(t *testing.T) {
	b, err := os.ReadFile("../examples/competition.json")
	require.NoError(t, err)
	var doc struct {
		Top   map[string]json.RawMessage
		Comps []map[string]json.RawMessage `json:"competitions"`
	}
	require.NoError(t, json.Unmarshal(b, &doc.Top))
	require.NoError(t, json.Unmarshal(b, &doc))
	present := map[string]bool{}
	for k := range doc.Top {
		present[k] = true
	}
	for _, c := range doc.Comps {
		for k := range c {
			present[k] = true
		}
	}
	var fields []string
	for _, typ := range []reflect.Type{reflect.TypeFor[Config](), reflect.TypeFor[CompetitionConfig]()} {
		for f := range typ.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				fields = append(fields, name)
			}
		}
	}
	var absent []string
	for _, f := range fields {
		if !present[f] {
			absent = append(absent, f)
		}
	}
	assert.ElementsMatch(t, exampleAbsent, absent, "fields absent from examples/competition.json")
	readme, err := os.ReadFile("../examples/README.md")
	require.NoError(t, err)
	for _, f := range exampleAbsent {
		assert.Contains(t, string(readme), "`"+f+"`", "examples/README.md names the absent field")
	}
}

func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "l.txt"), []byte("0\n1\n"), 0o644))
	tests := []struct{ name, json, want string }{
		{"unknown field", `{"competitions":[{"id":"a","labels":"l.txt","classes":2,"metric":"float64-sklearn","colour":1}]}`, "unknown field"},
		{"no competitions", `{}`, "no competitions"},
		{"bad id", `{"competitions":[{"id":"A B","labels":"l.txt","classes":2,"metric":"accuracy"}]}`, "id"},
		{"duplicate", `{"competitions":[{"id":"a","labels":"l.txt","classes":2,"metric":"accuracy"},{"id":"a","labels":"l.txt","classes":2,"metric":"accuracy"}]}`, "twice"},
		{"fraction", `{"competitions":[{"id":"a","labels":"l.txt","classes":2,"metric":"accuracy","public_fraction":1.5}]}`, "public_fraction"},
		{"driver", `{"database":{"driver":"mysql"},"competitions":[{"id":"a","labels":"l.txt","classes":2,"metric":"accuracy"}]}`, "driver"},
		{"duration", `{"read_timeout":"soon","competitions":[{"id":"a","labels":"l.txt","classes":2,"metric":"accuracy"}]}`, "duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, "c.json")
			require.NoError(t, os.WriteFile(p, []byte(tt.json), 0o644))
			_, err := LoadConfig(p)
			assert.ErrorContains(t, err, tt.want)
		})
	}
	comp := []struct {
		name string
		cc   CompetitionConfig
		want string
	}{
		{"metric", CompetitionConfig{ID: "a", Classes: 2, Metric: "sklearn"}, "unknown scorer"},
		{"exact metric", CompetitionConfig{ID: "a", Classes: 2, Metric: "apa"}, "arbitrary-precision"},
		{"clip", CompetitionConfig{ID: "a", Classes: 2, Metric: "float64-sklearn", Clip: "0.7"}, "clip"},
		{"clip on accuracy", CompetitionConfig{ID: "a", Classes: 2, Metric: "accuracy", Clip: "none"}, "log-loss"},
		{"label range", CompetitionConfig{ID: "a", Classes: 2, Metric: "accuracy", Labels: "bad"}, "want an integer in [0, 2)"},
		{"auc one class", CompetitionConfig{ID: "a", Classes: 2, Metric: "roc-auc", Labels: "zeros"}, "both classes"},
		{"auc classes", CompetitionConfig{ID: "a", Classes: 3, Metric: "roc-auc"}, "classes 2"},
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad"), []byte("0\n2\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "zeros"), []byte("0\n0\n"), 0o644))
	for _, tt := range comp {
		t.Run(tt.name, func(t *testing.T) {
			cc := tt.cc
			if cc.Labels == "" {
				cc.Labels = "l.txt"
			}
			cc.Labels = filepath.Join(dir, cc.Labels)
			cc.PublicFraction = 1
			_, err := NewCompetition(cc, nil)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

// TestSplit: the split is a seeded partition, sorted, of the requested
// size.
func TestSplit(t *testing.T) {
	pub, priv := Split(1000, 0.3, 7)
	assert.Len(t, pub, 300)
	assert.Len(t, priv, 700)
	seen := map[int]bool{}
	for _, i := range append(append([]int{}, pub...), priv...) {
		assert.False(t, seen[i])
		seen[i] = true
	}
	assert.IsIncreasing(t, pub)
	pub2, _ := Split(1000, 0.3, 7)
	assert.Equal(t, pub, pub2)
	pub3, _ := Split(1000, 0.3, 8)
	assert.NotEqual(t, pub, pub3)
}

// TestSlowClient: a client that never finishes its headers is cut off
// after read_header_timeout.
func TestSlowClient(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "l.txt"), []byte("0\n1\n"), 0o644))
	cfg := filepath.Join(dir, "c.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"read_header_timeout":"300ms","competitions":[{"id":"a","labels":"l.txt","classes":2,"metric":"accuracy"}]}`), 0o644))
	ctx, cancel := context.WithCancel(context.Background())
	addrFile := filepath.Join(dir, "addr")
	done := make(chan error, 1)
	go func() {
		done <- Command(ctx, []string{"-config", cfg, "-listen", "127.0.0.1:0", "-addr-file", addrFile}, io.Discard, io.Discard)
	}()
	defer func() { cancel(); <-done }()
	var addr []byte
	for range 500 {
		if addr, _ = os.ReadFile(addrFile); len(addr) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.NotEmpty(t, addr)
	c, err := net.Dial("tcp", string(addr))
	require.NoError(t, err)
	defer c.Close()
	fmt.Fprintf(c, "POST /v1/competitions/a/submissions HTTP/1.1\r\nHost: x\r\n")
	start := time.Now()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	// The server closes the connection (EOF) or answers 408.
	if err == nil {
		assert.True(t, strings.Contains(line, "408"), "got %q", line)
	}
	assert.Less(t, time.Since(start), 5*time.Second)
}

// TestNewerSchemaRefused: a database migrated by a newer build is not
// opened by an older one.
func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := OpenSQLite(context.Background(), path)
	require.NoError(t, err)
	_, err = st.(*sqlStore).db.Exec(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)`, SchemaVersion+1)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	_, err = OpenSQLite(context.Background(), path)
	assert.ErrorContains(t, err, "newer than this build")
}
