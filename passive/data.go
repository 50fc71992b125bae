// This file implements the tabular data the experiments train on: typed
// columns read from CSV files, the loaders for the Census (Adult) and
// Wisconsin (WDBC) files, and the encoder that turns a table into a
// standardized, one-hot feature matrix.

package passive

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/labelinf/labelinf/datasets"
	"gonum.org/v1/gonum/mat"
)

// A ColumnKind says how a feature column is encoded.
type ColumnKind int

const (
	// Numeric columns are standardized: (x − mean)/sd over the fitting rows.
	Numeric ColumnKind = iota
	// Categorical columns are one-hot encoded over the levels seen in the
	// fitting rows.
	Categorical
)

// A Column is one feature column of a [Table]. Exactly one of Num and Cat
// is set, according to Kind. A missing numeric value is NaN; a missing
// categorical value is kept as its own level, [Missing].
type Column struct {
	Name string
	Kind ColumnKind
	Num  []float64
	Cat  []string
}

// Missing is the level a missing categorical value ("?", "NA" or empty in
// the file) takes. Keeping it as a level, rather than dropping the row,
// keeps every row of the Census file (2,399 of its 32,561 rows have a
// missing field) and lets the model use missingness as a feature.
const Missing = "?"

// A Table is a labelled data set with binary labels.
type Table struct {
	Name    string
	Cols    []Column
	Labels  []int     // 0 or 1, one per row
	Classes [2]string // the names of labels 0 and 1
}

// Rows returns the number of rows of t.
func (t *Table) Rows() int { return len(t.Labels) }

// isMissing reports whether a raw field denotes a missing value.
func isMissing(s string) bool { return s == "" || s == "?" || s == "NA" || s == "NaN" }

// adultColumns are the 14 feature columns of UCI adult.data in file order
// (adult.names); true marks the numeric ones.
var adultColumns = []struct {
	name    string
	numeric bool
}{
	{"age", true}, {"workclass", false}, {"fnlwgt", true}, {"education", false},
	{"education-num", true}, {"marital-status", false}, {"occupation", false},
	{"relationship", false}, {"race", false}, {"sex", false},
	{"capital-gain", true}, {"capital-loss", true}, {"hours-per-week", true},
	{"native-country", false},
}

// ReadAdult reads a UCI Census Income file (adult.data or adult.test: 15
// comma-separated fields, "?" for a missing value, label "<=50K" or ">50K"
// with an optional trailing period). Label 1 is ">50K". name is used in
// error messages. A row with the wrong number of fields, an unparsable
// number or an unknown label is an error that names its line; empty lines
// are skipped.
func ReadAdult(r io.Reader, name string) (*Table, error) {
	cr := csv.NewReader(r)
	cr.TrimLeadingSpace = true
	cr.FieldsPerRecord = len(adultColumns) + 1
	cr.ReuseRecord = true
	t := &Table{Name: name, Classes: [2]string{"<=50K", ">50K"}}
	for _, c := range adultColumns {
		col := Column{Name: c.name, Kind: Categorical}
		if c.numeric {
			col.Kind = Numeric
		}
		t.Cols = append(t.Cols, col)
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("passive: %s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		switch strings.TrimSuffix(rec[len(adultColumns)], ".") {
		case "<=50K":
			t.Labels = append(t.Labels, 0)
		case ">50K":
			t.Labels = append(t.Labels, 1)
		default:
			return nil, fmt.Errorf("passive: %s:%d: label %q is neither <=50K nor >50K", name, line, rec[len(adultColumns)])
		}
		for j := range adultColumns {
			if err := t.Cols[j].append(rec[j]); err != nil {
				return nil, fmt.Errorf("passive: %s:%d: %w", name, line, err)
			}
		}
	}
	if t.Rows() == 0 {
		return nil, fmt.Errorf("passive: %s: no rows", name)
	}
	return t, nil
}

