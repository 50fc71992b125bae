package repro

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Status is an item's verdict.
type Status string

// The verdicts.
const (
	Match          Status = "MATCH"
	Differs        Status = "DIFFERS"
	NotReproduced  Status = "NOT REPRODUCIBLE"
	NotYetMeasured Status = "NOT YET DONE"
)

// Config configures [Run].
type Config struct {
	// Out is the directory written (created if missing).
	Out string
	// Quick runs the expensive items on a smaller case.
	Quick bool
	// Commit names the commit the run is at (REPRO.md states it).
	Commit string
	// Progress, if set, is told what each item is doing.
	Progress func(item, msg string)
}

// Row is one line of an item's table: a quantity, the paper's value and
// ours, with the row's verdict.
type Row struct {
	What, Paper, Ours string
	Status            Status
	Note              string
}

// Result is what an item produced.
type Result struct {
	Item   *Item
	Status Status
	// Why is the tolerance (MATCH) or the measured reason (DIFFERS, NOT
	// REPRODUCIBLE).
	Why   string
	Rows  []Row
	Notes []string
	// Timings are wall-clock figures, kept out of the compared table.
	Timings []string
	Figures []string // base names of the plots (each .png, .svg, .csv)
	Quick   bool     // ran the smaller -quick case
	Elapsed time.Duration
}

// Item is one table or figure of a paper.
type Item struct {
	Name  string // command-line name
	Title string // the paper's table or figure
	// Cheap items run whole under -quick (CI compares their tables).
	Cheap   bool
	Command string
	run     func(ctx context.Context, c *Config, r *Result) error
}

// Items returns the items in REPRO.md's order.
func Items() []*Item { return slices.Clone(items) }

// Lookup returns the item called name.
func Lookup(name string) (*Item, error) {
	for _, it := range items {
		if it.Name == name {
			return it, nil
		}
	}
	var all []string
	for _, it := range items {
		all = append(all, it.Name)
	}
	return nil, fmt.Errorf("repro: unknown item %q (want one of %s)", name, strings.Join(all, ", "))
}

// Run runs the items (all if none are named) and writes their tables,
// CSVs and plots under c.Out, then c.Out/REPRO.md. It returns the results
// and the first error that stopped an item (the others still run; a
// failed item is reported in REPRO.md as NOT REPRODUCIBLE with the error).
func Run(ctx context.Context, c *Config, names []string) ([]*Result, error) {
	if c.Out == "" {
		return nil, errors.New("repro: no output directory")
	}
	run := items
	if len(names) > 0 {
		run = nil
		for _, n := range names {
			it, err := Lookup(n)
			if err != nil {
				return nil, err
			}
			run = append(run, it)
		}
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return nil, fmt.Errorf("repro: %w", err)
	}
	var out []*Result
	var first error
	for _, it := range run {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		r := &Result{Item: it, Quick: c.Quick && !it.Cheap}
		t0 := time.Now()
		c.progress(it.Name, "running")
		if err := it.run(ctx, c, r); err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			r.Status, r.Why = NotReproduced, "the run failed: "+err.Error()
			first = cmp(first, fmt.Errorf("repro: %s: %w", it.Name, err))
		}
		r.Elapsed = time.Since(t0)
		if err := writeTable(c.Out, r, "-table.csv"); err != nil {
			return out, err
		}
		if !c.Quick && !it.Cheap {
			// The full run also writes the -quick case's table, which CI
			// compares with its own -quick run.
			c.progress(it.Name, "its -quick case")
			if err := runQuickTable(ctx, c, it); err != nil {
				if ctx.Err() != nil {
					return out, ctx.Err()
				}
				first = cmp(first, fmt.Errorf("repro: %s -quick: %w", it.Name, err))
			}
		}
		c.progress(it.Name, fmt.Sprintf("%s in %.1f s", r.Status, r.Elapsed.Seconds()))
		out = append(out, r)
	}
	if err := writeMarkdown(c, out); err != nil {
		return out, err
	}
	return out, first
}

func cmp(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func (c *Config) progress(item, msg string) {
	if c.Progress != nil {
		c.Progress(item, msg)
	}
}

// runQuickTable runs it's -quick case with its plots in a scratch
// directory and writes its table as c.Out/ITEM-quick-table.csv.
func runQuickTable(ctx context.Context, c *Config, it *Item) error {
	tmp, err := os.MkdirTemp("", "repro-quick-")
	if err != nil {
		return fmt.Errorf("repro: %w", err)
	}
	defer os.RemoveAll(tmp)
	qc := *c
	qc.Out, qc.Quick = tmp, true
	r := &Result{Item: it, Quick: true}
	if err := it.run(ctx, &qc, r); err != nil {
		return err
	}
	return writeTable(c.Out, r, "-quick-table.csv")
}

// writeTable writes ITEM+suffix (ITEM-table.csv, or ITEM-quick-table.csv
// for the -quick case of an expensive item written by a full run): the
// rows, without timings.
func writeTable(dir string, r *Result, suffix string) error {
	f, err := os.Create(filepath.Join(dir, r.Item.Name+suffix))
	if err != nil {
		return fmt.Errorf("repro: %w", err)
	}
	w := csv.NewWriter(f)
	w.Write([]string{"quantity", "paper", "ours", "status", "note"})
	for _, row := range r.Rows {
		w.Write([]string{row.What, row.Paper, row.Ours, string(row.Status), row.Note})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return fmt.Errorf("repro: %w", err)
	}
	return f.Close()
}

// summarize sets r's status from its rows: MATCH if every row matches,
// else the first row that does not.
func (r *Result) summarize(tolerance string) {
	r.Status, r.Why = Match, tolerance
	for _, row := range r.Rows {
		if row.Status != Match && row.Status != "" {
			r.Status = row.Status
			r.Why = row.What + ": " + row.Note
			return
		}
	}
}
