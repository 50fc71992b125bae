package repro

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAcc1 pins ICML Table 2's Acc1 where it matches: Theorem 1's single
// query in float64 overflows, and the decoder gives every point class 1,
// so Acc1 is the class-1 fraction, 610/1372 (Banknote) and 81/306
// (Haberman), the paper's 0.4446 and 0.2647.
func TestAcc1(t *testing.T) {
	for _, tt := range []struct {
		name string
		want float64
	}{{"banknote", 0.4446}, {"haberman", 0.2647}} {
		for _, d := range icmlTable2 {
			if d.name != tt.name {
				continue
			}
			y, err := paperLabels(d)
			if err != nil {
				t.Fatal(err)
			}
			acc, prime, err := acc1Float64(y, 0)
			if err != nil {
				t.Fatal(err)
			}
			if d := math.Abs(tt.want - acc); !(d <= 0.5e-4) {
				t.Errorf("Acc1(%s): got %v, want %v within %v", tt.name, acc, tt.want, 0.5e-4)
			}
			if prime != 0 {
				t.Errorf("points given the primes' class: got %v, want %v", prime, 0)
			}
		}
	}
	// A few points: X fits in float64 and is exact, so every label is
	// recovered (the construction works before it overflows).
	y := []int{0, 1, 1, 0, 1, 0, 0, 1}
	acc, _, err := acc1Float64(y, 0)
	if err != nil {
		t.Fatal(err)
	}
	if acc != 1.0 {
		t.Errorf("acc = %v, want %v", acc, 1.0)
	}
}

func TestAccuracy(t *testing.T) {
	if got := accuracy([]int{1, -1, 0, 1}, []int{1, 0, 0, 0}); got != 0.75 {
		t.Errorf("accuracy([]int{1, -1, 0, 1}, []int{1, 0, 0, 0}) = %v, want %v", got, 0.75)
	}
}

