// This file implements the plots: one Figure, three files (CSV, PNG, SVG).

package repro

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Series is one named line of a figure; Y may hold NaN for "no value".
type Series struct {
	Name string
	X, Y []float64
	// Points draws markers only (no line).
	Points bool
	// Lo and Hi, if set, are error bars (confidence interval) around Y.
	Lo, Hi []float64
	// Color, if positive, picks plotutil's color Color−1 (series that
	// belong together share it); 0 takes the series' index.
	Color int
	// Dashed draws the line dashed.
	Dashed bool
	// NoLegend leaves the series out of the legend (its name stays in the
	// CSV): for a companion line whose meaning the axis label states.
	NoLegend bool
	// NoPoints draws the line without markers (a dense curve).
	NoPoints bool
	// XShift, if not 0, multiplies X when drawing (not in the CSV), to
	// set side by side the error bars of series that share their x.
	XShift float64
}

// Figure is one plot: axes with their units, optional log scales.
type Figure struct {
	Name           string // base file name
	Title          string
	XLabel, YLabel string
	LogX, LogY     bool
	YMin, YMax     float64 // both 0: automatic
	LegendLeft     bool    // legend in the top left corner (default right)
	LegendBottom   bool    // legend at the bottom (default top)
	// XTicks, if set, are the labelled x ticks; on a log axis the range
	// is then padded by a factor 1.5 either side so end points stay clear
	// of the frame.
	XTicks []float64
	// XTickLabels, if set, label XTicks (default: the values).
	XTickLabels []string
	// YTicks, if set, are the labelled y ticks (a range that leaves room
	// for the legend below the data keeps only meaningful labels).
	YTicks []float64
	Series []Series
}

// save writes dir/NAME.csv (series,x,y[,lo,hi]), NAME.png and NAME.svg,
// and records NAME in r.
func (f *Figure) save(dir string, r *Result) error {
	if err := f.writeCSV(filepath.Join(dir, f.Name+".csv")); err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = plotText(f.Title)
	p.X.Label.Text = plotText(f.XLabel)
	p.Y.Label.Text = plotText(f.YLabel)
	if f.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	} else {
		p.X.Tick.Marker = intTicks{}
	}
	if f.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top = !f.LegendBottom
	p.Legend.Left = f.LegendLeft
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(-4), vg.Points(-4)
	if f.LegendBottom {
		p.Legend.YOffs = vg.Points(4)
	}
	if f.LegendLeft {
		p.Legend.XOffs = vg.Points(4)
	}
	for i, s := range f.Series {
		shift := 1.0
		if s.XShift != 0 {
			shift = s.XShift
		}
		pts := make(plotter.XYs, 0, len(s.X))
		for j := range s.X {
			if math.IsNaN(s.Y[j]) || (f.LogY && s.Y[j] <= 0) || (f.LogX && s.X[j] <= 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: s.X[j] * shift, Y: s.Y[j]})
		}
		if len(pts) == 0 {
			continue
		}
		ci := i
		if s.Color > 0 {
			ci = s.Color - 1
		}
		col := plotutil.Color(ci)
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("repro: %s: %w", f.Name, err)
		}
		sc.GlyphStyle.Color = col
		sc.GlyphStyle.Shape = plotutil.Shape(i % 7)
		sc.GlyphStyle.Radius = vg.Points(2.5)
		if !s.NoPoints {
			p.Add(sc)
		}
		var thumbs []plot.Thumbnailer
		if !s.Points {
			l, err := plotter.NewLine(pts)
			if err != nil {
				return fmt.Errorf("repro: %s: %w", f.Name, err)
			}
			l.LineStyle.Color = col
			l.LineStyle.Width = vg.Points(1.2)
			if s.Dashed {
				l.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			}
			p.Add(l)
			thumbs = append(thumbs, l)
		}
		if !s.NoPoints {
			thumbs = append(thumbs, sc)
		}
		if s.Lo != nil {
			eb := make(errPoints, 0, len(s.X))
			for j := range s.X {
				if !math.IsNaN(s.Y[j]) {
					eb = append(eb, errPoint{s.X[j] * shift, s.Y[j], s.Y[j] - s.Lo[j], s.Hi[j] - s.Y[j]})
				}
			}
			bars, err := plotter.NewYErrorBars(eb)
			if err != nil {
				return fmt.Errorf("repro: %s: %w", f.Name, err)
			}
			bars.LineStyle.Color = col
			p.Add(bars)
		}
		if !s.NoLegend {
			p.Legend.Add(plotText(s.Name), thumbs...)
		}
	}
	// A log axis with no point on it (every value refused) would keep the
	// empty range gonum draws as [−1, 1], where its log ticks panic: span the
	// series' positive x instead, or one decade.
	if f.LogX && !(p.X.Min > 0 && p.X.Min <= p.X.Max) {
		p.X.Min, p.X.Max = 1, 10
		var xs []float64
		for _, s := range f.Series {
			for _, x := range s.X {
				if x > 0 {
					xs = append(xs, x)
				}
			}
		}
		if len(xs) > 0 {
			p.X.Min, p.X.Max = slices.Min(xs)/1.5, slices.Max(xs)*1.5
		}
	}
	if f.LogY && !(p.Y.Min > 0 && p.Y.Min <= p.Y.Max) && f.YMin <= 0 {
		p.Y.Min, p.Y.Max = 1, 10
	}
	if len(f.XTicks) > 0 {
		var ticks []plot.Tick
		for i, x := range f.XTicks {
			l := strconv.FormatFloat(x, 'g', -1, 64)
			if i < len(f.XTickLabels) {
				l = f.XTickLabels[i]
			}
			ticks = append(ticks, plot.Tick{Value: x, Label: l})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		if f.LogX {
			p.X.Min, p.X.Max = slices.Min(f.XTicks)/1.5, slices.Max(f.XTicks)*1.5
		}
	}
	if len(f.YTicks) > 0 {
		var ticks []plot.Tick
		for _, y := range f.YTicks {
			ticks = append(ticks, plot.Tick{Value: y, Label: strconv.FormatFloat(y, 'g', -1, 64)})
		}
		p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	}
	if f.YMin != 0 || f.YMax != 0 {
		p.Y.Min, p.Y.Max = f.YMin, f.YMax
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := p.Save(16*vg.Centimeter, 10*vg.Centimeter, filepath.Join(dir, f.Name+ext)); err != nil {
			return fmt.Errorf("repro: %s: %w", f.Name, err)
		}
	}
	r.Figures = append(r.Figures, f.Name)
	return nil
}

