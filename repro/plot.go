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
	p.Title.Text = f.Title
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	if f.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if f.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
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
		p.Legend.Add(s.Name, thumbs...)
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
