package audit

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

func TestSmokeTmp(t *testing.T) {
	cfg := &Config{Rows: 198, Seed: 1}
	if os.Getenv("BIG") != "" {
		cfg = &Config{Dataset: "imdb_like", Seed: 1}
	}
	rep, err := Run(context.Background(), cfg, Options{Progress: os.Stderr, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(rep, "", " ")
	os.WriteFile("/tmp/aud/out.json", b, 0o644)
}