// logTicks labels 1, 2 and 5 times the powers of ten when the axis spans
// at most three decades, the powers of ten alone beyond (with the others
// as minor ticks): gonum's LogTicks labels only powers of ten, which
// leaves a short axis with one label.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi >= lo) {
		return plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	}
	dense := math.Log10(hi/lo) <= 3
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 3, 4, 5, 6, 7, 8, 9} {
			v := m * math.Pow(10, e)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			label := ""
			if m == 1 || dense && (m == 2 || m == 5) {
				label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, plot.Tick{Value: v, Label: label})
		}
	}
	if len(ts) < 2 {
		return plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	}
	return ts
}

// intTicks are gonum's default ticks with whole-number steps when the axis
// spans more than a few units (labels N = 1…40 read 5, 10, 15, not 2.5,
// 12.5).
type intTicks struct{}

func (intTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span >= 4) || math.IsInf(span, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step := 1.0
	for _, s := range []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000} {
		step = s
		if span/s <= 8 {
			break
		}
	}
	if span/step > 8 {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	var ts []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		for m := 1; m < 5 && step >= 5; m++ {
			if w := v + float64(m)*step/5; w <= hi {
				ts = append(ts, plot.Tick{Value: w})
			}
		}
	}
	return ts
}

// plotText spells the ceiling brackets, which the plots' font lacks, as
// ceil(…).
func plotText(s string) string {
	return strings.NewReplacer("⌈", "ceil(", "⌉", ")").Replace(s)
}

// errPoints are points with asymmetric y error bars.
type errPoint struct{ x, y, lo, hi float64 }
type errPoints []errPoint

func (e errPoints) Len() int                        { return len(e) }
func (e errPoints) XY(i int) (float64, float64)     { return e[i].x, e[i].y }
func (e errPoints) YError(i int) (float64, float64) { return e[i].lo, e[i].hi }

func (f *Figure) writeCSV(path string) error {
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("repro: %w", err)
	}
	w := csv.NewWriter(fh)
	w.Write([]string{"series", f.XLabel, f.YLabel, "lo", "hi"})
	g := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', 10, 64)
	}
	for _, s := range f.Series {
		for j := range s.X {
			lo, hi := "", ""
			if s.Lo != nil {
				lo, hi = g(s.Lo[j]), g(s.Hi[j])
			}
			w.Write([]string{s.Name, g(s.X[j]), g(s.Y[j]), lo, hi})
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		fh.Close()
		return fmt.Errorf("repro: %w", err)
	}
	return fh.Close()
}
