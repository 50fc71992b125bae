// Package doctest checks that the code a package doc shows is the body of
// one of the package's Example functions, whose output go test checks, so
// the doc's example cannot drift from code that runs.
package doctest

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Check fails t when the tab-indented code lines of doc.go in the current
// directory differ from the body of the function example (for example
// "ExampleLog") in example_test.go, up to its "// Output:" comment.
func Check(t testing.TB, example string) {
	t.Helper()
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var snippet []string
	for _, l := range strings.Split(string(doc), "\n") {
		if c, ok := strings.CutPrefix(l, "//\t"); ok {
			snippet = append(snippet, "\t"+c)
		}
	}
	m := regexp.MustCompile(`(?s)func ` + regexp.QuoteMeta(example) + `\(\) \{\n(.*?)\t// Output:`).FindSubmatch(ex)
	if m == nil || len(snippet) == 0 {
		t.Fatalf("no %s or no code in the package doc", example)
	}
	if got, want := strings.Join(snippet, "\n")+"\n", string(m[1]); got != want {
		t.Errorf("the package doc's example differs from %s:\ndoc:\n%s\n%s:\n%s", example, got, example, want)
	}
}
