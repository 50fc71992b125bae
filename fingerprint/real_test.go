package fingerprint

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// python is Debian's system interpreter, whose python3-sklearn,
// python3-scipy and python3-torch the real-scorer tests import.
const python = "/usr/bin/python3"

// needPython skips the test (fails it under CI=true) unless python can
// import every module of mods.
func needPython(t *testing.T, pkg string, mods ...string) {
	t.Helper()
	// find_spec locates a module without importing it (importing
	// scikit-learn takes seconds).
	quoted := make([]string, len(mods))
	for i, m := range mods {
		quoted[i] = fmt.Sprintf("%q", m)
	}
	check := "import importlib.util, sys; sys.exit(any(importlib.util.find_spec(m) is None for m in (" + strings.Join(quoted, ", ") + ",)))"
	err := exec.Command(python, "-c", check).Run()
	if err == nil {
		return
	}
	msg := fmt.Sprintf("%s cannot import %s (%v): apt-get install -y %s", python, strings.Join(mods, ", "), err, pkg)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// realLabelings is 2 by default (CI runs go test ./... in a few minutes);
// BENCHMARKS.md's table uses -labelings 5.
var realLabelings = flag.Int("labelings", 2, "labelings per real scorer (N alternating 198 and 1000)")

// realScorer is one scorer program of testdata and the components it must
// be identified with (a component may be reported undetermined only if
// the true value is among those that fit).
type realScorer struct {
	prog string
	dec  int
	k    int // classes (0: 2)
	want map[string]string
	// noFit, if not "", is why "no model fits" is a right answer too: the
	// scorer computes in a way no candidate models.
	noFit string
}

func (r realScorer) name() string {
	if r.dec >= 0 {
		return fmt.Sprintf("%s (%d decimals)", r.prog, r.dec)
	}
	return r.prog
}

// identifyReal runs each scorer on labelings of N = 198 and 1000 and
// checks every identification; it logs the table of results.
func identifyReal(t *testing.T, scorers []realScorer) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	r := testrand.New(t)
	labelings := *realLabelings
	if testing.Short() {
		labelings = 1
	}
	for _, s := range scorers {
		maxProbes, wrong, nofit := 0, 0, 0
		var models []string
		for trial := range labelings {
			n := []int{198, 1000}[trial%2]
			k := max(s.k, 2)
			labels := make([]string, n)
			for i := range labels {
				labels[i] = fmt.Sprint(r.IntN(k))
			}
			lf := filepath.Join(t.TempDir(), "labels")
			if err := os.WriteFile(lf, []byte(strings.Join(labels, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := fmt.Sprintf("%s %s %s", python, filepath.Join(dir, s.prog+".py"), lf)
			if s.dec >= 0 {
				cmd += fmt.Sprint(" ", s.dec)
			}
			c, err := oracle.NewCmd(cmd, n, k, 2*time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Identify(context.Background(), c)
			c.Close()
			if err != nil {
				t.Fatalf("%s: %v", s.name(), err)
			}
			maxProbes = max(maxProbes, res.Queries())
			if res.Model == nil {
				nofit++
				if s.noFit == "" {
					t.Errorf("%s N=%d: no model fits: %s", s.name(), n, res.NoFit)
				}
				continue
			}
			if !slices.Contains(models, res.Model.Name) {
				models = append(models, res.Model.Name)
			}
			for _, cp := range res.Components {
				w, ok := s.want[cp.Name]
				if !ok {
					continue
				}
				if cp.Value != w && !(cp.Value == "undetermined" && slices.Contains(cp.Fits, w)) {
					wrong++
					t.Errorf("%s N=%d: %s = %s (fits %v), want %s: %s", s.name(), n, cp.Name, cp.Value, cp.Fits, w, cp.Evidence)
				}
			}
		}
		t.Logf("%-30s %d labelings, at most %d probes, %d wrong, %d no model fits, identified as %s", s.name(), labelings, maxProbes, wrong, nofit, strings.Join(models, " / "))
		if maxProbes > MaxProbes {
			t.Errorf("%s: %d probes", s.name(), maxProbes)
		}
	}
}

func f64(clip, renorm, sum string, dec string) map[string]string {
	return map[string]string{"format": "binary64", "clip": clip, "renorm": renorm, "floor": "none", "sum": sum, "reduce": "mean", "dec": dec}
}

func f32(clip, renorm, floor string) map[string]string {
	return map[string]string{"format": "binary32", "clip": clip, "renorm": renorm, "floor": floor, "reduce": "mean", "dec": "none"}
}

// TestIdentifyRealSklearn identifies Debian's scikit-learn log_loss
// (1.2: the dtype's eps, rows renormalised) and the numpy programs written
// from scikit-learn's and Keras's sources for the versions Debian does not
// ship.
func TestIdentifyRealSklearn(t *testing.T) {
	if testing.Short() {
		// One scorer, one labeling, and a numpy program (scikit-learn 1.1's
		// log_loss from its source): importing scikit-learn itself takes
		// 1.3 s of CPU and seconds of wall time at each program start,
		// numpy alone 0.25 s. The identification, the process protocol and
		// numpy's arithmetic are the same; CI runs the real library.
		needPython(t, "python3-numpy", "numpy")
		identifyReal(t, []realScorer{{"sklearn_1_1", 5, 0, f64("1e-15", "renorm", "pairwise", "5"), ""}})
		return
	}
	needPython(t, "python3-sklearn", "numpy", "scipy", "sklearn")
	identifyReal(t, []realScorer{
		{"sklearn_real", -1, 0, f64("eps", "renorm", "pairwise", "none"), ""},
		{"sklearn_real", 5, 0, f64("eps", "renorm", "pairwise", "5"), ""},
		{"sklearn_1_1", -1, 0, f64("1e-15", "renorm", "pairwise", "none"), ""},
		{"sklearn_1_5", -1, 0, f64("eps", "norenorm", "pairwise", "none"), ""},
		{"sklearn_float32", -1, 0, f32("eps", "renorm", "none"), ""},
		{"keras2", -1, 0, f32("keras2", "norenorm", "none"), ""},
		{"keras3", -1, 0, f32("1e-7", "norenorm", "none"), ""},
	})
}

// TestIdentifyRealMulticlass identifies Debian's scikit-learn log_loss on
// rows of K = 3 and 10 classes (the dtype's eps, rows renormalised).
func TestIdentifyRealMulticlass(t *testing.T) {
	if testing.Short() {
		// Like serve's and scorer's real-library tests: each program start
		// imports numpy and scikit-learn (a second of CPU); -short keeps
		// one real-scorer test (TestIdentifyRealSklearn), CI runs them all.
		t.Skip("-short: TestIdentifyRealSklearn covers the real scorer; run without -short")
	}
	needPython(t, "python3-sklearn", "numpy", "scipy", "sklearn")
	identifyReal(t, []realScorer{
		{"sklearn_multi", -1, 3, f64("eps", "renorm", "pairwise", "none"), ""},
		{"sklearn_multi", 5, 3, f64("eps", "renorm", "pairwise", "5"), ""},
		{"sklearn_multi", -1, 10, f64("eps", "renorm", "pairwise", "none"), ""},
	})
}

// TestIdentifyRealTorch identifies Debian's PyTorch BCELoss (float32, each
// log clamped at −100).
func TestIdentifyRealTorch(t *testing.T) {
	if testing.Short() {
		t.Skip("importing torch takes 5-10 s; the full test (CI's fingerprint section) runs it")
	}
	needPython(t, "python3-torch", "torch")
	want := f32("none", "norenorm", "-100")
	want["sum"] = "torch-cascade" // its CPU mean: the cascade of 8-lane vector accumulators (AVX2 kernels)
	identifyReal(t, []realScorer{{"torch_real", -1, 0, want, ""}})
}

// TestAttackRealRedeploy attacks Debian's scikit-learn log_loss called
// with eps=1e-15 (scikit-learn ≤ 1.1) for its first 4 queries and with
// the dtype's eps (1.2) after: the model identified by the probes stops
// fitting, the scorer is re-identified, and every label is verified.
func TestAttackRealRedeploy(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: TestIdentifyRealSklearn covers the real scorer; run without -short")
	}
	needPython(t, "python3-sklearn", "numpy", "scipy", "sklearn")
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	r := testrand.New(t)
	n := 198
	labels := make([]int, n)
	text := make([]string, n)
	for i := range labels {
		labels[i] = r.IntN(2)
		text[i] = fmt.Sprint(labels[i])
	}
	lf := filepath.Join(t.TempDir(), "labels")
	if err := os.WriteFile(lf, []byte(strings.Join(text, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := oracle.NewCmd(fmt.Sprintf("%s %s %s -1 4", python, filepath.Join(dir, "redeploy.py"), lf), n, 2, 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ar, err := Attack(context.Background(), c, AttackOptions{OnModel: func(m *scorer.Model) {
		// As labelinf attack does: unrounded text is read in the model's format.
		c.RoundTo = nil
		if m.Decimals < 0 {
			f := m.Loss.Format
			c.RoundTo = &f
		}
	}})
	if err != nil {
		t.Fatalf("%v (re-identified %+v)", err, ar.Reidentified)
	}
	if ar.Result == nil || !ar.Result.Verified {
		t.Fatal("not verified")
	}
	for i, y := range labels {
		if ar.Result.Labels[i] != y {
			t.Fatalf("label %d = %d, want %d", i, ar.Result.Labels[i], y)
		}
	}
	if len(ar.Reidentified) == 0 || ar.Identifications[0].Spec.Clip != "1e-15" || ar.Model.Loss.Eps != "0x1p-52" {
		t.Errorf("identified %s, finished under %s (eps %q), re-identified %+v", ar.Identifications[0].Spec, ar.Model.Name, ar.Model.Loss.Eps, ar.Reidentified)
	}
	for _, re := range ar.Reidentified {
		t.Logf("after %d queries %s failed (%s); now %s: %s; %d labels from the scores", re.AfterQuery, re.Failed, re.Why, re.Model, re.How, re.Labels)
	}
	t.Logf("%d queries (%d probes), %d re-identifications, model %s", ar.Result.Queries, ar.Probes, len(ar.Reidentified), ar.Model.Name)
}
