package main

import (
	"go/doc/comment"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocHeadings: every section of the manual (go doc ./cmd/labelinf)
// is a heading, not text run into the paragraph before it (a heading
// needs a blank comment line on both sides).
func TestDocHeadings(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	require.NoError(t, err)
	require.NotNil(t, f.Doc)
	d := new(comment.Parser).Parse(f.Doc.Text())
	var headings []string
	for _, b := range d.Content {
		if h, ok := b.(*comment.Heading); ok {
			var s string
			for _, x := range h.Text {
				if p, ok := x.(comment.Plain); ok {
					s += string(p)
				}
			}
			headings = append(headings, s)
		}
	}
	for _, want := range []string{"demo", "fpa", "plan", "attack", "fingerprint", "blia", "bits", "audit", "serve", "serve API", "repro", "version"} {
		assert.Contains(t, headings, want)
	}
}
