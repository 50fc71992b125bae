package passive

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/datasets"
)

// readLabelsFile returns NAME.labels, the label vector package datasets
// embeds beside NAME.csv, made by an independent parse of the same file
// (see its SOURCES.md).
func readLabelsFile(t *testing.T, name string) []int {
	t.Helper()
	y, err := datasets.Labels(name)
	if err != nil {
		t.Fatal(err)
	}
	return y
}

// tempCopy writes the embedded file name to a temporary directory and
// returns its path, to exercise the generic-CSV path of LoadDataset.
func tempCopy(t *testing.T, name string) string {
	t.Helper()
	b, err := datasets.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadAdultRealFiles(t *testing.T) {
	d, err := LoadDataset("", "adult")
	if err != nil {
		t.Fatal(err)
	}
	// Counts from SOURCES.md.
	for _, tt := range []struct {
		tab       *Table
		labels    string
		rows, pos int
	}{
		{d.Train, "adult_train", 32561, 7841},
		{d.Test, "adult_test", 16281, 3846},
	} {
		if got := tt.tab.Rows(); got != tt.rows {
			t.Errorf("%v: got %v, want %v", tt.labels, got, tt.rows)
		}
		pos := 0
		for _, y := range tt.tab.Labels {
			pos += y
		}
		if pos != tt.pos {
			t.Errorf("%v: got %v, want %v", tt.labels, pos, tt.pos)
		}
		if want := readLabelsFile(t, tt.labels); !slices.Equal(tt.tab.Labels, want) {
			t.Errorf("%v: got %v, want %v", tt.labels, tt.tab.Labels, want)
		}
		if len(tt.tab.Cols) != 14 {
			t.Fatalf("len %d, want %d", len(tt.tab.Cols), 14)
		}
		for _, c := range tt.tab.Cols {
			if c.Kind == Numeric {
				if len(c.Num) != tt.rows {
					t.Errorf("%v: len %d, want %d", c.Name, len(c.Num), tt.rows)
				}
			} else {
				if len(c.Cat) != tt.rows {
					t.Errorf("%v: len %d, want %d", c.Name, len(c.Cat), tt.rows)
				}
			}
		}
	}
	// 1,836 training rows have a missing workclass (awk on the raw file).
	missing := 0
	for _, s := range d.Train.Cols[1].Cat {
		if s == Missing {
			missing++
		}
	}
	if missing != 1836 {
		t.Errorf("missing = %v, want %v", missing, 1836)
	}
	if want := [2]string{"<=50K", ">50K"}; d.Train.Classes != want {
		t.Errorf("d.Train.Classes = %v, want %v", d.Train.Classes, want)
	}
}

func TestReadCSVRealFiles(t *testing.T) {
	for _, tt := range []struct {
		name       string
		cols       int
		categories int // categorical columns
		classes    [2]string
	}{
		{"wdbc", 30, 0, [2]string{"malignant", "benign"}}, // sklearn metadata line
		{"haberman", 3, 0, [2]string{"1", "2"}},           // labels 1/2, no header
		{"banknote", 4, 0, [2]string{"0", "1"}},           // no trailing newline
		{"titanic", 3, 3, [2]string{"No", "Yes"}},         // quoted header, all categorical
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := LoadDataset("", tt.name) // built-in
			if err != nil {
				t.Fatal(err)
			}
			if d.Name != tt.name {
				t.Errorf("d.Name = %v, want %v", d.Name, tt.name)
			}
			if d.Test != nil {
				t.Errorf("%v, want nil", d.Test)
			}
			f, err := LoadDataset("", tempCopy(t, tt.name+".csv")) // the same bytes as a user's file
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.name + ".csv"; f.Name != want {
				t.Errorf("f.Name = %v, want %v", f.Name, want)
			}
			if !slices.Equal(f.Train.Labels, d.Train.Labels) {
				t.Errorf("f.Train.Labels = %v, want %v", f.Train.Labels, d.Train.Labels)
			}
			tab := d.Train
			if want := readLabelsFile(t, tt.name); !slices.Equal(tab.Labels, want) {
				t.Errorf("tab.Labels = %v, want %v", tab.Labels, want)
			}
			if len(tab.Cols) != tt.cols {
				t.Errorf("len %d, want %d", len(tab.Cols), tt.cols)
			}
			cat := 0
			for _, c := range tab.Cols {
				if c.Kind == Categorical {
					cat++
				}
			}
			if cat != tt.categories {
				t.Errorf("cat = %v, want %v", cat, tt.categories)
			}
			if tab.Classes != tt.classes {
				t.Errorf("tab.Classes = %v, want %v", tab.Classes, tt.classes)
			}
		})
	}
	d, err := LoadDataset("", "titanic.csv") // a path, and not in the test's directory
	if err == nil || !strings.Contains(err.Error(), "data file titanic.csv not found (built-in names: adult, wdbc") {
		t.Errorf("error %v, want one containing %q", err, "data file titanic.csv not found (built-in names: adult, wdbc")
	}
	if d != nil {
		t.Errorf("%v, want nil", d)
	}
	_, err = LoadDataset("", tempCopy(t, "iris.csv"))
	if err == nil || !strings.Contains(err.Error(), "3 distinct values (0, 1, 2)") {
		t.Errorf("error %v, want one containing %q", err, "3 distinct values (0, 1, 2)")
	}
	// dir overrides the embedded files.
	_, err = LoadDataset(t.TempDir(), "adult")
	if err == nil || !strings.Contains(err.Error(), "data file adult_train.csv not found in /") {
		t.Errorf("error %v, want one containing %q", err, "data file adult_train.csv not found in /")
	}
	dir := filepath.Dir(tempCopy(t, "wdbc.csv"))
	d, err = LoadDataset(dir, "wdbc")
	if err != nil {
		t.Fatal(err)
	}
	if want := readLabelsFile(t, "wdbc"); !slices.Equal(d.Train.Labels, want) {
		t.Errorf("d.Train.Labels = %v, want %v", d.Train.Labels, want)
	}
}

