package audit

// This file writes a report: the table, the JSON and the plot.

import (
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// WriteJSON writes the report as indented JSON. It has no wall times:
// the same config and seed give the same bytes.
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// WriteTable writes the report as an aligned text table, one row per
// cell, and a legend.
func (r *Report) WriteTable(w io.Writer) error {
	c := r.Competition
	fmt.Fprintf(w, "audit of %s: %d labels (%d positive), metric %s, seed %d; limit %d submissions unless a cell sets one (%d days × %d account(s))\n",
		c.ID, c.Rows, c.Positives, c.Metric, c.Seed, c.Limit, c.Days, c.Accounts)
	fmt.Fprintf(w, "honest users: %d teams, %d submissions, %d with a true score within 0.001 of another's\n\n", c.Teams, c.Honest, c.NearTies)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "defence\tverdict\tbest attack\tsubmissions\tfloor (×)\taccounts needed (all)\tdays (1 / 10 acc.)\tpublic rec. (ver.)\tprivate rec.\thonest mean |Δ|\tmax |Δ|\tKendall τ\thidden impr.\t")
	for _, cr := range r.Cells {
		best, subs, days, floor, accts := "none", "—", "—", "—", "—"
		if cr.Best != "" {
			best = cr.Best
			subs = fmt.Sprint(cr.Submissions)
			if cr.Extrapolated {
				subs = "~" + subs
			}
			days = fmt.Sprintf("%d / %d @%d/day", cr.Days[0].Days, cr.Days[1].Days, cr.PerDay)
		}
		if cr.Measured {
			floor = fmt.Sprint(cr.Floor.Submissions)
			if cr.Floor.Ratio > 0 {
				floor += fmt.Sprintf(" (%.1f)", cr.Floor.Ratio)
			}
			accts = "none ≤ " + comma(int64(r.Competition.MaxAccounts))
			if cr.AccountsNeeded != nil {
				accts = fmt.Sprint(*cr.AccountsNeeded)
				if cr.AccountsAll != nil {
					accts += fmt.Sprintf(" (%d)", *cr.AccountsAll)
				}
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.3f\t%s\t\n", cr.Name, cr.Verdict, best, subs, floor, accts, days,
			fmt.Sprintf("%s (%s)", pct(cr.PublicRecovered), pct(cr.PublicVerified)), pct(cr.PrivateRecovered),
			sci(cr.Honest.MeanAbs), sci(cr.Honest.MaxAbs), cr.Honest.KendallTau,
			fmt.Sprintf("%d/%d", cr.Honest.HiddenImprovements, cr.Honest.Improvements))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, cr := range r.Cells {
		if cr.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", cr.Name, cr.Note)
		}
	}
	_, err := fmt.Fprint(w, tableLegend)
	return err
}

// tableLegend explains the table's columns.
const tableLegend = `
verdict: stopped = no attack recovers 1 % of the public labels (claims ≥ 99 % right) within the limit with the
config's accounts; "falls with k": the fewest accounts with which some attack does (accounts needed); "not
measured": no attack of the audit breaks it, where its attacks do not read the defence, which is no evidence of
safety; "not applicable (serve refuses)": labelinf serve refuses this defence on the metric.
best attack: the one recovering the most labels within the limit; "(fresh accounts)": each submission from a new
account (a per-team state's first release); submissions: what it needs to finish, whatever the limit
(~ = extrapolated from a measured prefix).
floor: no attack can recover every public label in fewer submissions (information bound, or the scorer model's
proved floor); (×): the best attack's submissions over it.
accounts needed (all): the fewest accounts for 1 % of the public labels (for all of them).
days: the best attack's submissions at the daily limit with 1 / 10 accounts.
rec. (ver.): fraction of labels recovered within the limit (verified by the attack).
honest: per team, |shown best − true best| at the end; τ between the true and the shown final leaderboards;
hidden impr.: the honest submissions that truly improved on their team's best whose release did not show it,
over all such improvements.
`

func pct(f float64) string {
	if f == 0 {
		return "0"
	}
	return fmt.Sprintf("%.1f%%", 100*f)
}

func sci(f float64) string {
	if f == 0 {
		return "0"
	}
	return fmt.Sprintf("%.2g", f)
}

// plotName is a cell's label on the plot: its name, the accounts with
// which it falls when more accounts than the config's break it, and the
// honest improvements its releases hid, if any.
func plotName(cr *CellResult) string {
	name := cr.Name
	if cr.Stopped && cr.AccountsNeeded != nil {
		name += fmt.Sprintf(" (falls with %s accounts)", comma(*cr.AccountsNeeded))
	}
	if h := cr.Honest; h.HiddenImprovements > 0 {
		name += fmt.Sprintf(" [%d/%d hidden]", h.HiddenImprovements, h.Improvements)
	}
	return name
}

// A plotClass is how a cell is drawn: broken, stopped only with the
// config's accounts (more accounts break it), or stopped with every
// account count the audit tried.
type plotClass int

const (
	plotBroken plotClass = iota
	plotFallsWithAccounts
	plotStopped
	// plotUnmeasured: not measured, or a defence serve refuses on the
	// metric: no evidence either way, never drawn as stopped.
	plotUnmeasured
)

// classOf returns the cell's plot class. A cell stopped with the
// config's accounts that more accounts break is never drawn as stopped.
func classOf(cr *CellResult) plotClass {
	switch {
	case !cr.Measured:
		return plotUnmeasured
	case !cr.Stopped:
		return plotBroken
	case cr.AccountsNeeded != nil:
		return plotFallsWithAccounts
	}
	return plotStopped
}

// PlotPoint is one cell on the plot.
type PlotPoint struct {
	Name string
	// X is the honest users' mean |reported − true|; Y the submissions
	// the cheapest recovering attack needs, +Inf when none recovers.
	X, Y float64
	// Stopped reports whether the cell is stopped with the config's
	// accounts; Class says whether more accounts break it.
	Stopped bool
	Class   plotClass
}

// Points returns the report's cells as plot points, cells at the same
// point merged into one label.
func (r *Report) Points() []PlotPoint {
	var out []PlotPoint
	for i := range r.Cells {
		cr := &r.Cells[i]
		y := math.Inf(1)
		if cr.Best != "" {
			y = float64(cr.Submissions)
		}
		merged := false
		for i := range out {
			if out[i].X == cr.Honest.MeanAbs && out[i].Y == y && out[i].Class == classOf(cr) {
				out[i].Name += ", " + plotName(cr)
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, PlotPoint{Name: plotName(cr), X: cr.Honest.MeanAbs, Y: y, Stopped: cr.Stopped, Class: classOf(cr)})
		}
	}
	return out
}

// Plot draws attack cost (submissions, log scale) against honest-user
// cost (mean |reported − true|, log scale), one labelled point per
// defence. A cost of 0 is drawn at the left edge (a tenth of the
// smallest positive one), and a defence no attack breaks at the top
// edge (ten times the largest finite cost), both said in the axis
// labels.
func (r *Report) Plot() (*plot.Plot, error) {
	pts := r.Points()
	xmin, ymax := math.Inf(1), 1.0
	for _, p := range pts {
		if p.X > 0 {
			xmin = math.Min(xmin, p.X)
		}
		if !math.IsInf(p.Y, 1) {
			ymax = math.Max(ymax, p.Y)
		}
	}
	if math.IsInf(xmin, 1) {
		xmin = 1e-6
	}
	x0 := math.Pow(10, math.Floor(math.Log10(xmin))-1)
	ytop := math.Pow(10, math.Ceil(math.Log10(ymax))+1)
	p := plot.New()
	c := r.Competition
	// Axis labels stay short: gonum shrinks the data area to the length
	// of a long one.
	p.Title.Text = fmt.Sprintf("Defences of %s (%d labels, %s): attack cost against honest-user cost\n"+
		"cost 0 drawn at %.0e; defences no attack breaks drawn at %.0e", c.ID, c.Rows, c.Metric, x0, ytop)
	p.X.Label.Text = "honest teams' mean |shown best - true best|"
	p.Y.Label.Text = "attacker's submissions"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = decadeTicks{}, decadeTicks{}
	p.Add(plotter.NewGrid())
	var open, falls, stopped, unmeasured plotter.XYs
	xmax := math.Pow(10, math.Ceil(math.Log10(math.Max(xmin, maxX(pts))))+1)
	p.X.Min, p.X.Max = x0/2, xmax
	p.Y.Min, p.Y.Max = 1, ytop*3
	var where []plotter.XY
	var names []string
	for _, q := range pts {
		x, y := q.X, q.Y
		if x <= 0 {
			x = x0
		}
		if math.IsInf(y, 1) {
			y = ytop
		}
		xy := plotter.XY{X: x, Y: y}
		switch q.Class {
		case plotStopped:
			stopped = append(stopped, xy)
		case plotFallsWithAccounts:
			falls = append(falls, xy)
		case plotUnmeasured:
			unmeasured = append(unmeasured, xy)
		default:
			open = append(open, xy)
		}
		where = append(where, xy)
		names = append(names, q.Name)
	}
	groups := placeLabels(p, where, names)
	for _, s := range []struct {
		xys   plotter.XYs
		name  string
		shape draw.GlyphDrawer
		col   color.Color
	}{
		{open, "not stopped", draw.CircleGlyph{}, color.RGBA{R: 200, A: 255}},
		{falls, "stopped for one account, falls with more", draw.SquareGlyph{}, color.RGBA{R: 230, G: 120, A: 255}},
		{stopped, fmt.Sprintf("stopped up to %s accounts", comma(int64(max(r.Competition.MaxAccounts, r.Competition.Accounts, 1)))), draw.TriangleGlyph{}, color.RGBA{G: 130, B: 60, A: 255}},
		{unmeasured, "not measured or not applicable (no evidence of safety)", draw.CrossGlyph{}, color.Gray{Y: 90}},
	} {
		if len(s.xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(s.xys)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Shape, sc.GlyphStyle.Color, sc.GlyphStyle.Radius = s.shape, s.col, vg.Points(4)
		p.Add(sc)
		p.Legend.Add(s.name, sc)
	}
	for _, g := range groups {
		if len(g.l.XYs) == 0 {
			continue
		}
		l, err := plotter.NewLabels(g.l)
		if err != nil {
			return nil, err
		}
		l.Offset = g.off
		for i := range l.TextStyle {
			l.TextStyle[i].Font.Size = vg.Points(labelFont)
			l.TextStyle[i].XAlign = g.align
		}
		p.Add(l)
	}
	if lim := float64(c.Limit); lim > 1 && lim < ytop {
		ln, err := plotter.NewLine(plotter.XYs{{X: x0 / 2, Y: lim}, {X: xmax, Y: lim}})
		if err != nil {
			return nil, err
		}
		ln.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		ln.LineStyle.Color = color.Gray{Y: 100}
		p.Add(ln)
		p.Legend.Add(fmt.Sprintf("limit without a daily cap (%d)", c.Limit), ln)
	}
	return p, nil
}

func maxX(pts []PlotPoint) float64 {
	m := 0.0
	for _, p := range pts {
		m = math.Max(m, p.X)
	}
	return m
}

// SavePlot writes the plot to path; the extension (.png, .svg, .pdf)
// picks the format.
func (r *Report) SavePlot(path string) error {
	p, err := r.Plot()
	if err != nil {
		return err
	}
	if !strings.Contains(path, ".") {
		return fmt.Errorf("audit: plot file %q has no extension", path)
	}
	return p.Save(9*vg.Inch, 6*vg.Inch, path)
}

// decadeTicks marks every power of ten with a label ("1e-05", "100")
// and the multiples between them without one, all within [lo, hi] (a
// tick outside makes gonum shrink the data area); plot.LogTicks prints
// values such as 9.99999e-05.
type decadeTicks struct{}

func (decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for e := int(math.Floor(math.Log10(lo))); e <= int(math.Ceil(math.Log10(hi))); e++ {
		v := math.Pow(10, float64(e))
		label := strconv.FormatFloat(v, 'g', -1, 64)
		if e < -3 || e > 5 {
			label = fmt.Sprintf("1e%+03d", e)
		}
		if v >= lo && v <= hi {
			out = append(out, plot.Tick{Value: v, Label: label})
		}
		for k := 2; k < 10; k++ {
			if w := float64(k) * v; w >= lo && w <= hi {
				out = append(out, plot.Tick{Value: w})
			}
		}
	}
	return out
}

// labelFont is the labels' font size in points.
const labelFont = 8

// labelGroup is the labels drawn at one offset from their points.
type labelGroup struct {
	l     plotter.XYLabels
	off   vg.Point
	align text.XAlignment
}

// placeLabels places one label per point (points at the same place
// share one, their names joined) at the first of four positions (right
// above, right below, left above, left below) whose box overlaps no
// label placed before and no point, in an approximate data area of
// 7.3 × 4.4 inches (the plot's size less its axes).
func placeLabels(p *plot.Plot, where []plotter.XY, names []string) []labelGroup {
	const w, h = 7.3 * 72, 4.4 * 72 // points
	px := func(xy plotter.XY) (float64, float64) {
		return p.X.Norm(xy.X) * w, p.Y.Norm(xy.Y) * h
	}
	type box struct{ x0, y0, x1, y1 float64 }
	overlaps := func(a, b box) bool { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 }
	var boxes []box
	for _, xy := range where {
		x, y := px(xy)
		boxes = append(boxes, box{x - 5, y - 5, x + 5, y + 5})
	}
	groups := []labelGroup{
		{off: vg.Point{X: 6, Y: 3}, align: text.XLeft},
		{off: vg.Point{X: 6, Y: -12}, align: text.XLeft},
		{off: vg.Point{X: -6, Y: 3}, align: text.XRight},
		{off: vg.Point{X: -6, Y: -12}, align: text.XRight},
	}
	seen := map[plotter.XY]*string{}
	var order []plotter.XY
	for i, xy := range where {
		if n, ok := seen[xy]; ok {
			*n += ", " + names[i]
			continue
		}
		n := names[i]
		seen[xy] = &n
		order = append(order, xy)
	}
	for _, xy := range order {
		name := *seen[xy]
		x, y := px(xy)
		tw := 0.5 * labelFont * float64(len([]rune(name)))
		pick := 0
		for g, gr := range groups {
			bx := box{x + float64(gr.off.X), y + float64(gr.off.Y), x + float64(gr.off.X) + tw, y + float64(gr.off.Y) + labelFont + 1}
			if gr.align == text.XRight {
				bx.x0, bx.x1 = x+float64(gr.off.X)-tw, x+float64(gr.off.X)
			}
			free := bx.x0 >= 0 && bx.x1 <= w
			for _, o := range boxes {
				if overlaps(bx, o) {
					free = false
					break
				}
			}
			if free {
				pick = g
				boxes = append(boxes, bx)
				break
			}
		}
		groups[pick].l.XYs = append(groups[pick].l.XYs, xy)
		groups[pick].l.Labels = append(groups[pick].l.Labels, name)
	}
	return groups
}