// append adds one raw field to c.
func (c *Column) append(s string) error {
	s = strings.TrimSpace(s)
	if c.Kind == Categorical {
		if isMissing(s) {
			s = Missing
		}
		c.Cat = append(c.Cat, s)
		return nil
	}
	if isMissing(s) {
		c.Num = append(c.Num, math.NaN())
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return fmt.Errorf("column %s: %q is not a finite number", c.Name, s)
	}
	c.Num = append(c.Num, v)
	return nil
}

// ReadCSV reads a generic labelled CSV file: one row per example, the label
// in the last column, features in the others. A column whose present
// values all parse as numbers is [Numeric], any other is [Categorical];
// "", "?", "NA" and "NaN" are missing values. The label column must hold
// exactly two distinct values: 0 and 1 are kept as they are, otherwise the
// two values are ordered (numerically if both are numbers) and the smaller
// becomes label 0.
//
// Two kinds of first line are recognised and skipped: scikit-learn's
// metadata line "n_samples,n_features,class0,class1,…" (n_samples and
// n_features matching the file), whose class names are kept, and a header
// (its value in every column occurs nowhere else in that column, and no
// numeric column has a number there). The header rule is a heuristic: a
// header whose column name is also one of that column's values is read
// as data, which then fails the label check or adds a spurious level.
// name is used in error messages.
func ReadCSV(r io.Reader, name string) (*Table, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("passive: %s: %w", name, err)
	}
	first := 1 // file line of recs[0]
	var classes []string
	var header []string
	if len(recs) >= 2 && isMetadata(recs) {
		classes = recs[0][2:]
		recs, first = recs[1:], 2
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("passive: %s: fewer than two rows", name)
	}
	width := len(recs[0])
	if width < 2 {
		return nil, fmt.Errorf("passive: %s:%d: %d field; need at least one feature and a label", name, first, width)
	}
	for i, rec := range recs {
		if len(rec) != width {
			return nil, fmt.Errorf("passive: %s:%d: %d fields, but line %d has %d", name, first+i, len(rec), first, width)
		}
	}
	if isHeader(recs) {
		header = recs[0]
		recs, first = recs[1:], first+1
	}
	t := &Table{Name: name}
	for j := 0; j < width-1; j++ {
		col := Column{Name: fmt.Sprintf("x%d", j+1), Kind: Numeric}
		if header != nil {
			col.Name = strings.TrimSpace(header[j])
		}
		for _, rec := range recs {
			if s := strings.TrimSpace(rec[j]); !isMissing(s) && !isNumber(s) {
				col.Kind = Categorical
				break
			}
		}
		for i, rec := range recs {
			if err := col.append(rec[j]); err != nil {
				return nil, fmt.Errorf("passive: %s:%d: %w", name, first+i, err)
			}
		}
		t.Cols = append(t.Cols, col)
	}
	// Labels.
	raw := make([]string, len(recs))
	seen := map[string]bool{}
	for i, rec := range recs {
		s := strings.TrimSpace(rec[width-1])
		if isMissing(s) {
			return nil, fmt.Errorf("passive: %s:%d: missing label", name, first+i)
		}
		raw[i] = s
		seen[s] = true
	}
	if len(seen) != 2 {
		vals := make([]string, 0, len(seen))
		for s := range seen {
			vals = append(vals, s)
		}
		sort.Strings(vals)
		if len(vals) > 5 {
			vals = append(vals[:5], "…")
		}
		return nil, fmt.Errorf("passive: %s: label column has %d distinct values (%s); binary labels need exactly 2", name, len(seen), strings.Join(vals, ", "))
	}
	vals := make([]string, 0, 2)
	for s := range seen {
		vals = append(vals, s)
	}
	slices.SortFunc(vals, func(a, b string) int {
		x, errx := strconv.ParseFloat(a, 64)
		y, erry := strconv.ParseFloat(b, 64)
		if errx == nil && erry == nil {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
		}
		return strings.Compare(a, b)
	})
	t.Labels = make([]int, len(raw))
	for i, s := range raw {
		if s == vals[1] {
			t.Labels[i] = 1
		}
	}
	t.Classes = [2]string{vals[0], vals[1]}
	if len(classes) == 2 && vals[0] == "0" && vals[1] == "1" {
		t.Classes = [2]string{strings.TrimSpace(classes[0]), strings.TrimSpace(classes[1])}
	}
	return t, nil
}

