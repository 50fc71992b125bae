package main

import (
	"fmt"
	"strings"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/discrete"
)

// attackEntry is one attack that -strategy names: its name and what it is.
type attackEntry struct {
	Name, Summary string
}

// attackSummaries says what each attack is, by its -strategy name. The
// multi-query names come from decode's registry (decode.Strategies);
// TestAttackCatalog fails when a registered strategy has no line here or
// a line names no strategy.
var attackSummaries = map[string]string{
	"auto":          "picks by the scorer's model: leaderboard for a binary score rounded to decimals, hybrid for a binary float score whose model names its log, carry for another binary float32 score, kbin for K > 2 against an unrounded model that names its log, else cross",
	"hybrid":        "carry's list top over binary digits (binary scorers whose model names its log)",
	"carry":         "list decoding across queries by emulated brackets (binary float scorers)",
	"klist":         "cross's K-ary digits under a list-decoded top of binary questions (K > 2, N ≥ 400)",
	"kbin":          "klist's top over hybrid's digits read from the residual: binary, radix 3 on three-label points",
	"cross":         "lean with labels carried across queries and the model's exact terms: fewest queries among the block codes on float scorers",
	"blocks":        "one block code per query, each block decoded whole",
	"lean":          "blocks with partial decoding and mixed Conway–Guy blocks",
	"primes":        "ICML Alg 1: prime-power weights per block",
	"alg3":          "ICML Alg 3",
	"leaderboard":   "list decoding across queries (binary scores rounded to decimals)",
	"robust-single": "ICML Alg 2: one query against an arbitrary-precision server with bounded, Gaussian or Laplace noise (-scorer apa)",
	"flip":          "accuracy, roc-auc, brier (-scorer METRIC): one row per query, N queries; K > 2: N + 1 for K = 3 (package discrete)",
	"group":         "accuracy, roc-auc, brier: subset sums of a coin-weighing design, about 2N/log₂N queries (binary)",
	"family":        "brier: the loss family's squared loss through single.AttackFamilyMulti, blocks of rows weighted 2^j (binary)",
}

// attackCatalog lists the attacks -strategy takes, in the order attack -h,
// labelinf help attacks and the manual show them: auto, the multi-query
// strategies as decode registers them, robust-single, then package
// discrete's attacks on accuracy, ROC AUC and the Brier score.
//
// This is the single hook for the catalogue of attacks: when a registry
// of every attack exists, this function returns its entries and
// attackSummaries goes.
func attackCatalog() []attackEntry {
	out := []attackEntry{{"auto", attackSummaries["auto"]}}
	for _, s := range decode.Strategies() {
		out = append(out, attackEntry{s.String(), attackSummaries[s.String()]})
	}
	out = append(out, attackEntry{"robust-single", attackSummaries["robust-single"]})
	for _, s := range []discrete.Strategy{discrete.Flip, discrete.Group, discrete.Family} {
		out = append(out, attackEntry{s.String(), attackSummaries[s.String()]})
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
