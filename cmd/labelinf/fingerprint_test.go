package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestFingerprintJSON(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"fingerprint", "-scorer", "float64,clip=1e-15,dec=5", "-n", "198", "-json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var o fingerprintOut
	if err := json.Unmarshal(out.Bytes(), &o); err != nil {
		t.Fatal(err)
	}
	if o.Model == "" || o.NoFit != "" || len(o.Probes) < 2 || len(o.Probes) > 6 || len(o.Components) != 7 {
		t.Fatalf("report %+v", o)
	}
	for _, c := range o.Components {
		want := map[string]string{"format": "binary64", "clip": "1e-15", "dec": "5", "reduce": "mean"}[c.Name]
		if want != "" && c.Value != want {
			t.Errorf("%s = %s, want %s (%s)", c.Name, c.Value, want, c.Evidence)
		}
	}
}

// TestAttackAuto attacks a composed simulated scorer without its model:
// every label right and verified, the probes counted.
func TestAttackAuto(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"attack", "-scorer", "float32,clip=keras2", "-assume", "auto", "-n", "300", "-seed", "4", "-json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, out.String(), errb.String())
	}
	var o attackOut
	if err := json.Unmarshal(out.Bytes(), &o); err != nil {
		t.Fatal(err)
	}
	if !o.Verified || !o.Checked || o.Accuracy == nil || *o.Accuracy != 1 || o.Probes < 2 || o.Assume != "binary32,clip=keras2" {
		t.Fatalf("attack %+v", o)
	}
	if !strings.Contains(errb.String(), "clip    keras2") {
		t.Errorf("the identification is not on stderr: %s", errb.String())
	}
}

func TestFingerprintErrors(t *testing.T) {
	for _, args := range [][]string{
		{"fingerprint", "-scorer", "float64,clip=x", "-n", "100"},
		{"fingerprint", "-n", "4"},
		{"fingerprint", "-scorer", "cmd:true", "-n", "100", "-seed", "2"},
		{"fingerprint", "-n", "100", "-timeout", "1s"},
		{"plan", "-n", "100", "-scorer", "float64-sklearn", "-assume", "auto"},
		{"attack", "-n", "100", "-assume", "leaderboard"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errb.String())
		}
	}
	// A scorer no model fits: exit 1 and "no model fits".
	var out, errb bytes.Buffer
	code := run([]string{"fingerprint", "-scorer", "float64,clip=1e-12", "-n", "100"}, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), "no model fits") {
		t.Errorf("clip 1e-12: exit %d, %s", code, out.String())
	}
}