// isMetadata reports whether recs[0] is scikit-learn's metadata line
// "n_samples,n_features,class names…": two integers matching the rows and
// fields that follow, then non-numeric names.
func isMetadata(recs [][]string) bool {
	if len(recs[0]) < 2 {
		return false
	}
	n, err1 := strconv.Atoi(strings.TrimSpace(recs[0][0]))
	d, err2 := strconv.Atoi(strings.TrimSpace(recs[0][1]))
	if err1 != nil || err2 != nil || n != len(recs)-1 || d != len(recs[1])-1 {
		return false
	}
	for _, s := range recs[0][2:] {
		if isNumber(strings.TrimSpace(s)) {
			return false
		}
	}
	return true
}

func isNumber(s string) bool {
	v, err := strconv.ParseFloat(s, 64)
	return err == nil && !math.IsInf(v, 0) && !math.IsNaN(v)
}

// isHeader reports whether recs[0] looks like a header line: in every
// column its value occurs in no other row, and in a column whose other
// values are all numbers it is not a number.
func isHeader(recs [][]string) bool {
	for j := range recs[0] {
		h := strings.TrimSpace(recs[0][j])
		numeric := true
		for _, rec := range recs[1:] {
			s := strings.TrimSpace(rec[j])
			if s == h {
				return false
			}
			if !isMissing(s) && !isNumber(s) {
				numeric = false
			}
		}
		if numeric && isNumber(h) {
			return false
		}
	}
	return true
}

// A Dataset is a training table and, when the data comes with one, a
// separate test table with the same columns.
type Dataset struct {
	Name  string
	Train *Table
	Test  *Table // nil when there is no separate test file
}

// DatasetNames lists the built-in names [LoadDataset] accepts.
var DatasetNames = []string{"adult", "wdbc", "titanic", "banknote", "haberman"}

// LoadDataset loads a built-in data set by name, or a generic CSV file (see
// [ReadCSV]) when name is not a built-in name:
//
//	adult     adult_train.csv (train) and adult_test.csv (test), the paper's CENSUS
//	wdbc      wdbc.csv, Wisconsin Diagnostic Breast Cancer (no test file)
//	titanic   titanic.csv, Titanic survival (no test file)
//	banknote  banknote.csv, Banknote Authentication (no test file)
//	haberman  haberman.csv, Haberman's Survival (no test file)
//
// The built-in files are the ones package datasets embeds when dir is "",
// and the files of the same names in directory dir otherwise (to run on
// other copies of the same files). A generic CSV file name is a path, read
// from the file system whatever dir is.
func LoadDataset(dir, name string) (*Dataset, error) {
	var fsys fs.FS = datasets.FS()
	where := "the embedded data sets"
	if dir != "" {
		fsys, where = os.DirFS(dir), dir
	}
	open := func(file string, read func(io.Reader, string) (*Table, error)) (*Table, error) {
		f, err := fsys.Open(file)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("passive: data file %s not found in %s", file, where)
			}
			return nil, fmt.Errorf("passive: %w", err)
		}
		defer f.Close()
		return read(f, file)
	}
	switch name {
	case "adult":
		train, err := open("adult_train.csv", ReadAdult)
		if err != nil {
			return nil, err
		}
		test, err := open("adult_test.csv", ReadAdult)
		if err != nil {
			return nil, err
		}
		return &Dataset{Name: name, Train: train, Test: test}, nil
	case "wdbc", "titanic", "banknote", "haberman":
		train, err := open(name+".csv", ReadCSV)
		if err != nil {
			return nil, err
		}
		return &Dataset{Name: name, Train: train}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("passive: data file %s not found (built-in names: %s)", name, strings.Join(DatasetNames, ", "))
		}
		return nil, fmt.Errorf("passive: %w", err)
	}
	defer f.Close()
	train, err := ReadCSV(f, filepath.Base(name))
	if err != nil {
		return nil, err
	}
	return &Dataset{Name: filepath.Base(name), Train: train}, nil
}

