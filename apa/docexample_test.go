package apa_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocExample checks that the code the package doc shows is ExampleLog's
// body, whose output go test checks.
func TestDocExample(t *testing.T) {
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
	m := regexp.MustCompile(`(?s)func ExampleLog\(\) \{\n(.*?)\t// Output:`).FindSubmatch(ex)
	if m == nil || len(snippet) == 0 {
		t.Fatal("no ExampleLog or no code in the package doc")
	}
	if got, want := strings.Join(snippet, "\n")+"\n", string(m[1]); got != want {
		t.Errorf("the package doc's example differs from ExampleLog:\ndoc:\n%s\nExampleLog:\n%s", got, want)
	}
}
