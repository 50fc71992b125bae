//go:build ignore

// testsummary reads go test -json output on stdin, prints the output of
// every failed test and package, the skipped tests, and one summary line
// with the number of passed, failed and skipped tests. It exits 1 if any
// test or package failed.
//
//	go test -json ./... | go run .ci/testsummary.go
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

func main() {
	output := map[string]*strings.Builder{} // package/test → its output
	key := func(e *event) string { return e.Package + " " + e.Test }
	var passed, failed, skipped int
	var skips, fails []string
	pkgFailed := false
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			// Build errors and other non-JSON lines: show them.
			fmt.Println(sc.Text())
			continue
		}
		k := key(&e)
		switch e.Action {
		case "output":
			b := output[k]
			if b == nil {
				b = new(strings.Builder)
				output[k] = b
			}
			b.WriteString(e.Output)
		case "pass":
			if e.Test != "" {
				passed++
			} else {
				fmt.Printf("ok   %s %.1fs\n", e.Package, e.Elapsed)
			}
			delete(output, k)
		case "skip":
			if e.Test != "" {
				skipped++
				reason := ""
				if b := output[k]; b != nil {
					for _, l := range strings.Split(b.String(), "\n") {
						if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "=== ") && !strings.HasPrefix(l, "--- SKIP") {
							reason = l
						}
					}
				}
				skips = append(skips, fmt.Sprintf("%s %s: %s", e.Package, e.Test, reason))
			}
			delete(output, k)
		case "fail":
			if e.Test != "" {
				failed++
				fails = append(fails, e.Package+" "+e.Test)
			} else {
				pkgFailed = true
				fmt.Printf("FAIL %s %.1fs\n", e.Package, e.Elapsed)
			}
			if b := output[k]; b != nil {
				fmt.Print(b.String())
			}
			delete(output, k)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Println("testsummary:", err)
		os.Exit(1)
	}
	sort.Strings(skips)
	for _, s := range skips {
		fmt.Println("skipped:", s)
	}
	fmt.Printf("tests: %d passed, %d failed, %d skipped\n", passed, failed, skipped)
	if failed > 0 || pkgFailed {
		for _, f := range fails {
			fmt.Println("failed:", f)
		}
		os.Exit(1)
	}
}