// An Encoder maps rows of a [Table] to feature vectors: numeric columns
// standardized with the mean and standard deviation of the fitting rows
// (a missing value becomes the mean, so 0), categorical columns one-hot
// over the levels of the fitting rows (a level never seen in them encodes
// as all zeros). Fitting on the training rows only keeps the test rows out
// of the preprocessing.
type Encoder struct {
	cols     []colEncoder
	features []string
}

type colEncoder struct {
	kind      ColumnKind
	scale     float64 // numeric: (x/scale − mean)·inv
	mean, inv float64
	levels    map[string]int // categorical: level → offset within the column's block
	off       int            // first feature of this column
}

// NewEncoder fits an encoder to the given rows of t. It panics if a row is
// out of range.
func NewEncoder(t *Table, rows []int) *Encoder {
	e := &Encoder{}
	for _, c := range t.Cols {
		ce := colEncoder{kind: c.Kind, off: len(e.features)}
		switch c.Kind {
		case Numeric:
			// Work on v/scale, scale = max |v|, so that no sum or square
			// overflows for any finite input.
			var scale float64
			for _, i := range rows {
				if v := c.Num[i]; !math.IsNaN(v) {
					scale = max(scale, math.Abs(v))
				}
			}
			ce.scale, ce.inv = 1, 1
			if scale > 0 {
				ce.scale = scale
				var sum, n float64
				for _, i := range rows {
					if v := c.Num[i]; !math.IsNaN(v) {
						sum += v / scale
						n++
					}
				}
				ce.mean = sum / n
				var ss float64
				for _, i := range rows {
					if v := c.Num[i]; !math.IsNaN(v) {
						d := v/scale - ce.mean
						ss += d * d
					}
				}
				if ss > 0 {
					ce.inv = 1 / math.Sqrt(ss/n)
				}
			}
			e.features = append(e.features, c.Name)
		case Categorical:
			set := map[string]bool{}
			for _, i := range rows {
				set[c.Cat[i]] = true
			}
			levels := make([]string, 0, len(set))
			for s := range set {
				levels = append(levels, s)
			}
			sort.Strings(levels)
			ce.levels = make(map[string]int, len(levels))
			for k, s := range levels {
				ce.levels[s] = k
				e.features = append(e.features, c.Name+"="+s)
			}
		}
		e.cols = append(e.cols, ce)
	}
	return e
}

// Features returns the names of the encoded features, in column order.
func (e *Encoder) Features() []string { return e.features }

// Encode returns the len(rows)×len(Features()) feature matrix of the given
// rows of t, which must have the columns the encoder was fitted on. It
// panics if they differ.
func (e *Encoder) Encode(t *Table, rows []int) *mat.Dense {
	if len(t.Cols) != len(e.cols) {
		panic("passive: Encode: table has a different number of columns")
	}
	d := len(e.features)
	data := make([]float64, len(rows)*d)
	for r, i := range rows {
		x := data[r*d : (r+1)*d]
		for j, ce := range e.cols {
			c := &t.Cols[j]
			if c.Kind != ce.kind {
				panic("passive: Encode: column " + c.Name + " changed kind")
			}
			switch ce.kind {
			case Numeric:
				if v := c.Num[i]; !math.IsNaN(v) {
					x[ce.off] = (v/ce.scale - ce.mean) * ce.inv
				}
			case Categorical:
				if k, ok := ce.levels[c.Cat[i]]; ok {
					x[ce.off+k] = 1
				}
			}
		}
	}
	if len(rows) == 0 {
		return &mat.Dense{}
	}
	return mat.NewDense(len(rows), d, data)
}