func TestReadAdultErrors(t *testing.T) {
	good := "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n"
	for _, tt := range []struct {
		name, in, want string
	}{
		{"short row", good + "39, State-gov\n", "adult.data"},
		{"bad number", good + strings.Replace(good, "77516", "7x", 1), "adult.data:2: column fnlwgt"},
		{"infinite number", strings.Replace(good, "77516", "Inf", 1), "not a finite number"},
		{"bad label", strings.Replace(good, "<=50K", "maybe", 1), "adult.data:1: label"},
		{"empty", "", "no rows"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadAdult(strings.NewReader(tt.in), "adult.data")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	tab, err := ReadAdult(strings.NewReader(good+strings.Replace(strings.Replace(good, "State-gov", "?", 1), "<=50K", ">50K.", 1)+"\n"), "adult.test")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1}; !slices.Equal(tab.Labels, want) {
		t.Errorf("tab.Labels = %v, want %v", tab.Labels, want)
	}
	if got, want := tab.Cols[1].Cat, []string{"State-gov", Missing}; !slices.Equal(got, want) {
		t.Errorf("tab.Cols[1].Cat = %v, want %v", got, want)
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"ragged", "1,2,0\n3,1\n", "f.csv:2: 2 fields, but line 1 has 3"},
		{"one class", "1,0\n2,0\n", "1 distinct values"},
		{"three classes", "1,0\n2,1\n3,2\n", "3 distinct values"},
		{"missing label", "1,0\n2,?\n", "f.csv:2: missing label"},
		{"one row", "1,0\n", "fewer than two rows"},
		{"no features", "0\n1\n", "need at least one feature"},
		{"bad metadata", "9,9,a,b\n1,2,0\n3,4,1\n", "f.csv:2: 3 fields, but line 1 has 4"},
		{"quote", "1,\"2,0\n", "f.csv"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(tt.in), "f.csv")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestReadCSVHeaderAndKinds(t *testing.T) {
	// A header, a numeric column with a missing value, a categorical one,
	// string labels ordered alphabetically.
	tab, err := ReadCSV(strings.NewReader("size,color,class\n1.5,red,yes\nNA,blue,no\n3,red,yes\n"), "f.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Cols) != 2 {
		t.Fatalf("len %d, want %d", len(tab.Cols), 2)
	}
	if got := tab.Cols[0].Name; got != "size" {
		t.Errorf("tab.Cols[0].Name = %v, want %v", got, "size")
	}
	if got := tab.Cols[0].Kind; got != Numeric {
		t.Errorf("tab.Cols[0].Kind = %v, want %v", got, Numeric)
	}
	if !math.IsNaN(tab.Cols[0].Num[1]) {
		t.Error("math.IsNaN(tab.Cols[0].Num[1]) is false")
	}
	if got := tab.Cols[1].Kind; got != Categorical {
		t.Errorf("tab.Cols[1].Kind = %v, want %v", got, Categorical)
	}
	if want := []int{1, 0, 1}; !slices.Equal(tab.Labels, want) {
		t.Errorf("tab.Labels = %v, want %v", tab.Labels, want)
	}
	if want := [2]string{"no", "yes"}; tab.Classes != want {
		t.Errorf("tab.Classes = %v, want %v", tab.Classes, want)
	}
	// Numeric labels order numerically: 10 > 9.
	tab, err = ReadCSV(strings.NewReader("1,10\n2,9\n"), "f.csv")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 0}; !slices.Equal(tab.Labels, want) {
		t.Errorf("tab.Labels = %v, want %v", tab.Labels, want)
	}
	// A first row whose value recurs in its column is data, not a header.
	tab, err = ReadCSV(strings.NewReader("a,0\na,1\nb,1\n"), "f.csv")
	if err != nil {
		t.Fatal(err)
	}
	if got := tab.Rows(); got != 3 {
		t.Errorf("tab.Rows() = %v, want %v", got, 3)
	}
}

func TestEncoder(t *testing.T) {
	tab, err := ReadCSV(strings.NewReader("x,c,y\n1,a,0\n2,b,1\n3,a,0\n?,d,1\n100,z,0\n"), "f.csv")
	if err != nil {
		t.Fatal(err)
	}
	fit := []int{0, 1, 2, 3}
	e := NewEncoder(tab, fit)
	if got, want := e.Features(), []string{"x", "c=a", "c=b", "c=d"}; !slices.Equal(got, want) {
		t.Errorf("e.Features() = %v, want %v", got, want)
	}
	x := e.Encode(tab, []int{0, 1, 2, 3, 4})
	// x: mean 2, population sd √(2/3) over the three present values.
	sd := math.Sqrt(2.0 / 3)
	want := [][]float64{
		{-1 / sd, 1, 0, 0},
		{0, 0, 1, 0},
		{1 / sd, 1, 0, 0},
		{0, 0, 0, 1},       // missing x → the mean → 0
		{98 / sd, 0, 0, 0}, // level z never seen in the fitting rows
	}
	for i, row := range want {
		for j, v := range row {
			if dev := math.Abs(v - x.At(i, j)); !(dev <= 1e-12) {
				t.Errorf("x[%d][%d]: got %v, want %v within %v", i, j, x.At(i, j), v, 1e-12)
			}
		}
	}
}

func FuzzReadCSV(f *testing.F) {
	f.Add("1,2,0\n3,4,1\n")
	f.Add("a,b,y\nx,1,no\nz,2,yes\n")
	f.Add("2,1,m,b\n1.5,0\n2,1\n")
	f.Fuzz(func(t *testing.T, in string) {
		tab, err := ReadCSV(strings.NewReader(in), "f.csv")
		if err != nil {
			return
		}
		n := tab.Rows()
		for _, y := range tab.Labels {
			if y != 0 && y != 1 {
				t.Fatalf("label %d", y)
			}
		}
		for _, c := range tab.Cols {
			if len(c.Num)+len(c.Cat) != n {
				t.Fatalf("column %s has %d values for %d rows", c.Name, len(c.Num)+len(c.Cat), n)
			}
		}
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		x := NewEncoder(tab, rows).Encode(tab, rows)
		r, _ := x.Dims()
		if r != n {
			t.Fatalf("encoded %d rows of %d", r, n)
		}
		for i := range r {
			for _, v := range x.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("non-finite feature %v", v)
				}
			}
		}
	})
}

func FuzzReadAdult(f *testing.F) {
	f.Add("39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n")
	f.Fuzz(func(t *testing.T, in string) {
		tab, err := ReadAdult(strings.NewReader(in), "adult.data")
		if err != nil {
			return
		}
		if len(tab.Cols) != 14 || tab.Rows() == 0 {
			t.Fatalf("%d columns, %d rows", len(tab.Cols), tab.Rows())
		}
	})
}