// TestLookupAndRunErrors: unknown items and a missing directory are
// errors, before anything runs.
func TestLookupAndRunErrors(t *testing.T) {
	_, err := Lookup("nosuch")
	if err == nil || !strings.Contains(err.Error(), "icml-table2") {
		t.Errorf("error %v, want one containing %q", err, "icml-table2")
	}
	for _, it := range Items() {
		got, err := Lookup(it.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got != it {
			t.Errorf("got %v, want %v", got, it)
		}
	}
	_, err = Run(context.Background(), &Config{Out: t.TempDir()}, []string{"nosuch"})
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = Run(context.Background(), &Config{}, nil)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

// TestFigureAndMarkdown writes a figure (CSV, PNG, SVG) and REPRO.md from
// a result, and checks what they hold.
func TestFigureAndMarkdown(t *testing.T) {
	dir := t.TempDir()
	it := &Item{Name: "x", Title: "Paper Fig X", Command: "labelinf repro x"}
	r := &Result{Item: it, Rows: []Row{{What: "a|b", Paper: "1", Ours: "2", Status: Differs, Note: "off by one"}}}
	f := Figure{Name: "x-fig", Title: "t", XLabel: "N", YLabel: "bits", LogY: true,
		Series: []Series{{Name: "s", XShift: 1.1, X: []float64{1, 2, 3}, Y: []float64{1, 10, 100}, Lo: []float64{0.5, 5, 50}, Hi: []float64{2, 20, 200}}}}
	if err := f.save(dir, r); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".csv", ".png", ".svg"} {
		st, err := os.Stat(filepath.Join(dir, "x-fig"+ext))
		if err != nil {
			t.Fatal(err)
		}
		if !(st.Size() > int64(50)) {
			t.Errorf("%v", ext)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "x-fig.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), "series,N,bits,lo,hi\ns,1,1,0.5,2\ns,2,10,5,20\ns,3,100,50,200\n"; got != want {
		t.Errorf("string(b) = %v, want %v", got, want)
	}
	r.summarize("exact")
	if r.Status != Differs {
		t.Errorf("r.Status = %v, want %v", r.Status, Differs)
	}
	if err := writeTable(dir, r, "-table.csv"); err != nil {
		t.Fatal(err)
	}
	if err := writeMarkdown(&Config{Out: dir, Commit: "abc123"}, []*Result{r}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "REPRO.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	for _, want := range []string{"`abc123`", "Paper Fig X", `a\|b`, "![x-fig](x-fig.png)", "## Claims", "TestMahalanobisTheorem8IsFalse", "Not yet regenerated"} {
		if !strings.Contains(s, want) {
			t.Errorf("%q lacks %q", s, want)
		}
	}
	tab, err := os.ReadFile(filepath.Join(dir, "x-table.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(tab), "quantity,paper,ours,status,note\n") {
		t.Error("strings.HasPrefix(string(tab), \"quantity,paper,ours,status,note\\n\") is false")
	}
}

// TestProp3 runs the cheap EA Prop 3 item (its smallest points under
// -short) and checks that Prop 3's φ falls short at τ = 0.01, N = 8.
func TestProp3(t *testing.T) {
	if testing.Short() {
		t.Skip("runs precision.Bits at N ≤ 10 for three τ (a few seconds); TestFigureAndMarkdown covers the plumbing under -short")
	}
	dir := t.TempDir()
	res, err := Run(context.Background(), &Config{Out: dir, Commit: "test"}, []string{"ea-prop3"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 {
		t.Fatalf("len %d, want %d", len(res), 1)
	}
	if got := res[0].Status; got != Differs {
		t.Errorf("res[0].Status = %v, want %v", got, Differs)
	}
	found := false
	for _, row := range res[0].Rows {
		if strings.HasPrefix(row.What, "τ = 0.01, N = 8:") {
			found = true
			if row.Paper != "13" {
				t.Errorf("row.Paper = %v, want %v", row.Paper, "13")
			}
			if row.Status != Differs {
				t.Errorf("row.Status = %v, want %v", row.Status, Differs)
			}
		}
	}
	if !found {
		t.Error("found is false")
	}
}

// TestMarkdownKeepsSections: a run of one item keeps the sections an
// earlier run wrote for the others (REPRO.md is assembled from ITEM.md
// files in the items' order), and a damaged ITEM.md is an error.
func TestMarkdownKeepsSections(t *testing.T) {
	dir := t.TempDir()
	a := &Result{Item: items[1], Status: Match, Why: "first run", Rows: []Row{{What: "row of A", Status: Match}}}
	b := &Result{Item: items[0], Status: Differs, Why: "second run", Rows: []Row{{What: "row of B", Status: Differs}}}
	if err := writeMarkdown(&Config{Out: dir, Commit: "c1"}, []*Result{a}); err != nil {
		t.Fatal(err)
	}
	if err := writeMarkdown(&Config{Out: dir, Commit: "c2"}, []*Result{b}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "REPRO.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	for _, want := range []string{"row of A", "row of B", "first run", "second run", "commit `c1`", "commit `c2`"} {
		if !strings.Contains(s, want) {
			t.Errorf("%q lacks %q", s, want)
		}
	}
	// items[0] comes first in the summary and in the sections.
	if !(strings.Index(s, "row of B") < strings.Index(s, "row of A")) {
		t.Errorf("strings.Index(s, \"row of B\") = %v, want < %v", strings.Index(s, "row of B"), strings.Index(s, "row of A"))
	}
	if !(strings.Index(s, "| ["+items[0].Name+"]") < strings.Index(s, "| ["+items[1].Name+"]")) {
		t.Errorf("%v >= %v", strings.Index(s, "| ["+items[0].Name+"]"), strings.Index(s, "| ["+items[1].Name+"]"))
	}
	if err := os.WriteFile(filepath.Join(dir, items[1].Name+".md"), []byte("## no summary row\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeMarkdown(&Config{Out: dir, Commit: "c3"}, []*Result{b}); err == nil || !strings.Contains(err.Error(), "summary row") {
		t.Errorf("writeMarkdown: error %v, want one naming the summary row", err)
	}
}
