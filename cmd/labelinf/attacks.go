package main

import (
	"fmt"
	"strings"

	"github.com/labelinf/labelinf/catalog"
)

// attackEntry is one attack that -strategy names: its name and what it is.
type attackEntry struct {
	Name, Summary string
}

// attackCatalog lists the attacks -strategy takes, in the order attack -h,
// labelinf help attacks and the manual show them: auto (the catalogue's
// one rule), then every attack of the catalogue (package catalog), each
// with its aliases and doc line. It is the one list: nothing here names
// an attack.
func attackCatalog() []attackEntry {
	out := []attackEntry{{catalog.AutoName, catalog.AutoDoc}}
	for _, a := range catalog.All() {
		sum := a.Doc
		if len(a.Aliases) > 0 {
			sum += " (also " + strings.Join(a.Aliases, ", ") + ")"
		}
		out = append(out, attackEntry{a.Name, sum})
	}
	return out
}

// attackNames returns the names of attackCatalog.
func attackNames() []string {
	var names []string
	for _, a := range attackCatalog() {
		names = append(names, a.Name)
	}
	return names
}

// attackList renders attackCatalog for the manual: one tab-indented
// block, a name and its summary, wrapped.
func attackList() string {
	var b strings.Builder
	for i, a := range attackCatalog() {
		if i > 0 {
			b.WriteString("\n")
		}
		lines := wrap(a.Summary, 60)
		for j, l := range lines {
			name := ""
			if j == 0 {
				name = a.Name
			}
			fmt.Fprintf(&b, "\t%-14s %s", name, l)
			if j < len(lines)-1 {
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

// wrap splits s into lines of at most width bytes at spaces.
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
