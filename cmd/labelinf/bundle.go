package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/labelinf/labelinf/audit"
	"github.com/labelinf/labelinf/internal/scorecli"
	"github.com/labelinf/labelinf/platform"
)

// bundleFlags are labelinf audit's flags for a platform's bundle
// (package platform).
type bundleFlags struct {
	bundle, plat, phase, labels, column, metric *string
	decimals, daily                             *int
	public                                      *float64
}

func (b *bundleFlags) add(fs *flag.FlagSet) {
	b.bundle = fs.String("bundle", "", "a platform's competition bundle `PATH`: a Codabench competition.yaml, an EvalAI challenge_config.yaml, a Hugging Face conf.json (or their directory or zip); with -platform kaggle, the solution file")
	b.plat = fs.String("platform", "", "the bundle's platform (`NAME`: codabench, evalai, huggingface; kaggle for the Kaggle preset); default: told by the file")
	b.phase = fs.String("phase", "", "the bundle's phase `NAME` (name, codename or index) when it has several")
	b.labels = fs.String("labels", "", "the labels `FILE` when the bundle's reference data is not one (or names several)")
	b.column = fs.String("column", "", "the labels' column `NAME` of a CSV reference with several")
	b.metric = fs.String("metric", "", "the metric `NAME` the bundle's scorer computes (float64-sklearn, float32-keras, torch-bce, leaderboard, …) when the bundle does not say")
	b.decimals = fs.Int("decimals", -1, "the decimals `D` shown, overriding the bundle")
	b.daily = fs.Int("daily-limit", 0, "the daily submission limit `N` (Kaggle: required; elsewhere it overrides the bundle)")
	b.public = fs.Float64("public-fraction", 0, "the public fraction `F` in (0, 1] (Kaggle: required unless the solution file has a Usage column; elsewhere it overrides the bundle)")
}

func (b *bundleFlags) set() bool { return *b.bundle != "" || *b.plat == platform.Kaggle }

// config reads the bundle into the audit's config; cleanup removes the
// labels file written for it.
func (b *bundleFlags) config() (*audit.Config, *platform.Bundle, func(), error) {
	none := func() {}
	if *b.bundle == "" && *b.plat != platform.Kaggle {
		return nil, nil, none, fmt.Errorf("-bundle is required with -platform %s", *b.plat)
	}
	if *b.public < 0 || *b.public > 1 {
		return nil, nil, none, fmt.Errorf("-public-fraction %g outside (0, 1]", *b.public)
	}
	bd, err := platform.Read(*b.bundle, platform.Options{Platform: *b.plat, Phase: *b.phase, Labels: *b.labels,
		Column: *b.column, Metric: *b.metric, Decimals: *b.decimals, DailyLimit: *b.daily, PublicFraction: *b.public})
	if err != nil {
		return nil, nil, none, err
	}
	dir, err := os.MkdirTemp("", "labelinf-bundle-")
	if err != nil {
		return nil, nil, none, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	var sb strings.Builder
	for _, y := range bd.Labels {
		sb.WriteString(strconv.Itoa(y))
		sb.WriteByte('\n')
	}
	lp := filepath.Join(dir, "labels")
	if err := os.WriteFile(lp, []byte(sb.String()), 0o600); err != nil {
		cleanup()
		return nil, nil, none, err
	}
	id := strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(bd.Title), "-"), "-")
	if id == "" {
		id = bd.Platform
	}
	c := &audit.Config{ID: id, Title: bd.Title, Labels: lp, Classes: bd.K, Metric: bd.Metric, Decimals: bd.Decimals,
		DailyLimit: bd.DailyLimit, TotalLimit: bd.TotalLimit}
	if bd.PublicFraction > 0 && bd.PublicFraction < 1 {
		c.PublicFraction = bd.PublicFraction
	}
	return c, bd, cleanup, nil
}

// writeBundleSettings prints each setting the audit read from a bundle
// and the field it came from.
func writeBundleSettings(w io.Writer, b *platform.Bundle) {
	fmt.Fprintf(w, "%s bundle %s", b.Platform, b.Path)
	if b.Phase != "" {
		fmt.Fprintf(w, ", phase %q", b.Phase)
	}
	fmt.Fprintln(w, ":")
	for _, s := range b.Settings {
		fmt.Fprintf(w, "  %-16s %-22s (%s)\n", s.Name, s.Value, s.Source)
	}
	fmt.Fprintln(w)
}

// runScore is labelinf score: a platform's defended scoring step
// (internal/scorecli, also built alone as cmd/labelinf-score).
func runScore(e *env, args []string) int {
	fs := newFlagSet("score", e.stderr)
	f := scorecli.AddFlags(fs)
	if !parseFlags(fs, args, e.stderr) {
		return 2
	}
	return scorecli.Run(f, e.stdout, e.stderr)
}
