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

func TestPlotTmp(t *testing.T) {
	for _, f := range []string{"25k", "198"} {
		b, _ := os.ReadFile("/tmp/aud/" + f + ".json")
		var r Report
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if err := r.SavePlot("/tmp/aud/" + f + ".png"); err != nil {
			t.Fatal(err)
		}
		r.WriteTable(os.Stdout)
	}
}
