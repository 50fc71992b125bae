package oracle

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labelinf/labelinf/fpa"
)

// TestMain doubles as an external scorer: with LABELINF_TEST_SCORER set,
// the test binary reads prediction lines and answers as the variable says.
func TestMain(m *testing.M) {
	if mode := os.Getenv("LABELINF_TEST_SCORER"); mode != "" {
		fakeScorer(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeScorer serves float64-sklearn scores of labels i%2, or misbehaves.
func fakeScorer(mode string) {
	m, _ := ParseModel(Float64Sklearn)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		switch mode {
		case "die":
			os.Exit(3)
		case "garbage":
			fmt.Println("hello")
			continue
		case "slow":
			time.Sleep(time.Hour)
		}
		var req struct{ Predictions []float64 }
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "bad request:", err)
			os.Exit(4)
		}
		labels := make([]int, len(req.Predictions))
		for i := range labels {
			labels[i] = i % 2
		}
		r, err := m.Eval(labels, &Pred{K: 2, P: req.Predictions})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(5)
		}
		f, _ := r.Float64()
		fmt.Println(strconv.FormatFloat(f, 'g', -1, 64))
	}
}

func selfScorer(t *testing.T, mode string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	return "LABELINF_TEST_SCORER=" + mode + " '" + exe + "'"
}

func TestCmdScorer(t *testing.T) {
	c, err := NewCmd(selfScorer(t, "ok"), 5, 2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.RoundTo = &fpa.Binary64
	p := &Pred{K: 2, P: []float64{0.1, 0.9, 0.5, 1e-300, 0.75}}
	got, err := c.Score(p)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := ParseModel(Float64Sklearn)
	want, _ := m.Eval([]int{0, 1, 0, 1, 0}, p)
	if got.Cmp(want) != 0 {
		t.Errorf("external score %s, want %s", got.FloatString(20), want.FloatString(20))
	}
	if c.Queries() != 1 {
		t.Errorf("Queries = %d", c.Queries())
	}
	if _, err := c.Score(&Pred{K: 2, P: []float64{0.5}}); err == nil {
		t.Error("wrong shape accepted")
	}
}

func TestCmdScorerFailures(t *testing.T) {
	for _, c := range []struct{ mode, want string }{
		{"die", "exited"},
		{"garbage", "not a decimal"},
		{"slow", "did not answer"},
	} {
		s, err := NewCmd(selfScorer(t, c.mode), 2, 2, 300*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Score(&Pred{K: 2, P: []float64{0.5, 0.5}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.mode, err, c.want)
		}
		if _, err2 := s.Score(&Pred{K: 2, P: []float64{0.5, 0.5}}); err2 == nil {
			t.Errorf("%s: scorer usable after a failure", c.mode)
		}
		s.Close()
	}
	if _, err := NewCmd("  ", 2, 2, 0); err == nil {
		t.Error("empty command accepted")
	}
}

func TestPredJSON(t *testing.T) {
	p := &Pred{K: 3, P: []float64{0.1, 0.2, 0.7, 1, 0, 0}}
	var v struct{ Predictions [][]float64 }
	if err := json.Unmarshal(p.AppendJSON(nil), &v); err != nil || len(v.Predictions) != 2 || v.Predictions[0][2] != 0.7 {
		t.Errorf("AppendJSON = %s (%v)", p.AppendJSON(nil), err)
	}
}
